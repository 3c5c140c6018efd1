"""The 9 emotion labels and the groupings every emotion metric uses.

Sentiment follows the collection protocol (4 positive, 4 negative, plus ``something_else``).
Arousal follows the sentiment x arousal table of the EvE benchmark: among the positive
emotions amusement, awe and excitement are high-arousal and contentment low; among the
negative ones anger, disgust and fear are high and sadness low. ``something_else`` has no
sentiment and no arousal. The four (sentiment, arousal) cells are also the "emotion groups"
that multiple-choice options are drawn from.
"""

from __future__ import annotations

import re
from typing import Literal

from server.dialog.protocol import EMOTIONS, NEGATIVE_EMOTIONS, POSITIVE_EMOTIONS

POSITIVE = frozenset(POSITIVE_EMOTIONS)
NEGATIVE = frozenset(NEGATIVE_EMOTIONS)
HIGH_AROUSAL = frozenset({"amusement", "awe", "excitement", "anger", "disgust", "fear"})
LOW_AROUSAL = frozenset({"contentment", "sadness"})
UNPARSABLE = "<unparsable>"

Sentiment = Literal["positive", "negative", "none"]


def sentiment(emotion: str) -> Sentiment:
    if emotion in POSITIVE:
        return "positive"
    if emotion in NEGATIVE:
        return "negative"
    return "none"


def arousal(emotion: str) -> Literal["high", "low", "none"]:
    if emotion in HIGH_AROUSAL:
        return "high"
    if emotion in LOW_AROUSAL:
        return "low"
    return "none"


def group(emotion: str) -> str | None:
    """The (sentiment, arousal) cell, e.g. ``positive-high``; None for something_else."""
    if emotion not in POSITIVE and emotion not in NEGATIVE:
        return None
    return f"{sentiment(emotion)}-{arousal(emotion)}"


GROUPS: dict[str, tuple[str, ...]] = {}
for _e in EMOTIONS:
    _g = group(_e)
    if _g:
        GROUPS[_g] = (*GROUPS.get(_g, ()), _e)


def display(emotion: str) -> str:
    """How a label is written in prompts: ``something_else`` -> ``something else``."""
    return emotion.replace("_", " ")


def normalise(word: str) -> str | None:
    """Map a written label (any case, spaces or underscores) to the canonical one, else None."""
    key = re.sub(r"[\s_\-]+", "_", word.strip().lower()).strip("_.,;:!?\"'")
    return key if key in EMOTIONS else None
