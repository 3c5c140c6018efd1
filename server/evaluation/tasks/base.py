"""What every task provides: a config, an input builder, per-sample scoring and aggregation.

A :class:`Sample` carries ``inputs`` (everything the model sees: its hash keys the output
cache, so changing a prompt recomputes exactly the affected samples), a ``target`` (what
scoring compares against; not hashed) and ``meta`` (round, split... for breakdowns).

The runner streams: samples are built, predicted, scored and written a window at a time, and
corpus metrics come from an :class:`Accumulator` fed one scored sample at a time. The default
one keeps each sample without its ``inputs`` (plus output and scores) and calls
:meth:`Task.aggregate` at the end, so ``aggregate`` must not read ``inputs``; a task with
very many samples (retrieval) keeps only the numbers its metrics need instead.
"""

from __future__ import annotations

import hashlib
import json
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
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

    @cached_property
    def hash(self) -> str:
        """Cache key of the inputs (computed once: the runner and the scorers ask several times)."""
        blob = json.dumps(self.inputs, sort_keys=True, ensure_ascii=False).encode()
        return hashlib.sha256(blob).hexdigest()[:24]


class Accumulator(ABC):
    """Corpus metrics gathered one scored sample at a time (the runner never holds them all)."""

    @abstractmethod
    def add(self, sample: Sample, output: Any, score: dict[str, Any]) -> None: ...

    @abstractmethod
    def result(self) -> dict[str, Any]: ...


class KeepForAggregate(Accumulator):
    """Keeps targets, meta, outputs and scores (not the inputs) for :meth:`Task.aggregate`.

    Enough for tasks of one to a few samples per dialog, whose metrics (corpus BLEU,
    BERTScore, F1) need every prediction anyway; the prompts are what would weigh.
    """

    def __init__(self, task: Task) -> None:
        self.task = task
        self.samples: list[Sample] = []
        self.outputs: list[Any] = []
        self.scores: list[dict[str, Any]] = []

    def add(self, sample: Sample, output: Any, score: dict[str, Any]) -> None:
        self.samples.append(Sample(id=sample.id, inputs={}, target=sample.target, meta=sample.meta))
        self.outputs.append(output)
        self.scores.append(score)

    def result(self) -> dict[str, Any]:
        return self.task.aggregate(self.samples, self.outputs, self.scores)


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
        """Corpus-level metrics (of whole lists; the runner gets them through :meth:`accumulator`)."""

    def score_batch(self, samples: Sequence[Sample], outputs: Sequence[Any]) -> list[dict[str, Any]]:
        """Scores of a batch; equal to :meth:`score` one by one (tasks may vectorise it)."""
        return [self.score(s, o) for s, o in zip(samples, outputs, strict=True)]

    def accumulator(self) -> Accumulator:
        """Where the runner feeds scored samples; ``result()`` equals :meth:`aggregate` on them all."""
        return KeepForAggregate(self)

    def count(self) -> int | None:
        """How many samples :meth:`samples` will yield, for the progress bar (None: unknown).

        The default builds them once and drops them: cheap for tasks of a few samples per dialog.
        """
        return sum(1 for _ in self.samples())

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
