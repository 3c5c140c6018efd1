"""Bring our assignment records in line with the platform's, so a missed event costs nobody.

Our page records an assignment when the worker arrives; everything after that (submit,
return, abandonment, auto-approval) happens on the platform. ``reconcile`` asks the
platform about every open HIT and every assignment we still think is in progress, and
repairs our rows: submissions we never heard of are added (so they get paid), returned
or run-out assignments are closed, and auto-approvals are noted. Run it on a timer
(``avd payments reconcile --every 60``) and before every payment run.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from sqlalchemy import select
from sqlalchemy.ext.asyncio import async_sessionmaker

from server.db.models import Worker, WorkerEvent
from server.db.provider_models import Assignment, Hit
from server.providers.base import PlatformAssignment, Provider
from server.providers.policy import STUDY_OUTCOMES
from server.settings import Settings
from server.studies.launch import study_of_launch
from server.tokens import Signer

# Outcomes a local worker is owed a decision for (a study's excluded raters included: the policy
# pays or rejects them by the study settings).
PAYABLE_EVENTS = ("completed", "partner_dropped", "lobby_timeout", *STUDY_OUTCOMES)
OPEN = ("accepted",)
SLACK = timedelta(seconds=60)  # clock skew between us and the platform


@dataclass
class ReconcileReport:
    added: list[str] = field(default_factory=list)
    submitted: list[str] = field(default_factory=list)
    returned: list[str] = field(default_factory=list)
    abandoned: list[str] = field(default_factory=list)
    auto_approved: list[str] = field(default_factory=list)
    hits_closed: list[str] = field(default_factory=list)

    def summary(self) -> str:
        return ", ".join(f"{k.replace('_', ' ')} {len(v)}" for k, v in self.__dict__.items())


def _utc(value: datetime | None) -> datetime | None:
    if value is None:
        return None
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def signer_for(settings: Settings) -> Signer:
    return Signer(settings.resolved_secret, settings.study, settings.token_max_age_seconds)


async def local_assignments(sessions: async_sessionmaker, settings: Settings) -> list[str]:
    """One made-up, already-submitted assignment per payable outcome of a local worker."""
    added = []
    async with sessions() as db:
        known = set(
            (
                await db.execute(
                    select(Assignment.id).where(
                        Assignment.study == settings.study, Assignment.provider == "local"
                    )
                )
            ).scalars()
        )
        events = (
            await db.execute(
                select(WorkerEvent)
                .join(Worker, Worker.id == WorkerEvent.worker_id)
                .where(WorkerEvent.study == settings.study, Worker.provider == "local")
                .where(WorkerEvent.kind.in_(PAYABLE_EVENTS))
            )
        ).scalars()
        for event in events:
            ident = f"local-{event.id}"
            if ident in known:
                continue
            db.add(
                Assignment(
                    id=ident,
                    study=settings.study,
                    provider="local",
                    worker_id=event.worker_id,
                    status="submitted",
                    completion_code=event.completion_code,
                    accepted_at=event.created_at,
                    submitted_at=event.created_at,
                )
            )
            added.append(ident)
        await db.commit()
    return added


async def _ensure_worker(db, signer: Signer, provider: str, platform_worker: str) -> str:
    worker_id = signer.worker_id(provider, platform_worker)
    if await db.get(Worker, worker_id) is None:
        db.add(Worker(id=worker_id, provider=provider, platform_worker_id=platform_worker))
        await db.flush()
    return worker_id


def _apply(row: Assignment, seen: PlatformAssignment, report: ReconcileReport) -> None:
    """Copy what the platform knows onto our row; note transitions we had missed."""
    if row.status in OPEN and seen.status in ("submitted", "approved", "rejected"):
        report.submitted.append(row.id)
    if seen.status == "approved" and row.status in ("accepted", "submitted"):
        report.auto_approved.append(row.id)  # approved without us: MTurk's auto-approval
    if row.status in ("accepted", "submitted", "returned", "abandoned") or seen.status != "submitted":
        row.status = seen.status
    row.submitted_at = seen.submitted_at or row.submitted_at
    if seen.answer:
        row.answer = dict(seen.answer)
        row.completion_code = seen.answer.get("completion_code") or row.completion_code
    row.updated_at = datetime.now(UTC)


async def reconcile(
    sessions: async_sessionmaker, settings: Settings, provider: Provider, now: datetime | None = None
) -> ReconcileReport:
    """One pass over this study's HITs on ``provider``; safe to run as often as you like."""
    report = ReconcileReport()
    if provider.name == "local":
        report.added = await local_assignments(sessions, settings)
        return report
    now = now or datetime.now(UTC)
    signer = signer_for(settings)
    duration = timedelta(seconds=settings.mturk_assignment_duration_seconds)
    async with sessions() as db:
        hits = list(
            (
                await db.execute(
                    select(Hit).where(
                        Hit.study == settings.study, Hit.provider == provider.name, Hit.status != "deleted"
                    )
                )
            ).scalars()
        )
    for hit in hits:
        info = await asyncio.to_thread(provider.get_hit, hit.id)
        seen = await asyncio.to_thread(provider.list_assignments, hit.id)
        async with sessions() as db:
            row_hit = await db.get(Hit, hit.id)
            assert row_hit is not None
            if info is not None:
                row_hit.expires_at = info.expires_at
                if info.status == "Reviewable" and row_hit.status == "open":
                    row_hit.status = "closed"
                    report.hits_closed.append(hit.id)
            seen_ids = set()
            for platform in seen:
                seen_ids.add(platform.id)
                row = await db.get(Assignment, (platform.id, settings.study))
                if row is None:
                    worker_id = await _ensure_worker(db, signer, provider.name, platform.worker)
                    row = Assignment(
                        id=platform.id,
                        study=settings.study,
                        provider=provider.name,
                        hit_id=hit.id,
                        worker_id=worker_id,
                        status="accepted",
                        accepted_at=platform.accepted_at or platform.submitted_at or now,
                    )
                    db.add(row)
                    report.added.append(platform.id)
                _apply(row, platform, report)
            # assignments we saw start but MTurk does not list: still working, returned, or gone
            ours = (
                await db.execute(
                    select(Assignment).where(
                        Assignment.study == settings.study,
                        Assignment.hit_id == hit.id,
                        Assignment.status.in_(OPEN),
                    )
                )
            ).scalars()
            for row in ours:
                if row.id in seen_ids:
                    continue
                late = now > _utc(row.accepted_at) + duration + SLACK
                nobody_working = info is not None and info.pending == 0
                if late:
                    row.status = "abandoned"
                    report.abandoned.append(row.id)
                elif nobody_working:
                    row.status = "returned"
                    report.returned.append(row.id)
                else:
                    continue
                row.updated_at = now
            consented = []  # newly submitted workers who consented with us
            for platform in seen:
                if platform.id not in report.submitted:
                    continue
                row = await db.get(Assignment, (platform.id, settings.study))
                worker = await db.get(Worker, row.worker_id) if row else None
                if worker is not None and worker.consent_at and worker.platform_worker_id:
                    consented.append(worker.platform_worker_id)
            await db.commit()
        for platform_worker in consented:  # recorded on the platform too (the "consented" qualification)
            await asyncio.to_thread(provider.mark_consented, platform_worker)
        study_id = study_of_launch(hit.launch_id)
        if study_id:  # a rater who submitted does not see this study's other HITs
            submitted = [p.worker for p in seen if p.id in report.submitted]
            await _mark_rated(provider, study_id, submitted)
    return report


async def _mark_rated(provider: Provider, study_id: str, platform_workers: list[str]) -> None:
    """Grant the study's *rated* qualification (MTurk; elsewhere the page and the pay step suffice)."""
    if not platform_workers or not provider.name.startswith("mturk"):
        return
    from server.providers.mturk import MTurkProvider
    from server.studies.mturk import StudyMTurkProvider

    if not isinstance(provider, MTurkProvider):
        return

    study = StudyMTurkProvider.like(provider, study_id)
    for platform_worker in dict.fromkeys(platform_workers):
        await asyncio.to_thread(study.mark_rated, platform_worker)
