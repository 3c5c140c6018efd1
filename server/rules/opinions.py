"""The two parts of an opinion shown to the questioner: what it is about and what it says of that.

"The quiet boats at dawn make the harbour feel restful." is about the boats, the dawn and the harbour
(its subject) and judges them restful (its judgement). The labeling guide counts a question as a copy
of an opinion only when it restates the opinion's main claim, its subject *with* its judgement ("Does
the harbour feel restful?"); a question that checks a detail the subject names ("Are there boats in the
harbour?") asks about the artwork. Both ``copies_opinion`` and ``asks_feelings`` read the split.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from server.rules import text as T

# Where the judgement starts: "make(s) [someone or something] feel/look/seem ...", "make(s) me ...",
# "feels/looks/seems ...", "is/are ...", or a verb acting on the viewer ("cracks me up", "turn my
# stomach", "terrify me"). The first of these in the opinion splits it.
_JUDGEMENT_START = re.compile(
    r"\b(?:makes?|made|making) (?P<obj>(?:[a-z'-]+ ){0,4}?)(?:feel|look|seem|appear|sound)s? "
    r"|\b(?:makes?|made) (?:me|us|you)\b"
    r"|\b(?:feels?|felt|looks?|looked|seems?|seemed|appears?|sounds?)\b"
    r"|\b(?:is|are|was|were)\b"
    r"|\b[a-z]+(?:s|ed)? (?:me|my|us|our)\b"
)
_MAKES = re.compile(r"\b(?:makes?|made) ")
# Words of the judgement that judge nothing by themselves.
_NOT_JUDGING = frozenset(
    T.stem(w)
    for w in "me my us our you feel feels look looks seem seems like so very really just quite such to want "
    "make makes made is are was were almost".split()
)


# What a depicted person or animal visibly shows: asking it of them checks the artwork (labeling guide).
BEING_STATES = frozenset(
    T.stem(w)
    for w in "happy sad angry scared afraid frightened lonely tired calm worried bored upset cheerful "
    "miserable annoyed furious relaxed".split()
)


class OpinionParts(NamedTuple):
    subject: frozenset[str]  # content stems the opinion is about
    judgement: frozenset[str]  # content stems of what it says of them (never in ``subject``)


@lru_cache(maxsize=4096)
def opinion_parts(text: str) -> OpinionParts | None:
    """The opinion's subject and judgement stems, or None when it has no verb that splits them."""
    lower = T.normalise(text)
    m = _JUDGEMENT_START.search(lower)
    if m is None:
        made = _MAKES.search(lower)  # "... make the charge thrilling": the last word judges the rest
        words = [w for w in T.words(lower) if w not in T.STOPWORDS and not w.isdigit()] if made else []
        if len(words) < 2:
            return None
        judged = T.stem(words[-1])
        subject = T.content_stems(words[:-1]) - {judged} - _NOT_JUDGING
        return OpinionParts(frozenset(subject), frozenset({judged})) if subject else None
    subject = set(T.content_stems(T.words(lower[: m.start()])))
    rest = lower[m.start() :]
    if m.group("obj"):  # "make the whole harbour feel restful": the harbour is judged, so it is subject
        subject |= T.content_stems(T.words(m.group("obj")))
        rest = lower[m.end() :]
    judgement = {T.stem(w) for w in T.words(rest) if w not in T.STOPWORDS and not w.isdigit()} - _NOT_JUDGING
    if not subject or not judgement - subject:
        return None
    return OpinionParts(frozenset(subject), frozenset(judgement - subject))
