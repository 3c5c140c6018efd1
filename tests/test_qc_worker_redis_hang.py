"""A QC worker whose Redis stops answering in the middle of a job (a real redis-server, stopped with
SIGSTOP: it keeps its connections and never answers) neither hangs nor loses the job.

The job's body runs to its end; writing its outcome then times out (AVD_QC_REDIS_TIMEOUT; rq's own
socket timeout was ~7 minutes, once per bookkeeping step), and the job stays "started" in Redis.
Once Redis answers again, rq's registry maintenance finds it abandoned and, QC jobs being enqueued
with retries (server.qc.jobs.job_options), runs it again. A worker told to stop (SIGTERM) meanwhile
exits; one that was not starts over and keeps serving its queue."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from rq import Queue, Worker
from rq.job import Job, JobStatus

from bench.harness import wait_ready
from server.qc.jobs import JOB_RETRIES, job_options
from server.redis_conn import EmbeddedRedis
from server.settings import REPO_ROOT

QUEUE = "hang-test-semantic"  # not a "-qc" queue: no rules warm-up
REDIS_TIMEOUT = 11  # seconds; the least the worker takes (its blocking pop waits 1 s)
JOB = "tests.qc_stand_in.note_and_wait"
BOUND = 120  # far above what it takes (~20 s), far below what it took (more than 14 minutes)


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[EmbeddedRedis]:
    """A redis-server of this test's own (it gets stopped), always continued and closed after."""
    own = EmbeddedRedis(tmp_path / "redis")
    pid = own.pid
    yield own
    os.kill(pid, signal.SIGCONT)
    own.close()


def start_worker(url: str, log: Path, *options: str) -> subprocess.Popen:
    env = dict(os.environ, REDIS_URL=url, AVD_QC_REDIS_TIMEOUT=str(REDIS_TIMEOUT))
    cmd = [sys.executable, "-m", "server.qc.worker", QUEUE, *options]
    return subprocess.Popen(cmd, cwd=REPO_ROOT, env=env, stdout=log.open("a"), stderr=subprocess.STDOUT)


def registered(connection: redis.Redis, queue: Queue) -> bool:
    return bool(Worker.all(connection=connection, queue=queue))


def wait_for(check, what: str, log: Path, timeout: float = BOUND) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"{what}; worker log:\n{log.read_text()[-4000:]}"
        time.sleep(0.1)


def rerun_abandoned(queue: Queue) -> None:
    """rq's registry maintenance as a worker runs it once the job's execution has expired (its
    timeout + 60 s after it started): here and now rather than 11 minutes later."""
    queue.started_job_registry.cleanup(timestamp=time.time() + 600 + 61)


def test_a_worker_stopped_mid_job_with_redis_hung_exits_and_the_job_runs_again(
    own_redis: EmbeddedRedis, tmp_path: Path
) -> None:
    connection = redis.Redis.from_url(own_redis.url)
    queue = Queue(QUEUE, connection=connection)
    log, runs = tmp_path / "worker.log", tmp_path / "runs"
    worker = start_worker(own_redis.url, log)
    try:
        wait_ready(worker, lambda: registered(connection, queue), log, "the QC worker")
        job = queue.enqueue(JOB, str(runs), 3, **job_options(600))
        wait_for(lambda: runs.exists(), "the job did not start", log)
        os.kill(own_redis.pid, signal.SIGSTOP)  # mid-job: Redis hangs
        worker.terminate()  # a warm shutdown: the job's body ends first
        try:
            code = worker.wait(BOUND)
        except subprocess.TimeoutExpired:
            code = None
    finally:
        if worker.poll() is None:
            worker.kill()
            worker.wait()
        os.kill(own_redis.pid, signal.SIGCONT)
    assert code == 0, (code, log.read_text()[-4000:])
    assert "Traceback" not in log.read_text()
    assert runs.read_text() == "start\ndone\n"  # its body ran to the end
    assert "its outcome is not recorded" in log.read_text()
    # not lost: still "started", until found abandoned and run again
    assert job.get_status(refresh=True) == JobStatus.STARTED
    assert job.id in queue.started_job_registry.get_job_ids()
    rerun_abandoned(queue)
    assert job.get_status(refresh=True) == JobStatus.QUEUED
    again = start_worker(own_redis.url, log, "--burst")
    assert again.wait(BOUND) == 0, log.read_text()[-4000:]
    job = Job.fetch(job.id, connection=connection)
    assert job.get_status() == JobStatus.FINISHED
    assert job.return_value() == 2 and job.retries_left == JOB_RETRIES - 1
    assert runs.read_text() == "start\ndone\n" * 2
    connection.close()


def test_a_worker_whose_redis_hangs_mid_job_gives_up_on_it_and_serves_on(
    own_redis: EmbeddedRedis, tmp_path: Path
) -> None:
    connection = redis.Redis.from_url(own_redis.url)
    queue = Queue(QUEUE, connection=connection)
    log, runs, later = tmp_path / "worker.log", tmp_path / "runs", tmp_path / "later"
    worker = start_worker(own_redis.url, log)
    try:
        wait_ready(worker, lambda: registered(connection, queue), log, "the QC worker")
        job = queue.enqueue(JOB, str(runs), 3, **job_options(600))
        wait_for(lambda: runs.exists(), "the job did not start", log)
        os.kill(own_redis.pid, signal.SIGSTOP)
        wait_for(lambda: "starting over" in log.read_text(), "the worker did not give up on Redis", log)
        os.kill(own_redis.pid, signal.SIGCONT)
        assert runs.read_text() == "start\ndone\n"
        assert job.get_status(refresh=True) == JobStatus.STARTED
        # the same process serves the queue again: a new job, then the abandoned one, run again
        fresh = queue.enqueue(JOB, str(later), 0, **job_options(600))
        wait_for(lambda: fresh.get_status(refresh=True) == JobStatus.FINISHED, "no new job done", log)
        assert len(Worker.all(connection=connection, queue=queue)) == 1  # the lost one's end noted
        rerun_abandoned(queue)
        wait_for(lambda: job.get_status(refresh=True) == JobStatus.FINISHED, "the job was not run again", log)
        assert runs.read_text() == "start\ndone\n" * 2
        assert worker.poll() is None
        worker.terminate()
        assert worker.wait(BOUND) == 0, log.read_text()[-4000:]
    finally:
        if worker.poll() is None:
            worker.kill()
            worker.wait()
        connection.close()
