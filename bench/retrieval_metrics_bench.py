"""Retrieval metrics at scale: 1,000,000 rounds x 100 candidates (target < 5 s).

    python bench/retrieval_metrics_bench.py [--rounds 1000000] [--chunk 50000] [--naive-rows 20000]

Scores are generated in chunks (seeded, float32) so memory stays bounded; only the metric
work is timed: ranks with the pessimistic tie rule (``retrieval_ranks``) per chunk, then the
overall and per-round report (``retrieval_report``). The same-run baseline is the naive
per-row Python way (sort each row's candidate indices by score, find the truth's position,
ties counted pessimistically), timed on a subsample and extrapolated linearly. Both give the
same ranks on the subsample (checked). Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

from server.evaluation.metrics import retrieval_ranks, retrieval_report  # noqa: E402


def naive_ranks(scores: np.ndarray, gt: np.ndarray) -> list[int]:
    """One Python sort per round, the way a first implementation would do it."""
    out = []
    for row, truth in zip(scores.tolist(), gt.tolist(), strict=True):
        order = sorted(range(len(row)), key=lambda j: (-row[j], j != truth))
        position = order.index(truth)
        ties_below = sum(1 for j in order[position + 1 :] if row[j] == row[truth])
        out.append(position + 1 + ties_below)  # pessimistic: tied candidates count as above
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1_000_000)
    parser.add_argument("--candidates", type=int, default=100)
    parser.add_argument("--chunk", type=int, default=50_000)
    parser.add_argument("--naive-rows", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    rng = np.random.default_rng(args.seed)
    ranks = np.empty(args.rounds, dtype=np.int64)
    rounds = (np.arange(args.rounds) % 10) + 1
    metric_wall = metric_cpu = gen_wall = 0.0
    first_chunk = None
    for start in range(0, args.rounds, args.chunk):
        size = min(args.chunk, args.rounds - start)
        t = time.perf_counter()
        scores = rng.random((size, args.candidates), dtype=np.float32)
        scores[:, :3] = np.round(scores[:, :3], 2)  # a few coarse scores so ties actually occur
        gt = rng.integers(0, args.candidates, size)
        gen_wall += time.perf_counter() - t
        if first_chunk is None:
            first_chunk = (scores[: args.naive_rows].copy(), gt[: args.naive_rows].copy())
        w, c = time.perf_counter(), time.process_time()
        ranks[start : start + size] = retrieval_ranks(scores, gt)
        metric_wall += time.perf_counter() - w
        metric_cpu += time.process_time() - c
    w, c = time.perf_counter(), time.process_time()
    report = retrieval_report(ranks, rounds, n_candidates=args.candidates)
    report_wall, report_cpu = time.perf_counter() - w, time.process_time() - c

    sample_scores, sample_gt = first_chunk
    w = time.perf_counter()
    naive = naive_ranks(sample_scores, sample_gt)
    naive_wall = time.perf_counter() - w
    assert naive == ranks[: len(naive)].tolist(), "naive and vectorised ranks differ"
    naive_extrapolated = naive_wall * args.rounds / len(naive)

    total = metric_wall + report_wall
    print(
        json.dumps(
            {
                "rounds": args.rounds,
                "candidates": args.candidates,
                "chunk": args.chunk,
                "vectorised": {
                    "ranks_wall_s": round(metric_wall, 3),
                    "ranks_cpu_s": round(metric_cpu, 3),
                    "report_wall_s": round(report_wall, 3),
                    "report_cpu_s": round(report_cpu, 3),
                    "total_wall_s": round(total, 3),
                    "target_s": 5.0,
                    "meets_target": total < 5.0,
                },
                "naive_python": {
                    "rows_timed": len(naive),
                    "wall_s": round(naive_wall, 3),
                    "extrapolated_wall_s": round(naive_extrapolated, 1),
                },
                "speedup": round(naive_extrapolated / total, 1),
                "score_generation_wall_s_untimed": round(gen_wall, 3),
                "overall": report["overall"],
                "machine": {
                    "python": platform.python_version(),
                    "numpy": np.__version__,
                    "cpus": os.cpu_count(),
                    "load_avg_1m": round(os.getloadavg()[0], 2),
                },
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
