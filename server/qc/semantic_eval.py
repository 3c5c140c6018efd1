"""Precision and recall of the semantic checks on a labeled set of question pairs.

Each labeled line becomes a tiny dialog that goes through the same code as real ones
(``score_records`` then ``find``), and through the lexical QC (``flag_turns``) for a
same-set baseline. Lines (``tasks/rules-eval/semantic_pairs.jsonl``)::

    {"kind": "repeat", "earlier": "...", "question": "...", "opinions": [...], "label": true, "split": "dev"}
    {"kind": "opinion", "question": "...", "opinions": [{emotion, text}, ...], "label": false, ...}
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from server.qc.flags import flag_turns
from server.qc.record import DialogRecord, TurnRecord
from server.qc.semantic import score_records
from server.qc.semantic_flags import Thresholds, find
from server.settings import REPO_ROOT

LABELED_PAIRS = REPO_ROOT / "tasks" / "rules-eval" / "semantic_pairs.jsonl"
CHECK = {"repeat": "repeated_question", "opinion": "copies_opinion"}


@dataclass
class Counts:
    tp: int = 0
    fp: int = 0
    fn: int = 0
    tn: int = 0

    def add(self, predicted: bool, label: bool) -> None:
        if predicted and label:
            self.tp += 1
        elif predicted:
            self.fp += 1
        elif label:
            self.fn += 1
        else:
            self.tn += 1

    def as_dict(self) -> tuple[dict[str, int], dict[str, float | None]]:
        p = self.tp / (self.tp + self.fp) if self.tp + self.fp else None
        r = self.tp / (self.tp + self.fn) if self.tp + self.fn else None
        f1 = 2 * p * r / (p + r) if p and r else None
        size = {"pos": self.tp + self.fn, "neg": self.fp + self.tn, "tp": self.tp, "fp": self.fp}
        return size, {"precision": _round(p), "recall": _round(r), "f1": _round(f1)}


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 2)


def _fmt(x: float | None) -> str:
    return "–" if x is None else f"{x:.2f}"


def load_pairs(path: Path = LABELED_PAIRS) -> list[dict[str, Any]]:
    items = []
    for n, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip():
            continue
        item = json.loads(line)
        if item.get("kind") not in CHECK or "question" not in item or "label" not in item:
            raise ValueError(f"{path}:{n}: needs kind (repeat|opinion), question and label")
        items.append(item)
    return items


def as_record(i: int, item: dict[str, Any]) -> DialogRecord:
    """A one- or two-question dialog: the later question is always seq 3."""
    turns = [TurnRecord(3, 2, "questioner", item["question"], 0)]
    if item["kind"] == "repeat":
        turns.insert(0, TurnRecord(1, 1, "questioner", item["earlier"], 0))
    return DialogRecord(f"pair{i}", "complete", 2, "q", "a", None, item.get("opinions", []), turns)


def evaluate(items: list[dict[str, Any]], embedder: Any, thresholds: Thresholds) -> list[dict[str, Any]]:
    """One row per (check, split, method): semantic, lexical, and either of them."""
    records = [as_record(i, item) for i, item in enumerate(items)]
    scores = score_records(records, embedder)
    table: dict[tuple[str, str, str], Counts] = {}
    for item, rec in zip(items, records, strict=True):
        check = CHECK[item["kind"]]
        lexical = any(h["id"] == check for h in flag_turns(rec, {}).get("3", []))
        found = find(scores[rec.id], {}, [], thresholds)
        semantic = any(h["id"] == check for h in found.flags["turns"].get("3", []))
        groups = [item.get("split", "dev"), "all"]
        if "batch" in item:  # the test split was written in batches (docs/semantic.md)
            groups.append(f"{item['split']} batch {item['batch']}")
        for split in groups:
            methods = (("lexical", lexical), ("semantic", semantic), ("either", lexical or semantic))
            for method, predicted in methods:
                table.setdefault((check, split, method), Counts()).add(predicted, bool(item["label"]))
    rows = []
    for (check, split, method), counts in sorted(table.items()):
        size, metrics = counts.as_dict()
        rows.append({"check": check, "split": split, "method": method, **size, **metrics})
    return rows


def render(rows: list[dict[str, Any]]) -> str:
    """A Markdown table (docs/semantic.md shows it)."""
    out = [
        "| check | split | method | pos. | neg. | precision | recall | F1 |",
        "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in rows:
        out.append(
            f"| `{r['check']}` | {r['split']} | {r['method']} | {r['pos']} | {r['neg']} | "
            f"{_fmt(r['precision'])} | {_fmt(r['recall'])} | {_fmt(r['f1'])} |"
        )
    return "\n".join(out)


# --- the per-rule classifiers on labeled messages ------------------------------------------------


def rule_predictions(
    records: list[dict[str, Any]], embedder: Any, pool: list[dict[str, Any]] | None = None
) -> list[dict[str, float]]:
    """Each line's classifier probabilities, never from a model trained on it.

    A training line is judged by its cross-validation fold's model, any other line by the model
    trained on all training lines (as in the semantic stage).
    """
    from server.qc import semantic_rules as sr

    pool = sr.load_training() if pool is None else pool
    keys = {sr.line_key(r): i for i, r in enumerate(pool)}
    out: list[dict[str, float]] = [{} for _ in records]
    inside = [i for i, r in enumerate(records) if sr.line_key(r) in keys]
    if inside:
        oof = sr.out_of_fold(sr.prepare(pool, embedder))
        for i in inside:
            out[i] = oof[keys[sr.line_key(records[i])]]
    outside = [i for i, r in enumerate(records) if sr.line_key(r) not in keys]
    if outside:
        model = sr.trained_model(embedder, pool)
        prep = sr.prepare([records[i] for i in outside], embedder)
        for i, scores in zip(outside, sr.predict(model, prep), strict=True):
            out[i] = scores
    return out


def evaluate_rules(
    records: list[dict[str, Any]],
    embedder: Any,
    thresholds: Thresholds,
    pool: list[dict[str, Any]] | None = None,
) -> list[dict[str, Any]]:
    """Per rule and group ("all", "batch N"): the live rule, the classifier, and either of them.

    The live rules run at their defaults with their own classifiers judged out of fold
    (``server.rules.tune``). A rule whose semantic classifier is off is shown at 0.5 under
    "semantic", and "either" is then the live rule alone.
    """
    from server.qc import semantic_rules as sr

    probs = rule_predictions(records, embedder, pool)
    live = sr.live_hits(records)
    tuned = dict(thresholds.rules)
    table: dict[tuple[str, str, str], Counts] = {}
    for r, p, hits in zip(records, probs, live, strict=True):
        groups = ["all"] + ([f"batch {r['batch']}"] if "batch" in r else [])
        if r.get("pairs_only"):
            groups = ["question pairs"]
        for rule in sr.RULES:
            if not sr.judged_by(r, rule):
                continue
            label, rule_hit = rule in r.get("labels", ()), rule in hits
            semantic = p.get(rule, 0.0) >= tuned.get(rule, 0.5)
            either = rule_hit or (rule in tuned and semantic)
            for group in groups:
                for method, predicted in (("rule", rule_hit), ("semantic", semantic), ("either", either)):
                    table.setdefault((rule, group, method), Counts()).add(predicted, label)
    rows = []
    for (rule, group, method), counts in table.items():
        size, metrics = counts.as_dict()
        rows.append(
            {"rule": rule, "group": group, "method": method, "threshold": tuned.get(rule), **size, **metrics}
        )
    order = {rule: k for k, rule in enumerate(sr.RULES)}
    methods = {"rule": 0, "semantic": 1, "either": 2}
    rows.sort(key=lambda x: (x["group"] != "all", x["group"], order[x["rule"]], methods[x["method"]]))
    return rows


def render_rules(rows: list[dict[str, Any]]) -> str:
    """A Markdown table per group: positives, then P / R of rule, classifier and rule OR classifier."""
    out: list[str] = []
    groups = list(dict.fromkeys(r["group"] for r in rows))
    by = {(r["group"], r["rule"], r["method"]): r for r in rows}
    for group in groups:
        out += [
            f"{group}:",
            "",
            "| rule | pos. | neg. | threshold | rule P | rule R | semantic P | semantic R | either P | "
            "either R |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        for rule in dict.fromkeys(r["rule"] for r in rows if r["group"] == group):
            a, s, e = (by[(group, rule, m)] for m in ("rule", "semantic", "either"))
            t = "off" if a["threshold"] is None else f"{a['threshold']:.2f}"
            cells = [str(a["pos"]), str(a["neg"]), t]
            cells += [_fmt(x[k]) for x in (a, s, e) for k in ("precision", "recall")]
            out.append(f"| `{rule}` | " + " | ".join(cells) + " |")
        out.append("")
    return "\n".join(out).rstrip() + "\n"
