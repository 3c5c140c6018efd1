"""Evaluation runs in the database: launch, refresh from the run directory, list, cancel.

The database row is the index researchers (and the dashboard) see; the run directory is
the truth. :func:`refresh` folds ``status.json`` / ``results.json`` and the backend's view
of the process into the row, so the row is right whichever machine ran the job.
"""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import async_sessionmaker

from server.db.eval_models import EvalRun
from server.evaluation.launchers import ALIVE, QUEUED, make_launcher
from server.evaluation.runner import RunSpec, write_status

FINAL = ("succeeded", "failed", "cancelled")
DETAIL_KEYS = {"per_round", "confusion", "per_class_f1", "labels", "by_variant", "share"}


def summarise(metrics: dict[str, Any], depth: int = 2, prefix: str = "") -> dict[str, Any]:
    """The headline numbers of a results dict (scalars up to ``depth`` levels, no tables)."""
    out: dict[str, Any] = {}
    for key, value in metrics.items():
        name = f"{prefix}{key}"
        if isinstance(value, bool) or value is None or isinstance(value, int | float | str):
            out[name] = value
        elif isinstance(value, dict) and depth > 1 and key not in DETAIL_KEYS:
            out.update(summarise(value, depth - 1, f"{name}."))
    return out


def _parse_time(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value else None


async def launch(
    sessionmaker: async_sessionmaker,
    *,
    task: str,
    model: str,
    data: str | Path,
    out_root: Path,
    split: str = "test",
    backend: str = "local",
    options: dict[str, Any] | None = None,
    backend_options: dict[str, Any] | None = None,
    cache_dir: Path | None = None,
    study: str = "default",
    trigger: str = "manual",
    device: str | None = None,
    extra_config: dict[str, Any] | None = None,
) -> EvalRun:
    """Record a run, then submit it; the row holds everything needed to ask about it later."""
    from server.evaluation.runner import code_version
    from server.evaluation.tasks import task_class

    cls = task_class(task)
    config = cls.Config(**(options or {}))  # fail here, before anything is submitted
    run_id = uuid.uuid4().hex
    out_dir = (out_root / f"{task}-{run_id[:8]}").resolve()
    spec = RunSpec(
        run_id=run_id,
        task=task,
        model=model if model.startswith("random") or model == "minilm" else str(Path(model).resolve()),
        data=str(Path(data).resolve()),
        split=split,
        out=str(out_dir),
        cache_dir=str(cache_dir.resolve()) if cache_dir else None,
        device=device,
        options=config.model_dump(exclude_defaults=True),
        progress=True,
    )
    run = EvalRun(
        id=run_id,
        study=study,
        task=task,
        model=spec.model,
        data_dir=spec.data,
        split=split,
        out_dir=str(out_dir),
        backend=backend,
        status="queued",
        trigger=trigger,
        config={
            "task": config.model_dump(),
            "backend_options": backend_options or {},
            "device": device,
            **(extra_config or {}),
        },
        code_version=code_version(),
    )
    async with sessionmaker() as session:
        session.add(run)
        await session.commit()
    launcher = make_launcher(backend, backend_options)
    try:
        job_id = launcher.submit(spec)
    except Exception as exc:
        async with sessionmaker() as session:
            row = await session.get(EvalRun, run_id)
            row.status, row.error, row.finished_at = "failed", f"submit failed: {exc}", datetime.now(UTC)
            await session.commit()
        raise
    async with sessionmaker() as session:
        row = await session.get(EvalRun, run_id)
        row.backend_job_id = job_id
        await session.commit()
        return row


def _launcher_for(run: EvalRun):
    return make_launcher(run.backend, (run.config or {}).get("backend_options"))


async def get_run(sessionmaker: async_sessionmaker, run_id: str) -> EvalRun:
    """A run by id or unique id prefix."""
    async with sessionmaker() as session:
        rows = (await session.scalars(select(EvalRun).where(EvalRun.id.startswith(run_id)).limit(2))).all()
    if not rows:
        raise KeyError(f"no evaluation run {run_id!r}")
    if len(rows) > 1:
        raise KeyError(f"run id prefix {run_id!r} is ambiguous")
    return rows[0]


async def refresh(sessionmaker: async_sessionmaker, run_id: str) -> EvalRun:
    """Bring the row up to date with the run directory and the backend."""
    run = await get_run(sessionmaker, run_id)
    if run.status in FINAL:
        return run
    out = Path(run.out_dir)
    status = json.loads((out / "status.json").read_text()) if (out / "status.json").exists() else {}
    state = status.get("state")
    updates: dict[str, Any] = {}
    if state in FINAL:
        updates["status"] = state
    else:
        alive = _launcher_for(run).state(run.backend_job_id, out) if run.backend_job_id else QUEUED
        if alive == QUEUED:
            updates["status"] = "queued"
        elif alive == ALIVE:
            updates["status"] = "running"
        else:  # the process is gone without a final word from the runner
            updates["status"] = "failed"
            updates["error"] = "the job ended without reporting a result (killed, out of memory?)"
            write_status(out, "failed", error=updates["error"])
    updates["started_at"] = _parse_time(status.get("started_at"))
    if updates["status"] in FINAL:
        updates["finished_at"] = _parse_time(status.get("finished_at")) or datetime.now(UTC)
    if state == "failed":
        updates["error"] = status.get("error")
    if (out / "results.json").exists() and updates["status"] == "succeeded":
        results = json.loads((out / "results.json").read_text())
        updates["summary"] = summarise(results.get("metrics", {}))
        updates["timings"] = results.get("timings")
        updates["code_version"] = results.get("code_version") or run.code_version
    async with sessionmaker() as session:
        row = await session.get(EvalRun, run.id)
        for key, value in updates.items():
            if value is not None or key == "error":
                setattr(row, key, value)
        await session.commit()
        return row


async def list_runs(
    sessionmaker: async_sessionmaker, study: str | None = None, limit: int = 50
) -> list[EvalRun]:
    query = select(EvalRun).order_by(EvalRun.created_at.desc()).limit(limit)
    if study:
        query = query.where(EvalRun.study == study)
    async with sessionmaker() as session:
        rows = (await session.scalars(query)).all()
    return [await refresh(sessionmaker, r.id) if r.status not in FINAL else r for r in rows]


async def cancel(sessionmaker: async_sessionmaker, run_id: str) -> EvalRun:
    run = await refresh(sessionmaker, run_id)
    if run.status in FINAL:
        return run
    write_status(Path(run.out_dir), "cancelled", finished_at=datetime.now(UTC).isoformat())
    if run.backend_job_id:
        _launcher_for(run).cancel(run.backend_job_id, Path(run.out_dir))
    async with sessionmaker() as session:
        row = await session.get(EvalRun, run.id)
        row.status, row.finished_at = "cancelled", datetime.now(UTC)
        await session.commit()
        return row


def logs(run: EvalRun) -> str:
    if not run.backend_job_id:
        return ""
    return _launcher_for(run).logs(run.backend_job_id, Path(run.out_dir))


def results(run: EvalRun) -> dict[str, Any] | None:
    path = Path(run.out_dir) / "results.json"
    return json.loads(path.read_text()) if path.exists() else None


def as_dict(run: EvalRun) -> dict[str, Any]:
    """JSON-ready view of a row (for ``avd eval status --json`` and the dashboard)."""
    return {
        "id": run.id,
        "study": run.study,
        "task": run.task,
        "model": run.model,
        "data_dir": run.data_dir,
        "split": run.split,
        "backend": run.backend,
        "backend_job_id": run.backend_job_id,
        "status": run.status,
        "trigger": run.trigger,
        "out_dir": run.out_dir,
        "code_version": run.code_version,
        "summary": run.summary,
        "timings": run.timings,
        "error": run.error,
        "created_at": run.created_at.isoformat() if run.created_at else None,
        "started_at": run.started_at.isoformat() if run.started_at else None,
        "finished_at": run.finished_at.isoformat() if run.finished_at else None,
    }
