"""Database rows -> one exported record (a plain dict shaped like ``schema.DialogRecord``).

Kept free of I/O so the shape of a record can be read in one place. Worker ids leave the
database only as pseudonyms: a keyed hash (HMAC-SHA256 with the study secret) of the
internal id, which is itself never the platform id.
"""

from __future__ import annotations

import hashlib
import hmac
import os
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from server.export.schema import PHASE_KEYS, SCHEMA_VERSION, format_timestamp

TOOL = "avd"
IMPORTED_PROVIDER = "imported"  # workers created by import-dialogs already carry a pseudonym
PHASE_TO_KEY = {"before_reveal": PHASE_KEYS[0], "after_reveal": PHASE_KEYS[1], "answerer": PHASE_KEYS[2]}


@lru_cache(maxsize=1)
def tool_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("avd")
    except PackageNotFoundError:  # pragma: no cover - running from a bare checkout
        return "unknown"


def pseudonym(secret: str, worker_id: str, provider: str) -> str:
    """A stable id for one worker within one secret; irreversible without the secret."""
    if provider == IMPORTED_PROVIDER:
        return worker_id
    digest = hmac.new(secret.encode(), b"avd-export-worker:" + worker_id.encode(), hashlib.sha256)
    return "w" + digest.hexdigest()[:24]


def image_file_name(sha256: str, image_key: str) -> str:
    """Images are named by content, so the same picture has one name in every export."""
    suffix = os.path.splitext(image_key)[1].lower()
    return sha256 + (suffix if suffix in (".jpg", ".jpeg", ".png", ".webp", ".gif") else ".jpg")


@lru_cache(maxsize=4096)
def textblob_scores(text: str) -> dict[str, float]:
    from textblob import TextBlob

    sentiment = TextBlob(text).sentiment
    return {
        "polarity": round(float(sentiment.polarity), 4),
        "subjectivity": round(float(sentiment.subjectivity), 4),
    }


def _stored_scores(stored: Mapping[str, Any], phase: str) -> dict[str, float] | None:
    """Scores the QC step saved, under the phase name or the record's key, if well formed."""
    for key in (PHASE_TO_KEY[phase], phase):
        value = stored.get(key)
        if isinstance(value, Mapping) and {"polarity", "subjectivity"} <= value.keys():
            try:
                return {
                    "polarity": round(float(value["polarity"]), 4),
                    "subjectivity": round(float(value["subjectivity"]), 4),
                }
            except (TypeError, ValueError):
                return None
    return None


def qc_record(
    verdict: str | None, reasons: Sequence[str] | None, scores: Mapping[str, Any] | None, responses: Mapping
) -> dict[str, Any] | None:
    """The ``qc`` part; null when QC has not judged the dialog. Missing scores are computed."""
    if verdict is None:
        return None
    out: dict[str, Any] = {}
    for phase, key in PHASE_TO_KEY.items():
        response = responses.get(phase)
        value = _stored_scores(scores or {}, phase)
        if value is None and response is not None:
            value = textblob_scores(response["explanation"])
        out[key] = value if response is not None else None
    return {"verdict": verdict, "reasons": [str(r) for r in (reasons or [])], "scores": out}


def response_record(row: Any) -> dict[str, Any]:
    return {
        "emotion": row.emotion,
        "explanation": row.explanation,
        "submitted_at": format_timestamp(row.submitted_at),
        "latency_ms": row.latency_ms,
    }


def rounds_record(turns: Sequence[Any]) -> list[dict[str, Any]]:
    """Turns (ordered by seq) -> rounds of question + answer.

    A turn is (dialog_id, seq, round, role, text, sent_at, latency_ms), unpacked by position
    because attribute access on result rows dominates the export's time otherwise.
    """
    rounds: dict[int, dict[str, Any]] = {}
    for _dialog, _seq, number, role, text, sent_at, latency in turns:
        entry = rounds.get(number)
        if entry is None:
            entry = rounds[number] = {
                "round": number,
                "question": None,
                "question_sent_at": None,
                "question_latency_ms": None,
                "answer": None,
                "answer_sent_at": None,
                "answer_latency_ms": None,
            }
        if role == "questioner":
            entry["question"] = text
            entry["question_sent_at"] = format_timestamp(sent_at)
            entry["question_latency_ms"] = latency
        else:
            entry["answer"] = text
            entry["answer_sent_at"] = format_timestamp(sent_at)
            entry["answer_latency_ms"] = latency
    return [rounds[r] for r in sorted(rounds)]


def dialog_record(
    row: Any, turns: Sequence[Any], responses: Sequence[Any], split: str, secret: str
) -> dict[str, Any]:
    """Everything published about one dialog; ``row`` is a dialog joined with its stimulus."""
    by_phase = {r.phase: response_record(r) for r in responses}
    positive = {"polarity": "positive", "emotion": row.positive_emotion, "text": row.positive_text}
    negative = {"polarity": "negative", "emotion": row.negative_emotion, "text": row.negative_text}
    return {
        "dialog_id": row.id,
        "split": split,
        "status": row.status,
        "complete": row.status == "complete",
        "end_reason": row.end_reason,
        "ended_by": row.ended_by,
        "rounds_done": row.rounds_done,
        "started_at": format_timestamp(row.started_at),
        "ended_at": format_timestamp(row.ended_at),
        "stimulus": {
            "id": row.stimulus_id,
            "image": image_file_name(row.image_sha256, row.image_key),
            "image_sha256": row.image_sha256,
            "width": row.width,
            "height": row.height,
            "title": row.title,
            "genre": row.genre,
            "style": row.style,
            "source": row.source,
            "opinions": [positive, negative] if row.positive_first else [negative, positive],
            "shown_first": "positive" if row.positive_first else "negative",
        },
        "rounds": rounds_record(turns),
        "questioner": {
            "worker_id": pseudonym(secret, row.questioner_id, row.questioner_provider),
            "before_reveal": by_phase.get("before_reveal"),
            "after_reveal": by_phase.get("after_reveal"),
        },
        "answerer": {
            "worker_id": pseudonym(secret, row.answerer_id, row.answerer_provider),
            "response": by_phase.get("answerer"),
        },
        "qc": qc_record(row.qc_verdict, row.qc_reasons, row.qc_scores, by_phase),
        "collection": {
            "study": row.study,
            "settings": dict(row.settings or {}),
            "schema_version": SCHEMA_VERSION,
            "tool": TOOL,
            "tool_version": tool_version(),
        },
    }
