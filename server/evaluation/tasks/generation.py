"""Emotion + explanation generation: "I feel EMOTION because EXPLANATION" for each role.

Targets: the questioner before the reveal, the questioner after it, and the answerer. Input
ablations switch the opinions, the dialog and the caption on or off. The questioner before
the reveal never gets the caption (they had not seen the image), whatever the switch says.
Captions are the stimulus title until the export carries real captions. ``image=true`` gives
a vision-language model (:mod:`server.evaluation.vision`) the exported picture with the
prompt, again never to the questioner before the reveal.

Scores: corpus BLEU-1..4 (sacrebleu, signature recorded) and per-sample sentence BLEU;
emotion metrics on the label parsed from the output (unparsable = wrong, failure rate
reported); BERTScore and BARTScore when ``bertscore_model`` / ``bartscore_model`` name local
checkpoints (see :mod:`server.evaluation.neural_metrics` for definitions and direction).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from pydantic import field_validator

from server.evaluation import metrics
from server.evaluation.data import PHASES
from server.evaluation.labels import EMOTIONS, display
from server.evaluation.tasks.base import Sample, Task, TaskConfig, context_text, image_inputs

ROLE_TEXT = {
    "questioner_before": "You asked the questions and have not seen the artwork yet.",
    "questioner_after": "You asked the questions and have now seen the artwork as well.",
    "answerer": "You looked at the artwork and answered the questions about it.",
}


def target_text(emotion: str, explanation: str) -> str:
    return f"I feel {display(emotion)} because {explanation.strip()}"


class GenerationConfig(TaskConfig):
    batch_size: int = 8
    targets: list[str] = list(PHASES)
    opinions: bool = True
    dialog: bool = True
    caption: bool = False
    image: bool = False
    max_new_tokens: int = 60
    bertscore_model: str | None = None
    bertscore_layer: int | None = None
    bartscore_model: str | None = None

    @field_validator("targets")
    @classmethod
    def _known(cls, value: list[str]) -> list[str]:
        unknown = set(value) - set(PHASES)
        if unknown:
            raise ValueError(f"unknown targets {sorted(unknown)}; choose from {PHASES}")
        return value


def build_prompt(context: str, phase: str, image: bool = False) -> str:
    seen = "The image shows the artwork.\n" if image else ""
    return (
        f"{seen}{context}\n{ROLE_TEXT[phase]} Which of these emotions do you feel: "
        f"{', '.join(display(e) for e in EMOTIONS)}? Reply as 'I feel EMOTION because EXPLANATION'.\n"
    )


class GenerationTask(Task):
    name = "generation"
    Config = GenerationConfig
    model_kinds = ("random", "causal", "seq2seq", "vlm")
    config: GenerationConfig

    def samples(self) -> Iterator[Sample]:
        c = self.config
        n = 0
        for d in self.data.split(self.split):
            for phase in c.targets:
                feeling = d.feelings.get(phase)
                if feeling is None:
                    continue
                if c.limit is not None and n >= c.limit:
                    return
                seen = phase != "questioner_before"  # the image was revealed after the dialog
                caption, image = c.caption and seen, c.image and seen
                context = context_text(d, None, opinions=c.opinions, dialog=c.dialog, caption=caption)
                inputs = {"prompt": build_prompt(context, phase, image), "max_new_tokens": c.max_new_tokens}
                if image:
                    inputs.update(image_inputs(d))
                n += 1
                yield Sample(
                    id=f"{d.id}:{phase}",
                    inputs=inputs,
                    target={
                        "text": target_text(feeling.emotion, feeling.explanation),
                        "emotion": feeling.emotion,
                    },
                    meta={"dialog_id": d.id, "phase": phase},
                )

    def predict(self, model: Any, samples: Sequence[Sample]) -> list[str]:
        if model.kind == "random":
            out = []
            for s in samples:
                rng = model.rng(s.hash)
                out.append(target_text(rng.choice(EMOTIONS), "of what the conversation described"))
            return out
        extra = {"images": self.images(samples)} if model.kind == "vlm" else {}
        return model.generate(
            [s.inputs["prompt"] for s in samples],
            max_new_tokens=self.config.max_new_tokens,
            batch_size=self.config.batch_size,
            **extra,
        )

    def score(self, sample: Sample, output: str) -> dict[str, Any]:
        emotion = metrics.parse_emotion(output)
        return {
            "emotion": emotion,
            "emotion_correct": emotion == sample.target["emotion"],
            "sentence_bleu": metrics.sentence_bleu(output, sample.target["text"]),
        }

    def aggregate(self, samples: Sequence[Sample], outputs: Sequence[Any], scores: Sequence[dict]) -> dict:
        c = self.config
        result: dict[str, Any] = {"by_target": {}}
        groups = {"all": list(range(len(samples)))}
        for phase in c.targets:
            groups[phase] = [i for i, s in enumerate(samples) if s.meta["phase"] == phase]
        bert = bart = None
        hyps = [str(o) for o in outputs]
        refs = [s.target["text"] for s in samples]
        if c.bertscore_model and samples:
            from server.evaluation.neural_metrics import bertscore

            bert = bertscore(hyps, refs, c.bertscore_model, layer=c.bertscore_layer)
            result["bertscore_info"] = {k: bert[k] for k in ("checkpoint", "layer", "idf", "rescaled")}
        if c.bartscore_model and samples:
            from server.evaluation.neural_metrics import bartscore

            bart = bartscore(hyps, refs, c.bartscore_model)
            result["bartscore_info"] = {k: bart[k] for k in ("checkpoint", "direction")}
        for name, idx in groups.items():
            g: dict[str, Any] = {"n": len(idx)}
            g.update(metrics.bleu([hyps[i] for i in idx], [refs[i] for i in idx]))
            g["sentence_bleu"] = metrics.mean_or_none(scores[i]["sentence_bleu"] for i in idx)
            g["emotion"] = metrics.emotion_report(
                [samples[i].target["emotion"] for i in idx], [scores[i]["emotion"] for i in idx]
            )
            if bert:
                for key in ("precision", "recall", "f1"):
                    g[f"bertscore_{key}"] = metrics.mean_or_none(bert[key][i] for i in idx)
            if bart:
                for key in ("precision", "recall", "f"):
                    g[f"bartscore_{key}"] = metrics.mean_or_none(bart[key][i] for i in idx)
            if name == "all":
                result.update(g)
            else:
                result["by_target"][name] = g
        return result
