"""``avd payments run``: apply the pay policy to every submitted assignment, safely re-runnable.

Each assignment gets one ``Payment`` row, written *before* any money moves; the row is
then carried forward step by step (planned -> bonus_sent -> done), committing after every
platform call. A run that dies anywhere can be started again: a step already done on the
platform is recognised (the bonus is looked up and sent with the same deterministic
``UniqueRequestToken``; an approval or rejection already in place counts as done), so
nobody is paid twice. The bonus goes out before the approval, so an approved assignment
never waits for a bonus that a crash could lose.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.db.models import Dialog, QcResult, Review, Worker, WorkerEvent
from server.db.provider_models import Assignment, Payment
from server.db.semantic_models import QcSemantic
from server.providers.base import ALREADY_APPROVED, Provider, ProviderError
from server.providers.policy import (
    OUTCOME_RANK,
    STUDY_OUTCOMES,
    PayDecision,
    PayPolicy,
    WorkerOutcome,
    decide,
    split,
)
from server.settings import Settings

PAYABLE = ("submitted", "approved")
BONUS_REASON = "Thank you for taking part in our art conversation study."


class BudgetExceeded(Exception):
    pass


@dataclass
class PaymentReport:
    paid: int = 0
    rejected: int = 0
    held: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)
    cents: int = 0

    def summary(self) -> str:
        return (
            f"approved {self.paid}, rejected {self.rejected}, held {len(self.held)}, "
            f"failed {len(self.failed)}, paid ${self.cents / 100:.2f} (before fees)"
        )


def payment_token(study: str, assignment_id: str) -> str:
    """The same token for the same assignment on every run (MTurk: at most 64 characters)."""
    return "avd-" + hashlib.sha256(f"{study}:{assignment_id}".encode()).hexdigest()[:40]


def _utc(value: datetime | None) -> datetime | None:
    if value is None:
        return None
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def events_of(assignment: Assignment, events: list[WorkerEvent], starts: list[datetime]) -> list[WorkerEvent]:
    """The events that belong to one assignment (see ``outcome_for``); ``starts``: the worker's starts."""
    if assignment.id.startswith("local-"):  # local assignments are made from one event each
        return [e for e in events if f"local-{e.id}" == assignment.id]
    coded = [
        e for e in events if assignment.completion_code and e.completion_code == assignment.completion_code
    ]
    if coded:
        return coded
    start = _utc(assignment.accepted_at)
    end = next((s for s in starts if s > start), None)
    return [
        e
        for e in events
        if start <= _utc(e.created_at)
        and (end is None or _utc(e.created_at) < end)
        and e.kind in OUTCOME_RANK
    ]


async def outcome_for(
    sessions: async_sessionmaker, assignment: Assignment, await_semantic: bool = False
) -> WorkerOutcome:
    """The best outcome the worker reached during this assignment.

    An event belongs to the assignment when its completion code is the one submitted, or
    else when it happened between this assignment's start and the worker's next one. An
    assignment on a study's HIT only counts that study's outcome, one on a dialog HIT only
    dialog outcomes; and a study outcome is paid once, to the first assignment submitted
    with it (a rater who finished cannot be paid again by submitting the same code twice).
    """
    async with sessions() as db:
        events = list(
            (
                await db.execute(
                    select(WorkerEvent)
                    .where(
                        WorkerEvent.worker_id == assignment.worker_id, WorkerEvent.study == assignment.study
                    )
                    .order_by(WorkerEvent.id)
                )
            ).scalars()
        )
        mates = list(
            (
                await db.execute(
                    select(Assignment).where(
                        Assignment.worker_id == assignment.worker_id, Assignment.study == assignment.study
                    )
                )
            ).scalars()
        )
        starts = sorted(_utc(a.accepted_at) for a in mates)
        tasks = await _tasks(db, mates + [assignment])
        task, study_id = tasks[assignment.id]
        events = _for_task(events, task, study_id)
        mine = events_of(assignment, events, starts)
        if not mine:
            return WorkerOutcome(kind=None, task=task, study_id=study_id)
        best = min(mine, key=lambda e: (OUTCOME_RANK.index(e.kind) if e.kind in OUTCOME_RANK else 99, e.id))
        if best.kind in STUDY_OUTCOMES:
            holder = await _study_holder(db, assignment, best, mates, tasks, events, starts)
            detail = best.detail or {}
            return WorkerOutcome(
                kind=best.kind,
                completion_code=best.completion_code,
                task="study",
                study_id=detail.get("study_id") or study_id,
                valid_judgments=int(detail.get("valid") or 0),
                invalid_judgments={str(k): int(v) for k, v in (detail.get("invalid") or {}).items()},
                claimed_by=holder,
            )
        dialog = await db.get(Dialog, best.dialog_id) if best.dialog_id else None
        review = await db.get(Review, best.dialog_id) if best.dialog_id else None
        qc = await db.get(QcResult, best.dialog_id) if best.dialog_id else None
        verdict = qc.verdict if qc else None
        if await_semantic and verdict == "accept" and await db.get(QcSemantic, best.dialog_id) is None:
            verdict = None  # the semantic stage may still send it to review: not final yet
    return WorkerOutcome(
        kind=best.kind,
        dialog_id=best.dialog_id,
        rounds_done=best.rounds_done,
        dialog_status=dialog.status if dialog else None,
        review_decision=review.decision if review else None,
        review_reason=review.reason if review else None,
        review_bonus_cents=review.bonus_cents if review else 0,
        qc_verdict=verdict,
        completion_code=best.completion_code,
        task=task,
    )


async def _tasks(db: AsyncSession, assignments: list[Assignment]) -> dict[str, tuple[str | None, str | None]]:
    """Per assignment: (dialog | study | None: HIT unknown, the study id), from its HIT's launch."""
    from server.db.provider_models import Hit
    from server.studies.launch import study_of_launch

    hit_ids = {a.hit_id for a in assignments if a.hit_id}
    launches = {}
    if hit_ids:
        launches = dict((await db.execute(select(Hit.id, Hit.launch_id).where(Hit.id.in_(hit_ids)))).all())
    out: dict[str, tuple[str | None, str | None]] = {}
    for a in assignments:
        launch_id = launches.get(a.hit_id) if a.hit_id else None
        study_id = study_of_launch(launch_id)
        out[a.id] = (
            (None, None) if launch_id is None else ("study", study_id) if study_id else ("dialog", None)
        )
    return out


def _for_task(events: list[WorkerEvent], task: str | None, study_id: str | None) -> list[WorkerEvent]:
    if task == "study":
        return [
            e for e in events if e.kind in STUDY_OUTCOMES and (e.detail or {}).get("study_id") == study_id
        ]
    if task == "dialog":
        return [e for e in events if e.kind not in STUDY_OUTCOMES]
    return events


async def _study_holder(
    db: AsyncSession,
    assignment: Assignment,
    event: WorkerEvent,
    mates: list[Assignment],
    tasks: dict[str, tuple[str | None, str | None]],
    events: list[WorkerEvent],
    starts: list[datetime],
) -> str | None:
    """Another assignment of the same study that holds ``event``: one already paid for it, else the
    first submitted with it. None when it is this assignment's to be paid for."""
    if assignment.id.startswith("local-"):
        return None
    rivals = [
        a
        for a in mates
        if a.id != assignment.id
        and a.status in ("submitted", "approved", "rejected")
        and tasks[a.id] == tasks[assignment.id]
        and event in events_of(a, events, starts)
    ]
    if not rivals:
        return None
    approved = set(
        (
            await db.execute(
                select(Payment.assignment_id).where(
                    Payment.study == assignment.study,
                    Payment.assignment_id.in_([a.id for a in rivals] + [assignment.id]),
                    Payment.action == "approve",
                )
            )
        ).scalars()
    )

    def order(a: Assignment) -> tuple:
        return (a.id not in approved, _utc(a.submitted_at or a.accepted_at), a.id)

    first = min([*rivals, assignment], key=order)
    return None if first.id == assignment.id else first.id


async def spent_cents(sessions: async_sessionmaker, settings: Settings, provider: Provider) -> int:
    """What payments of this study have committed so far, platform fees included."""
    async with sessions() as db:
        rows = (
            await db.execute(
                select(Payment.reward_cents, Payment.topup_cents, Payment.bonus_cents, Payment.action).where(
                    Payment.study == settings.study, Payment.provider == provider.name
                )
            )
        ).all()
    total = 0
    for reward, topup, bonus, action in rows:
        if action != "approve":
            continue
        extra = topup + bonus
        total += reward + provider.pricing.fee(reward) + extra + provider.pricing.fee(extra)
    return total


class PaymentRun:
    """One pass over the study's assignments; ``after_call`` lets a caller watch each platform call."""

    def __init__(
        self,
        settings: Settings,
        sessions: async_sessionmaker,
        provider: Provider,
        after_call: Callable[[str, str], None] | None = None,
    ) -> None:
        self.settings = settings
        self.sessions = sessions
        self.provider = provider
        self.policy = PayPolicy.from_settings(settings)
        self.after_call = after_call or (lambda step, assignment_id: None)

    async def run(self, limit: int | None = None) -> PaymentReport:
        report = PaymentReport()
        for assignment_id in await self._candidates(limit):
            try:
                payment = await self._plan(assignment_id, report)
                if payment is not None:
                    await self._carry_out(payment, report)
            except BudgetExceeded:
                raise
            except ProviderError as exc:
                report.failed[assignment_id] = str(exc)
                await self._note_error(assignment_id, str(exc))
        return report

    async def _candidates(self, limit: int | None) -> list[str]:
        async with self.sessions() as db:
            done = select(Payment.assignment_id).where(
                Payment.status == "done", Payment.study == self.settings.study
            )
            query = (
                select(Assignment.id)
                .where(Assignment.study == self.settings.study, Assignment.provider == self.provider.name)
                .where(Assignment.status.in_(PAYABLE))
                .where(Assignment.id.not_in(done))
                .order_by(Assignment.submitted_at, Assignment.id)
            )
            if limit:
                query = query.limit(limit)
            return list((await db.execute(query)).scalars())

    async def _plan(self, assignment_id: str, report: PaymentReport) -> Payment | None:
        """The existing plan, or a new one written before anything is paid."""
        async with self.sessions() as db:
            existing = await db.get(Payment, (assignment_id, self.settings.study))
            if existing is not None:
                return existing
            assignment = await db.get(Assignment, (assignment_id, self.settings.study))
        assert assignment is not None
        outcome = await outcome_for(self.sessions, assignment, self.settings.semantic_after_qc)
        decision = decide(self.policy, outcome)
        if decision.action == "hold":
            report.held.append(assignment_id)
            return None
        reward = await self._reward(assignment)
        topup = max(0, decision.base_cents - reward) if decision.action == "approve" else 0
        cost = self._cost(decision, reward)
        if (
            await spent_cents(self.sessions, self.settings, self.provider) + cost
            > self.settings.pay_budget_cap_cents
        ):
            raise BudgetExceeded(
                f"paying assignment {assignment_id} would pass the budget cap of "
                f"${self.settings.pay_budget_cap_cents / 100:.2f} (pay_budget_cap_cents)"
            )
        payment = Payment(
            assignment_id=assignment_id,
            study=self.settings.study,
            provider=self.provider.name,
            worker_id=assignment.worker_id,
            dialog_id=outcome.dialog_id,
            outcome=outcome.kind or "none",
            action=decision.action,
            base_cents=decision.base_cents,
            bonus_cents=decision.bonus_cents,
            reward_cents=reward if decision.action == "approve" else 0,
            topup_cents=topup,
            usable=decision.usable,
            feedback=decision.feedback,
            token=payment_token(self.settings.study, assignment_id),
            status="planned",
        )
        async with self.sessions() as db:
            db.add(payment)
            if outcome.dialog_id:  # the review is final once money depends on it
                review = await db.get(Review, outcome.dialog_id)
                if review is not None:
                    review.paid = True
            await db.commit()
        return payment

    def _cost(self, decision: PayDecision, reward: int) -> int:
        if decision.action != "approve":
            return 0
        extra = split(decision, reward)
        return reward + self.provider.pricing.fee(reward) + extra + self.provider.pricing.fee(extra)

    async def _reward(self, assignment: Assignment) -> int:
        from server.db.provider_models import Hit

        if not assignment.hit_id:
            return 0
        async with self.sessions() as db:
            hit = await db.get(Hit, assignment.hit_id)
        return hit.reward_cents if hit else 0

    async def _carry_out(self, payment: Payment, report: PaymentReport) -> None:
        async with self.sessions() as db:
            worker = await db.get(Worker, payment.worker_id)
        platform_worker = worker.platform_worker_id if worker else None
        extra = payment.topup_cents + payment.bonus_cents
        if payment.status == "planned" and payment.action == "approve" and extra > 0:
            await self._call(
                "bonus", payment.assignment_id, self._bonus, payment, platform_worker or "", extra
            )
            await self._advance(payment, "bonus_sent")
        if payment.status in ("planned", "bonus_sent"):
            note = None
            if payment.action == "approve":
                await self._call(
                    "approve", payment.assignment_id, self.provider.approve, payment.assignment_id
                )
            else:
                try:
                    await self._call(
                        "reject",
                        payment.assignment_id,
                        self.provider.reject,
                        payment.assignment_id,
                        payment.feedback,
                    )
                except ProviderError as exc:
                    if exc.code != ALREADY_APPROVED:
                        raise
                    note = "the platform approved it before our decision (auto-approval); reward was paid"
            await self._advance(payment, "done", note)
            await self._after_done(payment, platform_worker)
        if payment.action == "approve":
            report.paid += 1
            report.cents += payment.reward_cents + extra
        else:
            report.rejected += 1

    def _bonus(self, payment: Payment, worker: str, cents: int) -> None:
        """Send the bonus unless the platform already holds one for this assignment."""
        if self.provider.bonus_paid(payment.assignment_id) >= cents:
            return
        self.provider.send_bonus(worker, payment.assignment_id, cents, BONUS_REASON, payment.token)

    async def _call(self, step: str, assignment_id: str, fn: Callable, *args: object) -> None:
        await asyncio.to_thread(fn, *args)
        self.after_call(step, assignment_id)

    async def _advance(self, payment: Payment, status: str, note: str | None = None) -> None:
        async with self.sessions() as db:
            row = await db.get(Payment, (payment.assignment_id, payment.study))
            assert row is not None
            row.status = status
            row.error = note
            row.updated_at = datetime.now(UTC)
            assignment = await db.get(Assignment, (payment.assignment_id, payment.study))
            if status == "done" and assignment is not None:
                assignment.status = "approved" if payment.action == "approve" else "rejected"
                assignment.updated_at = datetime.now(UTC)
            await db.commit()
        payment.status = status

    async def _after_done(self, payment: Payment, platform_worker: str | None) -> None:
        """Keep a worker out once they reached the per-worker limit (a qualification on MTurk)."""
        limit = self.settings.mturk_max_dialogs_per_worker
        if not limit or not platform_worker or payment.action != "approve":
            return
        async with self.sessions() as db:
            count = (
                await db.execute(
                    select(func.count())
                    .select_from(Payment)
                    .where(Payment.worker_id == payment.worker_id, Payment.status == "done")
                    .where(Payment.action == "approve", Payment.outcome.in_(["completed", "partner_dropped"]))
                )
            ).scalar_one()
        if count >= limit:
            await asyncio.to_thread(self.provider.mark_limit_reached, platform_worker)

    async def _note_error(self, assignment_id: str, message: str) -> None:
        async with self.sessions() as db:
            row = await db.get(Payment, (assignment_id, self.settings.study))
            if row is not None and row.status != "done":
                row.error = message[:2000]
                row.updated_at = datetime.now(UTC)
                await db.commit()
