"""lmms-eval hooks for an avd export: the rows are ``dialogs.jsonl`` records as they are.

Self-contained on purpose (standard library + Pillow, both present wherever lmms-eval
runs), so the harness can load it without installing avd. The label list, the emotion
groups, the answer parsing and the multiple-choice options follow ``server/evaluation``;
``tests/test_lmms_eval_tasks.py`` checks that they agree.

Where things are read from:

- the export folder: ``$AVD_EXPORT_DIR``, else ``export`` next to this file (a link to
  the folder ``avd export`` wrote; the YAML's ``data_files`` reads ``export/dialogs.jsonl``);
- the split: ``$AVD_SPLIT`` (``test`` by default; ``train``, ``val`` or ``all``);
- the image: ``images/<stimulus.image>`` of the export (``avd export --images copy``).
"""

from __future__ import annotations

import os
import random
import re
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

POSITIVE = ("amusement", "awe", "contentment", "excitement")
NEGATIVE = ("anger", "disgust", "fear", "sadness")
EMOTIONS = (*POSITIVE, *NEGATIVE, "something_else")
HIGH_AROUSAL = frozenset({"amusement", "awe", "excitement", "anger", "disgust", "fear"})
LETTERS = ("A", "B", "C", "D")
SEED = 0  # the seed of the multiple-choice options (server/evaluation/tasks/multichoice.py)
TARGET = "questioner_after"  # the questioner once the artwork was revealed: saw dialog and image


def _group(emotion: str) -> str | None:
    if emotion not in POSITIVE and emotion not in NEGATIVE:
        return None
    side = "positive" if emotion in POSITIVE else "negative"
    return f"{side}-{'high' if emotion in HIGH_AROUSAL else 'low'}"


GROUPS: dict[str, tuple[str, ...]] = {}
for _emotion in EMOTIONS:
    if (_g := _group(_emotion)) is not None:
        GROUPS[_g] = (*GROUPS.get(_g, ()), _emotion)


def display(emotion: str) -> str:
    return emotion.replace("_", " ")


# --------------------------------------------------------------------------- export rows


def export_dir() -> Path:
    return Path(os.environ.get("AVD_EXPORT_DIR") or Path(__file__).resolve().parent / "export")


def feeling(doc: dict[str, Any], target: str = TARGET) -> dict[str, Any] | None:
    """The target's emotion form of one record (None when that form was not given)."""
    if target == "answerer":
        return doc["answerer"].get("response")
    return doc["questioner"].get("before_reveal" if target == "questioner_before" else "after_reveal")


def truth(doc: dict[str, Any]) -> str:
    form = feeling(doc)
    if form is None:
        raise ValueError(f"dialog {doc['dialog_id']} has no {TARGET} emotion")
    return form["emotion"]


def _wanted(doc: dict[str, Any]) -> bool:
    split = os.environ.get("AVD_SPLIT", "test")
    return (split == "all" or doc.get("split") == split) and feeling(doc) is not None


def avd_process_docs(dataset: Any) -> Any:
    """Keep the rows of the chosen split whose target gave an emotion.

    Not from the datasets cache: the split comes from the environment, which its
    fingerprint of this function would not see."""
    return dataset.filter(_wanted, load_from_cache_file=False)


def avd_doc_to_visual(doc: dict[str, Any]) -> list[Any]:
    """The artwork the dialog was about, as one RGB image."""
    from PIL import Image

    path = export_dir() / "images" / doc["stimulus"]["image"]
    if not path.is_file():
        raise FileNotFoundError(f"{path} not found: set AVD_EXPORT_DIR to an export made with --images copy")
    with Image.open(path) as img:
        return [img.convert("RGB")]


def context(doc: dict[str, Any]) -> str:
    """Both opinions (in the order the workers saw them) and the answered rounds."""
    opinions = "\n".join(f"{display(o['emotion'])}: {o['text']}" for o in doc["stimulus"]["opinions"])
    rounds = "\n".join(f"Q: {r['question']}\nA: {r['answer']}" for r in doc["rounds"] if r.get("answer"))
    return f"Two opinions about the artwork:\n{opinions}\nConversation about it:\n{rounds}"


def _wrap(text: str, kwargs: dict[str, Any] | None) -> str:
    kwargs = kwargs or {}
    return f"{kwargs.get('pre_prompt', '')}{text}{kwargs.get('post_prompt', '')}"


# --------------------------------------------------------------------------- avd_emotion

_FEEL = re.compile(r"\bi\s+(?:would\s+)?feel\s+(?P<emotion>[^.\n]+?)\s+because\b", re.I)
_FEEL_START = re.compile(r"\bi\s+(?:would\s+)?feel\b", re.I)
_ARTICLE = re.compile(r"^(?:a\s+sense\s+of|a|an|some|mostly|mainly)\s+", re.I)


def parse_emotion(text: str | None) -> str | None:
    """The label of the last "I feel EMOTION because ..." sentence; None when there is none."""
    text = text or ""
    match = None
    for start in reversed([m.start() for m in _FEEL_START.finditer(text)]):
        if match := _FEEL.match(text, start):
            break
    if not match:
        return None
    phrase = _ARTICLE.sub("", match.group("emotion").strip()).strip(" \"'*")
    key = re.sub(r"[\s_\-]+", "_", phrase.lower()).strip("_.,;:!?\"'")
    return key if key in EMOTIONS else None


def avd_emotion_doc_to_text(
    doc: dict[str, Any], lmms_eval_specific_kwargs: dict[str, Any] | None = None
) -> str:
    labels = ", ".join(display(e) for e in EMOTIONS)
    ask = (
        "You asked these questions and can now see the artwork in the image. Which of these emotions "
        f"do you feel: {labels}? Reply with one sentence: 'I feel EMOTION because EXPLANATION'."
    )
    return _wrap(f"{context(doc)}\n{ask}", lmms_eval_specific_kwargs)


def avd_emotion_doc_to_target(doc: dict[str, Any]) -> str:
    return display(truth(doc))


def avd_emotion_process_results(doc: dict[str, Any], results: list[str]) -> dict[str, Any]:
    predicted = parse_emotion(results[0] if results else None)
    expected = truth(doc)
    return {
        "avd_emotion_accuracy": float(predicted == expected),
        "avd_emotion_weighted_f1": {"truth": expected, "prediction": predicted},
        "avd_emotion_parse_failure": float(predicted is None),
    }


def avd_weighted_f1(items: list[dict[str, Any]]) -> float:
    """F1 per label weighted by the label's true support; an unparsable answer is always wrong."""
    truths = [i["truth"] for i in items]
    preds = [i["prediction"] or "<unparsable>" for i in items]
    support = Counter(truths)
    if not truths:
        return 0.0
    total = 0.0
    for label, count in support.items():
        tp = sum(t == label and p == label for t, p in zip(truths, preds, strict=True))
        predicted = sum(p == label for p in preds)
        precision = tp / predicted if predicted else 0.0
        recall = tp / count
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        total += f1 * count
    return total / len(truths)


# --------------------------------------------------------------------------- avd_multichoice


def mc_options(doc: dict[str, Any]) -> list[str] | None:
    """The truth plus one emotion of each other group, seeded per dialog; None for something_else."""
    answer = truth(doc)
    own = _group(answer)
    if own is None:
        return None
    rng = random.Random(f"{SEED}:{doc['dialog_id']}")
    options = [answer] + [rng.choice(members) for name, members in sorted(GROUPS.items()) if name != own]
    rng.shuffle(options)
    return options


def avd_mc_process_docs(dataset: Any) -> Any:
    """Each kept dialog four times, the options rotated (circular evaluation)."""

    def usable(doc: dict[str, Any]) -> bool:
        return _wanted(doc) and _group(truth(doc)) is not None

    def rotate(batch: dict[str, list[Any]]) -> dict[str, list[Any]]:
        out: dict[str, list[Any]] = {key: [] for key in (*batch, "avd_options", "avd_rotation")}
        for i in range(len(batch["dialog_id"])):
            options = mc_options({key: values[i] for key, values in batch.items()}) or []
            for rotation in range(len(LETTERS)):
                for key, values in batch.items():
                    out[key].append(values[i])
                out["avd_options"].append(options[rotation:] + options[:rotation])
                out["avd_rotation"].append(rotation)
        return out

    return dataset.filter(usable, load_from_cache_file=False).map(
        rotate, batched=True, load_from_cache_file=False
    )


def _options(doc: dict[str, Any]) -> list[str]:
    """The rotated options of an expanded row, or the first rotation of a plain export row."""
    return list(doc.get("avd_options") or mc_options(doc) or [])


def avd_mc_doc_to_text(doc: dict[str, Any], lmms_eval_specific_kwargs: dict | None = None) -> str:
    listed = "\n".join(f"{letter}. {display(o)}" for letter, o in zip(LETTERS, _options(doc), strict=False))
    ask = (
        "Which emotion does the person who asked the questions most likely feel after seeing the artwork "
        f"in the image?\n{listed}\nAnswer with the letter of one option."
    )
    return _wrap(f"{context(doc)}\n{ask}", lmms_eval_specific_kwargs)


def avd_mc_doc_to_target(doc: dict[str, Any]) -> str:
    return LETTERS[_options(doc).index(truth(doc))]


_LETTER = re.compile(r"\b([ABCD])\b")


def parse_letter(text: str | None) -> str | None:
    """The first standalone option letter of the answer ("B", "(B) awe", "Answer: B")."""
    match = _LETTER.search((text or "").strip())
    return match.group(1) if match else None


def avd_mc_process_results(doc: dict[str, Any], results: list[str]) -> dict[str, Any]:
    chosen = parse_letter(results[0] if results else None)
    item = {
        "dialog_id": doc["dialog_id"],
        "rotation": int(doc.get("avd_rotation") or 0),
        "correct": chosen == avd_mc_doc_to_target(doc),
    }
    return {"avd_mc_accuracy": item, "avd_mc_circular_accuracy": item}


def avd_mc_accuracy(items: list[dict[str, Any]]) -> float:
    """Accuracy on the first rotation of every item."""
    first = [i["correct"] for i in items if i["rotation"] == 0]
    return sum(first) / len(first) if first else 0.0


def avd_mc_circular_accuracy(items: list[dict[str, Any]]) -> float:
    """Share of items answered right in every rotation (chance 1/256)."""
    by_item: dict[str, list[bool]] = defaultdict(list)
    for i in items:
        by_item[i["dialog_id"]].append(bool(i["correct"]))
    return sum(all(v) for v in by_item.values()) / len(by_item) if by_item else 0.0
