"""Precision, recall and F1 of every rule on a labeled set, and the table ``docs/qc.md`` shows.

The labeled set is JSON lines: ``{"role", "round", "text", "history"?, "opinions"?, "labels": [rule
ids], "split": "dev"|"test", "batch"?: n}``. A rule counts as predicted when it hits with the
configuration given (default: the shipped defaults), whatever its severity. Lines carrying a batch
number (test messages written later, each batch committed before the rules ran on it) are also
reported per batch, so that a newly held-out batch is not averaged away among older ones.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from server.rules.base import RuleResult
from server.rules.config import RULE_IDS, RulesConfig
from server.rules.registry import RULES_BY_ID, check_many
from server.settings import REPO_ROOT

LABELED_SET = REPO_ROOT / "tasks" / "rules-eval" / "labeled_messages.jsonl"
DOCS = REPO_ROOT / "docs" / "qc.md"
START, END = "<!-- rules-eval:start -->", "<!-- rules-eval:end -->"


@dataclass
class Counts:
    tp: int = 0
    fp: int = 0
    fn: int = 0

    @property
    def precision(self) -> float | None:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else None

    @property
    def recall(self) -> float | None:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else None

    @property
    def f1(self) -> float | None:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p and r else (0.0 if p is not None and r is not None else None)


@dataclass
class SplitReport:
    """Per-rule counts on one split, the messages judged wholly right, and every mistake."""

    messages: int = 0
    exact: int = 0
    rules: dict[str, Counts] = field(default_factory=lambda: {r: Counts() for r in RULE_IDS})
    errors: list[dict[str, Any]] = field(default_factory=list)


def load_labeled(path: Path = LABELED_SET) -> list[dict[str, Any]]:
    """Read and sanity-check the labeled set (unknown labels or a rule on the wrong role are errors)."""
    records = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        record = json.loads(line)
        for label in record["labels"]:
            if label not in RULES_BY_ID:
                raise ValueError(f"{path}:{n}: unknown label {label!r}")
            if record["role"] not in RULES_BY_ID[label].roles:
                raise ValueError(f"{path}:{n}: {label} never applies to the {record['role']}")
        if record.get("split") not in ("dev", "test"):
            raise ValueError(f"{path}:{n}: split must be 'dev' or 'test'")
        if "batch" in record and (type(record["batch"]) is not int or record["batch"] < 1):
            raise ValueError(f"{path}:{n}: batch must be a positive whole number")
        record["_line"] = n
        records.append(record)
    return records


def evaluate(records: Sequence[dict[str, Any]], config: RulesConfig | None = None) -> dict[str, SplitReport]:
    """Reports for "dev", "test" and "all", and "batch N" for every batch number present.

    The learned classifiers were trained on the labeled set too: a line they learned from is judged
    by the models of the cross-validation fold that left it out (``tune.check_cross_validated``),
    so no figure here is a training-set figure. Lines outside the training files (a new held-out
    batch) are judged by the shipped models, as in the chat.
    """
    config = config or RulesConfig()
    if config.uses_classifiers():
        from server.rules.tune import check_cross_validated

        results = check_cross_validated(records, config)
    else:
        results = check_many(records, config)
    return tally(records, results)


def tally(records: Sequence[dict[str, Any]], results: Sequence[RuleResult]) -> dict[str, SplitReport]:
    """The reports of ``evaluate`` for verdicts already made (one result per record)."""
    reports = {name: SplitReport() for name in ("dev", "test", "all")}
    for batch in sorted({r["batch"] for r in records if "batch" in r}):
        reports[f"batch {batch}"] = SplitReport()
    for record, result in zip(records, results, strict=True):
        gold, predicted = set(record["labels"]), set(result.rule_ids)
        targets = [reports[record["split"]], reports["all"]]
        if "batch" in record:
            targets.append(reports[f"batch {record['batch']}"])
        for report in targets:
            report.messages += 1
            report.exact += gold == predicted
            for rule_id in RULE_IDS:
                counts = report.rules[rule_id]
                if rule_id in predicted and rule_id in gold:
                    counts.tp += 1
                elif rule_id in predicted:
                    counts.fp += 1
                elif rule_id in gold:
                    counts.fn += 1
            if gold != predicted and report is reports["all"]:
                report.errors.append(
                    {
                        "line": record["_line"],
                        "split": record["split"],
                        "role": record["role"],
                        "text": record["text"],
                        "missed": sorted(gold - predicted),
                        "wrong": sorted(predicted - gold),
                    }
                )
    return reports


def _fmt(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}"


def render_table(reports: dict[str, SplitReport]) -> str:
    """A Markdown table: per rule, positives and P/R/F1 on dev and on test, plus the overall figures."""
    dev, test = reports["dev"], reports["test"]
    lines = [
        "| rule | severity | dev pos. | dev P | dev R | dev F1 | test pos. | test P | test R | test F1 |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for rule_id in RULE_IDS:
        d, t = dev.rules[rule_id], test.rules[rule_id]
        lines.append(
            f"| `{rule_id}` | {RULES_BY_ID[rule_id].default_severity} | {d.tp + d.fn} | "
            f"{_fmt(d.precision)} | {_fmt(d.recall)} | {_fmt(d.f1)} | {t.tp + t.fn} | "
            f"{_fmt(t.precision)} | {_fmt(t.recall)} | {_fmt(t.f1)} |"
        )
    lines.append("")
    batches = [(name, r) for name, r in reports.items() if name.startswith("batch ")]
    for name, report in (("dev", dev), ("test", test), *batches):
        share = report.exact / report.messages if report.messages else 0.0
        lines.append(
            f"- {name}: {report.messages} messages, {report.exact} ({share:.1%}) "
            "with exactly the labeled rules."
        )
    if batches:
        lines += ["", *_batch_table(batches)]
    return "\n".join(lines)


def _batch_table(batches: list[tuple[str, SplitReport]]) -> list[str]:
    """Positives, precision and recall of every rule in each numbered test batch."""
    head = "| rule |" + "".join(f" {name} pos. | {name} P | {name} R |" for name, _ in batches)
    lines = [head, "| --- |" + " ---: | ---: | ---: |" * len(batches)]
    for rule_id in RULE_IDS:
        cells = "".join(
            f" {c.tp + c.fn} | {_fmt(c.precision)} | {_fmt(c.recall)} |"
            for c in (report.rules[rule_id] for _, report in batches)
        )
        lines.append(f"| `{rule_id}` |{cells}")
    return lines


def write_docs(table: str, path: Path = DOCS) -> None:
    """Replace the text between the evaluation markers in ``docs/qc.md`` (which must exist)."""
    text = path.read_text(encoding="utf-8")
    if START not in text or END not in text:
        raise ValueError(f"{path} lacks the markers {START} ... {END}")
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    path.write_text(f"{head}{START}\n{table}\n{END}{tail}", encoding="utf-8")
