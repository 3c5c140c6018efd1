"""Leave-one-author-out: do the classifiers judge a new author better when they learned from more?

    python -m server.rules.crossauthor [--authors 15 16 17 18 19 20] [--json OUT]

Each blind batch is one author's lines, and the blind batch of a session is judged by models that
never saw that author. Cross-validation by text (``tune``) cannot measure that: an author's other
lines sit in the training folds. Here, for each batch k of ``--authors``, two arms judge batch k:

- *without*: models trained on ``learned.TRAINING_FILES`` minus every batch of ``--authors``;
- *with*: the same plus the batches of ``--authors`` other than k.

Each arm's thresholds are chosen as ``python -m server.rules.tune`` chooses them, on its own
training lines only (never on k). Reported per batch and pooled over the batches: lines judged
exactly right, and per learned rule true hits, false alarms, misses, precision and recall.
Each arm trains six models (the full one and five folds for the thresholds), kept on disk by
``model_store`` like the tuning's, so a second run is quick.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from server.rules import learned, tune
from server.rules.config import RulesConfig
from server.rules.evaluate import Counts, SplitReport, load_labeled, tally
from server.rules.model_store import cached_train, records_key
from server.rules.registry import check_many

AUTHORS = (15, 16, 17, 18, 19, 20)  # six authors' blind batches, development data since


def batch_file(n: int) -> Path:
    return learned.DATA_DIR / f"heldout_batch{n}.jsonl"


def config_for(thresholds: Mapping[str, float]) -> RulesConfig:
    """The shipped configuration with these classifier thresholds (a classifier not listed is off)."""
    return RulesConfig(
        **{
            rule: {"classifier_threshold": thresholds[rule]} if rule in thresholds else {"classifier": False}
            for rule in learned.LEARNED_RULES
        }
    )


def arm(pool: Sequence[Mapping[str, Any]]) -> tuple[learned.Model, dict[str, float]]:
    """The model trained on ``pool`` and the thresholds ``tune`` chooses on it."""
    model = cached_train(records_key(pool), partial(learned.train, pool))
    thresholds, _ = tune.choose_thresholds(pool)
    tune.forget_fold_models()  # six fold sets would not fit in memory together
    return model, thresholds


def judge(
    records: Sequence[dict[str, Any]], model: learned.Model, thresholds: Mapping[str, float]
) -> SplitReport:
    return tally(records, check_many(records, config_for(thresholds), model=model))["all"]


def add(total: SplitReport, part: SplitReport) -> None:
    total.messages += part.messages
    total.exact += part.exact
    for rule, c in part.rules.items():
        t = total.rules[rule]
        t.tp, t.fp, t.fn = t.tp + c.tp, t.fp + c.fp, t.fn + c.fn


def _pr(c: Counts) -> str:
    p = "–" if c.precision is None else f"{c.precision:.2f}"
    r = "–" if c.recall is None else f"{c.recall:.2f}"
    return f"{c.tp}/{c.fp}/{c.fn} P {p} R {r}"


def summary(report: SplitReport) -> dict[str, Any]:
    return {
        "messages": report.messages,
        "exact": report.exact,
        "rules": {r: [c.tp, c.fp, c.fn] for r, c in report.rules.items() if r in learned.LEARNED_RULES},
    }


def run(authors: Sequence[int]) -> dict[str, Any]:
    """Per held-out batch and pooled, the figures of both arms (and the thresholds each chose)."""
    held = {n: batch_file(n) for n in authors}
    base_files = [p for p in learned.TRAINING_FILES if p not in held.values()]
    base = learned.load_training(base_files)
    without = arm(base)
    out: dict[str, Any] = {"without": {"thresholds": without[1]}, "with": {}}
    pooled = {"without": SplitReport(), "with": SplitReport()}
    for k, path in held.items():
        others = [held[n] for n in authors if n != k]
        records = load_labeled(path)
        with_ = arm(base + learned.load_training(others))
        for name, (model, thresholds) in (("without", without), ("with", with_)):
            report = judge(records, model, thresholds)
            add(pooled[name], report)
            out[name][f"batch {k}"] = summary(report)
        out["with"][f"thresholds {k}"] = with_[1]
        before, after = out["without"][f"batch {k}"]["exact"], out["with"][f"batch {k}"]["exact"]
        print(f"batch {k}: exact {before} -> {after} of {len(records)}; thresholds {with_[1]}", flush=True)
    for name, report in pooled.items():
        out[name]["pooled"] = summary(report)
    print(render(out, authors))
    return out


def render(out: Mapping[str, Any], authors: Sequence[int]) -> str:
    """A Markdown table: per rule, pooled tp/fp/fn, P and R without and with the other authors."""
    lines = ["| rule | without (tp/fp/fn) | with the other authors |", "| --- | --- | --- |"]
    for rule in learned.LEARNED_RULES:
        a, b = (Counts(*out[arm_]["pooled"]["rules"][rule]) for arm_ in ("without", "with"))
        lines.append(f"| `{rule}` | {_pr(a)} | {_pr(b)} |")
    exact = [
        f"batch {k} {out['without'][f'batch {k}']['exact']} -> {out['with'][f'batch {k}']['exact']}"
        for k in authors
    ]
    a, b = out["without"]["pooled"], out["with"]["pooled"]
    lines += ["", f"exact: {'; '.join(exact)}; pooled {a['exact']} -> {b['exact']} of {a['messages']}"]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--authors", type=int, nargs="+", default=list(AUTHORS), help="batch numbers")
    parser.add_argument("--json", type=Path, help="write the figures here")
    args = parser.parse_args()
    out = run(args.authors)
    if args.json:
        args.json.write_text(json.dumps(out, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
