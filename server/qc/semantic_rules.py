"""Per-rule classifiers on sentence embeddings: the semantic stage's second opinion on each message.

The live rules (``server.rules``) judge words and letters; trained on one author's lines, their
classifiers miss another author's wording. A logistic regression per rule over the message's
all-MiniLM-L6-v2 embedding (plus the role, the length and which rule detectors hit) carries
over to new wordings better. ``repeated_question`` gets a pair model instead: per earlier
question, the cosine of the two questions, the cosine of their difference words
(``server.qc.semantic.difference_phrases``) and the lexical rule's hit; the highest pair counts.

Trained deterministically at first use from the labeled JSON lines in ``tasks/rules-eval/``
(nothing pickled in the repository). The training lines' embeddings are cached on disk, keyed
by the texts and the model, so a worker or a test run embeds them once. The thresholds the
flags use were chosen by cross-validation and live in ``semantic_rules_tuned.py``
(``python -m server.qc.semantic_rules --write`` chooses them again).

Only the semantic stage imports this module (it needs NumPy and scikit-learn, and an embedder
that needs torch); the chat path never does.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from server.cache import cache_dir
from server.rules import learned
from server.rules.config import RULE_IDS, RulesConfig
from server.rules.registry import RULES_BY_ID, check_many
from server.rules.tune import TARGET_PRECISION, best_threshold

if TYPE_CHECKING:
    from server.qc.embedder import Embedder

DATA_DIR = learned.DATA_DIR
# batches 4 to 6 were blind tests of the live rules; they are training data here (docs/semantic.md)
TRAINING_FILES = (
    DATA_DIR / "train_messages.jsonl",
    DATA_DIR / "labeled_messages.jsonl",
    DATA_DIR / "heldout_batch4.jsonl",
    DATA_DIR / "heldout_batch5.jsonl",
    DATA_DIR / "heldout_batch6.jsonl",
    DATA_DIR / "train_more_a.jsonl",
    DATA_DIR / "train_more_b.jsonl",
    DATA_DIR / "train_more_c.jsonl",
)
# every rule judged on the message alone (copies_opinion is judged against the opinions, and
# repeated_question by the pair model below)
TEXT_RULES = tuple(r for r in RULE_IDS if r not in ("copies_opinion", "repeated_question"))
PAIR_RULE = "repeated_question"
RULES = (*TEXT_RULES, PAIR_RULE)
ROLES_OF = {rule: tuple(sorted(RULES_BY_ID[rule].roles)) for rule in RULES}
DETECTORS = tuple(RULES_BY_ID)  # every live rule's own detector is a feature
VERSION = 2  # raise when the features or the fitting change: the thresholds must be chosen again
# inverse regularisation per rule (embeddings are unit length): of 1, 4, 16 and 64, the one whose
# cross-validated "rule OR classifier" found the most within the precision target
C_TEXT = 16.0
C_OF = {"off_topic": 4.0}
C_PAIR = 4.0
FOLDS = 5
SCORE_FLOOR = 0.01  # probabilities below this are not stored (keeps rows small)
TUNED = Path(__file__).with_name("semantic_rules_tuned.py")
PAIR_FILE = DATA_DIR / "semantic_pairs.jsonl"
PLAIN = RulesConfig(classifier=False)  # detectors only: the classifiers' hits are no feature


def cached_encode(embedder: Embedder, texts: Sequence[str]) -> dict[str, np.ndarray]:
    """Vectors of distinct texts, read from the disk cache when the same texts and model were seen."""
    distinct = sorted(set(texts))
    key = hashlib.sha256(json.dumps([embedder.id, distinct], ensure_ascii=False).encode()).hexdigest()[:20]
    path = cache_dir() / "semantic-rules" / f"{key}.npy"
    vectors = None
    if path.exists():
        try:
            vectors = np.load(path)
        except (OSError, ValueError):
            vectors = None
        if vectors is not None and vectors.shape != (len(distinct), embedder.dim):
            vectors = None
    if vectors is None:
        vectors = embedder.encode(distinct) if distinct else np.zeros((0, embedder.dim), np.float32)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp.npy")
        np.save(tmp, vectors)
        tmp.replace(path)
    return dict(zip(distinct, vectors, strict=True))


# --- features ------------------------------------------------------------------------------------


def text_features(vector: np.ndarray, role: str, text: str, hits: Sequence[str]) -> np.ndarray:
    """The embedding, the role, a squashed length and every live detector's hit (0/1)."""
    n_words = len(text.split())
    extra = [1.0 if role == "questioner" else 0.0, math.log1p(n_words) / 4.0]
    extra += [1.0 if rule in hits else 0.0 for rule in DETECTORS]
    return np.concatenate([vector.astype(np.float64), np.array(extra)])


def pair_features(cosine: float, difference: float, lexical: bool) -> list[float]:
    """The smaller of the two cosines too: a swapped object ("left" / "right") is close as a whole only."""
    return [cosine, difference, min(cosine, difference), 1.0 if lexical else 0.0]


def _pairs_of(text: str, earlier: Sequence[str]) -> list[tuple[str, str, tuple[str, str] | None]]:
    from server.qc.semantic import difference_phrases

    return [(e, text, difference_phrases(e, text)) for e in earlier]


@dataclass
class Prepared:
    """What the classifiers need of a set of labeled lines, computed once (embedding is the cost)."""

    records: list[Mapping[str, Any]]
    x: np.ndarray  # text features, one row per record
    pairs: list[list[list[float]]]  # per record, repeat-pair features against each earlier question
    hits: list[list[str]]  # live detectors (no classifiers) that hit


def prepare(records: Sequence[Mapping[str, Any]], embedder: Embedder) -> Prepared:
    """Embed the lines, their earlier questions and the difference words of each pair."""
    records = list(records)
    hits = [r.rule_ids for r in check_many(records, PLAIN)]
    earlier = [
        learned.earlier_questions(r.get("history") or ()) if r["role"] == "questioner" else []
        for r in records
    ]
    pair_texts = [_pairs_of(r["text"], e) for r, e in zip(records, earlier, strict=True)]
    texts = [r["text"] for r in records] + [e for es in earlier for e in es]
    texts += [p for ps in pair_texts for _, _, d in ps if d for p in d]
    vec = cached_encode(embedder, texts)
    x = np.array(
        [text_features(vec[r["text"]], r["role"], r["text"], h) for r, h in zip(records, hits, strict=True)]
    )
    pairs = []
    for ps, h in zip(pair_texts, hits, strict=True):
        rows = []
        for a, b, d in ps:
            cosine = float(vec[a] @ vec[b])
            difference = float(vec[d[0]] @ vec[d[1]]) if d else cosine
            rows.append(pair_features(cosine, difference, PAIR_RULE in h))
        pairs.append(rows)
    return Prepared(records, x, pairs, hits)


# --- the model -----------------------------------------------------------------------------------


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(z, -500, 500)))


@dataclass(frozen=True)
class Model:
    """Per text rule a weight vector and bias; for the pair rule, weights over the pair features."""

    text: dict[str, tuple[np.ndarray, float]]
    pair: tuple[np.ndarray, float] | None

    def text_probabilities(self, x: np.ndarray) -> dict[str, np.ndarray]:
        return {rule: _sigmoid(x @ w + b) for rule, (w, b) in self.text.items()}

    def pair_probability(self, rows: Sequence[Sequence[float]]) -> float | None:
        """The highest pair's probability; None without an earlier question."""
        if self.pair is None or not rows:
            return None
        w, b = self.pair
        return float(_sigmoid(np.array(rows, dtype=np.float64) @ w + b).max())


def _labels(records: Sequence[Mapping[str, Any]], rule: str) -> np.ndarray:
    return np.array([rule in r.get("labels", ()) for r in records])


def _applies(records: Sequence[Mapping[str, Any]], rule: str) -> np.ndarray:
    return np.array([judged_by(r, rule) for r in records])


def fit(prep: Prepared, rows: np.ndarray | None = None) -> Model:
    """Fit every rule on the prepared lines (or the subset ``rows``); deterministic."""
    from sklearn.linear_model import LogisticRegression

    idx = np.arange(len(prep.records)) if rows is None else rows
    records = [prep.records[i] for i in idx]
    text: dict[str, tuple[np.ndarray, float]] = {}
    for rule in TEXT_RULES:
        mask = _applies(records, rule)
        y = _labels(records, rule)[mask]
        if y.all() or not y.any():
            continue
        c = C_OF.get(rule, C_TEXT)
        clf = LogisticRegression(C=c, solver="liblinear", random_state=0, max_iter=2000)
        clf.fit(prep.x[idx][mask], y)
        text[rule] = (clf.coef_[0].copy(), float(clf.intercept_[0]))
    vx: list[list[float]] = []
    vy: list[int] = []
    for i in idx:
        r, rows_i = prep.records[i], prep.pairs[i]
        if r["role"] != "questioner" or not rows_i:
            continue
        if PAIR_RULE in r.get("labels", ()):  # a repeat: its closest earlier question
            vx.append(max(rows_i, key=lambda v: v[0] + v[1]))
            vy.append(1)
        else:
            vx.extend(rows_i)
            vy.extend([0] * len(rows_i))
    pair = None
    if len(set(vy)) == 2:
        clf = LogisticRegression(C=C_PAIR, solver="liblinear", random_state=0, max_iter=2000)
        clf.fit(np.array(vx), np.array(vy))
        pair = (clf.coef_[0].copy(), float(clf.intercept_[0]))
    return Model(text, pair)


def predict(model: Model, prep: Prepared, rows: np.ndarray | None = None) -> list[dict[str, float]]:
    """Per line, the probability of every rule that applies to its role."""
    idx = np.arange(len(prep.records)) if rows is None else rows
    probs = model.text_probabilities(prep.x[idx]) if len(idx) else {}
    out = []
    for k, i in enumerate(idx):
        record = prep.records[i]
        scores = {rule: float(p[k]) for rule, p in probs.items() if judged_by(record, rule)}
        if record["role"] == "questioner" and (p := model.pair_probability(prep.pairs[i])) is not None:
            scores[PAIR_RULE] = p
        out.append(scores)
    return out


# --- training data, folds, fingerprint ---------------------------------------------------------------


def load_training(
    paths: Sequence[Path] = TRAINING_FILES, pairs: Path | None = PAIR_FILE
) -> list[dict[str, Any]]:
    """The labeled messages, then the labeled question pairs as two-question lines (``pairs_only``).

    The pairs teach the repeat model the near misses that messages rarely show ("the man on the
    left" / "on the right"); they carry no labels for the text rules, so those never learn from them.
    """
    records = learned.load_training(paths)
    if pairs is not None:
        for line in pairs.read_text(encoding="utf-8").splitlines():
            item = json.loads(line) if line.strip() else {}
            if item.get("kind") == "repeat":
                records.append(
                    {
                        "role": "questioner",
                        "text": item["question"],
                        "history": [{"role": "questioner", "text": item["earlier"]}],
                        "labels": [PAIR_RULE] if item["label"] else [],
                        "pairs_only": True,
                    }
                )
    return records


def judged_by(record: Mapping[str, Any], rule: str) -> bool:
    """Whether ``rule`` applies to the line (its role; pair lines only for the repeat rule)."""
    if record.get("pairs_only") and rule != PAIR_RULE:
        return False
    return record["role"] in ROLES_OF[rule]


def digest(records: Sequence[Mapping[str, Any]]) -> str:
    """Fingerprint of the lines and of the model's shape: tuned thresholds belong to one."""
    shape = f"semantic-rules {VERSION} {C_TEXT} {sorted(C_OF.items())} {C_PAIR} {FOLDS}"
    h = hashlib.sha256(shape.encode())
    for r in records:
        earlier = learned.earlier_questions(r.get("history") or ())
        key = [r["role"], r["text"], sorted(r.get("labels", ())), earlier, bool(r.get("pairs_only"))]
        h.update(json.dumps(key, ensure_ascii=False).encode())
    return h.hexdigest()[:16]


def line_key(record: Mapping[str, Any]) -> str:
    earlier = learned.earlier_questions(record.get("history") or ())
    return json.dumps([record["role"], record["text"], earlier, bool(record.get("pairs_only"))])


def folds_of(records: Sequence[Mapping[str, Any]]) -> np.ndarray:
    """Folds by text (``learned.group_of``): a repeated text never helps judge itself."""
    return np.array([learned.group_of(r, FOLDS) for r in records])


def out_of_fold(prep: Prepared) -> list[dict[str, float]]:
    """Every line's probabilities from the model trained without its fold."""
    groups = folds_of(prep.records)
    out: list[dict[str, float]] = [{} for _ in prep.records]
    for k in range(FOLDS):
        model = fit(prep, np.flatnonzero(groups != k))
        rows = np.flatnonzero(groups == k)
        for i, scores in zip(rows, predict(model, prep, rows), strict=True):
            out[i] = scores
    return out


_MODELS: dict[tuple[str, str], tuple[Model, Prepared]] = {}


def trained_model(embedder: Embedder, pool: Sequence[Mapping[str, Any]] | None = None) -> Model:
    """The model trained on all training lines (once per process and embedder)."""
    pool = load_training() if pool is None else pool
    key = (embedder.id, digest(pool))
    if key not in _MODELS:
        prep = prepare(pool, embedder)
        _MODELS[key] = (fit(prep), prep)
    return _MODELS[key][0]


# --- thresholds ------------------------------------------------------------------------------------


# Classifiers left off although the tune finds a threshold. The repeat-pair classifier trained on
# the session-5 lines gains little recall (cross-validated 0.58 -> 0.64) and calls a swapped object
# a repeat ("the man on the right" after "the man on the left", p 0.83); the similarity check with
# its difference test (``semantic_flags.is_repeat``) still finds reworded repeats. A study can set
# a threshold in ``qc_semantic_rule_thresholds``.
OFF_BY_DEFAULT = {"repeated_question"}


def choose_thresholds(
    pool: Sequence[Mapping[str, Any]], probs: Sequence[Mapping[str, float]], live: Sequence[Sequence[str]]
) -> tuple[dict[str, float], list[str]]:
    """Per rule, the lowest threshold at which "live rule OR classifier" keeps the precision target.

    ``live`` is what the live rules (with their own classifiers, judged out of fold) flagged on
    each line. As in ``server.rules.tune``, at most ``MAX_FALSE_ALARM`` of the compliant lines may
    be flagged, and a classifier that adds nothing within the limits stays off. Where the live
    rule alone is already below the target (offensive, out of fold), the OR may not fall below
    the rule's own precision instead: the classifier adds recall without costing precision.
    """
    thresholds, report = {}, []
    for rule in RULES:
        rows = [
            (rule in r.get("labels", ()), rule in hits, p.get(rule, 0.0))
            for r, hits, p in zip(pool, live, probs, strict=True)
            if judged_by(r, rule)
        ]
        positives = sum(g for g, _, _ in rows)
        negatives = len(rows) - positives
        rule_tp = sum(g and h for g, h, _ in rows)
        rule_fp = sum(not g and h for g, h, _ in rows)
        target = TARGET_PRECISION
        if rule_tp + rule_fp:
            target = min(target, rule_tp / (rule_tp + rule_fp))
        best = best_threshold(rows, target)
        head = f"{rule}: {positives} positives, {negatives} compliant; rule alone R {rule_tp / positives:.3f}"
        head += f" P {rule_tp / max(rule_tp + rule_fp, 1):.3f}"
        if best is None or best[1] <= rule_tp:
            report.append(f"{head}; no threshold adds recall within the limits: off")
            continue
        if rule in OFF_BY_DEFAULT:
            report.append(f"{head}; threshold {best[0]:.2f} would add {best[1] - rule_tp}: off by default")
            continue
        t, tp, fp = best
        thresholds[rule] = t
        report.append(f"{head}; threshold {t:.2f}: R {tp / positives:.3f} P {tp / (tp + fp):.3f} FP {fp}")
    return thresholds, report


def live_hits(records: Sequence[Mapping[str, Any]]) -> list[list[str]]:
    """The live rules at their defaults, their classifiers judged out of fold (``tune``)."""
    from server.rules.tune import check_cross_validated

    return [r.rule_ids for r in check_cross_validated(records, RulesConfig())]


def write_tuned(thresholds: Mapping[str, float], data_digest: str, path: Path = TUNED) -> None:
    text = path.read_text(encoding="utf-8") if path.exists() else '"""Tuned thresholds."""\n\n'
    head = text.split("TUNED_ON = ", 1)[0]
    lines = [f'TUNED_ON = "{data_digest}"', "THRESHOLDS: dict[str, float] = {"]
    lines += [f'    "{rule}": {t},' for rule, t in thresholds.items()]
    path.write_text(head + "\n".join([*lines, "}"]) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description="Choose the semantic classifiers' thresholds by CV.")
    parser.add_argument("--write", action="store_true", help="store them in semantic_rules_tuned.py")
    args = parser.parse_args()
    from server.qc.embedder import shared_embedder

    pool = load_training()
    prep = prepare(pool, shared_embedder())
    thresholds, report = choose_thresholds(pool, out_of_fold(prep), live_hits(pool))
    print("\n".join(report))
    if args.write:
        write_tuned(thresholds, digest(pool))
        print(f"written to {TUNED}")


if __name__ == "__main__":
    main()
