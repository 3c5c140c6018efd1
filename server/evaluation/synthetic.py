"""A small synthetic export in the export's shape, for tests and for trying the tasks out.

Records follow the export's schema (validated with its model) and the retrieval files are
written in the exporter's VisDial layout. The text carries a learnable signal on purpose:
answers use cue words of the dialog's emotion and repeat the topic of their question, so a
classifier can beat chance and an embedding scorer can beat the random ranker.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

from server.evaluation.labels import EMOTIONS, POSITIVE

CUES: dict[str, tuple[str, ...]] = {
    "amusement": ("funny", "silly", "playful"),
    "awe": ("towering", "majestic", "vast"),
    "contentment": ("calm", "gentle", "peaceful"),
    "excitement": ("vivid", "energetic", "bursting"),
    "anger": ("harsh", "violent", "brutal"),
    "disgust": ("rotten", "filthy", "grotesque"),
    "fear": ("dark", "menacing", "shadowy"),
    "sadness": ("lonely", "grey", "mournful"),
    "something_else": ("odd", "unusual", "plain"),
}
TOPICS = ("sky", "trees", "people", "house", "water", "colours", "light", "animals", "road", "clouds", "boat")


DETAILS = ("near the edge", "in the middle", "under soft light", "with thick paint", "far away", "up close")


def _answer(rng: random.Random, topic: str, emotion: str) -> str:
    cue, cue2 = rng.choice(CUES[emotion]), rng.choice(CUES[emotion])
    return f"The {topic} {rng.choice(DETAILS)} looks {cue} and {cue2} to me"


def _stamp(i: int, offset_s: int = 0) -> str:
    hours, minutes, seconds = 10 + offset_s // 3600 % 10, offset_s // 60 % 60, offset_s % 60
    return f"2024-05-{1 + i % 28:02d}T{hours:02d}:{minutes:02d}:{seconds:02d}.000Z"


def _response(emotion: str, explanation: str, i: int, at: int) -> dict:
    return {"emotion": emotion, "explanation": explanation, "submitted_at": _stamp(i, at), "latency_ms": 9000}


def synthetic_records(n_dialogs: int = 30, seed: int = 0, rounds: int = 10) -> list[dict]:
    """Records in the export's schema (split assigned by stimulus, 60/20/20)."""
    rng = random.Random(seed)
    stimuli = max(1, n_dialogs // 2)
    stim_ids = [f"s{k:03d}" for k in range(stimuli)]
    order = stim_ids[:]
    rng.shuffle(order)
    cut1, cut2 = round(stimuli * 0.6), round(stimuli * 0.8)
    split_of = {s: ("train" if k < cut1 else "val" if k < cut2 else "test") for k, s in enumerate(order)}
    records = []
    for i in range(n_dialogs):
        emotion = EMOTIONS[i % len(EMOTIONS)]
        after = emotion if rng.random() < 0.8 else rng.choice(EMOTIONS)
        stim = stim_ids[i % stimuli]
        pos = rng.choice(sorted(POSITIVE))
        neg = rng.choice(["anger", "disgust", "fear", "sadness"])
        topic = TOPICS[i % len(TOPICS)]
        opinions = [
            {
                "polarity": "positive",
                "emotion": pos,
                "text": f"The {topic} make me feel {CUES[pos][1]} inside.",
            },
            {
                "polarity": "negative",
                "emotion": neg,
                "text": f"Something {CUES[neg][1]} hides in the {topic}.",
            },
        ]
        if i % 2:
            opinions.reverse()
        dialog_rounds = []
        for r in range(rounds):
            t = TOPICS[(i + r) % len(TOPICS)]
            dialog_rounds.append(
                {
                    "round": r + 1,
                    "question": f"What do the {t} look like?",
                    "question_sent_at": _stamp(i, 60 * r),
                    "question_latency_ms": 4000 + r,
                    "answer": _answer(rng, t, emotion),
                    "answer_sent_at": _stamp(i, 60 * r + 30),
                    "answer_latency_ms": 5000 + r,
                }
            )
        records.append(
            {
                "dialog_id": f"d{i:04d}",
                "split": split_of[stim],
                "status": "complete",
                "complete": True,
                "end_reason": None,
                "ended_by": None,
                "rounds_done": rounds,
                "started_at": _stamp(i, 0),
                "ended_at": _stamp(i, 60 * rounds + 120),
                "stimulus": {
                    "id": stim,
                    "image": f"{stim}.png",
                    "image_sha256": hashlib.sha256(stim.encode()).hexdigest(),
                    "width": 600,
                    "height": 400,
                    "title": f"a painting of {topic} that feels {CUES[emotion][0]}",
                    "genre": "landscape" if i % 2 else "portrait",
                    "style": None,
                    "source": "synthetic",
                    "opinions": opinions,
                    "shown_first": opinions[0]["polarity"],
                },
                "rounds": dialog_rounds,
                "questioner": {
                    "worker_id": f"q{i % 7}",
                    "before_reveal": _response(
                        emotion,
                        f"the {topic} sounded {CUES[emotion][0]} and {CUES[emotion][2]}",
                        i,
                        60 * rounds,
                    ),
                    "after_reveal": _response(
                        after, f"seeing the {topic} it feels {CUES[after][1]}", i, 60 * rounds + 60
                    ),
                },
                "answerer": {
                    "worker_id": f"a{i % 5}",
                    "response": _response(
                        emotion, f"the {topic} is painted in a {CUES[emotion][2]} way", i, 60 * rounds + 90
                    ),
                },
                "qc": None,
                "collection": {
                    "study": "synthetic",
                    "settings": {"rounds": rounds},
                    "schema_version": "1.0",
                    "tool": "avd",
                    "tool_version": "synthetic",
                },
            }
        )
    return records


def write_synthetic_export(
    out: str | Path, n_dialogs: int = 30, seed: int = 0, rounds: int = 10, images: bool = False
) -> Path:
    """Write dialogs.jsonl, splits.json and retrieval/<split>.json (VisDial layout, as the exporter).

    ``images=True`` also writes one small PNG per stimulus under ``images/``, named by the
    SHA-256 of its bytes as ``avd export --images copy`` names them.
    """
    from server.export.schema import dump_line, validate_record

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    records = synthetic_records(n_dialogs, seed, rounds)
    if images:
        _write_images(out / "images", records)
    with (out / "dialogs.jsonl").open("w", encoding="utf-8") as fh:
        for rec in records:
            validate_record(rec)  # the fixture must be a valid export
            fh.write(dump_line(rec) + "\n")
    members: dict[str, list[str]] = {"train": [], "val": [], "test": []}
    for rec in records:
        members[rec["split"]].append(rec["dialog_id"])
    doc = {"seed": seed, "counts": {k: len(v) for k, v in members.items()}, "dialogs": members}
    (out / "splits.json").write_text(json.dumps(doc, sort_keys=True, indent=1) + "\n")
    rng = random.Random(seed)
    for split in members:
        _write_retrieval(
            out / "retrieval" / f"{split}.json", [r for r in records if r["split"] == split], rng
        )
    return out


# one colour per emotion of the stimulus's first dialog, so the pictures carry a signal too
COLOURS = {
    "amusement": (250, 200, 40),
    "awe": (60, 110, 220),
    "contentment": (120, 200, 120),
    "excitement": (240, 90, 30),
    "anger": (200, 20, 20),
    "disgust": (110, 120, 30),
    "fear": (30, 30, 50),
    "sadness": (120, 120, 140),
    "something_else": (200, 180, 220),
}


def synthetic_image(emotion: str, seed: str) -> bytes:
    """A 48x32 PNG: the emotion's colour with a few seeded rectangles on it."""
    import io

    from PIL import Image, ImageDraw

    rng = random.Random(seed)
    img = Image.new("RGB", (48, 32), COLOURS[emotion])
    draw = ImageDraw.Draw(img)
    for _ in range(3):
        x, y = rng.randrange(40), rng.randrange(24)
        draw.rectangle(
            (x, y, x + rng.randrange(4, 12), y + rng.randrange(4, 10)),
            fill=rng.choice(list(COLOURS.values())),
        )
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return buf.getvalue()


def _write_images(folder: Path, records: list[dict]) -> None:
    """One picture per stimulus; the records then name it by content, as the exporter does."""
    folder.mkdir(parents=True, exist_ok=True)
    by_stimulus: dict[str, tuple[str, str]] = {}
    for rec in records:
        stim = rec["stimulus"]
        if stim["id"] not in by_stimulus:
            data = synthetic_image(rec["questioner"]["before_reveal"]["emotion"], stim["id"])
            sha = hashlib.sha256(data).hexdigest()
            (folder / f"{sha}.png").write_bytes(data)
            by_stimulus[stim["id"]] = (f"{sha}.png", sha)
        stim["image"], stim["image_sha256"] = by_stimulus[stim["id"]]


def _write_retrieval(path: Path, records: list[dict], rng: random.Random, candidates: int = 100) -> None:
    """Pools of distinct questions/answers; per round the true answer plus answers of other dialogs."""
    answers = list(dict.fromkeys(r["answer"] for rec in records for r in rec["rounds"]))
    questions = list(dict.fromkeys(r["question"] for rec in records for r in rec["rounds"]))
    a_index = {t: i for i, t in enumerate(answers)}
    q_index = {t: i for i, t in enumerate(questions)}
    dialogs = []
    for rec in records:
        own = {a_index[r["answer"]] for r in rec["rounds"]}
        allowed = [i for i in range(len(answers)) if i not in own]
        entries = []
        for r in rec["rounds"]:
            options = rng.sample(allowed, min(candidates - 1, len(allowed)))
            gt = rng.randrange(len(options) + 1)
            options.insert(gt, a_index[r["answer"]])
            entries.append(
                {
                    "answer": a_index[r["answer"]],
                    "answer_options": options,
                    "gt_index": gt,
                    "question": q_index[r["question"]],
                    "round": r["round"],
                }
            )
        dialogs.append(
            {
                "dialog": entries,
                "dialog_id": rec["dialog_id"],
                "image": rec["stimulus"]["image"],
                "image_id": rec["stimulus"]["id"],
            }
        )
    path.parent.mkdir(parents=True, exist_ok=True)
    doc = {
        "data": {"answers": answers, "dialogs": dialogs, "questions": questions},
        "num_candidates": candidates,
    }
    path.write_text(json.dumps(doc, sort_keys=True))


def write_large_export(out: str | Path, n_dialogs: int, seed: int = 0, candidates: int = 100) -> Path:
    """:func:`write_synthetic_export`'s layout in time linear in the rounds, for memory tests
    and benchmarks (100,000 dialogs = 1,000,000 retrieval rounds): the retrieval files are
    written a dialog at a time and candidates are drawn by rejection instead of from a list
    of allowed answers per dialog. No images; records are checked when the export is read."""
    from server.export.schema import dump_line

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    records = synthetic_records(n_dialogs, seed)
    members: dict[str, list[dict]] = {"train": [], "val": [], "test": []}
    with (out / "dialogs.jsonl").open("w", encoding="utf-8") as fh:
        for rec in records:
            fh.write(dump_line(rec) + "\n")
            members[rec["split"]].append(rec)
    ids = {k: [r["dialog_id"] for r in v] for k, v in members.items()}
    doc = {"seed": seed, "counts": {k: len(v) for k, v in ids.items()}, "dialogs": ids}
    (out / "splits.json").write_text(json.dumps(doc, sort_keys=True, indent=1) + "\n")
    rng = random.Random(seed)
    for split, recs in members.items():
        _stream_retrieval(out / "retrieval" / f"{split}.json", recs, rng, candidates)
    return out


def _stream_retrieval(path: Path, records: list[dict], rng: random.Random, candidates: int) -> None:
    """Pools first, then one dialog's entry at a time (the order the exporter writes)."""
    answers = list(dict.fromkeys(r["answer"] for rec in records for r in rec["rounds"]))
    questions = list(dict.fromkeys(r["question"] for rec in records for r in rec["rounds"]))
    a_index = {t: i for i, t in enumerate(answers)}
    q_index = {t: i for i, t in enumerate(questions)}
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as fh:
        fh.write('{"data": {"answers": ' + json.dumps(answers) + ', "dialogs": [')
        for n, rec in enumerate(records):
            own = {a_index[r["answer"]] for r in rec["rounds"]}
            others = min(candidates - 1, len(answers) - len(own))
            entries = []
            for r in rec["rounds"]:
                drawn = rng.sample(range(len(answers)), min(len(answers), others + len(own)))
                options = [i for i in drawn if i not in own][:others]
                gt = rng.randrange(len(options) + 1)
                options.insert(gt, a_index[r["answer"]])
                entries.append(
                    {
                        "answer": a_index[r["answer"]],
                        "answer_options": options,
                        "gt_index": gt,
                        "question": q_index[r["question"]],
                        "round": r["round"],
                    }
                )
            entry = {
                "dialog": entries,
                "dialog_id": rec["dialog_id"],
                "image": rec["stimulus"]["image"],
                "image_id": rec["stimulus"]["id"],
            }
            fh.write(("" if n == 0 else ", ") + json.dumps(entry, sort_keys=True))
        fh.write('], "questions": ' + json.dumps(questions) + '}, "num_candidates": ' + f"{candidates}}}")
