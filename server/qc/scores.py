"""TextBlob polarity and subjectivity of each explanation (no NLTK data needed for these)."""

from __future__ import annotations

from textblob import TextBlob

from server.qc.record import DialogRecord


def explanation_scores(rec: DialogRecord) -> dict[str, dict[str, float | str]]:
    scores: dict[str, dict[str, float | str]] = {}
    for phase, (emotion, text) in sorted(rec.responses.items()):
        sentiment = TextBlob(text).sentiment
        scores[phase] = {
            "emotion": emotion,
            "polarity": round(float(sentiment.polarity), 4),
            "subjectivity": round(float(sentiment.subjectivity), 4),
        }
    return scores
