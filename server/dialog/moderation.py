"""Live chat rules applied before a message reaches the partner.

A hard violation bounces the message back to its author with the reason (nothing is
stored or relayed, the turn stays theirs) and counts against the worker; after
``max_hard_violations`` bounces in one dialog the worker is removed from it. Soft
violations are accepted, flagged on the stored turn, and the author gets a warning.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from server.db.models import WorkerEvent
from server.dialog.machine import Expel, clean_text
from server.dialog.runtime import DialogRuntime, Snapshot
from server.qc.flags import rules_config
from server.rules import check, prepare
from server.services import Services


@dataclass(frozen=True)
class Screening:
    action: str  # accept | warn | bounce
    rules: list[str]
    message: str
    flags: tuple[dict, ...]
    expel: bool = False  # the bounce that reached max_hard_violations


_ACCEPT = Screening(action="accept", rules=[], message="", flags=())  # what no rule at all says


class Moderator:
    def __init__(self, services: Services, runtime: DialogRuntime) -> None:
        self.s = services
        self.runtime = runtime
        self.config = rules_config(services.settings.rules)
        prepare(self.config)  # the rules' classifiers are trained now, not at the first message
        self._history: dict[str, list[dict[str, str]]] = {}  # the rules' view of each dialog's turns

    def _history_of(self, dialog_id: str, turns: list) -> list[dict[str, str]]:
        """The accepted messages as the rules read them ({role, text}). Turns only grow, so the
        list is extended by the new ones instead of rebuilt: a chat message costs the same in
        round 50 as in round 1."""
        history = self._history.get(dialog_id)
        if history is None or len(history) > len(turns):
            history = []
            if len(self._history) >= 10_000:
                self._history.pop(next(iter(self._history)))
        history.extend({"role": t.role, "text": t.text} for t in turns[len(history) :])
        self._history[dialog_id] = history
        return history

    async def judge(self, snap: Snapshot, role: str, client_id: str, text: str) -> Screening | None:
        """The rules' verdict on a message for the dialog in ``snap`` (read with its turns),
        or None when the machine alone should judge (not this role's turn, a resend, a
        length problem). Nothing is recorded: a bounce counts only through :meth:`screen`."""
        state, policy = snap.state, self.s.policy
        cleaned = clean_text(text)
        if (
            not state.chatting
            or state.turn != role
            or state.accepted(f"{role}:{client_id}") is not None
            or not policy.min_message_chars <= len(cleaned) <= policy.max_message_chars
        ):
            return None
        if not self.config.active(role):  # no rule applies to this role: no history, no meta
            return _ACCEPT
        history = self._history_of(state.id, snap.turns or [])
        meta = await self.runtime.meta(state.id)
        result = check(role, state.round, cleaned, history, meta["opinions"], self.config)
        # a bounce explains what must change: the hard hits, not the warnings beside them
        shown = [h for h in result.hits if result.action != "bounce" or h.severity == "hard"]
        return Screening(
            action=result.action,
            rules=result.rule_ids,
            message=" ".join(dict.fromkeys(h.message for h in shown)),
            flags=tuple(h.as_dict() for h in result.hits),
        )

    async def screen(
        self, snap: Snapshot, role: str, worker: str, client_id: str, text: str
    ) -> Screening | None:
        """:meth:`judge`, with a bounce counted against the worker (and ``expel`` set when it
        reaches ``max_hard_violations``)."""
        screening = await self.judge(snap, role, client_id, text)
        if screening is not None and screening.action == "bounce":
            count = await self._count(snap.state.id, role, worker, screening, clean_text(text))
            limit = self.s.settings.max_hard_violations
            screening = replace(screening, expel=bool(limit) and count >= limit)
        return screening

    async def expel(self, dialog_id: str, role: str) -> None:
        await self.runtime.handle(dialog_id, lambda now: Expel(role, now))  # type: ignore[arg-type]

    async def _count(self, dialog_id: str, role: str, worker: str, screening: Screening, text: str) -> int:
        key = self.s.keys.dialog(dialog_id) + ":violations"
        count = await self.s.redis.hincrby(key, role, 1)
        await self.s.redis.expire(key, 7 * 86400)
        async with self.s.sessions() as db:
            db.add(
                WorkerEvent(
                    study=self.s.settings.study,
                    worker_id=worker,
                    dialog_id=dialog_id,
                    kind="rule_bounce",
                    detail={"rules": screening.rules, "text": text[:500], "count": count},
                )
            )
            await db.commit()
        return count
