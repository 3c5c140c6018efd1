"""Emotion + explanation generation: inputs and ablations, BLEU/emotion F1, BERTScore and BARTScore."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from server.evaluation.data import ExportData
from server.evaluation.runner import RunSpec, run
from server.evaluation.synthetic import write_synthetic_export
from server.evaluation.tasks.generation import GenerationConfig, GenerationTask

os.environ["HF_HUB_OFFLINE"] = "1"
pytest.importorskip("sacrebleu", reason="BLEU needs sacrebleu (pip install -e '.[ml]')")


@pytest.fixture(scope="module")
def export(tmp_path_factory) -> Path:
    return write_synthetic_export(tmp_path_factory.mktemp("export"), n_dialogs=30, seed=5)


def _samples(export: Path, **options):
    return list(GenerationTask(GenerationConfig(**options), ExportData.load(export), "test").samples())


def test_inputs_follow_the_ablations(export: Path):
    full = _samples(export, caption=True)
    assert {s.meta["phase"] for s in full} == {"questioner_before", "questioner_after", "answerer"}
    for s in full:
        prompt = s.inputs["prompt"]
        assert "Two opinions" in prompt and "Q: " in prompt
        # before the reveal the questioner had not seen the image: no caption, whatever the switch
        assert ("Caption:" in prompt) == (s.meta["phase"] != "questioner_before")
        assert s.target["text"].startswith("I feel ") and " because " in s.target["text"]
    bare = _samples(export, opinions=False, dialog=False, targets=["answerer"])
    assert all("Two opinions" not in s.inputs["prompt"] and "Q: " not in s.inputs["prompt"] for s in bare)
    assert {s.meta["phase"] for s in bare} == {"answerer"}
    assert {s.hash for s in bare}.isdisjoint({s.hash for s in full})


def test_unknown_targets_are_refused():  # image input: tests/test_eval_vlm.py
    with pytest.raises(ValueError, match="unknown targets"):
        GenerationConfig(targets=["painter"])


def test_random_generation_run(export: Path, tmp_path: Path):
    res = run(
        RunSpec(
            run_id="g",
            task="generation",
            model="random:3",
            data=str(export),
            out=str(tmp_path),
            progress=False,
        )
    )
    m = res["metrics"]
    assert m["n"] == 3 * len(ExportData.load(export).splits["test"])
    assert "nrefs:1" in m["signature"] and 0 <= m["bleu"] <= 100
    assert m["emotion"]["parse_failure_rate"] == 0.0  # the random baseline always uses the template
    assert set(m["by_target"]) == {"questioner_before", "questioner_after", "answerer"}
    assert sum(t["n"] for t in m["by_target"].values()) == m["n"]
    assert "bertscore_f1" not in m  # no checkpoint given: not computed


torch = pytest.importorskip("torch", reason="model-based generation and metrics need torch")


@pytest.fixture(scope="module")
def tiny(export: Path, tmp_path_factory) -> dict[str, Path]:
    from server.evaluation.tiny import build_tiny_model

    data = ExportData.load(export)
    texts = [t for d in data.dialogs.values() for q, a in d.rounds for t in (q, a)]
    texts += [f.explanation for d in data.dialogs.values() for f in d.feelings.values()]
    root = tmp_path_factory.mktemp("tiny")
    return {k: build_tiny_model(k, root / k, texts) for k in ("gpt2", "bart", "t5", "roberta")}


@pytest.mark.parametrize("kind", ["gpt2", "bart", "t5"])
def test_generation_with_model_metrics(export, tiny, tmp_path, kind):
    options = {
        "limit": 4,
        "max_new_tokens": 8,
        "bertscore_model": str(tiny["roberta"]),
        "bartscore_model": str(tiny["bart"]),
    }
    res = run(
        RunSpec(
            run_id="g",
            task="generation",
            model=str(tiny[kind]),
            data=str(export),
            out=str(tmp_path),
            options=options,
            progress=False,
        )
    )
    m = res["metrics"]
    assert m["n"] == 4
    assert 0 <= m["bertscore_f1"] <= 1 and m["bartscore_f"] < 0
    assert m["bertscore_info"]["checkpoint"] == str(tiny["roberta"]) and m["bertscore_info"]["layer"] == 2
    assert "log p(hyp|ref)" in m["bartscore_info"]["direction"]
    # an untrained model rarely follows the template; whatever it wrote is scored, failures counted
    assert m["emotion"]["parse_failures"] == sum(
        1 for line in (tmp_path / "samples.jsonl").open() if '"emotion": null' in line
    )


def test_bertscore_hand_checks(tiny):
    from server.evaluation.neural_metrics import bertscore

    out = bertscore(
        ["the sky is calm", "dark trees", ""],
        ["the sky is calm", "bright sky over water", "x"],
        str(tiny["roberta"]),
    )
    assert out["f1"][0] == pytest.approx(1.0, abs=1e-5)  # identical text: every token matches itself
    assert out["precision"][1] < 1.0 and out["recall"][1] < 1.0
    assert out["f1"][2] == 0.0  # nothing generated scores zero


def test_bartscore_direction(tiny):
    from server.evaluation.models import load_model
    from server.evaluation.neural_metrics import bartscore

    hyp, ref = "the sky is calm", "a bright sky over the water"
    out = bartscore([hyp], [ref], str(tiny["bart"]))
    model = load_model(str(tiny["bart"]))
    tok = model.tokenizer
    target = tok(" " + hyp, add_special_tokens=False)["input_ids"]
    with torch.no_grad():
        loss = model.model(**tok(ref, return_tensors="pt"), labels=torch.tensor([target])).loss
    assert out["precision"][0] == pytest.approx(-loss.item(), abs=1e-4)  # log p(hyp | ref), per token
    assert out["f"][0] == pytest.approx((out["precision"][0] + out["recall"][0]) / 2)
