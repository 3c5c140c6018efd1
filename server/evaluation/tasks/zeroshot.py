"""Zero-shot emotion prompting of an LM with the two opposing opinions and the dialog.

The template follows the supplement's instruction in our own words: read both opinions and
the conversation, pick one of the 9 emotions, answer "I feel EMOTION because REASON". The
answer is the label in the last such sentence; anything else is a parse failure and counts
as wrong. EvE-style robustness variants (each one a separate set of samples):

- ``base``: labels in the canonical order; ``shuffled``: a seeded random order per dialog;
  ``positive_first`` / ``negative_first``: labels grouped by sentiment;
- ``open_vocab``: no label list; the free emotion word is mapped to the nearest label by
  cosine similarity of sentence embeddings (``embedder``, default the offline MiniLM) when
  the similarity reaches ``similarity_threshold``, else it is a parse failure;
- ``persona_positive`` / ``persona_negative``: an optimistic / pessimistic persona first;
- ``reasoning_explain``: reason about the conversation first, answer on the last line;
  ``reasoning_describe``: imagine and describe the artwork first, then answer.

``image=true`` shows a vision-language model the artwork with every variant (the prompt then
speaks of the artwork in the image, and ``reasoning_describe`` asks to describe what it sees).

Reports per variant: weighted F1, accuracy, confusion matrix, parse-failure rate, sentiment
bias and error categories (see :mod:`server.evaluation.metrics` and
:mod:`server.evaluation.labels` for the sentiment/arousal grouping).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

from pydantic import field_validator

from server.evaluation import metrics
from server.evaluation.data import PHASES, Dialog
from server.evaluation.labels import EMOTIONS, NEGATIVE, POSITIVE, display, normalise
from server.evaluation.tasks.base import Sample, Task, TaskConfig, dialog_text, image_inputs

VARIANTS = (
    "base",
    "shuffled",
    "positive_first",
    "negative_first",
    "open_vocab",
    "persona_positive",
    "persona_negative",
    "reasoning_explain",
    "reasoning_describe",
)
PERSONAS = {
    "persona_positive": "You are a cheerful, hopeful person who tends to notice the bright side of things.\n",
    "persona_negative": "You are a gloomy, wary person who tends to expect the worst in things.\n",
}
REASONING = {
    "reasoning_explain": "First think step by step about which details of the conversation matter for "
    "how you feel. Then, on the last line, ",
    "reasoning_describe": "First imagine the artwork from the conversation and describe it in two sentences. "
    "Then, on the last line, ",
}

DESCRIBE_SEEN = "First describe the artwork in the image in two sentences. Then, on the last line, "


def label_order(variant: str, dialog_id: str, seed: int) -> list[str]:
    if variant == "shuffled":
        order = list(EMOTIONS)
        random.Random(f"{seed}:{dialog_id}").shuffle(order)
        return order
    if variant == "positive_first":
        return (
            [e for e in EMOTIONS if e in POSITIVE]
            + [e for e in EMOTIONS if e in NEGATIVE]
            + ["something_else"]
        )
    if variant == "negative_first":
        return (
            [e for e in EMOTIONS if e in NEGATIVE]
            + [e for e in EMOTIONS if e in POSITIVE]
            + ["something_else"]
        )
    return list(EMOTIONS)


def build_prompt(d: Dialog, variant: str, seed: int, image: bool = False) -> str:
    opinions = "\n".join(f"{display(o.emotion)}: {o.text}" for o in d.opinions)
    intro = PERSONAS.get(variant, "")
    artwork = "the artwork in the image" if image else "an artwork that you cannot see"
    body = (
        f"Two people wrote short opinions about {artwork}, and then someone asked "
        "questions about it and got answers.\n"
        f"Opinions:\n{opinions}\nConversation:\n{dialog_text(d.rounds)}\n"
    )
    if variant == "open_vocab":
        choice = "How does this make you feel? Name the emotion in one word of your own."
    else:
        labels = ", ".join(display(e) for e in label_order(variant, d.id, seed))
        choice = f"How does this make you feel? Choose exactly one of these emotions: {labels}."
    answer = "answer with one sentence of the form 'I feel EMOTION because REASON'."
    if variant in REASONING:
        tail = (DESCRIBE_SEEN if image and variant == "reasoning_describe" else REASONING[variant]) + answer
    else:
        tail = "Do not repeat the conversation; " + answer
    return f"{intro}{body}{choice} {tail}\n"


class ZeroShotConfig(TaskConfig):
    batch_size: int = 8
    variants: list[str] = ["base"]
    target: str = "questioner_before"
    seed: int = 0
    max_new_tokens: int = 60
    reasoning_max_new_tokens: int = 160
    embedder: str = "minilm"
    similarity_threshold: float = 0.5
    image: bool = False

    @field_validator("variants")
    @classmethod
    def _known_variants(cls, value: list[str]) -> list[str]:
        if value == ["all"]:
            return list(VARIANTS)
        unknown = set(value) - set(VARIANTS)
        if unknown:
            raise ValueError(f"unknown variants {sorted(unknown)}; choose from {VARIANTS} or 'all'")
        return value

    @field_validator("target")
    @classmethod
    def _known_target(cls, value: str) -> str:
        if value not in PHASES:
            raise ValueError(f"target must be one of {PHASES}")
        return value


class OpenVocabularyMapper:
    """Nearest label by embedding cosine similarity, or None below the threshold."""

    def __init__(self, embedder: Any, threshold: float) -> None:
        self.embedder = embedder
        self.threshold = threshold
        self.labels = list(EMOTIONS)
        self.label_vectors = embedder.encode([display(e) for e in self.labels])
        self.memo: dict[str, tuple[str | None, float]] = {}

    def map(self, phrase: str) -> tuple[str | None, float]:
        exact = normalise(phrase)
        if exact:
            return exact, 1.0
        key = phrase.strip().lower()
        if key not in self.memo:
            sims = self.label_vectors @ self.embedder.encode([key])[0]
            best = int(sims.argmax())
            value = float(sims[best])
            self.memo[key] = (self.labels[best] if value >= self.threshold else None, value)
        return self.memo[key]


class ZeroShotTask(Task):
    name = "zeroshot"
    Config = ZeroShotConfig
    model_kinds = ("random", "causal", "seq2seq", "vlm")
    config: ZeroShotConfig
    mapper: OpenVocabularyMapper | None = None

    def samples(self) -> Iterator[Sample]:
        c = self.config
        n = 0
        for d in self.data.split(self.split):
            feeling = d.feelings.get(c.target)
            if feeling is None:
                continue
            for variant in c.variants:
                if c.limit is not None and n >= c.limit:
                    return
                n += 1
                tokens = c.reasoning_max_new_tokens if variant in REASONING else c.max_new_tokens
                inputs = {"prompt": build_prompt(d, variant, c.seed, c.image), "max_new_tokens": tokens}
                if c.image:
                    inputs.update(image_inputs(d))
                yield Sample(
                    id=f"{d.id}:{variant}",
                    inputs=inputs,
                    target=feeling.emotion,
                    meta={"dialog_id": d.id, "variant": variant},
                )

    def prepare(self, model: Any, out_dir: Any) -> Any:
        if "open_vocab" in self.config.variants:
            from server.evaluation.models import load_model

            embedder = load_model(self.config.embedder, as_kind="embedder")
            self.mapper = OpenVocabularyMapper(embedder, self.config.similarity_threshold)
        return model

    def predict(self, model: Any, samples: Sequence[Sample]) -> list[str]:
        if model.kind == "random":
            return [
                f"I feel {display(model.rng(s.hash).choice(EMOTIONS))} because of the conversation"
                for s in samples
            ]
        texts: dict[int, str] = {}
        images = self.images(samples)
        for budget in sorted({s.inputs["max_new_tokens"] for s in samples}):
            idx = [i for i, s in enumerate(samples) if s.inputs["max_new_tokens"] == budget]
            extra = {"images": [images[i] for i in idx]} if model.kind == "vlm" else {}
            generated = model.generate(
                [samples[i].inputs["prompt"] for i in idx],
                max_new_tokens=budget,
                batch_size=self.config.batch_size,
                **extra,
            )
            texts.update(zip(idx, generated, strict=True))
        return [texts[i] for i in range(len(samples))]

    def score(self, sample: Sample, output: str) -> dict[str, Any]:
        phrase, _ = metrics.parse_feeling(output)
        result: dict[str, Any] = {"phrase": phrase}
        if sample.meta["variant"] == "open_vocab" and phrase and self.mapper is not None:
            label, similarity = self.mapper.map(phrase)
            result.update(emotion=label, similarity=similarity, exact_label=normalise(phrase) is not None)
        else:
            result["emotion"] = normalise(phrase) if phrase else None
        result["correct"] = result["emotion"] == sample.target
        return result

    def aggregate(self, samples: Sequence[Sample], outputs: Sequence[Any], scores: Sequence[dict]) -> dict:
        by_variant: dict[str, Any] = {}
        for variant in self.config.variants:
            idx = [i for i, s in enumerate(samples) if s.meta["variant"] == variant]
            report = metrics.emotion_report(
                [samples[i].target for i in idx], [scores[i]["emotion"] for i in idx]
            )
            if variant == "open_vocab":
                answered = [scores[i] for i in idx if scores[i]["phrase"]]
                report["exact_label_rate"] = (
                    sum(bool(s.get("exact_label")) for s in answered) / len(answered) if answered else None
                )
                report["similarity_threshold"] = self.config.similarity_threshold
                report["embedder"] = self.config.embedder
            by_variant[variant] = report
        headline = ("weighted_f1", "accuracy", "parse_failure_rate")
        result: dict[str, Any] = {k: {v: r[k] for v, r in by_variant.items()} for k in headline}
        result["positive_bias"] = {v: r["sentiment_bias"]["positive"] for v, r in by_variant.items()}
        result["negative_bias"] = {v: r["sentiment_bias"]["negative"] for v, r in by_variant.items()}
        result["target"] = self.config.target
        result["by_variant"] = by_variant
        return result
