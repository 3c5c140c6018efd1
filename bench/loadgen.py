"""A light asyncio load generator that speaks the worker protocol (or the bare relay's).

Lighter than ``server.bots``: one small state machine per worker, no per-message pydantic,
send times written into the message text itself (``<who> #<n> @<monotonic> ...``) so any
process can compute a relay latency and the parent can check every message end to end.

A "pair" exchanges strictly alternating messages: the questioner asks, the answerer
replies ``think`` seconds (x U(0.5, 1.5)) after the question arrives, and so on; with
``think=0`` each side replies the moment the partner's message arrives (saturation).
On our server each dialog lasts ``AVD_ROUNDS`` rounds; then both fill the forms and, if
the run is still going, join the lobby again for the next dialog (back to back).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import gc
import json
import random
import time
from dataclasses import asdict, dataclass, field
from typing import Any

import httpx
import websockets

from server.stalls import StallWatch

# Chat texts that break no live rule: 50 distinct questions (ten things x five kinds of
# question), so that a 50-round dialog never repeats one, and plain descriptive answers. A bench
# whose every message drew a rule warning would measure warnings, not the chat.
THINGS = ("boat", "tree", "house", "bridge", "horse", "tower", "cart", "fence", "river", "cloud")
ASKS = (
    "What colour is the {}?",
    "How big is the {} compared with the rest?",
    "Where exactly is the {} in the scene?",
    "What is the {} made of, as far as you can tell?",
    "Is the {} close to the front or far away?",
)
QUESTIONS = [ask.format(thing) for ask in ASKS for thing in THINGS]
ANSWERS = [
    f"The {thing} is painted in {shade} tones and sits {where}."
    for thing, shade, where in zip(
        THINGS,
        ("grey", "brown", "green", "ochre", "dark", "pale", "blue", "white", "red", "yellow") * 5,
        ("near the left edge", "in the middle", "at the back", "on the right", "under the sky") * 10,
        strict=False,
    )
] * 5


def chat_text(role: str | None, n: int) -> str:
    """The ``n``-th text a bot sends in its role."""
    texts = ANSWERS if role == "answerer" else QUESTIONS
    return texts[n % len(texts)]


EXPLANATION = (
    "The calm colours and the single warm shape described to me feel quiet and restful, "
    "so I would say it leaves me content."
)


@dataclass
class LoadConfig:
    url: str
    mode: str  # "avd" or "baseline"
    pairs: int  # pairs driven by this process
    think: float  # seconds between receiving the partner's message and replying; 0 = saturation
    prefix: str
    pair_offset: int = 0  # baseline pair ids of this process start here
    setup_timeout: float = 180.0
    connect_concurrency: int = 50
    back_to_back: bool = True


@dataclass
class LoadResult:
    """Everything one generator process saw; the parent merges several."""

    bots: int = 0
    in_dialog: int = 0
    setup_seconds: float = 0.0
    relay_ms: list[float] = field(default_factory=list)  # messages sent inside the window
    relay_at: list[float] = field(default_factory=list)  # their send times, seconds after t0
    ack_ms: list[float] = field(default_factory=list)
    pair_ms: list[float] = field(default_factory=list)
    sent_in_window: int = 0
    delivered_in_window: int = 0
    sent_total: int = 0
    acks: int = 0
    ack_duplicates: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    dialogs_started: int = 0
    dialogs_done: int = 0
    ended_early: int = 0
    cpu_seconds_window: float = 0.0
    # this process's own stalls (server/stalls.py), [kind, monotonic at, ms, CPU ms, generation]:
    # a generator that stalls delays the receipts it times as much as a server that does
    stalls: list[list[Any]] = field(default_factory=list)
    sent_log: dict[str, list[str]] = field(default_factory=dict)  # "dialog|role" -> texts in order
    recv_log: dict[str, list[str]] = field(default_factory=dict)  # "dialog|sender role" -> texts


class Run:
    """The clock and the tallies shared by all bots of one process."""

    def __init__(self, cfg: LoadConfig) -> None:
        self.cfg = cfg
        self.go = asyncio.Event()
        self.sending = False
        self.t0 = float("inf")
        self.t1 = float("inf")
        self.result = LoadResult()
        self.sent_log: dict[str, list[str]] = collections.defaultdict(list)
        self.recv_log: dict[str, list[str]] = collections.defaultdict(list)
        self.all_in_dialog = asyncio.Event()
        self.bots: list[Bot] = []

    def in_window(self, t: float) -> bool:
        return self.t0 <= t <= self.t1

    def count_in_dialog(self) -> None:
        self.result.in_dialog += 1
        if self.result.in_dialog >= len(self.bots):
            self.all_in_dialog.set()

    def error(self, code: str) -> None:
        self.result.errors[code] = self.result.errors.get(code, 0) + 1


class Bot:
    def __init__(self, run: Run, name: str, pair: str | None = None, role: str | None = None) -> None:
        self.run = run
        self.name = name
        self.pair = pair  # baseline: fixed pair id and role
        self.role: str | None = role
        self.dialog: str | None = pair
        self.rounds = 10**9 if pair else 10
        self.turn: str | None = "questioner" if pair else None
        self.n = 0
        self.pending: dict[str, float] = {}
        self.texts: dict[str, tuple[str, str]] = {}  # client id -> (log key, text) until acked
        self.forms: set[tuple[str, str]] = set()
        self.joined_at: float | None = None
        self.ws: Any = None
        self.token = ""
        self.tasks: set[asyncio.Task] = set()

    # ------------------------------------------------------------ plumbing

    def _spawn(self, coro) -> None:
        task = asyncio.create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def send(self, frame: dict) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            await self.ws.send(json.dumps(frame))

    async def connect(self, url: str, sem: asyncio.Semaphore) -> None:
        ws_url = url.replace("http://", "ws://").rstrip("/") + "/ws"
        if self.pair:
            ws_url += f"?pair={self.pair}&role={self.role}"
        async with sem:
            self.ws = await websockets.connect(ws_url, max_size=2**20, open_timeout=120, ping_interval=None)
            if not self.pair:
                await self.send({"type": "hello", "v": 1, "token": self.token, "tab": self.name})
                self.joined_at = time.monotonic()
                await self.send({"type": "join_lobby"})
        self._spawn(self.read())

    async def read(self) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            async for raw in self.ws:
                self.on(json.loads(raw))

    # ------------------------------------------------------------ frames

    def on(self, f: dict) -> None:
        kind = f["type"]
        res = self.run.result
        if kind == "message":
            self.on_message(f)
        elif kind == "ack":
            started = self.pending.pop(f["client_id"], None)
            self.texts.pop(f["client_id"], None)
            if started is None:
                res.ack_duplicates += 1
                return
            res.acks += 1
            if self.run.in_window(started):
                res.ack_ms.append((time.monotonic() - started) * 1000)
        elif kind == "state":
            self.on_state(f["dialog"])
        elif kind == "matched":
            if self.joined_at is not None:
                res.pair_ms.append((time.monotonic() - self.joined_at) * 1000)
                self.joined_at = None
            self._spawn(self.send({"type": "ready", "match_id": f["match_id"]}))
        elif kind == "done":
            res.dialogs_done += 1
            if self.run.cfg.back_to_back and self.run.sending:
                self.joined_at = time.monotonic()
                self._spawn(self.send({"type": "join_lobby"}))
        elif kind == "ended":
            res.ended_early += 1
        elif kind == "error":
            self.run.error(f.get("code", "?"))
            cid = f.get("client_id")
            if cid and cid in self.texts:  # refused: it was never a sent message
                del self.pending[cid]
                key, text = self.texts.pop(cid)
                with contextlib.suppress(ValueError):
                    self.run.sent_log[key].remove(text)
        elif kind in ("lobby_timeout", "requeued"):
            self.run.error(kind)

    def on_state(self, view: dict) -> None:
        if view["dialog_id"] != self.dialog:
            self.dialog, self.role = view["dialog_id"], view["role"]
            self.rounds, self.turn = view["rounds"], view["turn"]
            self.run.result.dialogs_started += 1
            if not self.run.go.is_set():
                self.run.count_in_dialog()
            if self.role == "questioner" and self.turn == "questioner" and not view["history"]:
                self._spawn(self.reply(first=True))
        if view["turn"] is None and view["todo"]:
            phase = view["todo"][0]
            if (self.dialog, phase) not in self.forms:
                self.forms.add((self.dialog, phase))  # type: ignore[arg-type]
                self._spawn(
                    self.send(
                        {
                            "type": "form",
                            "client_id": f"{self.name}.f{len(self.forms)}",
                            "phase": phase,
                            "emotion": "contentment",
                            "explanation": EXPLANATION,
                        }
                    )
                )

    def on_message(self, f: dict) -> None:
        role = f["role"]
        if role == self.role:
            return  # our own message echoed back
        now = time.monotonic()
        text = f["text"]
        sent = float(text.split()[2][1:])
        res = self.run.result
        self.run.recv_log[f"{self.dialog}|{role}"].append(text)
        if self.run.in_window(sent):
            res.relay_ms.append((now - sent) * 1000)
            res.relay_at.append(round(sent - self.run.t0, 3))
        if self.run.in_window(now):
            res.delivered_in_window += 1
        if role == "questioner":
            self.turn = "answerer"
        elif f["round"] < self.rounds:
            self.turn = "questioner"
        else:
            self.turn = None
        if self.turn == self.role:
            self._spawn(self.reply())

    async def reply(self, first: bool = False) -> None:
        run = self.run
        if not run.go.is_set():
            await run.go.wait()
        think = run.cfg.think
        if think:
            await asyncio.sleep(think * (random.random() if first else 0.5 + random.random()))
        if not run.sending or self.turn != self.role:
            return
        self.turn = None  # until the partner's reply comes back
        self.n += 1
        now = time.monotonic()
        text = f"{self.name} #{self.n} @{now:.6f} {chat_text(self.role, self.n)}"
        cid = f"{self.name}.{self.n}"
        key = f"{self.dialog}|{self.role}"
        self.pending[cid] = now
        self.texts[cid] = (key, text)
        run.sent_log[key].append(text)
        run.result.sent_total += 1
        if run.in_window(now):
            run.result.sent_in_window += 1
        await self.send({"type": "message", "client_id": cid, "text": text})


async def _sessions(run: Run, bots: list[Bot]) -> None:
    sem = asyncio.Semaphore(16)
    async with httpx.AsyncClient(base_url=run.cfg.url, timeout=120) as http:

        async def one(bot: Bot) -> None:
            async with sem:
                reply = await http.post("/api/sessions", json={"worker": bot.name, "consent": True})
                reply.raise_for_status()
                bot.token = reply.json()["token"]

        await asyncio.gather(*(one(b) for b in bots))


async def generate(cfg: LoadConfig, wait_go) -> LoadResult:
    """Set up all pairs, report ready, then run the window ``wait_go`` returns.

    ``wait_go()`` is awaited once everyone is in a dialog and returns (go_at, t0, t1) in
    ``time.monotonic()`` seconds: sending starts at go_at, figures count inside [t0, t1],
    sending stops at t1, and in-flight messages are drained before returning.
    """
    run = Run(cfg)
    started = time.monotonic()
    watch = StallWatch(lag_min=0.05, gc_min=0.02)
    watch.start()
    if cfg.mode == "baseline":
        for i in range(cfg.pairs):
            pid = f"p{cfg.pair_offset + i}"
            run.bots += [Bot(run, f"{pid}q", pid, "questioner"), Bot(run, f"{pid}a", pid, "answerer")]
    else:
        run.bots = [Bot(run, f"{cfg.prefix}-{i}") for i in range(2 * cfg.pairs)]
        await _sessions(run, run.bots)
    run.result.bots = len(run.bots)
    sem = asyncio.Semaphore(cfg.connect_concurrency)
    await asyncio.gather(*(b.connect(cfg.url, sem) for b in run.bots))
    if cfg.mode == "baseline":  # fixed pairs: "in a dialog" as soon as connected
        run.all_in_dialog.set()
        run.result.in_dialog = len(run.bots)
        for b in run.bots[::2]:
            b._spawn(b.reply(first=True))
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(cfg.setup_timeout):  # not wait_for: it can lose a cancellation on 3.11
            await run.all_in_dialog.wait()
    run.result.setup_seconds = round(time.monotonic() - started, 1)
    # this process times every receipt: keep its collector's full passes (60-70 ms of CPU over the
    # bots' sockets and tasks, seen during set-up) out of the window, as the server does
    gc.collect()
    gc.freeze()
    go_at, run.t0, run.t1 = await wait_go()
    await asyncio.sleep(max(0.0, go_at - time.monotonic()))
    run.sending = True
    run.go.set()
    await asyncio.sleep(max(0.0, run.t0 - time.monotonic()))
    cpu0 = time.process_time()
    await asyncio.sleep(max(0.0, run.t1 - time.monotonic()))
    run.result.cpu_seconds_window = time.process_time() - cpu0
    run.sending = False
    # drain: every ack back, then until deliveries stop arriving (the partner's copy may be
    # in another generator process, so "all received" cannot be checked here)
    drain_until = time.monotonic() + 90
    while time.monotonic() < drain_until and any(b.pending for b in run.bots):
        await asyncio.sleep(0.1)
    received = -1
    while time.monotonic() < drain_until and received != sum(map(len, run.recv_log.values())):
        received = sum(map(len, run.recv_log.values()))
        await asyncio.sleep(1.0)
    await asyncio.gather(*(b.ws.close() for b in run.bots if b.ws), return_exceptions=True)
    for b in run.bots:
        for t in list(b.tasks):
            t.cancel()
    await watch.stop()
    run.result.stalls = [[x.kind, x.at, round(x.ms, 1), round(x.cpu_ms, 1), x.gen] for x in watch.stalls]
    run.result.sent_log = dict(run.sent_log)
    run.result.recv_log = dict(run.recv_log)
    return run.result


def child_main(cfg_dict: dict, conn) -> None:
    """Entry point of one generator process (multiprocessing, spawn): talks to the parent over a pipe."""

    async def main() -> None:
        loop = asyncio.get_running_loop()

        async def wait_go():
            conn.send(("ready", None))
            return await loop.run_in_executor(None, conn.recv)

        result = await generate(LoadConfig(**cfg_dict), wait_go)
        conn.send(("result", asdict(result)))

    try:
        import uvloop

        uvloop.run(main())
    except ImportError:
        asyncio.run(main())


def merge(results: list[dict]) -> dict:
    """Sum several processes' results and check every message end to end."""
    out: dict[str, Any] = {
        "relay_ms": [],
        "relay_at": [],
        "ack_ms": [],
        "pair_ms": [],
        "errors": {},
        "stalls": [],
    }
    sent: dict[str, list[str]] = collections.defaultdict(list)
    recv: dict[str, list[str]] = collections.defaultdict(list)
    for r in results:
        for key in ("relay_ms", "relay_at", "ack_ms", "pair_ms"):
            out[key] += r[key]
        for key in (
            "bots",
            "in_dialog",
            "sent_in_window",
            "delivered_in_window",
            "sent_total",
            "acks",
            "ack_duplicates",
            "dialogs_started",
            "dialogs_done",
            "ended_early",
        ):
            out[key] = out.get(key, 0) + r[key]
        out["cpu_seconds_window"] = out.get("cpu_seconds_window", 0.0) + r["cpu_seconds_window"]
        out["setup_seconds"] = max(out.get("setup_seconds", 0.0), r["setup_seconds"])
        out["stalls"] += r["stalls"]
        for code, n in r["errors"].items():
            out["errors"][code] = out["errors"].get(code, 0) + n
        for k, v in r["sent_log"].items():
            sent[k] += v
        for k, v in r["recv_log"].items():
            recv[k] += v
    out["check"] = check_delivery(sent, recv)
    return out


def check_delivery(sent: dict[str, list[str]], recv: dict[str, list[str]]) -> dict[str, int]:
    """Every sent message received exactly once by the partner, in the order it was sent."""
    lost = duplicated = unexpected = out_of_order = 0
    for key in set(sent) | set(recv):
        s, r = sent.get(key, []), recv.get(key, [])
        counts = collections.Counter(r)
        duplicated += sum(n - 1 for n in counts.values() if n > 1)
        sent_set = set(s)
        unexpected += sum(1 for t in counts if t not in sent_set)
        lost += sum(1 for t in s if t not in counts)
        firsts = list(dict.fromkeys(t for t in r if t in sent_set))
        expected = [t for t in s if t in counts]
        if firsts != expected:
            out_of_order += 1
    return {
        "messages_sent": sum(len(v) for v in sent.values()),
        "messages_received": sum(len(v) for v in recv.values()),
        "lost": lost,
        "duplicated": duplicated,
        "unexpected": unexpected,
        "dialogs_out_of_order": out_of_order,
    }
