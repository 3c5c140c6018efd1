"""Per-worker statistics for the dashboard and ``avd qc workers``, as SQL aggregates.

A worker takes part in a dialog as questioner or answerer; every figure joins through that
part, so a message, a QC flag or a review counts for the worker who wrote or was in it:

- dialogs by outcome (``Dialog.status``) and by role;
- messages: count, mean and median length in characters, median latency (``Turn.latency_ms``,
  the time the worker took to reply); medians are ``percentile_cont`` on PostgreSQL (one pass,
  four times faster there) and window functions on SQLite, with the same results;
- violations: live bounces (``worker_event`` rows of kind ``rule_bounce``) plus the rule hits
  QC found on the worker's accepted messages (``qc_result.flags``, by message seq), soft and
  hard counted apart;
- acceptance: QC verdicts, researcher decisions, and the final word on each dialog (the
  decision when there is one, else the verdict: accepted, rejected or still to review);
- money: review bonuses on accepted dialogs (a review bonus goes to both workers) and the
  payments the payment run recorded (``provider_payment``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import Any

from sqlalchemy import Select, String, and_, case, cast, func, literal, select, union_all
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.db.models import Dialog, QcResult, Review, Turn, Worker, WorkerEvent
from server.db.provider_models import Payment

OUTCOMES = ("complete", "abandoned", "timed_out", "in_progress")


def worker_parts(study: str, worker: str | None = None):
    """(worker_id, dialog_id, role, status) for both sides of every dialog of the study."""
    sides = []
    for column, role in ((Dialog.questioner_id, "questioner"), (Dialog.answerer_id, "answerer")):
        query = select(
            column.label("worker_id"),
            Dialog.id.label("dialog_id"),
            literal(role, String).label("role"),
            Dialog.status.label("status"),
        ).where(Dialog.study == study)
        sides.append(query.where(column == worker) if worker is not None else query)
    return union_all(*sides).subquery("part")


def _median(values: Select, name: str):
    """Per worker median of the single value column of ``values`` (worker_id, v)."""
    sub = values.subquery(f"{name}_values")
    ranked = select(
        sub.c.worker_id,
        sub.c.v,
        func.row_number().over(partition_by=sub.c.worker_id, order_by=sub.c.v).label("rn"),
        func.count().over(partition_by=sub.c.worker_id).label("n"),
    ).subquery(f"{name}_ranked")
    # rows (n+1)/2 .. (n+2)/2 in integer division: the middle one, or the middle two
    return (
        select(ranked.c.worker_id, func.avg(ranked.c.v))
        .where(ranked.c.rn >= (ranked.c.n + 1) // 2, ranked.c.rn <= (ranked.c.n + 2) // 2)
        .group_by(ranked.c.worker_id)
    )


def _num(value: Any, digits: int = 1) -> float | None:
    return None if value is None else round(float(value), digits)


class _Rows:
    """Accumulates one dict per worker from several grouped queries."""

    def __init__(self) -> None:
        self.rows: dict[str, dict[str, Any]] = {}

    def get(self, worker: str) -> dict[str, Any]:
        row = self.rows.get(worker)
        if row is None:
            row = self.rows[worker] = {
                "worker_id": worker,
                "provider": None,
                "blocked": False,
                "dialogs": dict.fromkeys(OUTCOMES, 0) | {"total": 0},
                "roles": {"questioner": 0, "answerer": 0},
                "messages": 0,
                "mean_chars": None,
                "median_chars": None,
                "median_latency_ms": None,
                "events": {},
                "rule_bounces": 0,
                "qc_soft_flags": 0,
                "qc_hard_flags": 0,
                "violations": 0,
                "qc": {"accept": 0, "review": 0, "reject": 0},
                "decisions": {"accept": 0, "reject": 0},
                "final": {"accepted": 0, "rejected": 0, "to_review": 0},
                "acceptance_rate": None,
                "review_bonus_cents": 0,
                "payments": {"count": 0, "done": 0, "base_cents": 0, "bonus_cents": 0, "total_cents": 0},
            }
        return row


async def _dialog_counts(db: AsyncSession, part, rows: _Rows) -> None:
    for worker, status, role, n in await db.execute(
        select(part.c.worker_id, part.c.status, part.c.role, func.count()).group_by(
            part.c.worker_id, part.c.status, part.c.role
        )
    ):
        row = rows.get(worker)
        row["dialogs"][status] = row["dialogs"].get(status, 0) + n
        row["dialogs"]["total"] += n
        row["roles"][role] += n


async def _message_stats(db: AsyncSession, part, rows: _Rows) -> None:
    own = and_(Turn.dialog_id == part.c.dialog_id, Turn.role == part.c.role)
    chars = func.length(Turn.text)
    if db.bind.dialect.name == "postgresql":  # one pass with the native ordered-set aggregate
        query = (
            select(
                part.c.worker_id,
                func.count(),
                func.avg(chars),
                func.percentile_cont(0.5).within_group(chars),
                func.percentile_cont(0.5).within_group(Turn.latency_ms),
            )
            .join(Turn, own)
            .group_by(part.c.worker_id)
        )
        for worker, n, mean, median_chars, median_latency in await db.execute(query):
            rows.get(worker).update(
                messages=n,
                mean_chars=_num(mean),
                median_chars=_num(median_chars),
                median_latency_ms=_num(median_latency),
            )
        return
    for worker, n, mean in await db.execute(
        select(part.c.worker_id, func.count(), func.avg(chars)).join(Turn, own).group_by(part.c.worker_id)
    ):
        rows.get(worker).update(messages=n, mean_chars=_num(mean))
    for column, key in ((chars, "median_chars"), (Turn.latency_ms, "median_latency_ms")):
        values = select(part.c.worker_id.label("worker_id"), column.label("v")).join(Turn, own)
        for worker, median in await db.execute(_median(values, key)):
            rows.get(worker)[key] = _num(median)


async def _events(db: AsyncSession, study: str, worker: str | None, rows: _Rows) -> None:
    """Outcome records by kind (completed, lobby_timeout, rule_bounce...); bounces are violations."""
    query = select(WorkerEvent.worker_id, WorkerEvent.kind, func.count()).where(WorkerEvent.study == study)
    if worker is not None:
        query = query.where(WorkerEvent.worker_id == worker)
    for who, kind, n in await db.execute(query.group_by(WorkerEvent.worker_id, WorkerEvent.kind)):
        row = rows.get(who)
        row["events"][kind] = n
        if kind == "rule_bounce":
            row["rule_bounces"] = n


async def qc_flag_counts(db: AsyncSession, part) -> dict[tuple[str, str], dict[str, int]]:
    """(worker, dialog) -> {"soft": n, "hard": n}: QC's rule hits on the worker's own messages.

    Hits are stored per message seq in a JSON column; only the (few) flagged dialogs are read.
    """
    flagged = (
        await db.execute(
            select(QcResult.dialog_id, QcResult.flags)
            .where(QcResult.dialog_id.in_(select(part.c.dialog_id)))
            .where(cast(QcResult.flags, String).not_in(["{}", "null"]))
        )
    ).all()
    hits = {dialog: flags for dialog, flags in flagged if flags}
    if not hits:
        return {}
    authors = {
        (dialog, role): who
        for who, dialog, role in await db.execute(
            select(part.c.worker_id, part.c.dialog_id, part.c.role).where(part.c.dialog_id.in_(list(hits)))
        )
    }
    out: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: {"soft": 0, "hard": 0})
    for dialog, seq, role in await db.execute(
        select(Turn.dialog_id, Turn.seq, Turn.role).where(Turn.dialog_id.in_(list(hits)))
    ):
        author = authors.get((dialog, role))
        for hit in hits[dialog].get(str(seq), []) if author else []:
            out[(author, dialog)]["hard" if hit.get("severity") == "hard" else "soft"] += 1
    return out


async def _acceptance(db: AsyncSession, part, rows: _Rows) -> None:
    for worker, verdict, n in await db.execute(
        select(part.c.worker_id, QcResult.verdict, func.count())
        .join(QcResult, QcResult.dialog_id == part.c.dialog_id)
        .group_by(part.c.worker_id, QcResult.verdict)
    ):
        rows.get(worker)["qc"][verdict] = n
    for worker, decision, n, bonus in await db.execute(
        select(
            part.c.worker_id,
            Review.decision,
            func.count(),
            func.sum(case((Review.decision == "accept", Review.bonus_cents), else_=0)),
        )
        .join(Review, Review.dialog_id == part.c.dialog_id)
        .group_by(part.c.worker_id, Review.decision)
    ):
        row = rows.get(worker)
        row["decisions"][decision] = n
        row["review_bonus_cents"] += int(bonus or 0)
    final = func.coalesce(Review.decision, QcResult.verdict)
    names = {"accept": "accepted", "reject": "rejected", "review": "to_review"}
    for worker, word, n in await db.execute(
        select(part.c.worker_id, final, func.count())
        .outerjoin(QcResult, QcResult.dialog_id == part.c.dialog_id)
        .outerjoin(Review, Review.dialog_id == part.c.dialog_id)
        .where(final.is_not(None))
        .group_by(part.c.worker_id, final)
    ):
        rows.get(worker)["final"][names[word]] = n


async def _payments(db: AsyncSession, study: str, worker: str | None, rows: _Rows) -> None:
    query = select(
        Payment.worker_id,
        func.count(),
        func.sum(case((Payment.status == "done", 1), else_=0)),
        func.sum(Payment.base_cents),
        func.sum(Payment.bonus_cents),
    ).where(Payment.study == study)
    if worker is not None:
        query = query.where(Payment.worker_id == worker)
    for who, n, done, base, bonus in await db.execute(query.group_by(Payment.worker_id)):
        base, bonus = int(base or 0), int(bonus or 0)
        rows.get(who)["payments"] = {
            "count": n,
            "done": int(done or 0),
            "base_cents": base,
            "bonus_cents": bonus,
            "total_cents": base + bonus,
        }


async def _worker_info(db: AsyncSession, rows: _Rows) -> None:
    ids = list(rows.rows)
    for start in range(0, len(ids), 1000):
        for who, provider, blocked in await db.execute(
            select(Worker.id, Worker.provider, Worker.blocked).where(Worker.id.in_(ids[start : start + 1000]))
        ):
            rows.rows[who].update(provider=provider, blocked=bool(blocked))


def _finish(row: dict[str, Any]) -> dict[str, Any]:
    row["violations"] = row["rule_bounces"] + row["qc_soft_flags"] + row["qc_hard_flags"]
    decided = row["final"]["accepted"] + row["final"]["rejected"]
    row["acceptance_rate"] = round(row["final"]["accepted"] / decided, 3) if decided else None
    return row


async def compute(
    sessions: async_sessionmaker, study: str, worker: str | None = None
) -> list[dict[str, Any]]:
    """One row per worker who took part in the study (or just ``worker``), unsorted."""
    rows = _Rows()
    part = worker_parts(study, worker)
    async with sessions() as db:
        await _dialog_counts(db, part, rows)
        await _message_stats(db, part, rows)
        await _events(db, study, worker, rows)
        for (who, _), counts in (await qc_flag_counts(db, part)).items():
            row = rows.get(who)
            row["qc_soft_flags"] += counts["soft"]
            row["qc_hard_flags"] += counts["hard"]
        await _acceptance(db, part, rows)
        await _payments(db, study, worker, rows)
        await _worker_info(db, rows)
    return [_finish(row) for row in rows.rows.values()]


SORT_KEYS: dict[str, Callable[[dict[str, Any]], Any]] = {
    "worker_id": lambda r: r["worker_id"],
    "dialogs": lambda r: r["dialogs"]["total"],
    "complete": lambda r: r["dialogs"]["complete"],
    "abandoned": lambda r: r["dialogs"]["abandoned"],
    "timed_out": lambda r: r["dialogs"]["timed_out"],
    "messages": lambda r: r["messages"],
    "mean_chars": lambda r: r["mean_chars"],
    "median_chars": lambda r: r["median_chars"],
    "median_latency_ms": lambda r: r["median_latency_ms"],
    "violations": lambda r: r["violations"],
    "rule_bounces": lambda r: r["rule_bounces"],
    "qc_soft_flags": lambda r: r["qc_soft_flags"],
    "accepted": lambda r: r["final"]["accepted"],
    "rejected": lambda r: r["final"]["rejected"],
    "to_review": lambda r: r["final"]["to_review"],
    "acceptance_rate": lambda r: r["acceptance_rate"],
    "paid_cents": lambda r: r["payments"]["total_cents"],
}


def sort_rows(rows: list[dict[str, Any]], sort: str = "violations", descending: bool = True) -> list[dict]:
    """Rows ordered by ``sort`` (a key of SORT_KEYS); empty values last either way, ties by id."""
    key = SORT_KEYS[sort]
    present = [r for r in rows if key(r) is not None]
    missing = sorted((r for r in rows if key(r) is None), key=lambda r: r["worker_id"])
    present.sort(key=lambda r: r["worker_id"])
    present.sort(key=key, reverse=descending)
    return present + missing


async def table(
    sessions: async_sessionmaker,
    study: str,
    *,
    sort: str = "violations",
    descending: bool = True,
    min_violations: int = 0,
    limit: int = 50,
    offset: int = 0,
) -> dict[str, Any]:
    """One page of the sorted, filtered worker table, and how many rows there are in all."""
    rows = [r for r in await compute(sessions, study) if r["violations"] >= min_violations]
    ordered = sort_rows(rows, sort, descending)
    return {
        "total": len(ordered),
        "offset": offset,
        "limit": limit,
        "sort": sort,
        "order": "desc" if descending else "asc",
        "rows": ordered[offset : offset + limit],
    }
