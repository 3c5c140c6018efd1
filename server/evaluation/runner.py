"""Run one evaluation: build samples, reuse cached outputs, predict the rest, score, aggregate.

``python -m server.evaluation.runner SPEC.json`` is what every backend starts (a local
subprocess, a Slurm job through submitit, a Ray job), so all of them behave the same.
Writes into the run's directory: ``status.json`` (state + timestamps, updated as it goes),
``results.json`` (aggregates + config + code version + timings) and ``samples.jsonl``
(written as the run goes, under ``samples.jsonl.partial`` until it succeeds).
The run streams a window of samples at a time (see :func:`run`), so a retrieval split of a
million rounds does not have to fit in memory.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import traceback
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from server.settings import REPO_ROOT


class RunSpec(BaseModel):
    run_id: str
    task: str
    model: str
    data: str
    split: str = "test"
    out: str
    cache_dir: str | None = None
    device: str | None = None
    options: dict[str, Any] = Field(default_factory=dict)
    progress: bool = True

    @property
    def out_dir(self) -> Path:
        return Path(self.out)


def code_version() -> str:
    """``git describe``-style revision of the code that ran (``-dirty`` when edited)."""
    try:
        rev = subprocess.run(
            ["git", "-C", str(REPO_ROOT), "rev-parse", "--short=12", "HEAD"],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(REPO_ROOT), "status", "--porcelain", "--untracked-files=no", "--", "server"],
            capture_output=True,
            text=True,
            timeout=10,
        ).stdout.strip()
        return rev + ("-dirty" if dirty else "")
    except (OSError, subprocess.SubprocessError):
        from importlib.metadata import version

        return f"avd-{version('avd')}"


def _now() -> str:
    return datetime.now(UTC).isoformat()


def write_status(out: Path, state: str, **extra: Any) -> None:
    path = out / "status.json"
    current = json.loads(path.read_text()) if path.exists() else {}
    if current.get("state") == "cancelled":  # a cancel is final, whatever the dying job says
        return
    current.update(state=state, updated_at=_now(), **extra)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(current, indent=1))
    tmp.replace(path)


STATUS_EVERY_S = 1.0  # status.json is rewritten at most this often while the run goes


class _Progress:
    """Bar on stderr plus ``done``/``total`` in status.json, both counted in samples."""

    def __init__(self, out: Path, total: int | None, desc: str, enabled: bool) -> None:
        from server.evaluation.stream import progress_bar

        self.out, self.total, self.done = out, total, 0
        self.bar = progress_bar(total, desc, enabled)
        self.written_at = 0.0

    def __call__(self, n: int) -> None:
        self.done += n
        self.bar.update(n)
        if time.monotonic() - self.written_at >= STATUS_EVERY_S:
            self.written_at = time.monotonic()
            write_status(self.out, "running", done=self.done, total=self.total)

    def close(self) -> None:
        self.bar.close()


def run(spec: RunSpec) -> dict[str, Any]:
    """Run the evaluation described by ``spec``; returns the results dict (also written to disk).

    Streams (:mod:`server.evaluation.stream`): samples go from the input builder through the
    cache, the model and scoring to ``samples.jsonl`` a window at a time, and the metrics are
    accumulated, so memory does not grow with the number of samples beyond what the task's
    accumulator keeps (one int per round for retrieval).
    """
    from server.evaluation.cache import OutputCache
    from server.evaluation.data import ExportData
    from server.evaluation.models import load_model, pick_device
    from server.evaluation.stream import WINDOW_BATCHES, ScoredStream, next_window
    from server.evaluation.tasks import task_class

    out = spec.out_dir
    out.mkdir(parents=True, exist_ok=True)
    timings: dict[str, float] = {}
    t0 = time.perf_counter()
    write_status(out, "running", started_at=_now(), pid=os.getpid(), host=os.uname().nodename)

    cls = task_class(spec.task)
    config = cls.Config(**spec.options)
    data = ExportData.load(spec.data)
    task = cls(config, data, spec.split)
    samples = iter(task.samples())
    size = max(1, config.batch_size) * WINDOW_BATCHES
    window = next_window(samples, size, timings)  # bad data shows before the model loads
    t = time.perf_counter()
    total = task.count()
    timings["build_inputs_s"] += time.perf_counter() - t

    t = time.perf_counter()
    device = pick_device(spec.device)
    model = load_model(spec.model, device=device)
    task.check_model(model)
    model = task.prepare(model, out)
    timings["load_model_s"] = time.perf_counter() - t

    cache = OutputCache(spec.cache_dir or out / "cache")
    progress = _Progress(out, total, f"{spec.task} {Path(spec.model).name}", spec.progress)
    stream = ScoredStream(task, model, cache, on_progress=progress)
    partial = out / "samples.jsonl.partial"
    try:
        with partial.open("w") as fh:
            while window:
                stream.consume(window, fh)
                window = next_window(samples, size, timings)
    finally:
        progress.close()
        cache.close()
    aggregates = stream.metrics()
    partial.replace(out / "samples.jsonl")
    timings.update(stream.timings)
    timings["total_s"] = time.perf_counter() - t0

    results = {
        "run_id": spec.run_id,
        "task": spec.task,
        "model": spec.model,
        "model_fingerprint": model.fingerprint,
        "data": {"path": str(spec.data), "digest": data.digest, "split": spec.split},
        "config": config.model_dump(),
        "code_version": code_version(),
        "device": device,
        "n_samples": stream.n,
        "cache": {"reused": stream.n - stream.computed, "computed": stream.computed},
        "timings": {k: round(v, 3) for k, v in timings.items()},
        "metrics": aggregates,
        "finished_at": _now(),
    }
    (out / "results.json").write_text(json.dumps(results, indent=1, default=str))
    write_status(out, "succeeded", finished_at=_now())
    return results


def run_spec_file(path: str | Path) -> dict[str, Any]:
    """Entry point of every backend: read the spec, run, record failure in status.json."""
    spec = RunSpec.model_validate_json(Path(path).read_text())
    try:
        return run(spec)
    except BaseException as exc:
        spec.out_dir.mkdir(parents=True, exist_ok=True)
        write_status(
            spec.out_dir,
            "failed",
            finished_at=_now(),
            error=f"{type(exc).__name__}: {exc}",
            traceback=traceback.format_exc(),
        )
        raise


if __name__ == "__main__":
    run_spec_file(sys.argv[1])
