"""Multiple choice (BQA-style): which of 4 emotions does the questioner feel?

Options: the true emotion plus one emotion drawn (seeded per dialog) from each of the three
other (sentiment, arousal) groups of :mod:`server.evaluation.labels`, so no two options
share a group. Dialogs whose truth is ``something_else`` have no group and are skipped.

Difficulty: an item is *easy* when one of the two opinions shown to the workers names the
true emotion (the answer can be read off the prompt), *hard* otherwise.

Circular evaluation (as VLMEvalKit's CircularEval): every item is asked 4 times with the
options rotated; plain accuracy uses the first rotation only, circular accuracy counts an
item right only when all 4 rotations are right. A model that always picks "A" gets 25%
plain and 0% circular; uniform guessing gets 25% and 1/256.

Scoring by model kind: ``random`` picks a seeded letter; an LM picks the option with the
highest log-likelihood after the prompt, of its letter (``score_by=letter``, default) or
of its text (``score_by=text``). Ties go to the earliest option (documented; circular
evaluation exposes position bias anyway). A vision-language model scores the same way, and
sees the artwork too with ``image=true``.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any, Literal

from pydantic import field_validator

from server.evaluation.data import PHASES, Dialog
from server.evaluation.labels import GROUPS, display, group
from server.evaluation.tasks.base import Sample, Task, TaskConfig, context_text, image_inputs

LETTERS = ("A", "B", "C", "D")


def options_for(d: Dialog, truth: str, seed: int) -> list[str] | None:
    """The truth plus one emotion from each other group, in a seeded order; None for something_else."""
    own = group(truth)
    if own is None:
        return None
    rng = random.Random(f"{seed}:{d.id}")
    options = [truth] + [rng.choice(members) for name, members in sorted(GROUPS.items()) if name != own]
    rng.shuffle(options)
    return options


class MultipleChoiceConfig(TaskConfig):
    target: str = "questioner_before"
    seed: int = 0
    score_by: Literal["letter", "text"] = "letter"
    opinions: bool = True
    dialog: bool = True
    image: bool = False

    @field_validator("target")
    @classmethod
    def _known_target(cls, value: str) -> str:
        if value not in PHASES:
            raise ValueError(f"target must be one of {PHASES}")
        return value


def build_prompt(context: str, options: Sequence[str]) -> str:
    listed = "\n".join(f"{letter}. {display(o)}" for letter, o in zip(LETTERS, options, strict=True))
    return (
        f"{context}\nWhich emotion does the person who asked the questions most likely feel?\n{listed}\n"
        "Answer with the letter of one option.\nAnswer:"
    )


class MultipleChoiceTask(Task):
    name = "multichoice"
    Config = MultipleChoiceConfig
    model_kinds = ("random", "causal", "seq2seq", "vlm")
    config: MultipleChoiceConfig

    def samples(self) -> Iterator[Sample]:
        c = self.config
        items = 0
        for d in self.data.split(self.split):
            feeling = d.feelings.get(c.target)
            options = options_for(d, feeling.emotion, c.seed) if feeling else None
            if options is None:
                continue
            if c.limit is not None and items >= c.limit:
                return
            items += 1
            easy = any(o.emotion == feeling.emotion for o in d.opinions)
            context = context_text(d, None, opinions=c.opinions, dialog=c.dialog)
            for rotation in range(len(LETTERS)):
                rotated = options[rotation:] + options[:rotation]
                prompt = build_prompt(context, rotated)
                inputs = {"prompt": prompt, "choices": rotated, "score_by": c.score_by}
                if c.image:
                    inputs.update(image_inputs(d))
                yield Sample(
                    id=f"{d.id}:r{rotation}",
                    inputs=inputs,
                    target=rotated.index(feeling.emotion),
                    meta={"dialog_id": d.id, "rotation": rotation, "difficulty": "easy" if easy else "hard"},
                )

    def predict(self, model: Any, samples: Sequence[Sample]) -> list[int]:
        if model.kind == "random":
            return [model.rng(s.hash).randrange(len(s.inputs["choices"])) for s in samples]
        out = []
        for s, image in zip(samples, self.images(samples), strict=True):
            if self.config.score_by == "letter":
                choices = list(LETTERS[: len(s.inputs["choices"])])
            else:
                choices = [display(o) for o in s.inputs["choices"]]
            scores = model.loglik(s.inputs["prompt"], choices, reduce="mean", image=image)
            out.append(max(range(len(scores)), key=lambda i: (scores[i], -i)))  # ties: earliest option
        return out

    def score(self, sample: Sample, output: int) -> dict[str, Any]:
        return {"choice": sample.inputs["choices"][output], "correct": output == sample.target}

    def aggregate(self, samples: Sequence[Sample], outputs: Sequence[Any], scores: Sequence[dict]) -> dict:
        items: dict[str, dict[str, Any]] = {}
        for s, sc in zip(samples, scores, strict=True):
            item = items.setdefault(s.meta["dialog_id"], {"difficulty": s.meta["difficulty"], "right": {}})
            item["right"][s.meta["rotation"]] = sc["correct"]

        def summary(selected: list[dict[str, Any]]) -> dict[str, Any]:
            n = len(selected)
            return {
                "n": n,
                "accuracy": sum(i["right"][0] for i in selected) / n if n else None,
                "circular_accuracy": sum(all(i["right"].values()) for i in selected) / n if n else None,
            }

        everything = list(items.values())
        result = summary(everything)
        result["by_difficulty"] = {
            level: summary([i for i in everything if i["difficulty"] == level]) for level in ("easy", "hard")
        }
        letters = [int(o) for o in outputs]
        result["letter_distribution"] = {
            LETTERS[k]: (letters.count(k) / len(letters) if letters else None) for k in range(len(LETTERS))
        }
        result["chance"] = {"accuracy": 0.25, "circular_accuracy": 0.25**4}
        result["target"] = self.config.target
        result["skipped_something_else"] = sum(
            1
            for d in self.data.split(self.split)
            if (f := d.feelings.get(self.config.target)) is not None and f.emotion == "something_else"
        )
        return result
