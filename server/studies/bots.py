"""Simulated raters that use the real rater API over HTTP, with known behaviour.

They let tests (and researchers trying a study out) check that the aggregation recovers
what was planted:

- ``careful``: reads the item, follows any instruction an attention check gives, otherwise
  answers with ``oracle(item)`` (the planted truth), wrong with probability ``error``
  except on items ``obvious(item)`` marks as impossible to misjudge (blatant nonsense);
- ``always:VALUE``: always gives the same answer (e.g. ``always:human``), checks or not;
- ``random``: a uniformly random option;
- ``inattentive``: always the first option, whatever the item says (fails checks);
- ``fast``: careful, but answers at once (too fast to count).

Every bot except ``fast`` waits ``think`` seconds before answering.
"""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx

Oracle = Callable[[dict[str, Any]], str]
_QUOTED = re.compile(r"[“\"']([^”\"']+)[”\"']")


def instructed_answer(item: dict[str, Any], options: list[dict[str, Any]]) -> str | None:
    """The option an item's own text tells the reader to pick ("please choose “Not sure”")."""
    texts: list[str] = [str(item.get(k) or "") for k in ("explanation", "question", "context")]
    texts += [r.get("answer", "") for r in item.get("rounds") or []][-1:]
    texts += [str(x) for x in item.get("reactions") or []]
    labels = {o["label"].lower(): o["value"] for o in options}
    for text in texts:
        if not re.search(r"\b(choose|answer|pick)\b", text, re.IGNORECASE):
            continue
        for quoted in _QUOTED.findall(text):
            for label, value in labels.items():
                if quoted.lower() == label or quoted.lower() in label:
                    return value
    return None


@dataclass
class RaterBot:
    base_url: str
    study_id: str
    worker: str
    behaviour: str = "careful"
    oracle: Oracle | None = None
    error: float = 0.0
    obvious: Callable[[dict[str, Any]], bool] | None = None
    think: float = 0.0
    seed: int = 0
    session: dict[str, Any] = field(default_factory=dict)  # extra session fields (an MTurk assignment)
    answers: list[dict[str, Any]] = field(default_factory=list)
    final: dict[str, Any] | None = None

    async def run(self, client: httpx.AsyncClient, max_items: int = 1000) -> dict[str, Any]:
        rng = random.Random(f"{self.seed}:{self.worker}")
        info = (await client.get(f"{self.base_url}/api/studies/{self.study_id}")).json()
        session = await client.post(
            f"{self.base_url}/api/sessions",
            json={"worker": self.worker, "consent": True, "provider": "local", **self.session},
        )
        session.raise_for_status()
        headers = {"Authorization": f"Bearer {session.json()['token']}"}
        for _ in range(max_items):
            reply = await client.post(f"{self.base_url}/api/studies/{self.study_id}/next", headers=headers)
            reply.raise_for_status()
            data = reply.json()
            if data["state"] != "item":
                self.final = data
                return data
            item = data["item"]
            options = item.get("options") or info["options"]
            answer = self.decide(item, options, rng)
            if self.think and self.behaviour != "fast":
                await asyncio.sleep(self.think)
            posted = await client.post(
                f"{self.base_url}/api/studies/{self.study_id}/judgments",
                json={"item_id": item["id"], "answer": answer},
                headers=headers,
            )
            posted.raise_for_status()
            self.answers.append({"item": item["id"], "answer": answer})
        raise RuntimeError(f"bot {self.worker} did not finish in {max_items} items")

    def decide(self, item: dict[str, Any], options: list[dict[str, Any]], rng: random.Random) -> str:
        values = [o["value"] for o in options]
        b = self.behaviour
        if b.startswith("always:"):
            return b.split(":", 1)[1]
        if b in ("inattentive",):
            return values[0]
        if b == "random":
            return rng.choice(values)
        told = instructed_answer(item, options)
        if told is not None:
            return told
        truth = self.oracle(item) if self.oracle else values[0]
        slip = self.error and not (self.obvious and self.obvious(item))
        if slip and rng.random() < self.error:
            return rng.choice([v for v in values if v != truth] or values)
        return truth


async def run_bots(bots: list[RaterBot], timeout: float = 300.0) -> list[dict[str, Any]]:
    """Run bots concurrently (one HTTP client) and return each one's final reply."""
    async with httpx.AsyncClient(timeout=30) as client:
        async with asyncio.timeout(timeout):  # not wait_for: it can lose a cancellation on 3.11
            return await asyncio.gather(*(b.run(client) for b in bots))
