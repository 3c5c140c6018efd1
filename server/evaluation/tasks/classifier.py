"""Dialog emotion classifier: fine-tune a RoBERTa-style encoder on the train split, then test.

Input text: the two opinions and the whole dialog (no image, no caption); label: the
questioner's emotion (``target``, before the reveal by default, as the dialog is all the
questioner had then). ``--model`` is a local encoder checkpoint (fine-tuned from it) or an
already fine-tuned sequence classifier (``train=false`` only evaluates it).

The fine-tuned weights are saved under the run directory (``model/``). Their identity for the
output cache is derived from the base checkpoint, the training data digest and every
training setting, so an unchanged re-run reuses the cached predictions without retraining.
Reports the emotion metrics with the confusion matrix (counts and row-normalised rates,
rows = true emotion, as in the supplement's figure) and the training loss per epoch.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from pydantic import field_validator

from server.evaluation import metrics
from server.evaluation.data import PHASES, Dialog
from server.evaluation.labels import EMOTIONS
from server.evaluation.tasks.base import Sample, Task, TaskConfig, context_text


class ClassifierConfig(TaskConfig):
    batch_size: int = 16
    target: str = "questioner_before"
    train: bool = True
    train_split: str = "train"
    epochs: int = 3
    learning_rate: float = 2e-5
    weight_decay: float = 0.01
    max_length: int = 256
    seed: int = 0
    opinions: bool = True
    dialog: bool = True

    @field_validator("target")
    @classmethod
    def _known_target(cls, value: str) -> str:
        if value not in PHASES:
            raise ValueError(f"target must be one of {PHASES}")
        return value


class FineTunedClassifier:
    """A sequence classifier trained on first use (only when some prediction is not cached)."""

    kind = "classifier"

    def __init__(
        self,
        base: Path,
        device: str,
        config: ClassifierConfig,
        train_texts: list[tuple[str, str]],
        data_digest: str,
        out_dir: Path,
    ) -> None:
        from server.evaluation.models import fingerprint

        self.base = base
        self.device = device
        self.config = config
        self.train_texts = train_texts
        self.out_dir = out_dir
        self.name = str(base)
        settings = config.model_dump(exclude={"limit", "batch_size"}) | {"batch_size": config.batch_size}
        blob = json.dumps(
            {"base": fingerprint(base), "data": data_digest, "settings": settings}, sort_keys=True
        )
        self.fingerprint = "ft-" + hashlib.sha256(blob.encode()).hexdigest()[:16]
        self.model = None
        self.tokenizer = None
        self.history: list[dict[str, float]] = []

    def _load(self) -> None:
        from transformers import AutoModelForSequenceClassification, AutoTokenizer

        self.tokenizer = AutoTokenizer.from_pretrained(self.base, local_files_only=True)
        if self.tokenizer.pad_token_id is None:
            self.tokenizer.pad_token = self.tokenizer.eos_token
        self.model = AutoModelForSequenceClassification.from_pretrained(
            self.base,
            local_files_only=True,
            num_labels=len(EMOTIONS),
            id2label=dict(enumerate(EMOTIONS)),
            label2id={e: i for i, e in enumerate(EMOTIONS)},
            ignore_mismatched_sizes=True,
        ).to(self.device)
        if self.model.config.pad_token_id is None:
            self.model.config.pad_token_id = self.tokenizer.pad_token_id

    def ensure_ready(self) -> None:
        if self.model is not None:
            return
        self._load()
        if self.config.train:
            self._train()

    def _batch(self, texts: Sequence[str]) -> dict[str, Any]:
        enc = self.tokenizer(
            list(texts), return_tensors="pt", padding=True, truncation=True, max_length=self.config.max_length
        )
        return {k: v.to(self.device) for k, v in enc.items()}

    def _train(self) -> None:
        import torch
        from tqdm import tqdm

        c = self.config
        if not self.train_texts:
            raise ValueError(f"split {c.train_split!r} has no labelled dialogs to train on")
        torch.manual_seed(c.seed)
        rng = random.Random(c.seed)
        optimiser = torch.optim.AdamW(
            self.model.parameters(), lr=c.learning_rate, weight_decay=c.weight_decay
        )
        label_id = {e: i for i, e in enumerate(EMOTIONS)}
        order = list(range(len(self.train_texts)))
        self.model.train()
        for epoch in tqdm(range(c.epochs), desc="fine-tuning", mininterval=1.0):
            rng.shuffle(order)
            total, batches = 0.0, 0
            for start in range(0, len(order), c.batch_size):
                chunk = [self.train_texts[i] for i in order[start : start + c.batch_size]]
                labels = torch.tensor([label_id[y] for _, y in chunk], device=self.device)
                loss = self.model(**self._batch([x for x, _ in chunk]), labels=labels).loss
                optimiser.zero_grad()
                loss.backward()
                optimiser.step()
                total += float(loss.detach())
                batches += 1
            self.history.append({"epoch": epoch + 1, "loss": total / max(1, batches)})
        self.model.eval()
        target = self.out_dir / "model"
        self.model.save_pretrained(target)
        self.tokenizer.save_pretrained(target)
        (target / "training.json").write_text(
            json.dumps(
                {"fingerprint": self.fingerprint, "history": self.history, "config": c.model_dump()}, indent=1
            )
        )

    def predict(self, texts: Sequence[str]) -> list[dict[str, Any]]:
        import torch

        self.ensure_ready()
        out = []
        for start in range(0, len(texts), self.config.batch_size):
            with torch.no_grad():
                logits = self.model(**self._batch(texts[start : start + self.config.batch_size])).logits
            probs = torch.softmax(logits.float(), dim=-1).cpu()
            for row in probs:
                out.append({"label": EMOTIONS[int(row.argmax())], "probs": [round(float(p), 6) for p in row]})
        return out


def input_text(d: Dialog, config: ClassifierConfig) -> str:
    return context_text(d, None, opinions=config.opinions, dialog=config.dialog, caption=False)


class ClassifierTask(Task):
    name = "classifier"
    Config = ClassifierConfig
    model_kinds = ("random", "embedder", "encoder", "classifier")
    config: ClassifierConfig

    def _labelled(self, split: str) -> Iterator[tuple[Dialog, str]]:
        for d in self.data.split(split):
            feeling = d.feelings.get(self.config.target)
            if feeling is not None:
                yield d, feeling.emotion

    def samples(self) -> Iterator[Sample]:
        for n, (d, emotion) in enumerate(self._labelled(self.split)):
            if self.config.limit is not None and n >= self.config.limit:
                return
            yield Sample(
                id=d.id, inputs={"text": input_text(d, self.config)}, target=emotion, meta={"dialog_id": d.id}
            )

    def prepare(self, model: Any, out_dir: Any) -> Any:
        if model.kind == "random":
            return model
        train = (
            [(input_text(d, self.config), e) for d, e in self._labelled(self.config.train_split)]
            if self.config.train
            else []
        )
        self.classifier = FineTunedClassifier(
            Path(model.path), model.device, self.config, train, self.data.digest, Path(out_dir)
        )
        return self.classifier

    def predict(self, model: Any, samples: Sequence[Sample]) -> list[dict[str, Any]]:
        if model.kind == "random":
            return [{"label": model.rng(s.hash).choice(EMOTIONS), "probs": None} for s in samples]
        return model.predict([s.inputs["text"] for s in samples])

    def score(self, sample: Sample, output: dict[str, Any]) -> dict[str, Any]:
        return {"emotion": output["label"], "correct": output["label"] == sample.target}

    def aggregate(self, samples: Sequence[Sample], outputs: Sequence[Any], scores: Sequence[dict]) -> dict:
        report = metrics.emotion_report([s.target for s in samples], [s["emotion"] for s in scores])
        clf = getattr(self, "classifier", None)
        report["training"] = {
            "trained_now": bool(clf and clf.history),
            "history": clf.history if clf else [],
            "train_dialogs": len(clf.train_texts) if clf else 0,
            "saved_to": str(Path(clf.out_dir) / "model") if clf and clf.history else None,
            "fingerprint": clf.fingerprint if clf else None,
        }
        report["target"] = self.config.target
        return report
