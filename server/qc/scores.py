"""TextBlob polarity and subjectivity of each explanation (no NLTK data needed for these).

Calls TextBlob's pattern sentiment function directly: the same two numbers as
``TextBlob(text).sentiment``, without building a blob and a named tuple per call (which
was close to half of QC's TextBlob time). A test keeps the two in step. Results are cached per
text: the same explanation text recurs (a worker pasting one explanation into several forms, stock
phrasings), and the lexicon lookup is the costliest step of scoring.
"""

from __future__ import annotations

from functools import lru_cache

from textblob.en import sentiment as pattern_sentiment

from server.qc.record import DialogRecord


@lru_cache(maxsize=65536)
def sentiment(text: str) -> tuple[float, float]:
    """(polarity in [-1, 1], subjectivity in [0, 1])."""
    polarity, subjectivity = pattern_sentiment(text)
    return float(polarity), float(subjectivity)


def explanation_scores(rec: DialogRecord) -> dict[str, dict[str, float | str]]:
    scores: dict[str, dict[str, float | str]] = {}
    for phase, (emotion, text) in sorted(rec.responses.items()):
        polarity, subjectivity = sentiment(text)
        scores[phase] = {
            "emotion": emotion,
            "polarity": round(polarity, 4),
            "subjectivity": round(subjectivity, 4),
        }
    return scores
