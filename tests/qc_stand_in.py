"""A stand-in job body for the QC worker tests (tests/test_qc_worker_redis_hang.py), run by a real
worker process (``python -m server.qc.worker``) that imports it by name."""

from __future__ import annotations

import time
from pathlib import Path


def note_and_wait(runs: str, seconds: float) -> int:
    """Note the start and the end of each run in the file ``runs``; take ``seconds`` in between.
    Idempotent like the QC jobs: running it again changes nothing but the notes."""
    path = Path(runs)
    with path.open("a") as f:
        f.write("start\n")
    time.sleep(seconds)
    with path.open("a") as f:
        f.write("done\n")
    return path.read_text().count("done")
