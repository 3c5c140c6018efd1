"""QC as jobs on RQ (a well-kept Redis job queue): one job per batch of dialogs.

RQ was chosen over hand-written queues for retries, failure registries and visibility,
and over asyncio queues (arq/saq) because QC is CPU-bound, synchronous work that is
simplest to scale by starting more worker processes (``avd qc worker``).
"""

from __future__ import annotations

import asyncio
from collections import Counter

import redis
from rq import Queue, Retry

from server.settings import Settings

BATCH = 200
JOB = "server.qc.jobs.qc_job"  # by name: the web process enqueues without importing the pipeline
SEMANTIC_JOB = "server.qc.jobs.semantic_job"
# Runs of a job after its first that rq allows: after an error, and after its worker died or lost
# Redis mid-job (rq's registry maintenance finds it abandoned once its timeout + 60 s have passed;
# server/qc/worker.py). The jobs are idempotent: verdicts and semantic scores already stored for the
# same configuration are kept, not computed again (with ``force``, computed again alike).
JOB_RETRIES = 3


def job_options(timeout: int) -> dict[str, object]:
    """How every QC and semantic job is enqueued: ``timeout`` seconds to run, its result kept a
    day, and ``JOB_RETRIES`` further runs if it fails or is abandoned."""
    return {"job_timeout": timeout, "result_ttl": 86400, "retry": Retry(JOB_RETRIES)}


def queue_name(study: str) -> str:
    return f"avd-{study}-qc"


def semantic_queue_name(study: str) -> str:
    """A queue of its own: only workers with the ml extra (`avd qc worker --semantic`) take it."""
    return f"avd-{study}-semantic"


def qc_queue(settings: Settings, redis_url: str) -> Queue:
    return Queue(queue_name(settings.study), connection=redis.Redis.from_url(redis_url))


def qc_job(study: str, dialog_ids: list[str], force: bool = False) -> dict[str, int]:
    """The job body, run in an RQ worker process whose environment holds the settings."""
    from server.db.engine import make_engine, make_sessionmaker
    from server.qc.pipeline import run_qc

    settings = Settings(study=study)

    async def run() -> Counter[str]:
        engine = make_engine(settings.resolved_database_url)
        try:
            sessions = make_sessionmaker(engine)
            counts = await run_qc(sessions, settings, dialog_ids, force)
            if settings.auto_eval:
                await launch_evaluations(sessions, settings)
            return counts
        finally:
            await engine.dispose()

    counts = dict(asyncio.run(run()))
    if settings.semantic_after_qc:
        from rq import get_current_job

        current = get_current_job()
        connection = current.connection if current else redis.Redis.from_url(settings.redis_url or "")
        Queue(semantic_queue_name(study), connection=connection).enqueue(
            SEMANTIC_JOB, study, dialog_ids, **job_options(3600)
        )
    return counts


def semantic_job(study: str, dialog_ids: list[str]) -> dict[str, int]:
    """Semantic checks of a batch after its QC; the worker process keeps the model loaded."""
    from server.db.engine import make_engine, make_sessionmaker
    from server.qc.semantic import run_semantic

    settings = Settings(study=study)

    async def run() -> dict[str, int]:
        engine = make_engine(settings.resolved_database_url)
        try:
            return dict(await run_semantic(make_sessionmaker(engine), settings, dialog_ids))
        finally:
            await engine.dispose()

    return asyncio.run(run())


async def launch_evaluations(sessions, settings: Settings, force: bool = False) -> list[str]:
    """Start the study's automatic evaluation runs if the accepted set grew enough (or forced)."""
    from server.evaluation.auto import AutoEvalPolicy, launch_due

    policy = AutoEvalPolicy.model_validate(settings.auto_eval)
    runs = await launch_due(sessions, settings, policy, settings.data_dir, force=force)
    return [run.id for run in runs]


def enqueue(queue: Queue, study: str, dialog_ids: list[str], force: bool = False) -> list[str]:
    """Enqueue in batches; returns the job ids."""
    jobs = []
    for start in range(0, len(dialog_ids), BATCH):
        batch = dialog_ids[start : start + BATCH]
        job = queue.enqueue(JOB, study, batch, force, **job_options(600))
        jobs.append(job.id)
    return jobs
