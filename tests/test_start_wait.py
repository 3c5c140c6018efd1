"""Starting a server or worker process for the tests and benchmarks (bench.harness.wait_ready): the
time allowed comes from AVD_TEST_START_TIMEOUT (180 s by default), and a start that fails says why,
quoting the end of what the process wrote to stderr. Real child processes, no server needed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bench.harness import (
    DEFAULT_START_TIMEOUT,
    START_TIMEOUT_ENV,
    StartError,
    healthy,
    start_timeout,
    wait_ready,
)
from tests.conftest import free_port


def child(code: str, log: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", code], stdout=log.open("w"), stderr=subprocess.STDOUT)


def test_the_start_timeout_is_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(START_TIMEOUT_ENV, raising=False)
    assert start_timeout() == DEFAULT_START_TIMEOUT == 180
    monkeypatch.setenv(START_TIMEOUT_ENV, "600")
    assert start_timeout() == 600
    monkeypatch.setenv(START_TIMEOUT_ENV, " 2.5 ")
    assert start_timeout() == 2.5
    for bad in ("soon", "0", "-3", "nan"):
        monkeypatch.setenv(START_TIMEOUT_ENV, bad)
        with pytest.raises(ValueError, match=START_TIMEOUT_ENV):
            start_timeout()


def test_a_process_that_exits_at_start_shows_its_code_and_stderr(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    code = (
        "import sys; print('x' * 9000, flush=True); "
        "sys.stderr.write('ImportError: no module named nowhere\\n'); sys.exit(3)"
    )
    proc = child(code, log)
    with pytest.raises(StartError) as info:
        wait_ready(proc, healthy(f"http://127.0.0.1:{free_port()}/healthz"), log, "the test server")
    message = str(info.value)
    assert "the test server exited with code 3" in message
    assert message.endswith("ImportError: no module named nowhere\n")  # the tail, not the head
    assert len(message) < 4500


def test_a_process_that_never_gets_ready_is_killed_and_shows_its_stderr(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(START_TIMEOUT_ENV, "1")
    log = tmp_path / "server.log"
    code = (
        "import sys, time; sys.stderr.write('waiting for a lock held elsewhere\\n'); "
        "sys.stderr.flush(); time.sleep(600)"
    )
    proc = child(code, log)
    with pytest.raises(StartError) as info:
        wait_ready(proc, healthy(f"http://127.0.0.1:{free_port()}/healthz"), log, "the test server")
    message = str(info.value)
    assert "the test server was not ready after" in message
    assert START_TIMEOUT_ENV in message  # how to give it more time
    assert "ConnectError" in message  # what the last check saw
    assert "waiting for a lock held elsewhere" in message
    assert proc.poll() is not None  # killed, not left running


def test_ready_returns_once_the_check_passes(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    flag = tmp_path / "ready"
    proc = child(f"import pathlib, time; pathlib.Path({str(flag)!r}).touch(); time.sleep(600)", log)
    try:
        wait_ready(proc, flag.exists, log, "the test server")
        assert proc.poll() is None
    finally:
        proc.kill()
        proc.wait()
