"""The QC jobs of ended dialogs: the dialogs that end within ``qc_enqueue_delay_seconds`` of each
other share one rq job (server/dialog/runtime.py, ``_queue_qc``), each dialog in it once, and a
dialog whose job was never queued (its process died first) is still judged by `avd qc run`.
Real Redis, real rq, a real QC worker process."""

from __future__ import annotations

import asyncio
import subprocess
import sys

import pytest
from sqlalchemy import select

from server.db.models import QcResult
from server.dialog.runtime import DialogRuntime
from server.qc.jobs import JOB, qc_queue, queue_name
from server.qc.pipeline import pending_dialogs
from server.services import Services
from server.settings import Settings
from tests.conftest import settings_env
from tests.test_lobby import join_in_order, make_workers, start_dialog
from tests.test_runtime_store import chat, form


@pytest.fixture
def settings(settings_factory, request) -> Settings:
    return settings_factory(rounds=2, **getattr(request, "param", {}))


async def start_dialogs(services: Services, runtime: DialogRuntime, stimuli, n: int) -> list[str]:
    await stimuli(n)
    await services.pool.sync_from_db(services.sessions, services.settings.study)
    await join_in_order(services.lobby, await make_workers(services, 2 * n))
    ids = []
    for _ in range(n):
        match = await services.lobby.pair_once()
        assert match is not None
        await start_dialog(services.lobby, runtime, match)
        ids.append(match.match_id)
    return ids


async def finish(runtime: DialogRuntime, dialog_id: str) -> None:
    await chat(runtime, dialog_id)
    assert (await runtime.handle(dialog_id, form("questioner", "f1", "before_reveal"))).changed
    assert (await runtime.handle(dialog_id, form("questioner", "f2", "after_reveal"))).changed
    out = await runtime.handle(dialog_id, form("answerer", "f3", "answerer"))  # the last step: finalize
    assert out is not None and out.state.final


def queued(settings: Settings) -> list[list[str]]:
    """The dialog ids of each QC job in the study's queue, in queue order."""
    queue = qc_queue(settings, settings.redis_url or "")
    jobs = queue.get_jobs()
    assert all(job.func_name == JOB and job.args[0] == settings.study for job in jobs)
    return [list(job.args[1]) for job in jobs]


@pytest.mark.parametrize("settings", [{"qc_enqueue_delay_seconds": 0.5}], indirect=True)
async def test_dialogs_ending_together_share_one_qc_job_each_dialog_once(
    services: Services, settings: Settings, stimuli, fitted_classifiers
):
    runtime = DialogRuntime(services)
    ids = await start_dialogs(services, runtime, stimuli, 4)
    for dialog_id in ids[:3]:
        await finish(runtime, dialog_id)
    assert await runtime.finish_record(ids[0])  # the safety net finalizes one again
    assert queued(settings) == []  # nothing queued before the delay has passed
    await asyncio.sleep(0.8)
    assert queued(settings) == [ids[:3]]  # one job, each dialog once
    await finish(runtime, ids[3])  # a dialog ending after the job was queued gets the next one
    await runtime.flush_qc()  # what the server does when it stops: no wait for the delay
    assert queued(settings) == [ids[:3], ids[3:]]
    # a real QC worker judges each dialog once
    worker = [sys.executable, "-m", "server.qc.worker", queue_name(settings.study), "--burst"]
    assert subprocess.run(worker, env=settings_env(settings), timeout=600).returncode == 0
    async with services.sessions() as db:
        judged = (await db.execute(select(QcResult.dialog_id).where(QcResult.dialog_id.in_(ids)))).scalars()
        assert sorted(judged) == sorted(ids)
    assert await pending_dialogs(services.sessions, settings) == []


@pytest.mark.parametrize("settings", [{"qc_enqueue_delay_seconds": 0}], indirect=True)
async def test_without_a_delay_each_dialog_is_queued_at_its_end(
    services: Services, settings: Settings, stimuli
):
    runtime = DialogRuntime(services)
    ids = await start_dialogs(services, runtime, stimuli, 2)
    for dialog_id in ids:
        await finish(runtime, dialog_id)
        await asyncio.sleep(0.3)  # the enqueue thread runs
        assert queued(settings)[-1] == [dialog_id]
    assert queued(settings) == [[ids[0]], [ids[1]]]


@pytest.mark.parametrize("settings", [{"qc_enqueue_delay_seconds": 60}], indirect=True)
async def test_a_dialog_whose_job_was_never_queued_is_left_for_qc_run(
    services: Services, settings: Settings, stimuli
):
    """The process dies between the dialog's end and its job: nothing in the queue, but the dialog
    is final without a verdict, which is what `avd qc run` judges (``pending_dialogs``)."""
    runtime = DialogRuntime(services)
    (dialog_id,) = await start_dialogs(services, runtime, stimuli, 1)
    await finish(runtime, dialog_id)
    assert runtime._qc_timer is not None
    runtime._qc_timer.cancel()  # the process is gone before the delay has passed
    await asyncio.sleep(0)
    assert queued(settings) == []
    assert await pending_dialogs(services.sessions, settings) == [dialog_id]
