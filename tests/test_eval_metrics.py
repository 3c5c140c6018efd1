"""Metric functions against hand-computed values, including ties, empty inputs and unparsable outputs."""

from __future__ import annotations

import math

import numpy as np
import pytest

from server.evaluation import labels, metrics
from server.evaluation.labels import UNPARSABLE


def test_rank_counts_strictly_higher_candidates():
    scores = np.array([[0.1, 0.5, 0.3], [0.9, 0.2, 0.3]])
    assert metrics.retrieval_ranks(scores, np.array([2, 0])).tolist() == [2, 1]


def test_ties_are_pessimistic():
    # the truth shares its score with one other candidate: that candidate counts as above it
    scores = np.array([[0.5, 0.5, 0.2], [0.7, 0.5, 0.5], [1.0, 1.0, 1.0]])
    assert metrics.retrieval_ranks(scores, np.array([0, 1, 2])).tolist() == [2, 3, 3]


def test_constant_scorer_ranks_last_out_of_100():
    ranks = metrics.retrieval_ranks(np.zeros((5, 100)), np.arange(5))
    assert ranks.tolist() == [100] * 5


def test_nan_scores_are_failures_that_rank_last():
    scores = np.array([[np.nan, 0.1, 0.2, 0.3], [0.4, np.nan, 0.1, 0.0]])
    # row 0: the truth failed -> below everything; row 1: a failed distractor sinks below the truth
    assert metrics.retrieval_ranks(scores, np.array([0, 0])).tolist() == [4, 1]


def test_rank_summary_hand_computed():
    s = metrics.rank_summary([1, 3, 10, 50])
    assert s["n"] == 4
    assert s["r@1"] == 0.25 and s["r@5"] == 0.5 and s["r@10"] == 0.75
    assert s["mrr"] == pytest.approx((1 + 1 / 3 + 1 / 10 + 1 / 50) / 4)
    assert s["mean_rank"] == 16.0


def test_empty_inputs_give_none_not_nan():
    assert metrics.retrieval_ranks(np.zeros((0, 100)), np.zeros(0)).size == 0
    s = metrics.rank_summary([])
    assert s == {"n": 0, "r@1": None, "r@5": None, "r@10": None, "mrr": None, "mean_rank": None}
    r = metrics.emotion_report([], [])
    assert r["n"] == 0 and r["weighted_f1"] is None and r["parse_failure_rate"] is None
    assert metrics.bleu([], [])["bleu"] is None


def test_out_of_range_rank_is_refused():
    with pytest.raises(ValueError):
        metrics.rank_summary([0, 3])
    with pytest.raises(ValueError):
        metrics.retrieval_ranks(np.zeros((2, 5)), np.zeros(3))


def test_report_is_split_by_round_and_counts_failures():
    rep = metrics.retrieval_report([1, 2, 100, 4], [1, 1, 2, 2], failed=[False, False, True, False])
    assert rep["overall"]["n"] == 4
    assert rep["per_round"]["1"]["mean_rank"] == 1.5
    assert rep["per_round"]["2"]["r@5"] == 0.5
    assert rep["failures"] == 1 and rep["failure_rate"] == 0.25


def test_numpy_random_ranker_matches_chance():
    """A chance-level ranker over 100 candidates: the figures every model must beat."""
    rng = np.random.default_rng(7)
    n = 200_000
    ranks = metrics.retrieval_ranks(rng.random((n, 100), dtype=np.float32), rng.integers(0, 100, n))
    s = metrics.rank_summary(ranks)
    # 5 standard errors of each estimate (binomial for R@k, uniform 1..100 for the rank)
    assert s["r@1"] == pytest.approx(0.01, abs=5 * math.sqrt(0.01 * 0.99 / n))
    assert s["r@10"] == pytest.approx(0.10, abs=5 * math.sqrt(0.1 * 0.9 / n))
    assert s["mean_rank"] == pytest.approx(50.5, abs=5 * math.sqrt((100**2 - 1) / 12 / n))
    harmonic = sum(1 / k for k in range(1, 101)) / 100
    assert s["mrr"] == pytest.approx(harmonic, abs=0.002)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I feel awe because the sky is huge.", "awe"),
        ("i feel Something Else because nothing fits", "something_else"),
        ("Answer: I feel a sense of Contentment because it is calm", "contentment"),
        ("I feel happy because of the colours", None),  # not one of the 9 labels
        ("I feel awe and fear because both", None),  # two labels: unparsable
        ("The picture is sad.", None),
        ("", None),
        (None, None),
    ],
)
def test_parse_emotion(text, expected):
    assert metrics.parse_emotion(text) == expected


def test_parse_feeling_keeps_phrase_and_explanation():
    assert metrics.parse_feeling("I feel joyful because the dog plays.") == ("joyful", "the dog plays.")


def test_emotion_report_hand_computed():
    truths = ["awe", "awe", "fear", "sadness"]
    preds = ["awe", "fear", "fear", None]
    r = metrics.emotion_report(truths, preds)
    # awe F1 = 2/3 (support 2), fear F1 = 2/3 (support 1), sadness F1 = 0 (support 1)
    assert r["weighted_f1"] == pytest.approx((2 * 2 / 3 + 2 / 3 + 0) / 4)
    assert r["accuracy"] == 0.5
    assert r["parse_failures"] == 1 and r["parse_failure_rate"] == 0.25
    assert r["sentiment_bias"] == {"positive": 0.0, "negative": 0.5}
    assert r["errors"]["counts"]["I_wrong_sentiment"] == 1
    assert r["errors"]["counts"]["unparsable"] == 1
    cm = r["confusion"]
    awe, fear, sad = (cm["rows"].index(x) for x in ("awe", "fear", "sadness"))
    assert cm["counts"][awe][awe] == 1 and cm["counts"][awe][cm["columns"].index("fear")] == 1
    assert cm["counts"][sad][cm["columns"].index(UNPARSABLE)] == 1
    assert cm["row_normalised"][awe][awe] == 0.5
    assert cm["row_normalised"][fear][cm["columns"].index("fear")] == 1.0


@pytest.mark.parametrize(
    ("truth", "pred", "category"),
    [
        ("amusement", "sadness", "I_wrong_sentiment"),
        ("sadness", "anger", "II_wrong_arousal"),
        ("contentment", "awe", "II_wrong_arousal"),
        ("fear", "anger", "III_wrong_class"),
        ("awe", "something_else", "something_else"),
        ("awe", UNPARSABLE, "unparsable"),
        ("awe", "awe", None),
    ],
)
def test_error_categories(truth, pred, category):
    assert metrics.error_category(truth, pred) == category


def test_groups_cover_the_eight_emotions_once():
    members = [e for g in labels.GROUPS.values() for e in g]
    assert sorted(members) == sorted(set(labels.EMOTIONS) - {"something_else"})
    assert set(labels.GROUPS) == {"positive-high", "positive-low", "negative-high", "negative-low"}


def test_bleu_hand_computed_and_signature():
    pytest.importorskip("sacrebleu", reason="sacrebleu comes with the ml extra")
    out = metrics.bleu(["the cat sat"], ["the cat sat on the mat"])
    # all 3 unigrams match; brevity penalty exp(1 - 6/3)
    assert out["bleu1"] == pytest.approx(100 * math.exp(-1), abs=1e-2)
    assert "nrefs:1" in out["signature"] and "tok:13a" in out["signature"]
    assert metrics.bleu(["a b c d e"], ["a b c d e"])["bleu"] == pytest.approx(100.0)
    assert metrics.sentence_bleu("x y z", "a b c") == pytest.approx(0.0)
