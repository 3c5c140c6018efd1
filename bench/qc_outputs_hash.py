"""One hash of everything QC's judging step outputs, to show that a speed-up changed no result.

Judges the synthetic dialogs of ``qc_bench.py`` plus dialogs assembled from the labelled and
training messages of ``tasks/rules-eval`` (varied texts, so that many rules hit), under a few rule
configurations, and prints a SHA-256 of the verdicts, reasons, summaries, rule hits and scores.
Run it in the old and the new tree and compare the hashes.

    PYTHONPATH=/path/to/tree python bench/qc_outputs_hash.py --dialogs 3000
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.qc_bench import record, synthetic  # noqa: E402
from server.qc.flags import flag_turns  # noqa: E402
from server.qc.inclusion import inclusion_problems  # noqa: E402
from server.qc.record import DialogRecord, TurnRecord  # noqa: E402
from server.qc.scores import explanation_scores  # noqa: E402
from server.qc.verdict import decide  # noqa: E402

# Training and dev sets only: the held-out batches are never read here.
SOURCES = ("labeled_messages.jsonl", "train_messages.jsonl", "train_more_a.jsonl", "train_more_b.jsonl")
CONFIGS: list[dict[str, Any]] = [
    {},
    {"classifier": False},
    {"off_topic": {"severity": "soft"}, "offensive": {"enabled": False}},
]


def _texts() -> dict[str, list[str]]:
    by_role: dict[str, list[str]] = {"questioner": [], "answerer": []}
    for name in SOURCES:
        path = ROOT / "tasks" / "rules-eval" / name
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                by_role.setdefault(row["role"], []).append(row["text"])
    return by_role


def mixed(n: int, seed: int = 1) -> list[DialogRecord]:
    """Dialogs of real-looking messages: rounds, statuses and explanations vary."""
    rng = random.Random(seed)
    texts = _texts()
    records = []
    for i in range(n):
        rounds = rng.choice((10, 10, 10, 8))
        turns = []
        for r in range(1, rounds + 1):
            turns.append(TurnRecord(2 * r - 1, r, "questioner", rng.choice(texts["questioner"]), 9000))
            turns.append(TurnRecord(2 * r, r, "answerer", rng.choice(texts["answerer"]), 9000))
        phases = [p for p in ("before_reveal", "after_reveal", "answerer") if rng.random() > 0.05]
        pool = texts["answerer"] + texts["questioner"]
        responses = {p: ("awe", " ".join(rng.choice(pool) for _ in range(rng.randint(1, 3)))) for p in phases}
        status = rng.choice(("complete",) * 9 + ("abandoned",))
        records.append(record(f"m{i}", turns, responses, status))
    return records


def outputs(rec: DialogRecord, rules: dict[str, Any]) -> dict[str, Any]:
    reject, review = inclusion_problems(rec, 10, 1)
    flags = flag_turns(rec, rules)
    decision = decide(reject, review, flags, 1, 2)
    return {
        "id": rec.id,
        "verdict": decision.verdict,
        "reasons": decision.reasons,
        "summary": decision.summary,
        "flags": flags,
        "scores": explanation_scores(rec),
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--dialogs", type=int, default=3000, help="synthetic dialogs; as many mixed ones")
    args = ap.parse_args()
    import server.qc.flags

    print("judging with", Path(server.qc.flags.__file__).resolve().parent.parent.parent)
    records = synthetic(args.dialogs) + mixed(args.dialogs)
    digest = hashlib.sha256()
    verdicts: dict[str, int] = {}
    for rules in CONFIGS:
        for rec in records:
            out = outputs(rec, rules)
            verdicts[out["verdict"]] = verdicts.get(out["verdict"], 0) + 1
            digest.update(json.dumps(out, sort_keys=True).encode())
    print(json.dumps(verdicts, sort_keys=True), digest.hexdigest())


if __name__ == "__main__":
    main()
