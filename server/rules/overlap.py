"""Questions that copy an opinion shown to the questioner, or repeat one already asked.

Both compare sets of stemmed content words (stopwords and the words naming the artwork dropped),
so word order and small rewordings ("colour"/"color", "looks"/"look") do not hide a copy.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from pydantic import Field

from server.rules import text as T
from server.rules.base import Context, Rule, RuleConfig, Severity


class CopiesOpinionConfig(RuleConfig):
    severity: Severity = "soft"
    min_overlap: float = Field(
        0.8, ge=0, le=1, description="Share of the question's content words taken from one opinion."
    )
    min_shared_words: int = Field(3, ge=1, description="At least this many content words in common.")


class RepeatedQuestionConfig(RuleConfig):
    severity: Severity = "soft"
    min_overlap: float = Field(
        0.75, ge=0, le=1, description="Jaccard overlap of content words with an earlier question."
    )


def _texts(items: Iterable[object], role: str | None = None) -> Iterable[str]:
    for item in items:
        if isinstance(item, str):
            yield item
        elif isinstance(item, dict) and (role is None or item.get("role") == role):
            text = item.get("text")
            if isinstance(text, str):
                yield text


@lru_cache(maxsize=16384)
def _analyse(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """(content stems, frame key) of an earlier message or an opinion; each dialog repeats them."""
    words = T.words(T.normalise(text))
    stems = frozenset(T.content_stems(words))
    return stems, (frozenset() if stems else _frame_key(words))


def detect_copies_opinion(ctx: Context, cfg: CopiesOpinionConfig) -> bool:
    if not ctx.opinions:
        return False
    mine = ctx.stems
    if len(mine) < cfg.min_shared_words:
        return False
    for text in _texts(ctx.opinions):
        shared = len(mine & _analyse(text)[0])
        if shared >= cfg.min_shared_words and shared / len(mine) >= cfg.min_overlap:
            return True
    return False


# Words that frame a question without saying what it asks about ("can you see", "is there").
_FRAME = frozenset(
    "is are was were can could do does did you u see there the a an any please tell me".split()
)
_ART_NOUNS = frozenset("painting picture image artwork art piece photo photograph canvas scene work".split())


def _frame_key(words: list[str]) -> frozenset[str]:
    """A question with no content words reduced to its question words ("who ... in IMG")."""
    return frozenset("IMG" if w in _ART_NOUNS else w for w in words if w not in _FRAME)


def detect_repeated_question(ctx: Context, cfg: RepeatedQuestionConfig) -> bool:
    if not ctx.history:
        return False
    mine = ctx.stems
    key = _frame_key(ctx.words) if not mine else frozenset()
    for text in _texts(ctx.history, role="questioner"):
        theirs, their_key = _analyse(text)
        if not mine:
            # nothing but function words ("why?", "who is in the picture?"): the same frame repeats
            if key and their_key == key:
                return True
            continue
        if theirs and len(mine & theirs) / len(mine | theirs) >= cfg.min_overlap:
            return True
    return False


RULES = [
    Rule(
        id="copies_opinion",
        roles=frozenset({"questioner"}),
        explanation=(
            "This question mostly repeats one of the opinions you were shown. Ask about the artwork "
            "in your own words to check what is really there."
        ),
        summary="A question whose content words mostly come from one of the two opinions shown.",
        config=CopiesOpinionConfig,
        detect=detect_copies_opinion,
    ),
    Rule(
        id="repeated_question",
        roles=frozenset({"questioner"}),
        explanation="You already asked this. Ask about something new in the artwork.",
        summary="A question whose content words match an earlier question in the same dialog.",
        config=RepeatedQuestionConfig,
        detect=detect_repeated_question,
    ),
]
