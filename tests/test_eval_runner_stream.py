"""The runner streams: one window of samples is alive at a time, and what it writes equals the
computation over whole lists (all samples built, predicted, scored, then aggregated)."""

from __future__ import annotations

import gc
import json
import math
import tracemalloc
from itertools import islice
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from server.evaluation.data import ExportData
from server.evaluation.models import RandomModel, pick_device
from server.evaluation.runner import RunSpec, run
from server.evaluation.stream import WINDOW_BATCHES, sample_row
from server.evaluation.synthetic import write_large_export, write_synthetic_export
from server.evaluation.tasks import task_class
from server.evaluation.tasks.base import Sample
from server.evaluation.tasks.retrieval import RetrievalConfig, RetrievalTask


@pytest.fixture(scope="module")
def export(tmp_path_factory) -> Path:
    return write_synthetic_export(tmp_path_factory.mktemp("export"), n_dialogs=40, seed=5)


def _whole_lists(task_name: str, options: dict[str, Any], data: Path, split: str, seed: int) -> dict:
    """What the runner did before it streamed: every sample in memory, scored one by one."""
    cls = task_class(task_name)
    task = cls(cls.Config(**options), ExportData.load(data), split)
    samples = list(task.samples())
    model = task.prepare(RandomModel(seed), None)
    outputs = task.predict(model, samples)
    scores = [task.score(s, o) for s, o in zip(samples, outputs, strict=True)]
    return {
        "metrics": task.aggregate(samples, outputs, scores),
        "rows": [sample_row(s, o, sc) for s, o, sc in zip(samples, outputs, scores, strict=True)],
    }


def _rows(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "samples.jsonl").open()]


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value, ensure_ascii=False, default=str))


# small batches make small windows (32 batches): every case below spans several windows
CASES = [
    ("retrieval", {"batch_size": 2}),
    ("retrieval", {"batch_size": 3, "history": False, "caption": True}),
    ("generation", {"batch_size": 2}),
    ("zeroshot", {"batch_size": 2, "variants": ["base", "shuffled", "persona_negative"]}),
    ("multichoice", {"batch_size": 2}),
    ("classifier", {"batch_size": 1}),
]


@pytest.mark.parametrize(("task_name", "options"), CASES, ids=[f"{t}-{i}" for i, (t, _) in enumerate(CASES)])
def test_streamed_run_equals_whole_list_computation(export: Path, tmp_path: Path, task_name, options):
    spec = RunSpec(
        run_id="s",
        task=task_name,
        model="random:4",
        data=str(export),
        split="all",
        out=str(tmp_path / "a"),
        cache_dir=str(tmp_path / "cache"),
        options=options,
        progress=False,
    )
    first = run(spec)
    expected = _whole_lists(task_name, options, export, "all", seed=4)
    n = len(expected["rows"])
    assert n > WINDOW_BATCHES * options["batch_size"]
    assert first["metrics"] == expected["metrics"]
    assert json.loads((tmp_path / "a" / "results.json").read_text())["metrics"] == _json(expected["metrics"])
    assert _rows(tmp_path / "a") == _json(expected["rows"])
    assert first["n_samples"] == n and first["cache"] == {"reused": 0, "computed": n}
    status = json.loads((tmp_path / "a" / "status.json").read_text())
    assert status["state"] == "succeeded" and status["total"] == n
    assert not (tmp_path / "a" / "samples.jsonl.partial").exists()

    again = run(spec.model_copy(update={"out": str(tmp_path / "b")}))
    assert again["cache"] == {"reused": n, "computed": 0}
    assert again["metrics"] == first["metrics"]
    assert _rows(tmp_path / "b") == _rows(tmp_path / "a")


def test_a_sample_repeated_in_a_later_window_counts_as_computed(export: Path, tmp_path: Path):
    """As when every output was looked up before predicting: computed = not cached at the start."""
    data = tmp_path / "data"
    data.mkdir()
    for name in ("dialogs.jsonl", "splits.json"):
        (data / name).write_text((export / name).read_text())
    doc = json.loads((export / "retrieval" / "test.json").read_text())
    doc["data"]["dialogs"].append(doc["data"]["dialogs"][0])  # the first dialog's rounds again, last
    (data / "retrieval").mkdir()
    (data / "retrieval" / "test.json").write_text(json.dumps(doc))

    spec = RunSpec(
        run_id="d",
        task="retrieval",
        model="random:2",
        data=str(data),
        out=str(tmp_path / "a"),
        cache_dir=str(tmp_path / "cache"),
        options={"batch_size": 2},
        progress=False,
    )
    first = run(spec)
    expected = _whole_lists("retrieval", {"batch_size": 2}, data, "test", seed=2)
    n = len(expected["rows"])
    assert n > WINDOW_BATCHES * 2 and len({r["hash"] for r in expected["rows"]}) == n - 10
    assert first["cache"] == {"reused": 0, "computed": n}
    assert first["metrics"] == expected["metrics"] and _rows(tmp_path / "a") == _json(expected["rows"])
    again = run(spec.model_copy(update={"out": str(tmp_path / "b")}))
    assert again["cache"] == {"reused": n, "computed": 0}


def test_batch_scores_equal_one_by_one():
    """The vectorised retrieval scoring, with ties, NaN (failed scorer) and a short round."""
    task = RetrievalTask(RetrievalConfig(), data=None, split="test")  # type: ignore[arg-type]
    rng = np.random.default_rng(3)
    samples, outputs = [], []
    for i in range(40):
        row = np.round(rng.random(100), 1).tolist()  # coarse: many ties
        if i % 7 == 0:
            row[int(rng.integers(100))] = math.nan
        target = int(rng.integers(100))
        if i == 5:
            row[target] = math.nan
        samples.append(Sample(str(i), {"candidates": [str(k) for k in range(100)]}, target, {"round": 1}))
        outputs.append(row)
    one_by_one = [task.score(s, o) for s, o in zip(samples, outputs, strict=True)]
    assert task.score_batch(samples, outputs) == one_by_one
    assert one_by_one[5] == {"rank": 100, "failed": True}
    j = next(i for i, s in enumerate(samples) if s.target < 60)  # a round with 60 candidates
    mixed, short = [samples[0], samples[j]], [outputs[0], outputs[j][:60]]
    assert task.score_batch(mixed, short) == [task.score(s, o) for s, o in zip(mixed, short, strict=True)]


def test_a_large_retrieval_run_keeps_one_window_of_samples(export: Path, tmp_path: Path):
    """20,000 rounds: the run's traced peak, beyond what the export itself takes, stays far below
    what holding every sample with its output takes (what the runner did before it streamed)."""
    pick_device(None)  # import torch, the runner's modules and tqdm before anything is traced
    warm = RunSpec(run_id="w", task="retrieval", model="random", data=str(export), out=str(tmp_path / "w"))
    run(warm.model_copy(update={"progress": False}))
    big = write_large_export(tmp_path / "big", n_dialogs=2000, seed=1)
    rounds, probe = 20_000, 2_000

    tracemalloc.start()
    try:
        data = ExportData.load(big)
        data_size, data_peak = tracemalloc.get_traced_memory()
        task = RetrievalTask(RetrievalConfig(), data, "all")
        held = list(islice(task.samples(), probe))  # whole dialogs: 10 rounds each, in file order
        held_outputs = task.predict(RandomModel(1), held)
        whole_run = (tracemalloc.get_traced_memory()[0] - data_size) * rounds // probe
        del data, task, held, held_outputs
        gc.collect()
        tracemalloc.stop()

        tracemalloc.start()
        result = run(
            RunSpec(
                run_id="big",
                task="retrieval",
                model="random:1",
                data=str(big),
                split="all",
                out=str(tmp_path / "run"),
                options={"batch_size": 8},  # windows of 256 rounds
                progress=False,
            )
        )
        _, run_peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert result["n_samples"] == rounds and result["metrics"]["overall"]["n"] == rounds
    assert run_peak - data_peak < whole_run / 4, (run_peak >> 20, data_peak >> 20, whole_run >> 20)
