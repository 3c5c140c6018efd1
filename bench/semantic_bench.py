"""Semantic QC throughput: batched sentence embeddings + flags on synthetic dialogs.

Measures the scoring step of ``server/qc/semantic.py`` (``score_records`` + ``find``, no
database) batch by batch as ``avd qc semantic`` runs it, and, in the same run on the same
dialogs, the lexical QC judging step (inclusion + chat rules + TextBlob + verdict) as the
baseline. Prints a table and JSON, with the time 100,000 dialogs would take.

    python bench/semantic_bench.py --dialogs 2000 --batch-size 256
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from server.qc.flags import flag_turns  # noqa: E402
from server.qc.inclusion import inclusion_problems  # noqa: E402
from server.qc.record import DialogRecord, TurnRecord  # noqa: E402
from server.qc.scores import explanation_scores  # noqa: E402
from server.qc.semantic_flags import Thresholds, find  # noqa: E402
from server.qc.verdict import decide  # noqa: E402

THINGS = """sky river house woman horse tree boat church field window bridge mountain dog table
chair lamp basket child soldier ship cloud road garden wall door flower candle mirror""".split()
PLACES = "on the left|in the background|near the centre|at the bottom|by the water|in the corner".split("|")
COLOURS = "pale dark bright soft golden misty grey green blue red orange".split()
ASK = [
    "What does the {t} look like?",
    "Is there a {t} {p}?",
    "What colour is the {t}?",
    "How big is the {t} compared to the {u}?",
    "Is the {t} moving or still?",
    "What is next to the {t} {p}?",
    "How many {t}s can you count?",
    "Is the {t} in shadow or in light?",
    "Is anyone looking at the {t}?",
    "What is the {t} made of?",
]
TELL = [
    "The {t} is {c} and sits {p}, partly hidden by the {u}.",
    "Yes, a {c} {t} stands {p}; it is painted with quick strokes.",
    "It looks {c}, with a thin outline and the {u} right behind it.",
    "I can see two of them {p}, both quite small and {c}.",
]
FEEL = [
    "The {c} {t} and the quiet {u} my partner described sound calm, so I expect a peaceful mood.",
    "A {c} {t} {p} with the {u} close by feels lonely to me, like an empty afternoon.",
    "What my partner said about the {t} and the {c} light makes the scene seem warm and content.",
]


def synthetic(n: int, seed: int = 0) -> list[DialogRecord]:
    """Ten-round dialogs with varied questions (few true repeats) and explanations about them."""
    rng = random.Random(seed)

    def fill(template: str) -> str:
        t, u = rng.sample(THINGS, 2)
        return template.format(t=t, u=u, p=rng.choice(PLACES), c=rng.choice(COLOURS))

    opinions = [
        [
            {"emotion": "awe", "text": fill("The {c} {t} {p} and the wide {u} feel grand and still.")},
            {"emotion": "sadness", "text": fill("The lonely {t} beside the {c} {u} looks forgotten.")},
        ]
        for _ in range(max(1, n // 5))  # a stimulus is shown in several dialogs
    ]
    records = []
    for i in range(n):
        turns = []
        for r, template in enumerate(rng.sample(ASK, 10), 1):
            turns.append(TurnRecord(2 * r - 1, r, "questioner", fill(template), 9000))
            turns.append(TurnRecord(2 * r, r, "answerer", fill(rng.choice(TELL)), 12000))
        responses = {
            p: ("contentment", fill(rng.choice(FEEL))) for p in ("before_reveal", "after_reveal", "answerer")
        }
        records.append(
            DialogRecord(
                f"d{i}", "complete", 10, "q", "a", "landscape", opinions[i % len(opinions)], turns, responses
            )
        )
    return records


def lexical(records: list[DialogRecord]) -> None:
    for rec in records:
        reject, review = inclusion_problems(rec, 10, 1)
        flags = flag_turns(rec, {})
        decide(reject, review, flags, 1, 2)
        explanation_scores(rec)


def semantic(records: list[DialogRecord], embedder, batch_size: int) -> int:
    """Scores and flags batch by batch; returns the dialogs flagged (meaningless on these texts)."""
    from server.qc.semantic import batches, score_records

    thresholds = Thresholds()
    flagged = 0
    by_id = {rec.id: rec for rec in records}
    for batch in batches([rec.id for rec in records], batch_size):
        recs = [by_id[i] for i in batch]
        scores = score_records(recs, embedder)
        for rec in recs:
            flagged += find(scores[rec.id], flag_turns(rec, {}), [], thresholds).new > 0
    return flagged


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--dialogs", type=int, default=2000)
    ap.add_argument("--batch-size", type=int, default=256)
    args = ap.parse_args()
    import torch

    from server.qc.embedder import Embedder

    load_before = os.getloadavg()[0]
    records = synthetic(args.dialogs)
    lexical(records[:100])  # warm-up: rule models, TextBlob lexicon
    t = time.perf_counter()
    lexical(records)
    lexical_rate = len(records) / (time.perf_counter() - t)

    t = time.perf_counter()
    embedder = Embedder()
    load_s = time.perf_counter() - t
    semantic(synthetic(20, seed=99), embedder, args.batch_size)  # warm-up on other texts
    cpu = time.process_time()
    t = time.perf_counter()
    semantic(records, embedder, args.batch_size)
    wall = time.perf_counter() - t
    cpu = time.process_time() - cpu
    rate = len(records) / wall
    result = {
        "dialogs": len(records),
        "batch_size": args.batch_size,
        "device": embedder.device,
        "torch_threads": torch.get_num_threads(),
        "model_load_s": round(load_s, 1),
        "semantic_dialogs_per_s": round(rate, 1),
        "semantic_cpu_s_per_dialog": round(cpu / len(records), 4),
        "lexical_baseline_dialogs_per_s": round(lexical_rate),
        "semantic_vs_lexical_slowdown": round(lexical_rate / rate, 1),
        "extrapolated_100k_semantic_h": round(100_000 / rate / 3600, 2),
        "extrapolated_100k_lexical_min": round(100_000 / lexical_rate / 60, 1),
        "load_average_before": round(load_before, 1),
        "load_average_after": round(os.getloadavg()[0], 1),
    }
    print(f"{'step':34} {'dialogs/s':>10}")
    print(f"{'lexical QC (baseline, same run)':34} {lexical_rate:10.0f}")
    print(f"{'semantic stage (batched)':34} {rate:10.1f}")
    print(
        f"100,000 dialogs: semantic {result['extrapolated_100k_semantic_h']} h on this machine, "
        f"lexical {result['extrapolated_100k_lexical_min']} min"
    )
    print(json.dumps(result))


if __name__ == "__main__":
    main()
