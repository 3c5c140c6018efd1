"""The dialog emotion classifier: fine-tune a tiny RoBERTa built from a config, reuse, evaluate."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from server.evaluation.data import ExportData
from server.evaluation.runner import RunSpec, run
from server.evaluation.synthetic import write_synthetic_export

os.environ["HF_HUB_OFFLINE"] = "1"
torch = pytest.importorskip("torch", reason="fine-tuning needs torch (pip install -e '.[ml]')")

OPTIONS = {"epochs": 20, "learning_rate": 3e-3, "batch_size": 16, "opinions": False, "max_length": 48}


@pytest.fixture(scope="module")
def export(tmp_path_factory) -> Path:
    return write_synthetic_export(tmp_path_factory.mktemp("export"), n_dialogs=90, seed=1)


@pytest.fixture(scope="module")
def roberta(export: Path, tmp_path_factory) -> Path:
    from server.evaluation.tiny import build_tiny_model

    data = ExportData.load(export)
    texts = [t for d in data.dialogs.values() for q, a in d.rounds for t in (q, a)]
    return build_tiny_model("roberta", tmp_path_factory.mktemp("tiny") / "roberta", texts)


def test_fine_tune_then_reuse_then_evaluate(export: Path, roberta: Path, tmp_path: Path):
    first = run(
        RunSpec(
            run_id="c1",
            task="classifier",
            model=str(roberta),
            data=str(export),
            split="train",
            out=str(tmp_path / "c1"),
            cache_dir=str(tmp_path / "cache"),
            options=OPTIONS,
            progress=False,
        )
    )
    m = first["metrics"]
    train = m["training"]
    assert train["trained_now"] and train["train_dialogs"] == len(ExportData.load(export).splits["train"])
    losses = [h["loss"] for h in train["history"]]
    assert len(losses) == 20 and losses[-1] < losses[0]
    # the synthetic answers carry cue words of the emotion: the model must fit them well above chance (1/9)
    assert m["accuracy"] >= 0.2
    saved = Path(train["saved_to"])
    assert (saved / "config.json").exists() and json.loads((saved / "training.json").read_text())["history"]
    assert json.loads((saved / "config.json").read_text())["id2label"]["0"] == "amusement"

    # the same run again: predictions come from the cache and nothing is retrained
    again = run(
        RunSpec(
            run_id="c2",
            task="classifier",
            model=str(roberta),
            data=str(export),
            split="train",
            out=str(tmp_path / "c2"),
            cache_dir=str(tmp_path / "cache"),
            options=OPTIONS,
            progress=False,
        )
    )
    assert again["cache"]["computed"] == 0 and not again["metrics"]["training"]["trained_now"]
    assert again["metrics"]["accuracy"] == m["accuracy"]

    # the saved classifier loads through the real loader and is evaluated on the test split
    test = run(
        RunSpec(
            run_id="c3",
            task="classifier",
            model=str(saved),
            data=str(export),
            split="test",
            out=str(tmp_path / "c3"),
            options={"train": False},
            progress=False,
        )
    )
    tm = test["metrics"]
    assert tm["n"] == len(ExportData.load(export).splits["test"])
    cm = tm["confusion"]
    assert len(cm["counts"]) == 9 and sum(map(sum, cm["counts"])) == tm["n"]
    for row, total in zip(cm["row_normalised"], map(sum, cm["counts"]), strict=True):
        assert sum(row) == pytest.approx(1.0 if total else 0.0, abs=1e-4)
    assert test["model_fingerprint"].startswith("ft-")


def test_random_classifier_baseline(export: Path, tmp_path: Path):
    res = run(
        RunSpec(
            run_id="r", task="classifier", model="random", data=str(export), out=str(tmp_path), progress=False
        )
    )
    assert res["metrics"]["n"] > 0 and res["metrics"]["training"]["trained_now"] is False
