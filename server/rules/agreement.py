"""How far two annotators who labelled the same messages agree, rule by rule.

A rule's measured precision and recall are only as good as its labels: when two careful people
reading the same guide disagree on a tenth of a rule's lines, no rule can be judged above that. The
second annotator relabels a batch from the guide alone (without the first one's labels); this module
compares the two label sets: exact agreement per line, and per rule each side's positives, the lines
both marked, the second annotator's precision and recall against the first, and Cohen's kappa (the
agreement beyond what the two label rates give by chance).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from server.rules.config import RULE_IDS


@dataclass(frozen=True)
class RuleAgreement:
    rule: str
    first: int  # lines the first annotator marked
    second: int
    both: int
    kappa: float | None  # None when neither annotator used the rule

    @property
    def precision(self) -> float | None:
        """Of the second annotator's marks, the share the first made too."""
        return self.both / self.second if self.second else None

    @property
    def recall(self) -> float | None:
        """Of the first annotator's marks, the share the second found."""
        return self.both / self.first if self.first else None


@dataclass(frozen=True)
class Agreement:
    lines: int
    exact: int  # lines with the same set of labels
    rules: list[RuleAgreement]

    def as_dict(self) -> dict:
        return {
            "lines": self.lines,
            "exact": self.exact,
            "rules": {
                r.rule: {
                    "first": r.first,
                    "second": r.second,
                    "both": r.both,
                    "precision": r.precision,
                    "recall": r.recall,
                    "kappa": r.kappa,
                }
                for r in self.rules
            },
        }


def load_labels(path: Path) -> list[tuple[str | None, set[str]]]:
    """(text or None, labels) per line; unknown labels are errors naming the line."""
    out = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            labels = set(record["labels"])
        except (json.JSONDecodeError, KeyError, TypeError) as exc:
            raise ValueError(f"{path}:{n}: needs a JSON object with a 'labels' list ({exc})") from exc
        unknown = labels - set(RULE_IDS)
        if unknown:
            raise ValueError(f"{path}:{n}: unknown label {sorted(unknown)[0]!r}")
        out.append((record.get("text"), labels))
    return out


def kappa(first: Sequence[bool], second: Sequence[bool]) -> float | None:
    """Cohen's kappa of two yes/no label columns (scikit-learn's; None when neither says yes)."""
    if not any(first) and not any(second):
        return None
    if all(a == b for a, b in zip(first, second, strict=True)):
        return 1.0  # sklearn returns nan when one side is constant, although they agree fully
    from sklearn.metrics import cohen_kappa_score

    return float(cohen_kappa_score(first, second))


def compare(
    first: Sequence[tuple[str | None, set[str]]], second: Sequence[tuple[str | None, set[str]]]
) -> Agreement:
    """Agreement of two label files of the same messages in the same order."""
    if len(first) != len(second):
        raise ValueError(f"the files hold {len(first)} and {len(second)} lines: not the same messages")
    for n, ((t1, _), (t2, _)) in enumerate(zip(first, second, strict=True), start=1):
        if t1 is not None and t2 is not None and t1 != t2:
            raise ValueError(f"line {n}: the texts differ ({t1[:40]!r} / {t2[:40]!r})")
    rules = []
    for rule in RULE_IDS:
        a = [rule in labels for _, labels in first]
        b = [rule in labels for _, labels in second]
        rules.append(
            RuleAgreement(rule, sum(a), sum(b), sum(x and y for x, y in zip(a, b, strict=True)), kappa(a, b))
        )
    exact = sum(l1 == l2 for (_, l1), (_, l2) in zip(first, second, strict=True))
    return Agreement(len(first), exact, rules)


def render(agreement: Agreement) -> str:
    """A Markdown table for docs and the terminal."""

    def f(x: float | None) -> str:
        return "–" if x is None else f"{x:.2f}"

    share = agreement.exact / agreement.lines if agreement.lines else 0.0
    rows = [
        f"{agreement.exact} of {agreement.lines} lines labelled identically ({share:.1%}).",
        "",
        "| rule | first | second | both | second's P | second's R | kappa |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    rows += [
        f"| `{r.rule}` | {r.first} | {r.second} | {r.both} | {f(r.precision)} | {f(r.recall)} "
        f"| {f(r.kappa)} |"
        for r in agreement.rules
        if r.first or r.second
    ]
    return "\n".join(rows)
