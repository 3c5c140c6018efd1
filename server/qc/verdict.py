"""Combine inclusion problems, rule flags and semantic findings into accept / review / reject."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

Verdict = Literal["accept", "review", "reject"]


@dataclass
class Decision:
    verdict: Verdict
    reasons: list[str] = field(default_factory=list)
    summary: str = ""


def decide(
    reject: list[str],
    review: list[str],
    flags: dict[str, list[dict[str, Any]]],
    hard_for_reject: int,
    soft_for_review: int,
    semantic: Sequence[str] = (),
) -> Decision:
    """Reject beats review beats accept; every reason is machine-readable ("kind:detail").

    ``semantic`` holds review reasons from the semantic stage, already past its own count
    threshold (``server.qc.semantic_flags``); they can send an accepted dialog to review only.
    """
    hard = Counter(h["id"] for hits in flags.values() for h in hits if h["severity"] == "hard")
    soft = Counter(h["id"] for hits in flags.values() for h in hits if h["severity"] != "hard")
    reject = list(reject)
    review = list(review)
    if sum(hard.values()) >= hard_for_reject:
        reject += [f"rule:{rule}:{n}" for rule, n in sorted(hard.items())]
    elif sum(soft.values()) >= soft_for_review:
        review += [f"rule:{rule}:{n}" for rule, n in sorted(soft.items())]
    review += list(semantic)
    if reject:
        also = f" Also: {_readable(review)}" if review else ""
        return Decision("reject", reject + review, f"Rejected: {_readable(reject)}{also}")
    if review:
        return Decision("review", review, "Needs a look: " + _readable(review))
    return Decision("accept", [], "Accepted: complete, explanations present, no rule problems.")


_TEXT = {
    "incomplete": "the dialog did not finish ({})",
    "rounds_missing": "only {} rounds were completed",
    "missing_response": "the {} form is missing",
    "explanation_too_short": "the {} explanation is too short",
    "explanation_unrelated": "the {} explanation does not refer to the conversation",
}
_SEMANTIC = {
    "repeated_question": "{} question(s) reword an earlier question",
    "copies_opinion": "{} question(s) restate an opinion that was shown",
    "explanation_unrelated": "the {} explanation is far in meaning from the conversation",
}


def _readable(reasons: list[str]) -> str:
    parts = []
    for reason in reasons:
        kind, _, detail = reason.partition(":")
        if kind == "rule":
            rule, _, count = detail.partition(":")
            parts.append(f"rule '{rule}' broken {count} time(s)")
            continue
        if kind == "semantic":
            check, _, value = detail.partition(":")
            text = _SEMANTIC.get(check, check + " {}").format(value.replace("_", " "))
            parts.append(f"semantic check: {text}")
            continue
        parts.append(_TEXT.get(kind, kind + " {}").format(detail.replace("_", " ")))
    return "; ".join(parts) + "."
