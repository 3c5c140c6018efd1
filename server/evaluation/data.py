"""Read an export directory (issue 5) into the small records the tasks build inputs from.

Each line of ``dialogs.jsonl`` is validated with the export's own schema
(:func:`server.export.schema.validate_record`), so a schema change shows up here as a clear
error rather than as silently wrong inputs. Splits come from ``splits.json`` (else from each
record's ``split``); answer-retrieval rounds from ``retrieval/<split>.json`` (VisDial v1.0
layout: question/answer pools plus, per round, 100 ``answer_options`` and ``gt_index``),
streamed with :mod:`server.evaluation.jsonstream` so a split of a million rounds is never
one Python object. Rounds without an answer (incomplete dialogs) are dropped.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from server.evaluation.jsonstream import CHUNK, JsonStream

PHASES = ("questioner_before", "questioner_after", "answerer")
DIALOGS_FILE = "dialogs.jsonl"
SPLITS_FILE = "splits.json"
RETRIEVAL_DIR = "retrieval"


@dataclass(frozen=True)
class Opinion:
    polarity: str  # "positive" | "negative"
    emotion: str
    text: str


@dataclass(frozen=True)
class Feeling:
    emotion: str
    explanation: str


@dataclass(frozen=True)
class Dialog:
    id: str
    stimulus_id: str
    opinions: tuple[Opinion, ...]  # in the order the workers saw them
    rounds: tuple[tuple[str, str], ...]  # (question, answer)
    feelings: dict[str, Feeling]
    image: Path | None = None
    image_sha256: str | None = None
    caption: str | None = None
    genre: str | None = None
    split: str | None = None


@dataclass(frozen=True)
class RetrievalRound:
    dialog_id: str
    round: int  # 1-based
    candidates: tuple[str, ...]
    gt_index: int


@dataclass
class ExportData:
    root: Path
    dialogs: dict[str, Dialog]
    splits: dict[str, list[str]] = field(default_factory=dict)
    digest: str = ""

    @classmethod
    def load(cls, root: str | Path) -> ExportData:
        root = Path(root)
        path = root / DIALOGS_FILE
        if not path.exists():
            raise FileNotFoundError(f"{path} not found: is {root} an export directory?")
        digest = hashlib.sha256()
        dialogs: dict[str, Dialog] = {}
        with path.open("rb") as fh:
            for lineno, raw in enumerate(fh, 1):
                digest.update(raw)
                if not raw.strip():
                    continue
                try:
                    dialog = dialog_from_record(raw, root)
                except ValueError as exc:  # pydantic's ValidationError included
                    raise ValueError(f"{path}:{lineno}: {exc}") from exc
                dialogs[dialog.id] = dialog
        splits = _read_splits(root, dialogs)
        return cls(root=root, dialogs=dialogs, splits=splits, digest=digest.hexdigest()[:16])

    def split(self, name: str) -> list[Dialog]:
        if name == "all":
            return list(self.dialogs.values())
        if name not in self.splits:
            raise KeyError(f"no split {name!r}; export has {sorted(self.splits)}")
        return [self.dialogs[i] for i in self.splits[name] if i in self.dialogs]

    def retrieval(self, split: str) -> Iterator[RetrievalRound]:
        """Retrieval rounds of one split (``all`` chains the three), in file order, streamed."""
        names = ["train", "val", "test"] if split == "all" else [split]
        for name in names:
            path = self.root / RETRIEVAL_DIR / f"{name}.json"
            if not path.exists():
                raise FileNotFoundError(
                    f"{path} not found: the export has no retrieval candidates for {name}"
                )
            yield from read_retrieval(path)

    def image_path(self, name: str) -> Path:
        """Where an image named in a record lies (``images/`` of an ``--images copy`` export)."""
        return self.root / "images" / name


class _AnswersAfterDialogs(Exception):
    """The file lists its dialogs before the answer pool: read the pool first, then again."""


def read_retrieval(path: Path, chunk: int = CHUNK) -> Iterator[RetrievalRound]:
    """Rounds of one VisDial-layout file without holding the document: only the answer pool
    and one dialog's entry are in memory at a time (the exporter writes the pool first)."""
    try:
        with path.open(encoding="utf-8") as fh:
            yield from iter_retrieval_rounds(fh, chunk=chunk, name=str(path))
    except _AnswersAfterDialogs:  # raised before any round was yielded
        with path.open(encoding="utf-8") as fh:
            answers = read_answer_pool(fh, chunk=chunk, name=str(path))
        with path.open(encoding="utf-8") as fh:
            yield from iter_retrieval_rounds(fh, answers, chunk=chunk, name=str(path))


def read_answer_pool(fh: TextIO, chunk: int = CHUNK, name: str = "retrieval file") -> list[str]:
    """Only ``data.answers`` of a retrieval file (everything else is stepped over)."""
    stream = JsonStream(fh, chunk, name)
    answers: list[str] | None = None
    for key in stream.members():
        if key != "data":
            stream.skip()
            continue
        for part in stream.members():
            if part == "answers":
                answers = [stream.value() for _ in stream.elements()]
            else:
                stream.skip()
    if answers is None:
        raise ValueError(f"{name}: no data.answers")
    return answers


def iter_retrieval_rounds(
    fh: TextIO, answers: list[str] | None = None, chunk: int = CHUNK, name: str = "retrieval file"
) -> Iterator[RetrievalRound]:
    """Rounds in file order from an open retrieval file; ``answers`` when the pool is known."""
    stream = JsonStream(fh, chunk, name)
    known = answers is not None
    for key in stream.members():
        if key != "data":
            stream.skip()
            continue
        for part in stream.members():
            if part == "answers" and not known:
                answers = [stream.value() for _ in stream.elements()]
            elif part == "dialogs":
                if answers is None:
                    raise _AnswersAfterDialogs
                text = answers.__getitem__
                for _ in stream.elements():
                    entry = stream.value()  # one dialog: its rounds and their candidate indices
                    for item in entry["dialog"]:
                        yield RetrievalRound(
                            dialog_id=entry["dialog_id"],
                            round=int(item["round"]),
                            candidates=tuple(map(text, item["answer_options"])),
                            gt_index=int(item["gt_index"]),
                        )
            else:
                stream.skip()
    stream.end()


def _feeling(response: dict[str, Any] | None) -> Feeling | None:
    return Feeling(response["emotion"], response["explanation"]) if response else None


def dialog_from_record(raw: bytes | str, root: Path) -> Dialog:
    """Validate one ``dialogs.jsonl`` line with the export's schema and keep what tasks need."""
    from server.export.schema import validate_record

    rec = json.loads(raw)
    validate_record(rec)
    stim = rec["stimulus"]
    feelings = {
        "questioner_before": _feeling(rec["questioner"]["before_reveal"]),
        "questioner_after": _feeling(rec["questioner"]["after_reveal"]),
        "answerer": _feeling(rec["answerer"]["response"]),
    }
    return Dialog(
        id=rec["dialog_id"],
        stimulus_id=stim["id"],
        opinions=tuple(Opinion(o["polarity"], o["emotion"], o["text"]) for o in stim["opinions"]),
        rounds=tuple((r["question"], r["answer"]) for r in rec["rounds"] if r["answer"] is not None),
        feelings={k: v for k, v in feelings.items() if v is not None},
        image=root / "images" / stim["image"],
        image_sha256=stim["image_sha256"],
        caption=stim.get("title"),
        genre=stim.get("genre"),
        split=rec.get("split"),
    )


def _read_splits(root: Path, dialogs: dict[str, Dialog]) -> dict[str, list[str]]:
    path = root / SPLITS_FILE
    if path.exists():
        doc = json.loads(path.read_text())
        return {name: [str(i) for i in ids] for name, ids in doc["dialogs"].items()}
    splits: dict[str, list[str]] = {}
    for d in dialogs.values():
        if d.split:
            splits.setdefault(d.split, []).append(d.id)
    return splits
