"""From stored similarity scores to semantic flags and verdict reasons; plain Python, no torch.

The semantic stage stores scores that do not depend on any threshold, so the fast QC path
(``run_qc``) can re-derive the flags under the current settings without the model, and a
threshold change needs ``avd qc run``, not a new pass over the embeddings.

Scores, as ``server.qc.semantic`` writes them::

    {"questions": {"<seq>": {"repeats": [[earlier_seq, cosine, difference_cosine], ...],
                             "opinions": [cosine_to_opinion_0, cosine_to_opinion_1]}},
     "explanations": {"<phase>": cosine_to_the_dialog},
     "rules": {"<seq>": {"<rule>": probability, ...}}}

``rules`` holds the per-rule classifiers' probabilities (``server.qc.semantic_rules``); a rule
flags a message when its probability reaches the rule's threshold (the cross-validated
defaults of ``semantic_rules_tuned``, or ``qc_semantic_rule_thresholds``; 1 switches one off).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from server.qc.semantic_rules_tuned import THRESHOLDS as RULE_THRESHOLDS

# A pair of questions below this whole-question cosine is not stored (keeps rows small);
# the repeat threshold may not go lower (its setting is validated against it).
REPEAT_FLOOR = 0.3
QUESTIONER_PHASES = ("before_reveal", "after_reveal")


@dataclass(frozen=True)
class Thresholds:
    repeat: float = 0.5
    repeat_difference: float = 0.55
    opinion: float = 0.65
    explanation: float = 0.25
    for_review: int = 1
    # per-rule classifier thresholds, as sorted (rule, probability) pairs
    rules: tuple[tuple[str, float], ...] = tuple(sorted(RULE_THRESHOLDS.items()))

    @classmethod
    def from_settings(cls, settings: Any) -> Thresholds:
        rules = dict(RULE_THRESHOLDS) | dict(getattr(settings, "qc_semantic_rule_thresholds", None) or {})
        return cls(
            repeat=settings.qc_semantic_repeat_similarity,
            repeat_difference=settings.qc_semantic_repeat_difference_similarity,
            opinion=settings.qc_semantic_opinion_similarity,
            explanation=settings.qc_semantic_explanation_similarity,
            for_review=settings.qc_semantic_flags_for_review,
            rules=tuple(sorted((rule, t) for rule, t in rules.items() if t < 1)),
        )


@dataclass
class Findings:
    """Flags per turn and per explanation, and the review reasons they add to the verdict."""

    flags: dict[str, Any] = field(default_factory=dict)
    reasons: list[str] = field(default_factory=list)
    new: int = 0  # findings the lexical rules had not already made


def is_repeat(cosine: float, difference: float, t: Thresholds) -> bool:
    """Close as a whole and in the words the two questions do not share (a swapped object is not)."""
    return cosine >= t.repeat and difference >= t.repeat_difference


def find(
    scores: dict[str, Any],
    lexical_flags: dict[str, list[dict[str, Any]]],
    lexical_review: list[str],
    t: Thresholds,
) -> Findings:
    """Apply the thresholds; a finding the lexical QC already made is kept but marked, not counted."""
    turns: dict[str, list[dict[str, Any]]] = {}
    counts: dict[str, int] = {"repeated_question": 0, "copies_opinion": 0}
    for seq, q in sorted(scores.get("questions", {}).items(), key=lambda kv: int(kv[0])):
        lexical = {hit["id"] for hit in lexical_flags.get(seq, [])}
        hits = []
        repeats = [r for r in q.get("repeats", []) if is_repeat(r[1], r[2], t)]
        if repeats:
            of, cosine, difference = max(repeats, key=lambda r: (r[2], r[1]))
            hit = {"id": "repeated_question", "of": int(of), "similarity": cosine, "difference": difference}
            hits.append(hit | {"lexical": "repeated_question" in lexical})
        opinions = q.get("opinions", [])
        if opinions and max(opinions) >= t.opinion:
            which = max(range(len(opinions)), key=lambda i: opinions[i])
            hit = {"id": "copies_opinion", "opinion": which, "similarity": opinions[which]}
            hits.append(hit | {"lexical": "copies_opinion" in lexical})
        for hit in hits:
            counts[hit["id"]] += not hit["lexical"]
        if hits:
            turns[seq] = hits
    _rule_findings(scores.get("rules", {}), lexical_flags, dict(t.rules), turns, counts)
    explanations: dict[str, dict[str, Any]] = {}
    unrelated: list[str] = []
    for phase in QUESTIONER_PHASES:
        cosine = scores.get("explanations", {}).get(phase)
        if cosine is not None and cosine < t.explanation:
            lexical = f"explanation_unrelated:{phase}" in lexical_review
            explanations[phase] = {"id": "explanation_unrelated", "similarity": cosine, "lexical": lexical}
            if not lexical:
                unrelated.append(phase)
    turns = dict(sorted(turns.items(), key=lambda kv: int(kv[0])))
    found = Findings(flags={"turns": turns, "explanations": explanations})
    found.new = sum(counts.values()) + len(unrelated)
    if found.new >= t.for_review:
        found.reasons = [f"semantic:{kind}:{n}" for kind, n in counts.items() if n]
        found.reasons += [f"semantic:explanation_unrelated:{phase}" for phase in unrelated]
    return found


def _rule_findings(
    rules: dict[str, dict[str, float]],
    lexical_flags: dict[str, list[dict[str, Any]]],
    thresholds: dict[str, float],
    turns: dict[str, list[dict[str, Any]]],
    counts: dict[str, int],
) -> None:
    """Add the per-rule classifiers' findings to ``turns`` and count the ones the live rules missed.

    A message the similarity check already found to repeat a question gets the classifier's
    probability on that finding, not a second one.
    """
    for seq, probs in rules.items():
        lexical = {hit["id"] for hit in lexical_flags.get(seq, [])}
        for rule, p in sorted(probs.items()):
            if rule not in thresholds or p < thresholds[rule]:
                continue
            same = [h for h in turns.get(seq, []) if h["id"] == rule]
            if same:
                same[0]["p"] = p
                continue
            hit = {"id": rule, "semantic": True, "p": p, "lexical": rule in lexical}
            turns.setdefault(seq, []).append(hit)
            counts[rule] = counts.get(rule, 0) + (not hit["lexical"])
