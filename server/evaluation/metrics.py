"""Metric functions shared by the tasks; each is a pure function of predictions and truths.

Retrieval (VisDial protocol) ranks the ground-truth answer among the candidates with an
explicit, pessimistic tie rule::

    rank = 1 + #(candidates scored strictly higher than the truth)
             + #(other candidates scored exactly equal to the truth)

i.e. the rank is the number of candidates whose score is >= the truth's. A scorer that
cannot tell candidates apart therefore gets the worst rank (100 of 100), never a lucky
one; a NaN score (the scorer failed on that candidate) is treated as -inf, so a failed
ground truth ranks last. R@k is the share of rounds with rank <= k, MRR the mean of
1/rank, and mean rank the mean of the ranks.

Emotion metrics treat an unparsable output as a prediction of the pseudo-label
``<unparsable>``: it is wrong for every truth and is reported as the parse-failure rate
(EvE's own code drops such outputs, which flatters a model that rambles).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from server.evaluation.labels import (
    EMOTIONS,
    UNPARSABLE,
    arousal,
    normalise,
    sentiment,
)

RECALL_AT = (1, 5, 10)


# --------------------------------------------------------------------------- retrieval


def retrieval_ranks(scores: np.ndarray, gt_index: np.ndarray) -> np.ndarray:
    """Rank (1 = best) of the ground truth in each row of ``scores`` (rounds x candidates)."""
    scores = np.asarray(scores)
    gt_index = np.asarray(gt_index, dtype=np.int64)
    if scores.ndim != 2 or scores.shape[0] != gt_index.shape[0]:
        raise ValueError(f"scores {scores.shape} and gt_index {gt_index.shape} do not match")
    if scores.shape[0] == 0:
        return np.zeros(0, dtype=np.int64)
    if np.issubdtype(scores.dtype, np.floating) and np.isnan(scores).any():
        scores = np.where(np.isnan(scores), -np.inf, scores)
    truth = np.take_along_axis(scores, gt_index[:, None], axis=1)
    return (scores >= truth).sum(axis=1, dtype=np.int64)


def rank_summary(ranks: np.ndarray | Sequence[int], n_candidates: int = 100) -> dict[str, Any]:
    """R@1/5/10, MRR and mean rank of a set of ranks; None values when there are none."""
    r = np.asarray(ranks, dtype=np.float64)
    out: dict[str, Any] = {"n": int(r.size)}
    if r.size == 0:
        out.update({f"r@{k}": None for k in RECALL_AT} | {"mrr": None, "mean_rank": None})
        return out
    if r.min() < 1 or r.max() > n_candidates:
        raise ValueError(f"ranks must lie in 1..{n_candidates}")
    for k in RECALL_AT:
        out[f"r@{k}"] = float((r <= k).mean())
    out["mrr"] = float((1.0 / r).mean())
    out["mean_rank"] = float(r.mean())
    return out


def retrieval_report(
    ranks: np.ndarray | Sequence[int],
    rounds: np.ndarray | Sequence[int],
    failed: np.ndarray | Sequence[bool] | None = None,
    n_candidates: int = 100,
) -> dict[str, Any]:
    """Overall and per-round summaries (the shape of the supplement's Table 1)."""
    r = np.asarray(ranks)
    rd = np.asarray(rounds)
    report = {"overall": rank_summary(r, n_candidates), "per_round": {}}
    for value in sorted(set(rd.tolist())):
        report["per_round"][str(value)] = rank_summary(r[rd == value], n_candidates)
    if failed is not None:
        f = np.asarray(failed, dtype=bool)
        report["failures"] = int(f.sum())
        report["failure_rate"] = float(f.mean()) if f.size else None
    return report


# --------------------------------------------------------------------------- emotions

_FEEL = re.compile(r"\bi\s+(?:would\s+)?feel\s+(?P<emotion>[^.\n]+?)\s+because\b(?P<why>.*)", re.I | re.S)
_FEEL_START = re.compile(r"\bi\s+(?:would\s+)?feel\b", re.I)
_ARTICLE = re.compile(r"^(?:a\s+sense\s+of|a|an|some|mostly|mainly)\s+", re.I)


def parse_feeling(text: str | None) -> tuple[str | None, str | None]:
    """The raw emotion phrase and the explanation of "I feel EMOTION because EXPLANATION".

    Returns (None, None) when the sentence pattern is absent; when it occurs several times
    (reasoning prompts), the last one is the answer. The phrase is not checked against the
    label set here (the open-vocabulary variant maps it by similarity).
    """
    if not text:
        return None, None
    match = None
    for start in reversed([m.start() for m in _FEEL_START.finditer(text)]):
        match = _FEEL.match(text, start)
        if match:
            break
    if not match:
        return None, None
    phrase = _ARTICLE.sub("", match.group("emotion").strip()).strip(" \"'*")
    return phrase, match.group("why").strip()


def parse_emotion(text: str | None) -> str | None:
    """The label in "I feel EMOTION because ...", or None when it is not exactly one label."""
    phrase, _ = parse_feeling(text)
    return normalise(phrase) if phrase else None


def emotion_report(truths: Sequence[str], predictions: Sequence[str | None]) -> dict[str, Any]:
    """Weighted F1, accuracy, confusion matrix, parse failures, sentiment bias, error categories.

    ``predictions`` holds a label or None (unparsable). Sentiment bias follows EvE:
    positive bias = P(predicted positive | true negative), negative bias = P(predicted
    negative | true positive); unparsable predictions stay in the denominators.
    """
    if len(truths) != len(predictions):
        raise ValueError("truths and predictions differ in length")
    preds = [p if p in EMOTIONS else UNPARSABLE for p in predictions]
    n = len(truths)
    report: dict[str, Any] = {"n": n, "labels": list(EMOTIONS)}
    failures = sum(p == UNPARSABLE for p in preds)
    report["parse_failures"] = failures
    report["parse_failure_rate"] = failures / n if n else None
    report["confusion"] = confusion_matrix(truths, preds)
    if n == 0:
        report.update(accuracy=None, weighted_f1=None, macro_f1=None, per_class_f1={})
        report.update(sentiment_bias={"positive": None, "negative": None})
        report["errors"] = error_categories([], [])
        return report
    from sklearn.metrics import f1_score

    labels = list(EMOTIONS)
    report["accuracy"] = sum(t == p for t, p in zip(truths, preds, strict=True)) / n
    report["weighted_f1"] = float(f1_score(truths, preds, labels=labels, average="weighted", zero_division=0))
    report["macro_f1"] = float(
        f1_score(
            truths, preds, labels=[lb for lb in labels if lb in set(truths)], average="macro", zero_division=0
        )
    )
    per_class = f1_score(truths, preds, labels=labels, average=None, zero_division=0)
    report["per_class_f1"] = {lb: float(v) for lb, v in zip(labels, per_class, strict=True)}
    report["sentiment_bias"] = sentiment_bias(truths, preds)
    report["errors"] = error_categories(truths, preds)
    return report


def confusion_matrix(truths: Sequence[str], predictions: Sequence[str]) -> dict[str, Any]:
    """Counts and row-normalised rates; rows are true labels, columns predictions (+ unparsable)."""
    columns = [*EMOTIONS, UNPARSABLE]
    index = {lb: i for i, lb in enumerate(columns)}
    counts = np.zeros((len(EMOTIONS), len(columns)), dtype=np.int64)
    for t, p in zip(truths, predictions, strict=True):
        if t in index and t != UNPARSABLE:
            counts[index[t], index.get(p, index[UNPARSABLE])] += 1
    totals = counts.sum(axis=1, keepdims=True)
    rates = np.divide(counts, totals, out=np.zeros(counts.shape), where=totals > 0)
    return {
        "rows": list(EMOTIONS),
        "columns": columns,
        "counts": counts.tolist(),
        "row_normalised": np.round(rates, 6).tolist(),
    }


def sentiment_bias(truths: Sequence[str], predictions: Sequence[str]) -> dict[str, float | None]:
    neg = [p for t, p in zip(truths, predictions, strict=True) if sentiment(t) == "negative"]
    pos = [p for t, p in zip(truths, predictions, strict=True) if sentiment(t) == "positive"]
    return {
        "positive": sum(sentiment(p) == "positive" for p in neg) / len(neg) if neg else None,
        "negative": sum(sentiment(p) == "negative" for p in pos) / len(pos) if pos else None,
    }


def error_category(truth: str, prediction: str) -> str | None:
    """EvE's error categories for one wrong prediction; None when it is right.

    I: wrong sentiment; II: right sentiment, wrong arousal; III: right sentiment and
    arousal, wrong class. Outputs that cannot be placed get ``unparsable`` or
    ``something_else`` (either side is something_else, which has no sentiment).
    """
    if truth == prediction:
        return None
    if prediction == UNPARSABLE or prediction not in EMOTIONS:
        return "unparsable"
    if sentiment(truth) == "none" or sentiment(prediction) == "none":
        return "something_else"
    if sentiment(truth) != sentiment(prediction):
        return "I_wrong_sentiment"
    if arousal(truth) != arousal(prediction):
        return "II_wrong_arousal"
    return "III_wrong_class"


ERROR_CATEGORIES = (
    "I_wrong_sentiment",
    "II_wrong_arousal",
    "III_wrong_class",
    "something_else",
    "unparsable",
)


def error_categories(truths: Sequence[str], predictions: Sequence[str]) -> dict[str, Any]:
    counts = Counter(
        c for t, p in zip(truths, predictions, strict=True) if (c := error_category(t, p)) is not None
    )
    errors = sum(counts.values())
    return {
        "errors": errors,
        "counts": {c: counts.get(c, 0) for c in ERROR_CATEGORIES},
        "share": {c: (counts.get(c, 0) / errors if errors else None) for c in ERROR_CATEGORIES},
    }


# --------------------------------------------------------------------------- text overlap


def bleu(hypotheses: Sequence[str], references: Sequence[str]) -> dict[str, Any]:
    """Corpus BLEU-1..4 with sacrebleu (default 13a tokeniser, exp smoothing) and its signature."""
    if len(hypotheses) != len(references):
        raise ValueError("hypotheses and references differ in length")
    if not hypotheses:
        return {"bleu": None, "bleu1": None, "bleu2": None, "bleu3": None, "bleu4": None, "signature": None}
    from sacrebleu.metrics import BLEU

    out: dict[str, Any] = {}
    for order in (1, 2, 3, 4):
        metric = BLEU(max_ngram_order=order)
        out[f"bleu{order}"] = float(metric.corpus_score(list(hypotheses), [list(references)]).score)
        if order == 4:
            out["signature"] = str(metric.get_signature())
    out["bleu"] = out["bleu4"]
    return out


def sentence_bleu(hypothesis: str, reference: str) -> float:
    from sacrebleu.metrics import BLEU

    return float(BLEU(effective_order=True).sentence_score(hypothesis, [reference]).score)


def mean_or_none(values: Iterable[float | None]) -> float | None:
    kept = [v for v in values if v is not None and not (isinstance(v, float) and math.isnan(v))]
    return sum(kept) / len(kept) if kept else None
