"""Bot workers that speak the real websocket protocol, exactly as the worker page does.

Used by ``avd simulate``, the tests and the benchmarks. Each bot opens a session over
HTTP, joins the lobby, and plays whatever role the server gives it, with a behaviour:

- ``good``: answers promptly and completes everything;
- ``slow``: waits ``think`` seconds before each step;
- ``timeout``: stops replying at round ``at_round`` (the server's deadline ends it);
- ``disconnect``: drops its socket at round ``at_round`` and comes back after ``away``
  seconds (optionally to another server URL), then completes;
- ``abandon``: sends ``leave`` at round ``at_round``.

Whatever the behaviour, a bot whose server goes away (crash, restart) reconnects like a
browser would, to ``reconnect_url`` when given, and resends what was never acknowledged.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import random
import time
import uuid
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

import httpx
import websockets

Behaviour = Literal["good", "slow", "timeout", "disconnect", "abandon"]
BEHAVIOURS: tuple[str, ...] = ("good", "slow", "timeout", "disconnect", "abandon")
# Errors after which reconnecting cannot help.
FATAL_ERRORS = frozenset({"second_tab", "not_allowed", "bad_token", "expired_token", "bad_version"})
RETRY_SECONDS = 0.2

QUESTIONS = [
    "What colours dominate the painting?",
    "Are there any people in the scene, and what are they doing?",
    "What does the sky look like?",
    "Is the setting indoors or outdoors?",
    "How are the brush strokes, smooth or rough?",
    "Is there any water or a landscape in the background?",
    "What is the lighting like in the picture?",
    "Are there animals anywhere in the image?",
    "What shapes stand out the most?",
    "Which object is in the centre of the composition?",
]
ANSWERS = [
    "Mostly deep blues with a few warm orange patches near the bottom.",
    "Two figures stand near a doorway, one of them holding a small basket.",
    "The sky is pale grey with thick clouds gathering on the left side.",
    "It is outdoors, a narrow street lined with old stone houses.",
    "The strokes are short and thick, so the surface looks quite textured.",
    "Yes, a calm lake stretches behind the trees toward low hills.",
    "Soft evening light comes from the right and casts long shadows.",
    "A single dog lies in the shade next to a wooden bench.",
    "Round shapes repeat across the canvas, like circles of different sizes.",
    "A tall vase with flowers sits in the middle on a white table.",
]
EXPLANATION = (
    "From what my partner described, the calm colours and the quiet scene with soft light "
    "make me feel peaceful and content about this artwork."
)


@dataclass
class BotConfig:
    behaviour: Behaviour = "good"
    think: float = 0.0
    at_round: int = 3
    away: float = 1.0
    reconnect_url: str | None = None


@dataclass
class BotResult:
    worker: str
    behaviour: str
    role: str | None = None
    dialog_id: str | None = None
    outcome: str = "unfinished"
    completion_code: str | None = None
    errors: list[dict[str, Any]] = field(default_factory=list)
    ack_ms: list[float] = field(default_factory=list)
    relay_ms: list[float] = field(default_factory=list)
    pair_ms: float | None = None
    received_seqs: list[int] = field(default_factory=list)
    history_len: int = 0
    history_seqs: list[int] = field(default_factory=list)  # seqs in the latest state's history
    resumed_history: list[int] = field(default_factory=list)  # history length after each reconnect
    reconnects: int = 0
    acked: list[str] = field(default_factory=list)  # client ids the server acknowledged


class Bot:
    """One simulated worker driving one websocket connection (or two, when reconnecting)."""

    _counter = itertools.count()

    def __init__(self, base_url: str, name: str, config: BotConfig, sent_at: dict[str, float]) -> None:
        self.base_url = base_url.rstrip("/")
        self.name = name
        self.config = config
        self.sent_at = sent_at  # text -> send time, shared by bots in one process
        self.result = BotResult(worker=name, behaviour=config.behaviour)
        self.tab = uuid.uuid4().hex
        self.role: str | None = None
        self.rounds = 10
        self.round = 1
        self.turn: str | None = None
        self.todo: list[str] = []
        self.acted: set[tuple] = set()
        self.pending: dict[str, float] = {}
        self.unacked: dict[str, dict] = {}  # client id -> frame, resent after a reconnect
        self.resuming = False
        self.stop = False
        self.joined_at = 0.0

    async def run(self, timeout: float = 600) -> BotResult:
        async with httpx.AsyncClient(base_url=self.base_url, timeout=30) as http:
            reply = await http.post("/api/sessions", json={"worker": self.name, "consent": True})
            reply.raise_for_status()
            self.token = reply.json()["token"]
        url = self.base_url
        try:  # not wait_for, which can lose a cancellation on 3.11 (server/ws.py _hello)
            async with asyncio.timeout(timeout):
                await self._session(url, join=True)
        except TimeoutError:
            self.result.outcome = "bot_timeout"
        return self.result

    def _ws_url(self, base: str) -> str:
        return base.replace("http://", "ws://").replace("https://", "wss://").rstrip("/") + "/ws"

    async def _session(self, base: str, join: bool) -> None:
        while not self.stop:
            try:
                chose_to_leave = await self._connection(base, join)
            except (OSError, websockets.WebSocketException):
                chose_to_leave = False  # the server went away, or is not up (yet)
            if self.stop:
                return
            join = False
            self.resuming = True
            self.result.reconnects += 1
            # the disconnect behaviour stays away a while; a lost server is retried soon
            await asyncio.sleep(self.config.away if chose_to_leave else RETRY_SECONDS)
            base = self.config.reconnect_url or base

    async def _connection(self, base: str, join: bool) -> bool:
        """One socket; True when the bot dropped it on purpose (the disconnect behaviour)."""
        async with websockets.connect(self._ws_url(base), max_size=2**20) as ws:
            await ws.send(json.dumps({"type": "hello", "v": 1, "token": self.token, "tab": self.tab}))
            if join:
                self.joined_at = time.perf_counter()
                await ws.send(json.dumps({"type": "join_lobby"}))
            for frame in list(self.unacked.values()):  # the server dedupes by client id
                await ws.send(json.dumps(frame))
            async for raw in ws:
                if await self._on(ws, json.loads(raw)):
                    return True
                if self.stop:
                    return False
        return False

    async def _send(self, ws, frame: dict) -> None:
        if "client_id" in frame:
            self.pending[frame["client_id"]] = time.perf_counter()
            self.unacked[frame["client_id"]] = frame
        await ws.send(json.dumps(frame))

    async def _on(self, ws, frame: dict) -> bool:
        kind = frame["type"]
        res = self.result
        if kind == "matched":
            if res.pair_ms is None:
                res.pair_ms = (time.perf_counter() - self.joined_at) * 1000
            await ws.send(json.dumps({"type": "ready", "match_id": frame["match_id"]}))
        elif kind == "state":
            view = frame["dialog"]
            self.role, res.role, res.dialog_id = view["role"], view["role"], view["dialog_id"]
            self.rounds, self.round, self.turn, self.todo = (
                view["rounds"],
                view["round"],
                view["turn"],
                view["todo"],
            )
            res.history_len = len(view["history"])
            res.history_seqs = [item["seq"] for item in view["history"]]
            if self.resuming:
                self.resuming = False
                res.resumed_history.append(len(view["history"]))
        elif kind == "message":
            now = time.perf_counter()
            if frame["role"] != self.role and frame["text"] in self.sent_at:
                res.relay_ms.append((now - self.sent_at.pop(frame["text"])) * 1000)
            if frame["seq"] not in res.received_seqs:
                res.received_seqs.append(frame["seq"])
            if frame["role"] == "questioner":
                self.turn = "answerer"
            elif frame["round"] < self.rounds:
                self.turn, self.round = "questioner", frame["round"] + 1
            else:
                self.turn = None
        elif kind == "ack":
            started = self.pending.pop(frame["client_id"], None)
            if self.unacked.pop(frame["client_id"], None) is not None:
                res.acked.append(frame["client_id"])
            if started is not None:
                res.ack_ms.append((time.perf_counter() - started) * 1000)
            return False
        elif kind == "error":
            res.errors.append(frame)
            if frame.get("code") in FATAL_ERRORS:
                res.outcome = frame["code"]
                self.stop = True
            return False
        elif kind == "ended":
            if frame["by_you"]:
                res.outcome = frame["reason"]
                self.stop = True
                return False
            res.outcome = "partner_left"
        elif kind == "done":
            res.completion_code = frame["completion_code"]
            res.outcome = "completed" if res.outcome == "unfinished" else "partner_left_paid"
            self.stop = True
            return False
        elif kind in ("lobby_timeout",):
            res.outcome = "lobby_timeout"
            self.stop = True
            return False
        return await self._act(ws)

    async def _act(self, ws) -> bool:
        """Take the next step if it is ours; True means: drop the socket now (reconnect)."""
        cfg = self.config
        if self.role is None:
            return False
        if cfg.behaviour in ("timeout", "abandon", "disconnect") and self.round >= cfg.at_round:
            if cfg.behaviour == "timeout" and self.turn == self.role:
                return False  # say nothing; the server's deadline will end the dialog
            if cfg.behaviour == "abandon" and ("abandon",) not in self.acted:
                self.acted.add(("abandon",))
                await ws.send(json.dumps({"type": "leave"}))
                self.result.outcome = "left"
                self.stop = True
                return False
            if cfg.behaviour == "disconnect" and ("disconnect",) not in self.acted:
                self.acted.add(("disconnect",))
                return True
        if self.turn == self.role and self.turn is not None:
            key = ("msg", self.round, self.turn)
            if key in self.acted:
                return False
            self.acted.add(key)
            if cfg.think:
                await asyncio.sleep(cfg.think * (0.5 + random.random()))
            pool = QUESTIONS if self.role == "questioner" else ANSWERS
            # a unique tail makes every text a key for relay timing; worded so no chat rule trips on it
            text = f"{pool[(self.round - 1) % len(pool)]} (reference {next(self._counter)}.)"
            self.sent_at[text] = time.perf_counter()
            await self._send(ws, {"type": "message", "client_id": uuid.uuid4().hex, "text": text})
        elif self.turn is None and self.todo:
            phase = self.todo[0]
            key = ("form", phase)
            if key in self.acted:
                return False
            self.acted.add(key)
            if cfg.think:
                await asyncio.sleep(cfg.think)
            emotion = random.choice(["contentment", "awe", "sadness", "fear", "amusement"])
            await self._send(
                ws,
                {
                    "type": "form",
                    "client_id": uuid.uuid4().hex,
                    "phase": phase,
                    "emotion": emotion,
                    "explanation": EXPLANATION,
                },
            )
        return False


def summarise(results: list[BotResult]) -> dict[str, Any]:
    """The JSON summary ``avd simulate`` prints."""

    def pct(values: list[float], q: float) -> float | None:
        if not values:
            return None
        values = sorted(values)
        return round(values[min(len(values) - 1, int(q * len(values)))], 2)

    relay = [x for r in results for x in r.relay_ms]
    ack = [x for r in results for x in r.ack_ms]
    pair = [r.pair_ms for r in results if r.pair_ms is not None]
    outcomes: dict[str, int] = {}
    for r in results:
        outcomes[r.outcome] = outcomes.get(r.outcome, 0) + 1
    dialogs = {r.dialog_id for r in results if r.dialog_id}
    return {
        "bots": len(results),
        "dialogs": len(dialogs),
        "completed": outcomes.get("completed", 0) // 2,
        "outcomes": outcomes,
        "errors": sum(len(r.errors) for r in results),
        "error_codes": sorted({e.get("code", "?") for r in results for e in r.errors}),
        "relay_ms": {"p50": pct(relay, 0.5), "p99": pct(relay, 0.99), "n": len(relay)},
        "ack_ms": {"p50": pct(ack, 0.5), "p99": pct(ack, 0.99), "n": len(ack)},
        "pairing_ms": {"p50": pct(pair, 0.5), "p99": pct(pair, 0.99), "n": len(pair)},
    }


async def simulate(
    url: str,
    pairs: int,
    behaviour: Behaviour = "good",
    think: float = 0.0,
    at_round: int = 3,
    prefix: str | None = None,
    timeout: float = 600,
    partner_url: str | None = None,
) -> tuple[dict[str, Any], list[BotResult]]:
    """Run ``pairs`` pairs: in each, one bot has ``behaviour`` and its partner is good."""
    prefix = prefix or f"bot{uuid.uuid4().hex[:6]}"
    sent: dict[str, float] = {}
    bots = []
    for i in range(pairs):
        bots.append(Bot(url, f"{prefix}-{i}-a", BotConfig(behaviour, think, at_round), sent))
        bots.append(Bot(partner_url or url, f"{prefix}-{i}-b", BotConfig("good", think), sent))
    results = await asyncio.gather(*(b.run(timeout) for b in bots))
    return summarise(list(results)), list(results)


def result_dict(result: BotResult) -> dict[str, Any]:
    return asdict(result)


with contextlib.suppress(Exception):  # keep asyncio debug noise off in CLI runs
    import logging

    logging.getLogger("websockets").setLevel(logging.WARNING)
