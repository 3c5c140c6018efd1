"""Evaluations that follow the data: launched when the accepted set has grown by N dialogs.

A study lists the runs it wants (:class:`AutoEvalPolicy`); after QC, :func:`launch_due`
counts the study's accepted dialogs, and when the count has grown by ``every`` since the
last automatic launch (or when forced, as after a bulk ``avd qc run --then-eval``), it
exports the accepted dialogs to a fresh folder and launches every listed run on it with
``trigger="auto"``. The accepted count is stored with each run, so the next check knows
where the last launch stood; each automatic run is recorded exactly like a manual one.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import async_sessionmaker

from server.db.eval_models import EvalRun
from server.evaluation import jobs


class AutoEvalRun(BaseModel):
    model_config = ConfigDict(extra="forbid")

    task: str
    model: str
    split: str = "test"
    backend: str = "local"
    options: dict[str, Any] = Field(default_factory=dict)
    backend_options: dict[str, Any] = Field(default_factory=dict)


class AutoEvalPolicy(BaseModel):
    model_config = ConfigDict(extra="forbid")

    every: int = Field(500, ge=1, description="Launch again each time this many more dialogs are accepted.")
    runs: list[AutoEvalRun] = Field(default_factory=list)
    seed: int = 0


async def accepted_count(sessionmaker: async_sessionmaker, study: str) -> int:
    from server.db.models import Dialog, QcResult

    query = (
        select(func.count())
        .select_from(QcResult)
        .join(Dialog, Dialog.id == QcResult.dialog_id)
        .where(Dialog.study == study, QcResult.verdict == "accept")
    )
    async with sessionmaker() as session:
        return int((await session.execute(query)).scalar_one())


async def last_launch_count(sessionmaker: async_sessionmaker, study: str) -> int | None:
    """The accepted count at the latest automatic launch of this study (None: never)."""
    query = select(EvalRun.config).where(EvalRun.study == study, EvalRun.trigger == "auto")
    async with sessionmaker() as session:
        counts = [int(c.get("accepted_count", 0)) for c in (await session.scalars(query)) if c]
    return max(counts) if counts else None


async def launch_due(
    sessionmaker: async_sessionmaker,
    settings: Any,
    policy: AutoEvalPolicy,
    out_root: Path,
    force: bool = False,
) -> list[EvalRun]:
    """Export the accepted dialogs and launch the policy's runs if they are due; returns the runs."""
    if not policy.runs:
        return []
    study = settings.study
    accepted = await accepted_count(sessionmaker, study)
    last = await last_launch_count(sessionmaker, study)
    due = accepted > 0 and (force or accepted - (last or 0) >= policy.every)
    if not due or accepted == last:
        return []
    from server.export.writer import ExportOptions, export_dataset

    export_dir = out_root / "exports" / f"{study}-accepted-{accepted}"
    await export_dataset(
        settings, export_dir, ExportOptions(status="accepted", seed=policy.seed, force=True), study=study
    )
    launched = []
    for run in policy.runs:
        launched.append(
            await jobs.launch(
                sessionmaker,
                task=run.task,
                model=run.model,
                data=export_dir,
                out_root=out_root / "eval-runs",
                split=run.split,
                backend=run.backend,
                options=run.options,
                backend_options=run.backend_options,
                cache_dir=out_root / "eval-cache",
                study=study,
                trigger="auto",
                extra_config={"accepted_count": accepted, "export_dir": str(export_dir)},
            )
        )
    return launched
