"""Cross-validation of the learned classifiers, and the thresholds they run at.

    python -m server.rules.tune [--write]

Every training line is scored by models trained without its fold (folds by text, so a repeated
text never helps judge itself). For each rule the default threshold is the lowest probability at
which "rule hit OR classifier" keeps a cross-validated precision of at least ``TARGET_PRECISION``
and flags at most ``MAX_FALSE_ALARM`` of the compliant lines; ``--write`` stores them in
``server/rules/tuned.py`` with the fingerprint of the data. ``evaluate`` uses the same folds, so
figures on lines the classifiers learned from are always out-of-fold figures.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from server.rules import learned
from server.rules.base import Context, RuleResult
from server.rules.config import RulesConfig
from server.rules.model_store import cached_train, records_key
from server.rules.registry import check_many, learned_score

FOLDS = 5
TARGET_PRECISION = 0.97
MAX_FALSE_ALARM = 0.01  # share of the compliant lines of the rule's roles
# 0.51 ... 0.99: a classifier alone flags only what it judges more likely a violation than not. Below
# 0.50 the pooled precision of "rule OR classifier" could still be met (the rule's sure hits carry
# it) while the classifier's own additions were near coin flips: with the training lines of
# 2026-11 the offensive one went down to 0.30 and flagged "Soldiers kill each other on a bloody
# battlefield." for a handful more insults.
GRID = [round(0.51 + 0.01 * i, 2) for i in range(49)]  # above 0.50: even odds are no verdict
TUNED = Path(__file__).with_name("tuned.py")
# Classifiers that are not switched on by default although one could be: the repeated-question
# one finds few repeats the rule misses (it sees letters, not synonyms) for a quarter of the
# classifiers' cost per message. The not-a-question one finds a line or two the rule misses in
# cross-validation (1 of 339 in session 8) for a classifier's cost on every question. A study can still
# set its threshold.
OFF_BY_DEFAULT = {"repeated_question", "not_a_question"}


def line_key(record: Mapping[str, Any]) -> str:
    """Identifies a line across files: role, text, earlier questions and opinions."""
    return json.dumps(
        [
            record["role"],
            record["text"],
            learned.earlier_questions(record.get("history") or ()),
            learned.opinion_texts(record.get("opinions") or ()),
        ],
        ensure_ascii=False,
    )


_FOLD_MODELS: dict[tuple[str, int], list[learned.Model]] = {}


def fold_models(pool: Sequence[Mapping[str, Any]], folds: int = FOLDS) -> list[learned.Model]:
    """One model per fold, each trained on the pool without that fold (kept per pool fingerprint)."""
    key = (learned.digest(pool), folds)
    if key not in _FOLD_MODELS:
        groups = [learned.group_of(r, folds) for r in pool]
        subsets = [[r for r, g in zip(pool, groups, strict=True) if g != k] for k in range(folds)]
        _FOLD_MODELS[key] = [cached_train(records_key(s), partial(learned.train, s)) for s in subsets]
    return _FOLD_MODELS[key]


def forget_fold_models() -> None:
    """Drop the fold models kept in memory (a run that tunes on many pools keeps one set at a time)."""
    _FOLD_MODELS.clear()


def out_of_fold(
    records: Sequence[Mapping[str, Any]],
    pool: Sequence[Mapping[str, Any]],
    models: Sequence[learned.Model] | None = None,
) -> list[learned.Model]:
    """The model that may judge each record: its fold's model if the pool holds it, else the full one."""
    in_pool = {line_key(r) for r in pool}
    if models is None:  # trained only when some record is a training line
        models = fold_models(pool) if any(line_key(r) in in_pool for r in records) else []
    full: learned.Model | None = None
    chosen = []
    for r in records:
        if line_key(r) in in_pool:
            chosen.append(models[learned.group_of(r, len(models))])
        else:
            full = full or learned.default_model()
            chosen.append(full)
    return chosen


def check_cross_validated(
    records: Sequence[Mapping[str, Any]],
    config: RulesConfig,
    pool: Sequence[Mapping[str, Any]] | None = None,
) -> list[RuleResult]:
    """``check_many`` on ``records`` where no line is judged by a model that was trained on it."""
    pool = learned.load_training() if pool is None else pool
    chosen = out_of_fold(records, pool)
    results: list[RuleResult | None] = [None] * len(records)
    for model in {id(m): m for m in chosen}.values():
        idx = [i for i, m in enumerate(chosen) if m is model]
        for i, result in zip(idx, check_many([records[i] for i in idx], config, model=model), strict=True):
            results[i] = result
    return results  # type: ignore[return-value]


def probabilities(records: Sequence[Mapping[str, Any]], models: Sequence[learned.Model]) -> list[dict]:
    """Out-of-fold probability of every learned rule that applies to each record's role."""
    out = []
    plain = check_many(records, RulesConfig(classifier=False))
    for r, model, result in zip(records, models, plain, strict=True):
        ctx = Context(r["role"], 0, r["text"], r.get("history") or (), r.get("opinions") or ())
        out.append(
            {
                rule: learned_score(ctx, rule, model, result.rule_ids)
                for rule in learned.LEARNED_RULES
                if r["role"] in learned.ROLES_OF[rule]
            }
        )
    return out


def best_threshold(
    rows: Sequence[tuple[bool, bool, float]], target: float = TARGET_PRECISION
) -> tuple[float, int, int] | None:
    """(threshold, true hits, false alarms) of the threshold at which "rule OR classifier" finds the
    most positives while keeping precision >= ``target`` and flagging at most ``MAX_FALSE_ALARM``
    of the compliant rows; of those, the fewest false alarms. When a run of thresholds gives the
    same counts, the middle one: the top of the run sits just below a positive that is about to be
    lost, and new lines' probabilities scatter around the cross-validated ones. ``rows`` are
    (labeled, rule hit, classifier probability); None when no threshold is within the limits."""
    negatives = sum(not g for g, _, _ in rows)
    feasible = []
    for t in GRID:
        tp = sum(g and (h or p >= t) for g, h, p in rows)
        fp = sum(not g and (h or p >= t) for g, h, p in rows)
        if tp + fp and tp / (tp + fp) >= target and fp <= MAX_FALSE_ALARM * negatives:
            feasible.append((t, tp, fp))
    if not feasible:
        return None
    top = max((tp, -fp) for _, tp, fp in feasible)
    run = [row for row in feasible if (row[1], -row[2]) == top]  # consecutive: both counts fall with t
    return run[(len(run) - 1) // 2]


def precision_target(rule_tp: int, rule_fp: int) -> float:
    """The precision "rule OR classifier" must keep: ``TARGET_PRECISION``, or the rule's own if lower.

    A rule whose own hits fall short of the target (another author's borderline lines) would rule
    out every threshold and switch its classifier off; the classifier may instead not lower the
    rule's own precision.
    """
    if rule_tp + rule_fp and rule_tp / (rule_tp + rule_fp) < TARGET_PRECISION:
        return rule_tp / (rule_tp + rule_fp)
    return TARGET_PRECISION


def choose_thresholds(pool: Sequence[Mapping[str, Any]]) -> tuple[dict[str, float], list[str]]:
    """Per rule, the lowest threshold meeting the precision and false-alarm limits; and a report."""
    models = out_of_fold(pool, pool)
    probs = probabilities(pool, models)
    plain = check_many(pool, RulesConfig(classifier=False))
    thresholds, report = {}, []
    for rule in learned.LEARNED_RULES:
        rows = [
            (rule in r.get("labels", ()), rule in res.rule_ids, p[rule])
            for r, res, p in zip(pool, plain, probs, strict=True)
            if rule in p
        ]
        positives = sum(g for g, _, _ in rows)
        negatives = len(rows) - positives
        rule_tp = sum(g and h for g, h, _ in rows)
        rule_fp = sum(not g and h for g, h, _ in rows)
        best = best_threshold(rows, precision_target(rule_tp, rule_fp))
        if best is None or best[1] == rule_tp:
            report.append(
                f"{rule}: no threshold finds more than the rule within the limits; classifier off; "
                f"{positives} positives, {negatives} compliant; rule alone R {rule_tp / positives:.3f} "
                f"FP {rule_fp}"
            )
            continue
        t, tp, fp = best
        off = " (off by default)" if rule in OFF_BY_DEFAULT else ""
        if rule not in OFF_BY_DEFAULT:
            thresholds[rule] = t
        report.append(
            f"{rule}: threshold {t:.2f}{off}; {positives} positives, {negatives} compliant; rule alone "
            f"R {rule_tp / positives:.3f} FP {rule_fp}; with classifier R {tp / positives:.3f} FP {fp} "
            f"P {tp / (tp + fp):.3f}"
        )
    return thresholds, report


def write_tuned(thresholds: Mapping[str, float], data_digest: str, path: Path = TUNED) -> None:
    text = path.read_text(encoding="utf-8")
    head = text.split("TUNED_ON = ", 1)[0]
    lines = [f'TUNED_ON = "{data_digest}"', "DEFAULT_THRESHOLDS: dict[str, float] = {"]
    lines += [f'    "{rule}": {t},' for rule, t in thresholds.items()]
    path.write_text(head + "\n".join([*lines, "}"]) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="store the thresholds in tuned.py")
    args = parser.parse_args()
    pool = learned.load_training()
    thresholds, report = choose_thresholds(pool)
    print("\n".join(report))
    if args.write:
        write_tuned(thresholds, learned.digest(pool))
        print(f"written to {TUNED}")


if __name__ == "__main__":
    main()
