"""How `avd serve` runs its processes: uvicorn and the QC workers as children in process groups of
their own, stopped within one shared deadline and then killed, so that no child (a worker retrying a
Redis that went away, a lifespan that hangs) can keep the service from exiting."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time

from server.cli_common import console

STOP_SECONDS = 20.0  # what `avd serve` gives its processes to stop before it kills them


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


def start_child(cmd: list[str]) -> subprocess.Popen:
    """A child in a process group of its own: a stop signals the child alone (uvicorn and rq each
    shut down their own way), a kill takes the whole group (uvicorn's worker processes too)."""
    return subprocess.Popen(cmd, start_new_session=True)


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


def start_and_watch(
    children: dict[str, subprocess.Popen], commands: dict[str, list[str]], signals: StopSignals
) -> None:
    """Start each command into ``children``; return on a stop signal or once the server (the
    first) has exited (a port in use, a crash), since the workers are no use without it."""
    for name, cmd in commands.items():
        children[name] = start_child(cmd)
    server = next(iter(children.values()))
    while not signals.count and server.poll() is None:
        time.sleep(0.2)
    if not signals.count:
        console.print(f"[red]the server exited (code {server.returncode}); stopping the workers[/red]")
