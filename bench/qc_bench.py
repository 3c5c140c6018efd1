"""QC throughput: inclusion rules + chat rules + TextBlob + verdict on synthetic dialogs.

Measures the judging step of ``server/qc/pipeline.py`` (everything but the database) on
one process and on N worker processes (as ``avd qc run --workers N`` runs it), and a
same-run baseline that only lower-cases and splits the same texts (the floor of any
per-message work). Prints a table and JSON.

    python bench/qc_bench.py --dialogs 100000 --workers 2
    AVD_COMPILED_RULES=1 python bench/qc_bench.py ...   # the mypyc build (``avd rules compile``)
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from server.qc.flags import flag_turns  # noqa: E402
from server.qc.inclusion import inclusion_problems  # noqa: E402
from server.qc.record import DialogRecord, TurnRecord  # noqa: E402
from server.qc.scores import explanation_scores  # noqa: E402
from server.qc.verdict import decide  # noqa: E402

SUBJECTS = "sky river house woman horse tree boat church field window bridge mountain dog table".split()
COLOURS = "pale dark bright soft golden misty grey green blue red orange".split()

# The varied texts (the default): a real collection rarely repeats a message word for word, so the
# per-text caches of the rules and TextBlob must not be fed the same few sentences again and again.
# They still repeat as the run grows (a finite set of frames and things): ``distinct`` removes that.
THINGS = (
    "sky river house woman horse tree boat church field window bridge mountain dog table girl man child "
    "cart fence barn cloud lake road garden chair vase lamp door wall roof hill forest flower bird cat "
    "ship harbour tower market crowd soldier farmer dancer violin basket bottle apple candle mirror "
    "curtain staircase statue fountain carriage shadow moon sun rock wave shore path gate hat coat dress"
).split()
SHADES = (
    "pale dark bright soft golden misty grey green blue red orange violet ochre crimson amber silver "
    "white black brown pink teal olive rusty faded muddy creamy"
).split()
PLACES = (
    "on the left",
    "on the right",
    "in the centre",
    "near the top",
    "at the bottom",
    "in the background",
    "in the foreground",
    "by the edge",
    "behind the trees",
    "next to the door",
    "under the window",
)
ASKS = (
    "What does the {t} {p} look like?",
    "What colour is the {t} {p}?",
    "Where exactly is the {s} {t} placed?",
    "How big is the {t} compared with the {o}?",
    "Is the {t} {p} painted in detail or loosely?",
    "What is the {s} {t} made of?",
    "Is anyone near the {t} {p}, and what are they doing?",
    "How is the light falling on the {t} and the {o}?",
    "Is the {s} {t} old or new?",
    "How many {t}s can you count {p}?",
    "What is next to the {s} {t}?",
    "Does the {t} by the {o} look wet or dry?",
)
TELLS = (
    "The {t} is {s} and sits {p}, close to a {o}.",
    "It is a {s} {t}, drawn with thin lines {p}.",
    "I can see one {s} {t} {p}; a {o} partly hides it.",
    "The {t} looks {s}, with a {o} painted {p}.",
    "There are two of them {p}, both {s}, and a small {o} beside them.",
    "Mostly {s}; the {t} fades into the {o} {p}.",
    "The {t} is rough and {s}, lit from {p2}.",
)
WHY = (
    "The {s} {t} my partner described sounds calm, so I expect the picture to feel peaceful.",
    "Hearing about the {s} {t} and the {o} {p} made the scene feel lonely to me.",
    "Seeing the {s} {t} myself, it is livelier than I imagined from the chat about the {o}.",
    "The {o} {p} and the {s} light on the {t} give the painting a warm, quiet mood.",
)


def _fill(rng: random.Random, frame: str, thing: str) -> str:
    return frame.format(
        t=thing,
        s=rng.choice(SHADES),
        p=rng.choice(PLACES),
        p2=rng.choice(("the left", "above", "behind")),
        o=rng.choice(THINGS),
    )


def varied(n: int, seed: int = 0) -> list[DialogRecord]:
    """Dialogs whose texts are almost all distinct: each asks about ten different things."""
    rng = random.Random(seed)
    records = []
    for i in range(n):
        turns = []
        for r, thing in enumerate(rng.sample(THINGS, 10), start=1):
            turns.append(TurnRecord(2 * r - 1, r, "questioner", _fill(rng, rng.choice(ASKS), thing), 9000))
            turns.append(TurnRecord(2 * r, r, "answerer", _fill(rng, rng.choice(TELLS), thing), 12000))
        phases = ("before_reveal", "after_reveal", "answerer")
        responses = {p: ("contentment", _fill(rng, rng.choice(WHY), rng.choice(THINGS))) for p in phases}
        records.append(record(f"d{i}", turns, responses))
    return records


def distinct(n: int, seed: int = 0) -> list[DialogRecord]:
    """The varied dialogs with every chat message made unique by a number, as workers who write
    their own sentences almost never repeat one: no per-text cache ever hits on a message.

    The varied texts repeat (57 % of messages in 20,000 dialogs, 70 % in 100,000); chunks of a
    multi-process run start at different seeds, so ``seed + i`` numbers every dialog once. A bare
    number is no content word, so it gives the questions of a dialog no term in common that the
    varied ones lack (until session 15 it was "in panel N": every two questions then shared
    "panel", and ``repeated_question`` compared 2.2 pairs a question instead of 0.5); the rule
    hits are those of the varied texts.
    """
    records = varied(n, seed)
    for i, rec in enumerate(records):
        for k, t in enumerate(rec.turns):
            t.text = f"{t.text[:-1]} {(seed + i) * 20 + k}{t.text[-1]}"
    return records


def synthetic(n: int, seed: int = 0) -> list[DialogRecord]:
    rng = random.Random(seed)
    records = []
    for i in range(n):
        turns = []
        for r in range(1, 11):
            subject = rng.choice(SUBJECTS)
            turns.append(TurnRecord(2 * r - 1, r, "questioner", f"What does the {subject} look like?", 9000))
            colour = rng.choice(COLOURS)
            answer = f"The {subject} is {colour} and sits near the {rng.choice(SUBJECTS)} on the left side."
            turns.append(TurnRecord(2 * r, r, "answerer", answer, 12000))
        explanation = (
            f"The {rng.choice(COLOURS)} {rng.choice(SUBJECTS)} my partner described sounds calm and "
            "quiet, so I expect the picture to feel peaceful and content."
        )
        phases = ("before_reveal", "after_reveal", "answerer")
        records.append(record(f"d{i}", turns, {p: ("contentment", explanation) for p in phases}))
    return records


def record(
    dialog_id: str, turns: list[TurnRecord], responses: dict[str, tuple[str, str]], status: str = "complete"
) -> DialogRecord:
    """A 10-round dialog about one landscape with the two opinions every synthetic dialog shares."""
    return DialogRecord(
        id=dialog_id,
        status=status,
        rounds=10,
        questioner_id="q",
        answerer_id="a",
        genre="landscape",
        opinions=[
            {"emotion": "awe", "text": "The light over the hills feels vast."},
            {"emotion": "sadness", "text": "The empty road looks lonely."},
        ],
        turns=turns,
        responses=responses,
    )


def judge(records: list[DialogRecord]) -> int:
    for rec in records:
        reject, review = inclusion_problems(rec, 10, 1)
        flags = flag_turns(rec, {})
        decide(reject, review, flags, 1, 2)
        explanation_scores(rec)
    return len(records)


def baseline(records: list[DialogRecord]) -> int:
    words = 0
    for rec in records:
        for t in rec.turns:
            words += len(t.text.lower().split())
        for _, text in rec.responses.values():
            words += len(text.lower().split())
    return words


GENERATORS = {"varied": varied, "distinct": distinct, "templated": synthetic}


def _judge_chunk(args: tuple[int, int, str]) -> int:
    n, seed, texts = args
    return judge(GENERATORS[texts](n, seed))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--dialogs", type=int, default=100_000)
    ap.add_argument("--workers", type=int, default=2, help="0: skip the multi-process run")
    ap.add_argument(
        "--texts",
        choices=sorted(GENERATORS),
        default="varied",
        help="varied (the default since session 7): sentences from frames and things, of which about "
        "60 %% repeat an earlier message at 30,000 dialogs; distinct: the same with every chat message "
        "unique (no per-text cache hit, the live chat's case); templated: the few sentences of sessions "
        "1-6 (caches hit far more often than on real data).",
    )
    ap.add_argument(
        "--gc-freeze",
        action="store_true",
        help="gc.freeze() after the warm-up, as a QC worker does after its own (server/qc/worker.py).",
    )
    args = ap.parse_args()
    load_before = os.getloadavg()[0]
    sample = GENERATORS[args.texts](min(args.dialogs, 20_000))
    distinct = len({t.text for rec in sample for t in rec.turns})
    t = time.perf_counter()
    baseline(sample)
    base_rate = len(sample) / (time.perf_counter() - t)
    judge(sample[:200])  # warm-up: rule models, TextBlob lexicon
    if args.gc_freeze:
        gc.collect()
        gc.freeze()  # what a QC worker does after its warm-up (server/qc/worker.py)
    t = time.perf_counter()
    cpu = time.process_time()
    judge(sample)
    one_rate = len(sample) / (time.perf_counter() - t)
    # on a shared machine the wall-clock rate moves with other jobs; this process's CPU time does not
    one_cpu_rate = len(sample) / (time.process_time() - cpu)
    chunk = 2_000
    jobs = [(min(chunk, args.dialogs - i), i, args.texts) for i in range(0, args.dialogs, chunk)]
    t = time.perf_counter()
    done = len(sample)
    if args.workers:
        with Pool(args.workers) as pool:
            done = sum(pool.map(_judge_chunk, jobs))
    many_seconds = time.perf_counter() - t
    result = {
        "dialogs": done,
        "texts": args.texts,
        "distinct_messages_in_sample": f"{distinct} of {20 * len(sample)}",
        "workers": args.workers,
        "one_process_dialogs_per_s": round(one_rate),
        "one_process_dialogs_per_cpu_s": round(one_cpu_rate),
        "workers_dialogs_per_s": round(done / many_seconds) if args.workers else None,
        "workers_wall_s_incl_generation": round(many_seconds, 1) if args.workers else None,
        "baseline_split_only_dialogs_per_s": round(base_rate),
        "load_average_before_after": [round(load_before, 1), round(os.getloadavg()[0], 1)],
        "cpus": os.cpu_count(),
        # AVD_COMPILED_RULES=1 with a build of the current sources (``avd rules compile``)
        "compiled_rules": sys.modules["server.rules.questions"].__file__.endswith(".so"),
    }
    print(f"{'path':<40} {'dialogs/s':>10}")
    print(f"{'baseline (lower + split only)':<40} {result['baseline_split_only_dialogs_per_s']:>10}")
    print(f"{'QC judge, 1 process':<40} {result['one_process_dialogs_per_s']:>10}")
    print(f"{'QC judge, 1 process, per CPU second':<40} {result['one_process_dialogs_per_cpu_s']:>10}")
    if args.workers:
        print(f"{f'QC judge, {args.workers} processes':<40} {result['workers_dialogs_per_s']:>10}")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
