"""What every task provides: a config, an input builder, per-sample scoring and aggregation.

A :class:`Sample` carries ``inputs`` (everything the model sees: its hash keys the output
cache, so changing a prompt recomputes exactly the affected samples), a ``target`` (what
scoring compares against; not hashed) and ``meta`` (round, split... for breakdowns).
"""

from __future__ import annotations

import hashlib
import json
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict

from server.evaluation.data import Dialog, ExportData


class TaskConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    limit: int | None = None  # evaluate only the first N samples (smoke runs)
    batch_size: int = 32


@dataclass
class Sample:
    id: str
    inputs: dict[str, Any]
    target: Any = None
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def hash(self) -> str:
        blob = json.dumps(self.inputs, sort_keys=True, ensure_ascii=False).encode()
        return hashlib.sha256(blob).hexdigest()[:24]


class Task(ABC):
    name: ClassVar[str]
    Config: ClassVar[type[TaskConfig]] = TaskConfig
    model_kinds: ClassVar[tuple[str, ...]]  # which model kinds this task can use

    def __init__(self, config: TaskConfig, data: ExportData, split: str) -> None:
        self.config = config
        self.data = data
        self.split = split

    @abstractmethod
    def samples(self) -> Iterable[Sample]:
        """Build model inputs from the export (the input builder)."""

    @abstractmethod
    def predict(self, model: Any, samples: Sequence[Sample]) -> list[Any]:
        """JSON-serialisable model outputs, one per sample (cached by the runner)."""

    @abstractmethod
    def score(self, sample: Sample, output: Any) -> dict[str, Any]:
        """Per-sample scores."""

    @abstractmethod
    def aggregate(self, samples: Sequence[Sample], outputs: Sequence[Any], scores: Sequence[dict]) -> dict:
        """Corpus-level metrics."""

    def prepare(self, model: Any, out_dir: Any) -> Any:
        """Hook for tasks that build their model first (the classifier fine-tunes here)."""
        return model

    def check_model(self, model: Any) -> None:
        if model.kind not in self.model_kinds:
            raise ValueError(
                f"task {self.name} cannot use a {model.kind} model; use one of {self.model_kinds}"
            )
        if getattr(self.config, "image", False) and model.kind not in ("vlm", "random"):
            raise ValueError(
                f"image=true needs a vision-language model; {model.name} is a {model.kind} model"
            )

    def images(self, samples: Sequence[Sample]) -> list[Path | None]:
        """The image file of each sample that shows one (None where the ablation leaves it out)."""
        return [self.data.image_path(s.inputs["image"]) if s.inputs.get("image") else None for s in samples]


# --------------------------------------------------------------------------- input pieces


def image_inputs(d: Dialog) -> dict[str, Any]:
    """The image as it enters a sample's inputs: its file and content hash (so the cache key
    changes with the picture), never the pixels."""
    if d.image is None:
        raise ValueError(f"dialog {d.id} has no image")
    return {"image": d.image.name, "image_sha256": d.image_sha256}


def opinions_text(d: Dialog) -> str:
    return "\n".join(f"- {o.emotion.replace('_', ' ')}: {o.text}" for o in d.opinions)


def dialog_text(rounds: Sequence[tuple[str, str]]) -> str:
    return "\n".join(f"Q: {q}\nA: {a}" for q, a in rounds)


def context_text(
    d: Dialog,
    upto_round: int | None = None,
    opinions: bool = True,
    dialog: bool = True,
    caption: bool = False,
) -> str:
    """Opinions, caption and the dialog so far (rounds before ``upto_round``, 1-based)."""
    parts = []
    if caption and d.caption:
        parts.append(f"Caption: {d.caption}")
    if opinions:
        parts.append("Two opinions about the artwork:\n" + opinions_text(d))
    rounds = d.rounds if upto_round is None else d.rounds[: upto_round - 1]
    if dialog and rounds:
        parts.append("Conversation:\n" + dialog_text(rounds))
    return "\n".join(parts)
