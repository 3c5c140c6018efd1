"""The lmms-eval task folder (tasks/lmms_eval/avd_dialogs): its YAML parses the way the harness
parses it, and its hooks work on our export's rows. lmms-eval itself is not installed."""

from __future__ import annotations

import importlib.util
import json
import random
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import yaml

from server.evaluation.data import ExportData
from server.evaluation.labels import EMOTIONS, GROUPS
from server.evaluation.metrics import parse_emotion
from server.evaluation.synthetic import write_synthetic_export
from server.evaluation.tasks.multichoice import options_for
from server.settings import REPO_ROOT

FOLDER = REPO_ROOT / "tasks" / "lmms_eval" / "avd_dialogs"


def _import_utils() -> ModuleType:
    spec = importlib.util.spec_from_file_location("avd_lmms_utils", FOLDER / "utils.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


utils = _import_utils()


class _Loader(yaml.SafeLoader):
    """YAML with ``!function utils.NAME`` resolved against the folder's utils.py, as lmms-eval does."""


def _function(loader: yaml.SafeLoader, node: yaml.Node) -> Any:
    module, name = loader.construct_scalar(node).rsplit(".", 1)  # type: ignore[arg-type]
    assert module == "utils"
    return getattr(utils, name)


_Loader.add_constructor("!function", _function)


def _config(name: str) -> dict[str, Any]:
    """A task's config with its ``include`` merged under it (the harness's order)."""
    config = yaml.load((FOLDER / name).read_text(), Loader=_Loader)
    base: dict[str, Any] = {}
    for included in [config.pop("include")] if "include" in config else []:
        base.update(yaml.load((FOLDER / included).read_text(), Loader=_Loader))
    return base | config


@pytest.fixture(scope="module")
def export(tmp_path_factory) -> Path:
    return write_synthetic_export(tmp_path_factory.mktemp("export"), n_dialogs=40, seed=9, images=True)


@pytest.fixture(scope="module")
def rows(export: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (export / "dialogs.jsonl").open()]


@pytest.fixture(autouse=True)
def _export_env(export: Path, monkeypatch):
    monkeypatch.setenv("AVD_EXPORT_DIR", str(export))
    monkeypatch.delenv("AVD_SPLIT", raising=False)


@pytest.mark.parametrize("name", ["avd_emotion.yaml", "avd_multichoice.yaml"])
def test_task_yaml_parses(name: str, rows):
    config = _config(name)
    assert config["task"] == name.removesuffix(".yaml")
    assert config["dataset_path"] == "json" and config["dataset_kwargs"]["data_files"]["test"]
    assert config["test_split"] == "test" and config["output_type"] == "generate_until"
    assert config["generation_kwargs"]["do_sample"] is False
    for key in ("process_docs", "doc_to_visual", "doc_to_text", "doc_to_target", "process_results"):
        assert callable(config[key]), key
    # every metric is a key process_results gives, with a known or provided aggregation
    doc = next(r for r in rows if r["split"] == "test" and utils.mc_options(r))
    produced = config["process_results"](doc, ["I feel awe because it is vast. B"])
    for metric in config["metric_list"]:
        assert metric["metric"] in produced
        agg = metric["aggregation"]
        assert agg == "mean" or callable(agg)
        value = produced[metric["metric"]]
        assert isinstance(agg([value]) if callable(agg) else value, float)
    group = yaml.safe_load((FOLDER / "_avd.yaml").read_text())
    assert config["task"] in group["task"]


def test_labels_groups_and_parsing_follow_the_evaluation_code():
    assert tuple(EMOTIONS) == utils.EMOTIONS and GROUPS == utils.GROUPS
    for text in (
        "I feel awe because it is huge.",
        "i would feel a sense of Contentment because calm",
        "I feel happy because sun",
        "First I feel fear because... no. I feel Something else because odd",
        "I feel I feel anger because x",
        "awe",
        "",
    ):
        assert utils.parse_emotion(text) == parse_emotion(text), text


def test_hooks_on_export_rows(rows, export: Path):
    doc = next(r for r in rows if r["split"] == "test")
    (image,) = utils.avd_doc_to_visual(doc)
    assert image.mode == "RGB" and image.size == (48, 32)
    text = utils.avd_emotion_doc_to_text(doc, {"pre_prompt": "<<", "post_prompt": ">>"})
    assert text.startswith("<<Two opinions") and text.endswith(">>")
    for opinion in doc["stimulus"]["opinions"]:
        assert opinion["text"] in text
    assert text.count("\nQ: ") == len(doc["rounds"]) and "something else" in text
    truth = doc["questioner"]["after_reveal"]["emotion"]
    assert utils.avd_emotion_doc_to_target(doc) == truth.replace("_", " ")
    right = utils.avd_emotion_process_results(doc, [f"I feel {truth.replace('_', ' ')} because of it"])
    wrong = utils.avd_emotion_process_results(doc, ["It is a painting."])
    assert right["avd_emotion_accuracy"] == 1.0 and right["avd_emotion_parse_failure"] == 0.0
    assert wrong["avd_emotion_accuracy"] == 0.0 and wrong["avd_emotion_parse_failure"] == 1.0
    missing = json.loads(json.dumps(doc))
    missing["stimulus"]["image"] = "absent.png"
    with pytest.raises(FileNotFoundError, match="AVD_EXPORT_DIR"):
        utils.avd_doc_to_visual(missing)


def test_multichoice_matches_avd_eval(rows, export: Path):
    data = ExportData.load(export)
    checked = 0
    for doc in rows:
        truth = doc["questioner"]["after_reveal"]["emotion"]
        expected = options_for(data.dialogs[doc["dialog_id"]], truth, seed=0)
        assert utils.mc_options(doc) == expected
        if expected is None:
            continue
        checked += 1
        text = utils.avd_mc_doc_to_text(doc)
        letter = utils.avd_mc_doc_to_target(doc)
        assert f"{letter}. {truth.replace('_', ' ')}" in text and "\nD. " in text
    assert checked > 10
    doc = next(r for r in rows if utils.mc_options(r))
    letter = utils.avd_mc_doc_to_target(doc)
    other = next(x for x in "ABCD" if x != letter)
    items = [
        utils.avd_mc_process_results({**doc, "avd_rotation": 0}, [f"({letter}) that one"])["avd_mc_accuracy"],
        utils.avd_mc_process_results({**doc, "avd_rotation": 1}, [f"Answer: {other}"])["avd_mc_accuracy"],
    ]
    assert [i["correct"] for i in items] == [True, False]
    assert utils.avd_mc_accuracy(items) == 1.0 and utils.avd_mc_circular_accuracy(items) == 0.0
    assert utils.parse_letter("A") == "A" and utils.parse_letter("I think so") is None


def test_weighted_f1_equals_the_evaluation_metric():
    pytest.importorskip("sklearn", reason="the reference metric needs scikit-learn")
    from server.evaluation.metrics import emotion_report

    rng = random.Random(3)
    truths = [rng.choice(EMOTIONS) for _ in range(300)]
    preds = [rng.choice([*EMOTIONS, None]) if rng.random() < 0.6 else t for t in truths]
    items = [{"truth": t, "prediction": p} for t, p in zip(truths, preds, strict=True)]
    assert utils.avd_weighted_f1(items) == pytest.approx(emotion_report(truths, preds)["weighted_f1"])


def test_through_the_datasets_json_loader(export: Path, tmp_path: Path, monkeypatch):
    """What the harness does with dataset_path: json: Arrow rows, then process_docs."""
    datasets = pytest.importorskip("datasets", reason="the json loader needs the datasets package")
    config = _config("avd_multichoice.yaml")
    files = {"test": str(export / config["dataset_kwargs"]["data_files"]["test"].removeprefix("export/"))}
    loaded = datasets.load_dataset("json", data_files=files, cache_dir=str(tmp_path))["test"]
    kept = utils.avd_process_docs(loaded)
    expected = [r for r in map(json.loads, (export / "dialogs.jsonl").open()) if r["split"] == "test"]
    assert sorted(kept["dialog_id"]) == sorted(r["dialog_id"] for r in expected)
    doc = kept[0]
    assert utils.avd_doc_to_visual(doc)[0].mode == "RGB" and "Q: " in utils.avd_emotion_doc_to_text(doc)
    rotated = config["process_docs"](loaded)
    usable = [r for r in expected if utils.mc_options(r)]
    assert len(rotated) == 4 * len(usable)
    first = [r for r in rotated if r["dialog_id"] == usable[0]["dialog_id"]]
    assert [r["avd_rotation"] for r in first] == [0, 1, 2, 3]
    assert first[1]["avd_options"] == first[0]["avd_options"][1:] + first[0]["avd_options"][:1]
    assert first[0]["avd_options"] == utils.mc_options(usable[0])
    monkeypatch.setenv("AVD_SPLIT", "all")
    assert len(utils.avd_process_docs(loaded)) == len(loaded)
