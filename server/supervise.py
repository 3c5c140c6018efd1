"""How `avd serve` runs its processes: uvicorn and the QC workers as children in process groups of
their own, stopped within one shared deadline and then killed, so that no child (a worker retrying a
Redis that went away, a lifespan that hangs) can keep the service from exiting."""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable

from server.cli_common import console

STOP_SECONDS = 20.0  # what `avd serve` gives its processes to stop before it kills them
PR_SET_PDEATHSIG = 1  # prctl(2): the signal a process gets when its parent dies (Linux)


class StopSignals:
    """SIGTERM / SIGINT (Ctrl-C) for ``avd serve``: the first asks for a graceful stop, a second
    forces it (whatever still runs is killed at once)."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, signum: int, frame: object) -> None:
        self.count += 1

    @property
    def forced(self) -> bool:
        return self.count > 1


def stop_when_parent_dies(parent: int) -> Callable[[], None]:
    """What a child runs before it starts its command (``preexec_fn``): on Linux, ask the kernel
    for SIGTERM once ``avd serve`` dies, so that a SIGKILL of it (an OOM kill, ``kill -9``) leaves
    no server or worker behind, still holding the port or taking jobs. SIGTERM, not SIGKILL: each
    child then stops as on any stop (uvicorn stops its own worker processes, which a SIGKILL of it
    would leave running). The request survives the exec; it fires when the thread that started the
    child ends, so children must be started from the main thread."""

    libc = ctypes.CDLL(None, use_errno=True)  # looked up here: the child does little between fork and exec

    def request() -> None:
        if not sys.platform.startswith("linux"):
            return
        if libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_SET_PDEATHSIG) failed")
        if os.getppid() != parent:  # it died before the request: no signal will come
            os._exit(1)

    return request


def start_child(cmd: list[str]) -> subprocess.Popen:
    """A child in a process group of its own: a stop signals the child alone (uvicorn and rq each
    shut down their own way), a kill takes the whole group (uvicorn's worker processes too). It
    stops by itself if ``avd serve`` dies (``stop_when_parent_dies``)."""
    return subprocess.Popen(cmd, start_new_session=True, preexec_fn=stop_when_parent_dies(os.getpid()))


def group_left(proc: subprocess.Popen) -> bool:
    """Whether anything of a child's process group still runs: the child, or what it started."""
    if proc.poll() is None:
        return True
    try:
        os.killpg(proc.pid, 0)
    except (ProcessLookupError, PermissionError):
        return False
    return True


def stop_children(children: dict[str, subprocess.Popen], timeout: float, signals: StopSignals) -> list[str]:
    """Stop every child within one shared deadline; returns the names of those that were killed.

    Each gets SIGTERM: uvicorn stops accepting connections and drains them, an rq worker finishes
    its job (rq's warm shutdown). Whatever still runs ``timeout`` seconds later, or at once on a
    second signal, is killed with its process group (SIGKILL): a worker that retries a Redis that
    went away, or a lifespan that hangs, cannot keep ``avd serve`` from exiting.
    """
    for proc in children.values():
        if proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                proc.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + timeout
    while any(p.poll() is None for p in children.values()) and not signals.forced:
        if time.monotonic() >= deadline:
            break
        time.sleep(0.05)
    killed = [name for name, proc in children.items() if group_left(proc)]
    for name in killed:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(children[name].pid, signal.SIGKILL)
    for proc in children.values():
        proc.wait()
    return killed


def answers(health_url: str) -> bool:
    """Whether the server at ``health_url`` reports itself healthy (database and Redis checked)."""
    try:
        with urllib.request.urlopen(health_url, timeout=1) as response:
            return json.load(response).get("status") == "ok"
    except (OSError, ValueError):
        return False


def start_and_watch(
    children: dict[str, subprocess.Popen],
    commands: dict[str, list[str]],
    signals: StopSignals,
    health_url: str | None = None,
) -> None:
    """Start each command into ``children``; return on a stop signal or once the server (the
    first) has exited (a port in use, a crash), since the workers are no use without it.

    With ``health_url``, say once when the server first answers it: a cold start (migrations,
    fitting the rule classifiers) can take a minute on a slow machine, and a researcher who opens
    the printed URLs before then sees only "connection refused"."""
    for name, cmd in commands.items():
        children[name] = start_child(cmd)
    server = next(iter(children.values()))
    if health_url:
        console.print("Starting... (the first start can take a minute)")
    while not signals.count and server.poll() is None:
        if health_url and answers(health_url):
            console.print(f"[green]Ready:[/green] {health_url} answers")
            health_url = None
        time.sleep(0.2)
    if not signals.count:
        console.print(f"[red]the server exited (code {server.returncode}); stopping the workers[/red]")
