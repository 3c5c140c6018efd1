"""The runner's loop: a window of samples at a time from the input builder to ``samples.jsonl``.

Each window (``WINDOW_BATCHES`` model batches) is built and hashed, its outputs looked up in
the cache, the missing ones predicted a model batch at a time (and stored per batch, so a
crash loses one batch), scored in one call, fed to the task's accumulator and written out.
Then it is dropped: memory holds one window plus whatever the accumulator keeps, however
many samples the split has.
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from itertools import islice
from typing import IO, Any

from server.evaluation.cache import OutputCache
from server.evaluation.tasks.base import Sample, Task

WINDOW_BATCHES = 32  # model batches built, looked up, scored and written together


class _StartLine:
    """Stands in for a tqdm bar when tqdm is not installed: one line at the start."""

    def __init__(self, total: int | None, desc: str, enabled: bool) -> None:
        if enabled:
            count = "an unknown number of" if total is None else str(total)
            print(f"{desc}: {count} samples", file=sys.stderr, flush=True)

    def update(self, n: int) -> None:
        pass

    def close(self) -> None:
        pass


def progress_bar(total: int | None, desc: str, enabled: bool) -> Any:
    """A bar of samples on stderr (the job log); with ``total=None`` it shows count and rate."""
    try:
        from tqdm import tqdm
    except ImportError:
        return _StartLine(total, desc, enabled)
    return tqdm(total=total, desc=desc, unit="sample", disable=not enabled, mininterval=1.0, file=sys.stderr)


def next_window(samples: Iterator[Sample], size: int, timings: dict[str, float]) -> list[Sample]:
    """The next ``size`` samples, built and hashed (the time counts as input building)."""
    t = time.perf_counter()
    window = list(islice(samples, size))
    for s in window:
        _ = s.hash  # computed once here, where building time is measured
    timings["build_inputs_s"] = timings.get("build_inputs_s", 0.0) + time.perf_counter() - t
    return window


class ScoredStream:
    """Outputs, scores, metrics and rows for the windows given to :meth:`consume`.

    ``computed`` counts the samples whose output was not in the cache when the run started
    (as a run that looked everything up first would), repeated samples included.
    """

    def __init__(
        self,
        task: Task,
        model: Any,
        cache: OutputCache,
        on_progress: Callable[[int], None] = lambda done: None,
    ) -> None:
        self.task, self.model, self.cache = task, model, cache
        self.keys = (model.fingerprint, task.name)
        self.mark = cache.mark()  # rows stored after this one were computed during this run
        self.batch = max(1, task.config.batch_size)
        self.accumulator = task.accumulator()
        self.on_progress = on_progress
        self.n = self.computed = 0
        self.timings = {"predict_s": 0.0, "score_s": 0.0, "write_s": 0.0}

    def outputs(self, window: list[Sample]) -> dict[str, Any]:
        """Outputs by hash: what the cache has, then the rest predicted a model batch at a time."""
        t = time.perf_counter()
        found = self.cache.lookup(*self.keys, (s.hash for s in window), self.mark)
        outputs = {h: output for h, (output, _) in found.items()}
        self.computed += sum(1 for s in window if not (s.hash in found and found[s.hash][1]))
        per_hash = Counter(s.hash for s in window)
        todo = list({s.hash: s for s in window if s.hash not in outputs}.values())
        self.on_progress(len(window) - sum(per_hash[s.hash] for s in todo))
        for start in range(0, len(todo), self.batch):
            chunk = todo[start : start + self.batch]
            fresh = dict(zip((s.hash for s in chunk), self.task.predict(self.model, chunk), strict=True))
            self.cache.put_many(*self.keys, fresh)
            outputs.update(fresh)
            self.on_progress(sum(per_hash[h] for h in fresh))
        self.timings["predict_s"] += time.perf_counter() - t
        return outputs

    def consume(self, window: list[Sample], fh: IO[str]) -> None:
        """Predict (or reuse), score, accumulate and write one window."""
        outputs = self.outputs(window)
        t = time.perf_counter()
        ordered = [outputs[s.hash] for s in window]
        scores = self.task.score_batch(window, ordered)
        for s, o, sc in zip(window, ordered, scores, strict=True):
            self.accumulator.add(s, o, sc)
        t_write = time.perf_counter()
        for s, o, sc in zip(window, ordered, scores, strict=True):
            fh.write(json.dumps(sample_row(s, o, sc), ensure_ascii=False, default=str) + "\n")
        self.n += len(window)
        self.timings["score_s"] += t_write - t
        self.timings["write_s"] += time.perf_counter() - t_write

    def metrics(self) -> dict[str, Any]:
        """The corpus metrics, once every window went through."""
        t = time.perf_counter()
        result = self.accumulator.result()
        self.timings["score_s"] += time.perf_counter() - t
        return result


def sample_row(sample: Sample, output: Any, scores: dict[str, Any]) -> dict[str, Any]:
    """One line of ``samples.jsonl``."""
    return {
        "id": sample.id,
        "hash": sample.hash,
        "meta": sample.meta,
        "inputs": sample.inputs,
        "target": sample.target,
        "output": output,
        "scores": scores,
    }
