"""Run one evaluation: build samples, reuse cached outputs, predict the rest, score, aggregate.

``python -m server.evaluation.runner SPEC.json`` is what every backend starts (a local
subprocess, a Slurm job through submitit, a Ray job), so all of them behave the same.
Writes into the run's directory: ``status.json`` (state + timestamps, updated as it goes),
``results.json`` (aggregates + config + code version + timings) and ``samples.jsonl``.
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


def _progress(iterable: Any, total: int, desc: str, enabled: bool) -> Any:
    """A tqdm bar on stderr (the job log); a plain start line when tqdm is not installed."""
    try:
        from tqdm import tqdm
    except ImportError:
        if enabled:
            print(f"{desc}: {total} batches", file=sys.stderr, flush=True)
        return iterable
    return tqdm(iterable, total=total, desc=desc, disable=not enabled, mininterval=1.0, file=sys.stderr)


def run(spec: RunSpec) -> dict[str, Any]:
    """Run the evaluation described by ``spec``; returns the results dict (also written to disk)."""
    from server.evaluation.cache import OutputCache
    from server.evaluation.data import ExportData
    from server.evaluation.models import load_model, pick_device
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
    samples = list(task.samples())
    timings["build_inputs_s"] = time.perf_counter() - t0

    t = time.perf_counter()
    device = pick_device(spec.device)
    model = load_model(spec.model, device=device)
    task.check_model(model)
    model = task.prepare(model, out)
    timings["load_model_s"] = time.perf_counter() - t

    cache = OutputCache(spec.cache_dir or out / "cache")
    key_model, key_task = model.fingerprint, task.name
    t = time.perf_counter()
    outputs = cache.get_many(key_model, key_task, (s.hash for s in samples))
    todo = [s for s in samples if s.hash not in outputs]
    unique_todo = list({s.hash: s for s in todo}.values())
    batch = max(1, config.batch_size)
    steps = range(0, len(unique_todo), batch)
    for start in _progress(steps, len(steps), f"{spec.task} {Path(spec.model).name}", spec.progress):
        chunk = unique_todo[start : start + batch]
        fresh = dict(zip((s.hash for s in chunk), task.predict(model, chunk), strict=True))
        cache.put_many(key_model, key_task, fresh)
        outputs.update(fresh)
        write_status(out, "running", done=len(outputs), total=len(samples))
    cache.close()
    timings["predict_s"] = time.perf_counter() - t

    t = time.perf_counter()
    ordered = [outputs[s.hash] for s in samples]
    scores = [task.score(s, o) for s, o in zip(samples, ordered, strict=True)]
    aggregates = task.aggregate(samples, ordered, scores)
    timings["score_s"] = time.perf_counter() - t
    timings["total_s"] = time.perf_counter() - t0

    with (out / "samples.jsonl").open("w") as fh:
        for s, o, sc in zip(samples, ordered, scores, strict=True):
            row = {
                "id": s.id,
                "hash": s.hash,
                "meta": s.meta,
                "inputs": s.inputs,
                "target": s.target,
                "output": o,
                "scores": sc,
            }
            fh.write(json.dumps(row, ensure_ascii=False, default=str) + "\n")
    results = {
        "run_id": spec.run_id,
        "task": spec.task,
        "model": spec.model,
        "model_fingerprint": key_model,
        "data": {"path": str(spec.data), "digest": data.digest, "split": spec.split},
        "config": config.model_dump(),
        "code_version": code_version(),
        "device": device,
        "n_samples": len(samples),
        "cache": {"reused": len(samples) - len(todo), "computed": len(todo)},
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
