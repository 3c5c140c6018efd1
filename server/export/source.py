"""A consistent, streamed read of the dialogs an export selects.

Everything is read inside one transaction: REPEATABLE READ on PostgreSQL, and on SQLite a
real ``BEGIN`` (the driver would otherwise run each SELECT on its own), so dialogs that end
while the export runs are either wholly in it or wholly out of it. Only final dialogs
(status other than ``in_progress``) are ever selected. Records are built page by page from
id lists, so memory holds one page of turns at a time plus a small per-dialog index.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from sqlalchemy import String, and_, case, event, func, or_, select, type_coerce
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlalchemy.orm import aliased

from server.db.engine import make_engine
from server.db.models import Dialog, QcResult, Response, Review, Stimulus, Turn, Worker

Status = Literal["accepted", "complete", "all"]
STATUSES: tuple[str, ...] = ("accepted", "complete", "all")
ACCEPT_VERDICT = "accept"
NEVER_STARTED = "start_failed"  # end_reason of a pairing whose dialog never began: nothing to publish


@dataclass(frozen=True)
class Selection:
    """Which dialogs of which study an export takes."""

    study: str
    status: Status = "complete"
    since: datetime | None = None  # dialogs that ended at or after this moment

    def conditions(self) -> list[Any]:
        where: list[Any] = [
            Dialog.study == self.study,
            Dialog.status != "in_progress",
            or_(Dialog.end_reason.is_(None), Dialog.end_reason != NEVER_STARTED),
        ]
        if self.since is not None:
            where.append(Dialog.ended_at >= self.since)
        if self.status in ("complete", "accepted"):
            where.append(Dialog.status == "complete")
        if self.status == "accepted":
            where.append(effective_verdict() == ACCEPT_VERDICT)
        return where

    def exclusion_reason(
        self, status: str, verdict: str | None, never_started: bool, before_since: bool
    ) -> str | None:
        """Why a dialog of the study is not exported (None: it is). Mirrors ``conditions``."""
        if status == "in_progress":
            return "still in progress (not final)"
        if never_started:
            return "never started (pairing failed)"
        if before_since:
            return "ended before --since"
        if self.status in ("complete", "accepted") and status != "complete":
            return f"incomplete ({status})"
        if self.status == "accepted":
            if verdict is None:
                return "no QC verdict yet"
            if verdict != ACCEPT_VERDICT:
                return f"verdict {verdict} (QC, or the researcher's review)"
        return None


@dataclass(frozen=True)
class IndexRow:
    dialog_id: str
    image_sha256: str
    final_emotion: str | None  # the questioner's emotion after the reveal


@asynccontextmanager
async def snapshot(database_url: str) -> AsyncIterator[AsyncConnection]:
    """A connection inside one read transaction that sees a single consistent state."""
    engine = make_engine(database_url)
    sqlite = engine.dialect.name == "sqlite"
    if sqlite:

        @event.listens_for(engine.sync_engine, "connect")
        def _driver_autocommit(dbapi_conn, _record) -> None:  # pragma: no cover - driver hook
            dbapi_conn.isolation_level = None  # we send BEGIN ourselves, below

        @event.listens_for(engine.sync_engine, "begin")
        def _begin(conn) -> None:  # pragma: no cover - driver hook
            conn.exec_driver_sql("BEGIN")

    try:
        async with engine.connect() as conn:
            if not sqlite:
                await conn.execution_options(isolation_level="REPEATABLE READ")
            async with conn.begin() as tx:
                yield conn
                await tx.rollback()  # read only: nothing to keep
    finally:
        await engine.dispose()


async def count_exclusions(conn: AsyncConnection, sel: Selection) -> tuple[int, dict[str, int]]:
    """(dialogs selected, {reason: dialogs left out}) over the whole study."""
    never_started = case((Dialog.end_reason == NEVER_STARTED, True), else_=False)
    columns: list[Any] = [Dialog.status, effective_verdict(), never_started]
    if sel.since is not None:
        columns.append(case((or_(Dialog.ended_at.is_(None), Dialog.ended_at < sel.since), True), else_=False))
    stmt = (
        select(*columns, func.count())
        .select_from(Dialog)
        .outerjoin(QcResult, QcResult.dialog_id == Dialog.id)
        .outerjoin(Review, Review.dialog_id == Dialog.id)
        .where(Dialog.study == sel.study)
        .group_by(*columns)
    )
    selected = 0
    reasons: Counter[str] = Counter()
    for row in (await conn.execute(stmt)).all():
        early = bool(row[3]) if sel.since is not None else False
        reason = sel.exclusion_reason(row[0], row[1], bool(row[2]), early)
        if reason is None:
            selected += row[-1]
        else:
            reasons[reason] += row[-1]
    return selected, dict(sorted(reasons.items()))


def _selected(stmt, sel: Selection):
    stmt = stmt.outerjoin(QcResult, QcResult.dialog_id == Dialog.id).outerjoin(
        Review, Review.dialog_id == Dialog.id
    )
    return stmt.where(*sel.conditions())


def effective_verdict() -> Any:
    """A researcher's review decision (accept/reject) overrides the automatic QC verdict."""
    return func.coalesce(Review.decision, QcResult.verdict)


async def read_index(conn: AsyncConnection, sel: Selection) -> list[IndexRow]:
    """One small row per selected dialog, sorted by dialog id (code-point order on every DB)."""
    final = aliased(Response)
    stmt = _selected(
        select(Dialog.id, Stimulus.image_sha256, final.emotion)
        .select_from(Dialog)
        .join(Stimulus, Stimulus.id == Dialog.stimulus_id)
        .outerjoin(final, and_(final.dialog_id == Dialog.id, final.phase == "after_reveal")),
        sel,
    )
    rows = []
    result = await conn.stream(stmt.execution_options(yield_per=5000))
    async for partition in result.partitions():
        rows.extend(IndexRow(r[0], r[1], r[2]) for r in partition)
    rows.sort(key=lambda r: r.dialog_id)
    return rows


async def read_images(conn: AsyncConnection, sel: Selection) -> list[tuple[str, str, str, int, int]]:
    """(stimulus id, image key, sha256, width, height) of every stimulus the selection uses."""
    stmt = _selected(
        select(Stimulus.id, Stimulus.image_key, Stimulus.image_sha256, Stimulus.width, Stimulus.height)
        .select_from(Dialog)
        .join(Stimulus, Stimulus.id == Dialog.stimulus_id),
        sel,
    ).distinct()
    rows = [tuple(r) for r in (await conn.execute(stmt)).all()]
    return sorted(rows)  # type: ignore[return-value]


_questioner = aliased(Worker)
_answerer = aliased(Worker)


def _raw_time(column: Any, sqlite: bool) -> Any:
    """On SQLite, the stored text itself (records.format_timestamp parses it much faster)."""
    return type_coerce(column, String).label(column.key) if sqlite else column


def _dialog_columns(sqlite: bool) -> tuple[Any, ...]:
    return (
        Dialog.id,
        Dialog.study,
        Dialog.status,
        Dialog.end_reason,
        Dialog.ended_by,
        Dialog.rounds_done,
        Dialog.positive_first,
        Dialog.settings,
        _raw_time(Dialog.started_at, sqlite),
        _raw_time(Dialog.ended_at, sqlite),
        Dialog.questioner_id,
        _questioner.provider.label("questioner_provider"),
        Dialog.answerer_id,
        _answerer.provider.label("answerer_provider"),
        Stimulus.id.label("stimulus_id"),
        Stimulus.image_key,
        Stimulus.image_sha256,
        Stimulus.width,
        Stimulus.height,
        Stimulus.title,
        Stimulus.genre,
        Stimulus.style,
        Stimulus.source,
        Stimulus.positive_emotion,
        Stimulus.positive_text,
        Stimulus.negative_emotion,
        Stimulus.negative_text,
        QcResult.verdict.label("qc_verdict"),
        QcResult.reasons.label("qc_reasons"),
        QcResult.scores.label("qc_scores"),
    )


def pages(ids: list[str], size: int) -> Iterator[list[str]]:
    for start in range(0, len(ids), size):
        yield ids[start : start + size]


async def read_page(conn: AsyncConnection, ids: list[str]) -> list[tuple[Any, list[Any], list[Any]]]:
    """(dialog row, its turns in order, its responses) for the given dialogs, in the order given."""
    sqlite = conn.dialect.name == "sqlite"
    dialogs = {
        row.id: row
        for row in (
            await conn.execute(
                select(*_dialog_columns(sqlite))
                .select_from(Dialog)
                .join(Stimulus, Stimulus.id == Dialog.stimulus_id)
                .join(_questioner, _questioner.id == Dialog.questioner_id)
                .join(_answerer, _answerer.id == Dialog.answerer_id)
                .outerjoin(QcResult, QcResult.dialog_id == Dialog.id)
                .where(Dialog.id.in_(ids))
            )
        ).all()
    }
    turns: dict[str, list[Any]] = defaultdict(list)
    for row in (
        await conn.execute(
            select(
                Turn.dialog_id,
                Turn.seq,
                Turn.round,
                Turn.role,
                Turn.text,
                _raw_time(Turn.sent_at, sqlite),
                Turn.latency_ms,
            )
            .where(Turn.dialog_id.in_(ids))
            .order_by(Turn.dialog_id, Turn.seq)
        )
    ).all():
        turns[row[0]].append(row)
    responses: dict[str, list[Any]] = defaultdict(list)
    for row in (
        await conn.execute(
            select(
                Response.dialog_id,
                Response.phase,
                Response.emotion,
                Response.explanation,
                _raw_time(Response.submitted_at, sqlite),
                Response.latency_ms,
            ).where(Response.dialog_id.in_(ids))
        )
    ).all():
        responses[row[0]].append(row)
    return [(dialogs[i], turns.get(i, []), responses.get(i, [])) for i in ids]


async def verdicts_exist(conn: AsyncConnection, study: str) -> bool:
    stmt = (
        select(QcResult.dialog_id)
        .join(Dialog, Dialog.id == QcResult.dialog_id)
        .where(Dialog.study == study)
        .limit(1)
    )
    return (await conn.execute(stmt)).first() is not None
