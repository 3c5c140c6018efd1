"""The exported dialog record (one line of ``dialogs.jsonl``), versioned.

The record is described with typed dicts that pydantic validates (strict: unknown fields
are refused); the export checks every record it writes and ``avd import-dialogs`` checks
every line it reads with the same schema. Typed dicts rather than model classes because
they validate about three times faster, which matters at 100,000 dialogs.
Timestamps are strings in one fixed format (UTC, milliseconds) so that the same data
always serialises to the same bytes.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, ConfigDict, Field, TypeAdapter, ValidationError
from typing_extensions import TypedDict

from server.dialog.protocol import Emotion

SCHEMA_VERSION = "1.0"
SPLITS = ("train", "val", "test")
PHASE_KEYS = ("questioner_before_reveal", "questioner_after_reveal", "answerer")

TIMESTAMP_PATTERN = r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$"
Timestamp = Annotated[str, Field(pattern=TIMESTAMP_PATTERN, description="UTC, e.g. 2024-05-01T12:00:00.250Z")]
Split = Literal["train", "val", "test"]
FinalStatus = Literal["complete", "abandoned", "timed_out"]


def format_timestamp(value: datetime | str | None) -> str | None:
    """The one timestamp format of the export. Naive values are UTC (SQLite keeps no zone);
    strings are SQLite's stored text, read raw because parsing them in SQLAlchemy is slow."""
    if value is None:
        return None
    if isinstance(value, str):
        if len(value) == 26 and value[10] == " ":  # SQLAlchemy's SQLite text: 2024-05-01 12:00:00.250000
            return value[:10] + "T" + value[11:23] + "Z"
        value = datetime.fromisoformat(value)
    if value.tzinfo is not None:
        value = value.astimezone(UTC).replace(tzinfo=None)
    return value.isoformat(timespec="milliseconds") + "Z"


def parse_timestamp(value: str) -> datetime:
    return datetime.strptime(value, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)


_ENCODER = json.JSONEncoder(sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def dump_line(value: Any) -> str:
    """One JSONL line (or JSON value): sorted keys, no spaces, UTF-8 text kept as is."""
    return _ENCODER.encode(value)


def _strict(cls: type) -> type:
    """Unknown fields are errors (a misspelt field must not be dropped silently on import)."""
    cls.__pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[attr-defined]
    return cls


@_strict
class Opinion(TypedDict):
    """One of the two opinions both workers saw."""

    polarity: Literal["positive", "negative"]
    emotion: Emotion
    text: str


def _check_stimulus(value: StimulusRecord) -> StimulusRecord:
    if sorted(o["polarity"] for o in value["opinions"]) != ["negative", "positive"]:
        raise ValueError("opinions must hold one positive and one negative opinion")
    if value["opinions"][0]["polarity"] != value["shown_first"]:
        raise ValueError("shown_first must name the polarity of the first opinion")
    return value


@_strict
class StimulusRecord(TypedDict):
    id: str
    image: Annotated[str, Field(description="File name under images/ (or in images.jsonl).")]
    image_sha256: Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]
    width: Annotated[int, Field(ge=1)]
    height: Annotated[int, Field(ge=1)]
    title: str | None
    genre: str | None
    style: str | None
    source: str | None
    opinions: Annotated[list[Opinion], Field(min_length=2, max_length=2, description="In display order.")]
    shown_first: Literal["positive", "negative"]


def _check_round(value: Round) -> Round:
    given = [value[k] is not None for k in ("answer", "answer_sent_at", "answer_latency_ms")]
    if any(given) and not all(given):
        raise ValueError("answer, answer_sent_at and answer_latency_ms are all set or all null")
    return value


@_strict
class Round(TypedDict):
    """One question and its answer; ``answer`` is null only in an incomplete dialog's last round."""

    round: Annotated[int, Field(ge=1)]
    question: str
    question_sent_at: Timestamp
    question_latency_ms: Annotated[int, Field(ge=0, description="From the turn opening to the question.")]
    answer: str | None
    answer_sent_at: Timestamp | None
    answer_latency_ms: Annotated[int | None, Field(ge=0)]


@_strict
class EmotionResponse(TypedDict):
    emotion: Emotion
    explanation: str
    submitted_at: Timestamp
    latency_ms: Annotated[int, Field(ge=0, description="From the form opening to its submission.")]


@_strict
class QuestionerRecord(TypedDict):
    worker_id: Annotated[str, Field(description="Pseudonym: a keyed hash of the internal id.")]
    before_reveal: EmotionResponse | None
    after_reveal: EmotionResponse | None


@_strict
class AnswererRecord(TypedDict):
    worker_id: str
    response: EmotionResponse | None


@_strict
class TextScores(TypedDict):
    """TextBlob sentiment of one explanation (rounded to 4 decimals)."""

    polarity: Annotated[float, Field(ge=-1, le=1)]
    subjectivity: Annotated[float, Field(ge=0, le=1)]


@_strict
class QcScores(TypedDict):
    questioner_before_reveal: TextScores | None
    questioner_after_reveal: TextScores | None
    answerer: TextScores | None


@_strict
class QcRecord(TypedDict):
    verdict: str
    reasons: list[str]
    scores: QcScores


@_strict
class Collection(TypedDict):
    study: str
    settings: Annotated[dict[str, Any], Field(description="The protocol settings the dialog ran with.")]
    schema_version: Literal["1.0"]
    tool: str
    tool_version: str


def _check_record(value: DialogRecord) -> DialogRecord:
    if value["complete"] != (value["status"] == "complete"):
        raise ValueError("complete must be true exactly when status is complete")
    rounds = value["rounds"]
    if [r["round"] for r in rounds] != list(range(1, len(rounds) + 1)):
        raise ValueError("rounds must be numbered 1, 2, ... without gaps")
    if any(r["answer"] is None for r in rounds[:-1]):
        raise ValueError("only the last round may lack an answer")
    return value


@_strict
class DialogRecord(TypedDict):
    """One dialog, as published (one line of dialogs.jsonl)."""

    dialog_id: str
    split: Split
    status: FinalStatus
    complete: Annotated[bool, Field(description="False for abandoned or timed-out dialogs.")]
    end_reason: str | None
    ended_by: Literal["questioner", "answerer"] | None
    rounds_done: Annotated[int, Field(ge=0)]
    started_at: Timestamp
    ended_at: Timestamp | None
    stimulus: Annotated[StimulusRecord, AfterValidator(_check_stimulus)]
    rounds: list[Annotated[Round, AfterValidator(_check_round)]]
    questioner: QuestionerRecord
    answerer: AnswererRecord
    qc: QcRecord | None
    collection: Collection


RECORD = TypeAdapter(Annotated[DialogRecord, AfterValidator(_check_record)])


def validate_record(data: Any) -> DialogRecord:
    """The record, checked field by field; raises pydantic's ValidationError."""
    return RECORD.validate_python(data)


def json_schema() -> dict[str, Any]:
    """The record's JSON Schema (docs/export.md is generated from the same models)."""
    return RECORD.json_schema()


def describe_errors(exc: ValidationError) -> list[tuple[str, str]]:
    """(field path, message) pairs, e.g. ``("rounds.3.answer_sent_at", "String should match ...")``."""
    out = []
    for err in exc.errors():
        path = ".".join(str(part) for part in err["loc"]) or "record"
        out.append((path, err["msg"]))
    return out
