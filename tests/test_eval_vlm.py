"""Vision-language models: a tiny random LLaVA built from configs, saved, loaded back through
the real loader, and run end to end on a synthetic export that carries its images."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

import pytest

from server.evaluation.data import ExportData
from server.evaluation.runner import RunSpec, run, run_spec_file
from server.evaluation.synthetic import write_synthetic_export
from server.evaluation.tasks.generation import GenerationConfig, GenerationTask
from server.evaluation.tasks.retrieval import RetrievalConfig, RetrievalTask
from server.evaluation.tasks.zeroshot import ZeroShotConfig, ZeroShotTask

os.environ["HF_HUB_OFFLINE"] = "1"
torch = pytest.importorskip("torch", reason="vision-language models need torch (pip install -e '.[ml]')")
pytest.importorskip("sacrebleu", reason="generation metrics need sacrebleu (pip install -e '.[ml]')")


@pytest.fixture(scope="module")
def export(tmp_path_factory) -> Path:
    return write_synthetic_export(tmp_path_factory.mktemp("export"), n_dialogs=30, seed=7, images=True)


@pytest.fixture(scope="module")
def data(export: Path) -> ExportData:
    return ExportData.load(export)


@pytest.fixture(scope="module")
def tiny(data: ExportData, tmp_path_factory) -> dict[str, Path]:
    from server.evaluation.tiny import build_tiny_model

    texts = [t for d in data.dialogs.values() for q, a in d.rounds for t in (q, a)]
    texts += [f.explanation for d in data.dialogs.values() for f in d.feelings.values()]
    root = tmp_path_factory.mktemp("tiny")
    return {k: build_tiny_model(k, root / k, texts) for k in ("llava", "gpt2")}


@pytest.fixture(scope="module")
def vlm(tiny):
    from server.evaluation.models import load_model

    return load_model(str(tiny["llava"]), device="cpu")


def _pair(data: ExportData) -> tuple[Path, Path]:
    """Two different pictures of the export."""
    images = sorted({d.image for d in data.dialogs.values()})
    assert len(images) > 1
    return images[0], images[-1]


def test_the_export_carries_its_images(export: Path, data: ExportData):
    for d in data.dialogs.values():
        assert d.image is not None and d.image.is_file()
        digest = hashlib.sha256(d.image.read_bytes()).hexdigest()
        assert digest == d.image_sha256 and d.image.name == f"{digest}.png"  # named by content
    assert len({d.image_sha256 for d in data.dialogs.values()}) == 15  # one picture per stimulus


def test_the_checkpoint_loads_as_a_vision_language_model(tiny, vlm):
    from server.evaluation.models import model_kind
    from server.evaluation.vision import VisionLanguageModel

    assert model_kind(tiny["llava"]) == "vlm" and model_kind(tiny["gpt2"]) == "causal"
    assert isinstance(vlm, VisionLanguageModel) and vlm.kind == "vlm" and vlm.device == "cpu"
    assert type(vlm.model).__name__ == "LlavaForConditionalGeneration"
    assert vlm.processor.chat_template  # the saved template is used, not a built-in one


def test_image_ablation_changes_the_model_input(data: ExportData, vlm):
    image = next(iter(data.dialogs.values())).image
    image_id = vlm.tokenizer.convert_tokens_to_ids(vlm.image_token)
    on = vlm.encode(["How do you feel?"], [image])
    off = vlm.encode(["How do you feel?"], [None])
    assert on["pixel_values"].shape == (1, 3, 32, 32)
    assert int((on["input_ids"] == image_id).sum()) == 16  # one position per patch
    assert "pixel_values" not in off and int((off["input_ids"] == image_id).sum()) == 0
    assert "USER: <image>\n" in vlm.render("x", True) and "<image>" not in vlm.render("x", False)
    with pytest.raises(ValueError, match="all with images or all without"):
        vlm.encode(["a", "b"], [image, None])


def test_the_image_reaches_the_scores(data: ExportData, vlm):
    first, second = _pair(data)
    context, candidates = "Q: What do the trees look like?\nA:", ["dark and shadowy", "calm and gentle"]
    with_first = vlm.loglik(context, candidates, image=first)
    with_second = vlm.loglik(context, candidates, image=second)
    without = vlm.loglik(context, candidates)
    assert with_first != with_second and with_first != without
    assert vlm.loglik(context, candidates, image=first) == with_first  # deterministic


def test_shared_context_equals_the_full_forward_pass(data: ExportData, vlm):
    """The cached prompt+image state gives the same log-likelihood as one pass over everything."""
    image = _pair(data)[0]
    context, candidate = "Q: What colours are there?\nA:", "vivid and bursting reds"
    got = vlm.loglik(context, [candidate], reduce="sum", image=image)[0]
    enc = vlm.encode([context], [image])
    cont = vlm._ids(" " + candidate)
    ids = torch.cat([enc["input_ids"], torch.tensor([cont])], dim=1)
    with torch.no_grad():
        logits = vlm.model(
            input_ids=ids, attention_mask=torch.ones_like(ids), pixel_values=enc["pixel_values"]
        ).logits
    logp = torch.log_softmax(logits[0].float(), dim=-1)
    start = enc["input_ids"].shape[1]
    expected = sum(float(logp[start - 1 + k, tok]) for k, tok in enumerate(cont))
    assert got == pytest.approx(expected, abs=1e-4)


def test_samples_carry_the_image_only_when_asked(data: ExportData):
    off = list(GenerationTask(GenerationConfig(), data, "test").samples())
    on = list(GenerationTask(GenerationConfig(image=True), data, "test").samples())
    assert all("image" not in s.inputs for s in off)
    for s in on:
        shown = s.meta["phase"] != "questioner_before"  # the questioner saw the image only after
        assert ("image" in s.inputs) == shown
        if shown:
            d = data.dialogs[s.meta["dialog_id"]]
            assert s.inputs["image"] == d.image.name and s.inputs["image_sha256"] == d.image_sha256
            assert s.inputs["prompt"].startswith("The image shows the artwork.")
    # the cache recomputes exactly the samples that now show the image
    before = {s.id: s.hash for s in off}
    assert {s.id for s in on if s.hash != before[s.id]} == {s.id for s in on if "image" in s.inputs}
    zs = list(ZeroShotTask(ZeroShotConfig(image=True), data, "test").samples())
    assert all("the artwork in the image" in s.inputs["prompt"] and "image" in s.inputs for s in zs)


def test_a_text_model_is_refused_image_input(data: ExportData, tiny):
    from server.evaluation.models import load_model

    task = GenerationTask(GenerationConfig(image=True), data, "test")
    with pytest.raises(ValueError, match="needs a vision-language model"):
        task.check_model(load_model(str(tiny["gpt2"]), device="cpu"))
    task.check_model(load_model("random"))  # the floor may ignore the picture
    RetrievalTask(RetrievalConfig(), data, "test").check_model(load_model("random"))


def _run(export: Path, model: Path, out: Path, task: str, **options) -> dict:
    spec = RunSpec(run_id="v", task=task, model=str(model), data=str(export), out=str(out), options=options)
    spec.progress = False
    return run(spec)


def _rows(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "samples.jsonl").open()]


def test_generation_with_the_image(export: Path, tiny, tmp_path: Path):
    res = _run(export, tiny["llava"], tmp_path, "generation", limit=6, max_new_tokens=6, image=True)
    assert res["n_samples"] == 6 and res["device"] in ("cpu", "cuda") and res["metrics"]["n"] == 6
    rows = _rows(tmp_path)
    assert {r["meta"]["phase"] for r in rows} == {"questioner_before", "questioner_after", "answerer"}
    assert all(("image" in r["inputs"]) == (r["meta"]["phase"] != "questioner_before") for r in rows)
    assert all(isinstance(r["output"], str) for r in rows)
    assert res["config"]["image"] is True


def test_zeroshot_with_and_without_the_image(export: Path, tiny, tmp_path: Path):
    opts = {"limit": 4, "max_new_tokens": 6, "variants": ["base"], "batch_size": 2}
    on = _run(export, tiny["llava"], tmp_path / "on", "zeroshot", image=True, **opts)
    off = _run(export, tiny["llava"], tmp_path / "off", "zeroshot", image=False, **opts)
    assert on["n_samples"] == off["n_samples"] == 4
    assert {r["hash"] for r in _rows(tmp_path / "on")}.isdisjoint(r["hash"] for r in _rows(tmp_path / "off"))
    assert on["metrics"]["by_variant"]["base"]["n"] == 4


def test_retrieval_and_multichoice_score_with_the_image(export: Path, tiny, tmp_path: Path):
    res = _run(export, tiny["llava"], tmp_path / "r", "retrieval", limit=2, image=True)
    ranks = [r["scores"]["rank"] for r in _rows(tmp_path / "r")]
    assert res["metrics"]["overall"]["n"] == 2 and all(1 <= r <= 100 for r in ranks)
    assert all(len(r["output"]) == len(r["inputs"]["candidates"]) > 10 for r in _rows(tmp_path / "r"))
    assert all("image" in r["inputs"] for r in _rows(tmp_path / "r"))
    res = _run(export, tiny["llava"], tmp_path / "m", "multichoice", limit=1, image=True)
    assert res["n_samples"] == 4 and res["metrics"]["n"] == 1


def test_a_manifest_export_says_how_to_get_the_images(export: Path, tiny, tmp_path: Path):
    copy = tmp_path / "manifest-export"
    shutil.copytree(export, copy)
    shutil.rmtree(copy / "images")
    (copy / "images.jsonl").write_text("{}\n")
    options = {"limit": 1, "max_new_tokens": 4, "image": True}
    spec = RunSpec(run_id="m", task="zeroshot", model=str(tiny["llava"]), data=str(copy), out=str(tmp_path))
    spec.options, spec.progress = options, False
    (tmp_path / "spec.json").write_text(spec.model_dump_json())
    with pytest.raises(FileNotFoundError, match="--images copy"):
        run_spec_file(tmp_path / "spec.json")
    status = json.loads((tmp_path / "status.json").read_text())
    assert status["state"] == "failed" and "images.jsonl" in status["error"]
