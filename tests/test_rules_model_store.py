"""The rule classifiers' fitted weights on disk: read back exactly, keyed, and never trusted when broken."""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path

import pytest

from server.rules import learned, model_store

SAMPLES = [
    ("questioner", "Do you like the painting?"),
    ("questioner", "hey how is your day going"),
    ("answerer", "It is a very gloomy and depressing picture."),
    ("answerer", "A red boat lies on the sand near two fishermen."),
]


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("AVD_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("AVD_MODEL_CACHE", raising=False)
    return tmp_path / "rule-classifiers"


@pytest.fixture(scope="module")
def pools() -> tuple[list[dict], list[dict]]:
    lines = learned.load_training()
    return lines[:400], lines[400:800]


def _logits(model: learned.Model) -> list[tuple[float, ...]]:
    from server.rules import text as T

    return [model.text_logits(role, text, T.words(T.normalise(text)), 0.0) for role, text in SAMPLES]


def test_a_stored_model_scores_bit_for_bit_like_the_fitted_one(store: Path, pools) -> None:
    first, _ = pools
    fitted = learned.train(first)
    loaded = model_store.load(json.loads(json.dumps(model_store.dump(fitted))))
    assert loaded.fingerprint() == fitted.fingerprint()
    assert _logits(loaded) == _logits(fitted)
    assert loaded.digest == fitted.digest == learned.digest(first)


def test_the_second_process_reads_what_the_first_fitted(store: Path, pools) -> None:
    first, second = pools
    key = model_store.records_key(first)
    fitted = model_store.cached_train(key, partial(learned.train, first))
    assert [p.suffix for p in store.iterdir()] == [".json"]
    # the same key again: the file is read, so a fit on other lines is never run
    again = model_store.cached_train(key, partial(learned.train, second))
    assert again.fingerprint() == fitted.fingerprint() != learned.train(second).fingerprint()
    other = model_store.cached_train(model_store.records_key(second), partial(learned.train, second))
    assert other.digest == learned.digest(second) and len(list(store.iterdir())) == 2


def test_a_broken_file_is_refitted_and_replaced(store: Path, pools) -> None:
    first, _ = pools
    key = model_store.records_key(first)
    path = model_store.path_for(key)
    path.parent.mkdir(parents=True)
    path.write_text('{"format": 1, "features": ["a"], "ro', encoding="utf-8")  # cut short
    model = model_store.cached_train(key, partial(learned.train, first))
    assert model.digest == learned.digest(first)
    assert model_store.load(json.loads(path.read_text(encoding="utf-8"))).fingerprint() == model.fingerprint()


def test_the_store_can_be_switched_off(store: Path, pools, monkeypatch: pytest.MonkeyPatch) -> None:
    first, _ = pools
    monkeypatch.setenv("AVD_MODEL_CACHE", "0")
    model = model_store.cached_train(model_store.records_key(first), partial(learned.train, first))
    assert model.digest == learned.digest(first) and not store.exists()


def test_keys_follow_the_training_files(tmp_path: Path) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    a.write_text('{"role": "questioner", "text": "Is it raining?", "labels": []}\n', encoding="utf-8")
    b.write_text(a.read_text(encoding="utf-8"), encoding="utf-8")
    assert model_store.files_key([a]) != model_store.files_key([b])  # the name is part of the key
    before = model_store.files_key([a])
    a.write_text('{"role": "questioner", "text": "Is it snowing?", "labels": []}\n', encoding="utf-8")
    assert model_store.files_key([a]) != before


def test_old_files_are_pruned(store: Path, pools) -> None:
    first, _ = pools
    store.mkdir(parents=True)
    for n in range(model_store.KEEP + 3):
        (store / f"old{n}.json").write_text("{}", encoding="utf-8")
    model_store.cached_train(model_store.records_key(first), partial(learned.train, first))
    assert len(list(store.glob("*.json"))) == model_store.KEEP
    assert model_store.path_for(model_store.records_key(first)).exists()
