"""Inclusion criteria: is the dialog whole, and do the explanations say something?"""

from __future__ import annotations

import re
from functools import lru_cache

from server.qc.record import DialogRecord

PHASES = ("before_reveal", "after_reveal", "answerer")
_WORD = re.compile(r"[a-z]+")
# Words that carry no content: an explanation sharing only these with the dialog does not refer to it.
STOPWORDS = frozenset(
    """a about above after again all also am an and any are as at be because been before being below
    between both but by can could did do does doing down during each few for from further had has have
    having he her here hers him his how i if in into is it its itself just me more most my no nor not
    now of off on once only or other our out over own same she should so some such than that the their
    them then there these they this those through to too under until up very was we were what when where
    which while who whom why will with would you your feel feels felt think image picture painting
    like really much many thing things something see seems look looks""".split()
)


def content_words(text: str) -> set[str]:
    """The words of a text that say what it is about ("trees" and "tree" count as one)."""
    return set(_content_words(text))


@lru_cache(maxsize=65536)
def _content_words(text: str) -> frozenset[str]:
    """Cached: every dialog's messages are read again for each explanation check, and texts recur."""
    words = set()
    for w in _WORD.findall(text.lower()):
        if len(w) >= 3 and w not in STOPWORDS:
            words.add(w[:-1] if w.endswith("s") and len(w) > 4 else w)
    return frozenset(words)


def inclusion_problems(rec: DialogRecord, min_words: int, min_overlap: int) -> tuple[list[str], list[str]]:
    """(reasons to reject, reasons to review) from the inclusion rules."""
    reject: list[str] = []
    review: list[str] = []
    if rec.status != "complete":
        reject.append(f"incomplete:{rec.status}")
    questions = sum(1 for t in rec.turns if t.role == "questioner")
    answers = sum(1 for t in rec.turns if t.role == "answerer")
    if questions < rec.rounds or answers < rec.rounds:
        reject.append(f"rounds_missing:{min(questions, answers)}/{rec.rounds}")
    for phase in PHASES:
        if phase not in rec.responses:
            reject.append(f"missing_response:{phase}")
            continue
        emotion, explanation = rec.responses[phase]
        if len(explanation.split()) < min_words:
            reject.append(f"explanation_too_short:{phase}")
    before = rec.responses.get("before_reveal")
    if before and min_overlap:
        dialog_words = set().union(*(_content_words(t.text) for t in rec.turns))
        if len(_content_words(before[1]) & dialog_words) < min_overlap:
            review.append("explanation_unrelated:before_reveal")
    return reject, review
