"""Read an export directory (issue 5) into the small records the tasks build inputs from.

Each line of ``dialogs.jsonl`` is validated with the export's own schema
(:func:`server.export.schema.validate_record`), so a schema change shows up here as a clear
error rather than as silently wrong inputs. Splits come from ``splits.json`` (else from each
record's ``split``); answer-retrieval rounds from ``retrieval/<split>.json`` (VisDial v1.0
layout: question/answer pools plus, per round, 100 ``answer_options`` and ``gt_index``).
Rounds without an answer (incomplete dialogs) are dropped.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

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
        """Retrieval rounds of one split (``all`` chains the three), in file order."""
        names = ["train", "val", "test"] if split == "all" else [split]
        for name in names:
            path = self.root / RETRIEVAL_DIR / f"{name}.json"
            if not path.exists():
                raise FileNotFoundError(
                    f"{path} not found: the export has no retrieval candidates for {name}"
                )
            doc = json.loads(path.read_text(encoding="utf-8"))
            answers = doc["data"]["answers"]
            for entry in doc["data"]["dialogs"]:
                for item in entry["dialog"]:
                    yield RetrievalRound(
                        dialog_id=entry["dialog_id"],
                        round=int(item["round"]),
                        candidates=tuple(answers[i] for i in item["answer_options"]),
                        gt_index=int(item["gt_index"]),
                    )


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
