"""``avd serve`` as a researcher runs it: the server answers, and the workers it starts beside it
serve the study's QC queue (and the semantic queue when QC jobs queue semantic ones)."""

from __future__ import annotations

import shutil
import subprocess
import time

import httpx
import pytest
import redis
from rq import Queue, Worker

from server.qc.jobs import queue_name, semantic_queue_name
from tests.conftest import free_port, settings_env


def workers_on(url: str, name: str) -> int:
    connection = redis.Redis.from_url(url)
    return len(Worker.all(connection=connection, queue=Queue(name, connection=connection)))


@pytest.mark.parametrize("semantic", [False, True])
def test_serve_starts_the_server_and_its_workers(settings_factory, tmp_path, semantic):
    settings = settings_factory(semantic_after_qc=semantic)
    port = free_port()
    log = tmp_path / "serve.log"
    env = settings_env(settings)
    cmd = [shutil.which("avd") or "avd", "serve", "--port", str(port), "--qc-workers", "2"]
    proc = subprocess.Popen(cmd, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT)
    try:
        deadline = time.time() + 120
        expected = {queue_name(settings.study): 2, semantic_queue_name(settings.study): int(semantic)}
        while True:
            assert proc.poll() is None, log.read_text()
            try:
                healthy = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).json()["status"] == "ok"
            except httpx.HTTPError:
                healthy = False
            found = {name: workers_on(settings.redis_url, name) for name in expected}
            if healthy and found == expected:
                break
            assert time.time() < deadline, (found, log.read_text())
            time.sleep(0.3)
    finally:
        proc.terminate()
        proc.wait(60)
    # the workers went with the server: none is left serving the queues
    deadline = time.time() + 30
    while any(workers_on(settings.redis_url, name) for name in expected):
        assert time.time() < deadline, "workers outlived avd serve"
        time.sleep(0.3)
