"""Export benchmark: N synthetic dialogs in a SQLite database -> ``avd export``.

    python bench/export_bench.py [--dialogs 100000] [--keep DIR]

Builds a fresh SQLite database in a temp dir (schema by Alembic, rows bulk-inserted with
the stdlib driver in the formats SQLAlchemy writes), then runs, each in its own child
process so that peak RSS (``ru_maxrss``) belongs to that job alone:

- ``export``: the real export (dialogs.jsonl, splits, retrieval candidates, datasheet,
  images.jsonl manifest, checksums) through ``server.export.writer.export_dataset``;
- ``baseline``: the same number of records built as plain dicts with no database and
  written with ``json.dumps`` in a loop: what serialising alone costs on this machine.

Prints one JSON object with wall times, peak RSS and output sizes. Targets for 100,000
dialogs: export < 60 s and peak RSS < 300 MB.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

from server.dialog.protocol import EMOTIONS  # noqa: E402

WORDS = {
    "adj": "pale dark bright soft rough quiet tall narrow broad faded golden misty crowded empty".split(),
    "noun": "sky river house woman horse tree boat church field window bridge mountain dog table".split(),
    "verb": "stands lies leans waits rises falls glows fades drifts rests".split(),
    "place": "left corner,centre,background,foreground,right edge,upper half,lower third".split(","),
    "colour": "blue,ochre,crimson,grey,green,violet,amber,white".split(","),
}
T0 = datetime(2024, 3, 1, tzinfo=UTC)


def sentence(rng: random.Random, question: bool) -> str:
    w = {k: rng.choice(v) for k, v in WORDS.items()}
    if question:
        return f"Is there a {w['adj']} {w['noun']} in the {w['place']}, and what colour is it?"
    n = rng.randint(2, 9)
    colour = w["colour"]
    return f"A {w['adj']} {w['noun']} {w['verb']} in the {w['place']}, painted in {colour} with {n} strokes."


def _ts(dt: datetime) -> str:
    """The text SQLAlchemy stores for a DateTime on SQLite."""
    return dt.strftime("%Y-%m-%d %H:%M:%S.%f")


def synthetic_dialog(i: int, rng: random.Random, stimuli: int, workers: int) -> dict:
    """One dialog's rows as plain values (shared by the database fill and the baseline)."""
    start = T0 + timedelta(seconds=37 * i)
    complete = i % 10 != 0
    rounds = 10 if complete else rng.randint(1, 9)
    turns = []
    at = start
    for r in range(1, rounds + 1):
        for role in ("questioner", "answerer"):
            at += timedelta(milliseconds=rng.randint(2000, 60000))
            text = sentence(rng, role == "questioner")
            turns.append((2 * r - (role == "questioner"), r, role, text, at, rng.randint(500, 59000)))
    forms = []
    if complete:
        for role, phase in (
            ("questioner", "before_reveal"),
            ("questioner", "after_reveal"),
            ("answerer", "answerer"),
        ):
            at += timedelta(seconds=rng.randint(20, 200))
            explanation = " ".join(sentence(rng, False) for _ in range(2))
            forms.append((role, phase, rng.choice(EMOTIONS), explanation, at, rng.randint(5000, 200000)))
    return {
        "id": f"d{i:07d}",
        "stimulus": f"s{i % stimuli:06d}",
        "questioner": f"wk{rng.randrange(workers):05d}",
        "answerer": f"wk{rng.randrange(workers):05d}",
        "status": "complete" if complete else rng.choice(["abandoned", "timed_out"]),
        "rounds_done": rounds if complete else rounds - 1,
        "positive_first": bool(i % 2),
        "started_at": start,
        "ended_at": at,
        "turns": turns,
        "forms": forms,
    }


def fill_database(path: Path, dialogs: int, study: str, seed: int = 1) -> None:
    from server.db.migrate import upgrade

    upgrade(f"sqlite+aiosqlite:///{path}")
    rng = random.Random(seed)
    stimuli, workers = max(1, dialogs // 5), max(2, dialogs // 20)
    db = sqlite3.connect(path)
    db.execute("PRAGMA synchronous=OFF")
    db.executemany(
        "INSERT INTO stimulus (id, study, image_key, image_sha256, width, height, title, genre, style,"
        " source, positive_emotion, positive_text, negative_emotion, negative_text, created_at)"
        " VALUES (?, ?, ?, ?, 600, 450, ?, ?, NULL, 'wikiart', 'awe', ?, 'sadness', ?, ?)",
        (
            (
                f"s{k:06d}",
                study,
                f"key{k:06d}.jpg",
                f"{k:064x}",
                f"Painting {k}",
                ["landscape", "portrait", "abstract", "still life"][k % 4],
                "The light over the hills feels vast and calm.",
                "The lonely figure makes the whole scene feel heavy.",
                _ts(T0),
            )
            for k in range(stimuli)
        ),
    )
    db.executemany(
        "INSERT INTO worker (id, provider, platform_worker_id, blocked, created_at)"
        " VALUES (?, 'mturk', ?, 0, ?)",
        ((f"wk{k:05d}", f"A{k:012d}", _ts(T0)) for k in range(workers)),
    )
    settings = json.dumps({"rounds": 10, "turn_seconds": 180.0})
    batch = 5000
    for start in range(0, dialogs, batch):
        rows = [synthetic_dialog(i, rng, stimuli, workers) for i in range(start, min(dialogs, start + batch))]
        db.executemany(
            "INSERT INTO dialog (id, study, stimulus_id, questioner_id, answerer_id, status, end_reason,"
            " ended_by, rounds_done, positive_first, settings, started_at, ended_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                (
                    d["id"],
                    study,
                    d["stimulus"],
                    d["questioner"],
                    d["answerer"],
                    d["status"],
                    None if d["status"] == "complete" else "left",
                    None if d["status"] == "complete" else "questioner",
                    d["rounds_done"],
                    int(d["positive_first"]),
                    settings,
                    _ts(d["started_at"]),
                    _ts(d["ended_at"]),
                )
                for d in rows
            ),
        )
        db.executemany(
            "INSERT INTO turn (dialog_id, seq, round, role, text, client_id, sent_at, latency_ms, flags)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, '[]')",
            (
                (d["id"], s, r, role, text, f"c{s}", _ts(at), lat)
                for d in rows
                for s, r, role, text, at, lat in d["turns"]
            ),
        )
        db.executemany(
            "INSERT INTO response (dialog_id, role, phase, emotion, explanation, client_id, submitted_at,"
            " latency_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                (d["id"], role, ph, emo, ex, f"f{ph}", _ts(at), lat)
                for d in rows
                for role, ph, emo, ex, at, lat in d["forms"]
            ),
        )
        db.commit()
    db.close()


# ---------------------------------------------------------------- the measured jobs (child processes)


def job_export(db: Path, out: Path, study: str) -> dict:
    import asyncio

    from server.export.writer import ExportOptions, export_dataset
    from server.settings import Settings

    settings = Settings(
        study=study,
        database_url=f"sqlite+aiosqlite:///{db}",
        data_dir=db.parent / "data",
        secret_key="bench-secret",
        redis_url="redis://unused",
    )
    summary = asyncio.run(
        export_dataset(settings, out, ExportOptions(status="all", seed=7, images="manifest"))
    )
    return {"dialogs": summary.dialogs, "splits": summary.splits}


def job_baseline(dialogs: int, out: Path) -> dict:
    """The same records' worth of values, serialised with json.dumps, no database."""
    rng = random.Random(1)
    stimuli, workers = max(1, dialogs // 5), max(2, dialogs // 20)
    out.mkdir(parents=True, exist_ok=True)
    with (out / "baseline.jsonl").open("w") as fh:
        for i in range(dialogs):
            d = synthetic_dialog(i, rng, stimuli, workers)
            d["turns"] = [[s, r, role, text, at.isoformat(), lat] for s, r, role, text, at, lat in d["turns"]]
            d["forms"] = [
                [role, ph, emo, ex, at.isoformat(), lat] for role, ph, emo, ex, at, lat in d["forms"]
            ]
            d["started_at"], d["ended_at"] = d["started_at"].isoformat(), d["ended_at"].isoformat()
            fh.write(json.dumps(d, sort_keys=True) + "\n")
    return {"dialogs": dialogs}


def peak_rss_mb() -> float:
    """This process's own high-water RSS (VmHWM). Not ru_maxrss: on Linux that keeps the
    parent's figure across fork + exec, which would charge the benchmark's own memory."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return round(int(line.split()[1]) / 1024, 1)
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)  # pragma: no cover


def run_child(args: list[str]) -> dict:
    """Run one job in a child process (a fresh interpreter: imports count); wall time and its result."""
    started = time.perf_counter()
    proc = subprocess.run([sys.executable, __file__, *args], capture_output=True, text=True, cwd=REPO_ROOT)
    wall = time.perf_counter() - started
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr)
    result = json.loads(proc.stdout.strip().splitlines()[-1])  # includes the child's own peak RSS
    result["wall_s"] = round(wall, 2)
    return result


def folder_mb(path: Path) -> float:
    return round(sum(p.stat().st_size for p in path.rglob("*") if p.is_file()) / 1e6, 1)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--dialogs", type=int, default=100_000)
    parser.add_argument("--keep", type=Path, help="Keep the database and outputs here.")
    parser.add_argument("--reuse-db", action="store_true", help="With --keep: reuse the database there.")
    parser.add_argument("--job", choices=["export", "baseline"], help=argparse.SUPPRESS)
    parser.add_argument("--db", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--study", default="bench", help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.job:  # inside a child: do the job, print its result and own peak RSS
        result = (
            job_export(args.db, args.out, args.study)
            if args.job == "export"
            else job_baseline(args.dialogs, args.out)
        )
        usage = resource.getrusage(resource.RUSAGE_SELF)
        result["peak_rss_mb"] = peak_rss_mb()
        result["cpu_s"] = round(usage.ru_utime + usage.ru_stime, 1)
        print(json.dumps(result))
        return

    load_before = os.getloadavg()
    root = args.keep or Path(tempfile.mkdtemp(prefix="avd-export-bench-"))
    root.mkdir(parents=True, exist_ok=True)
    db = root / "bench.db"
    started = time.perf_counter()
    if not (args.reuse_db and db.exists()):
        db.unlink(missing_ok=True)
        fill_database(db, args.dialogs, args.study)
    fill_s = time.perf_counter() - started
    shutil.rmtree(root / "baseline", ignore_errors=True)
    shutil.rmtree(root / "export", ignore_errors=True)
    baseline = run_child(
        ["--job", "baseline", "--dialogs", str(args.dialogs), "--out", str(root / "baseline")]
    )
    baseline["output_mb"] = folder_mb(root / "baseline")
    export = run_child(
        ["--job", "export", "--db", str(db), "--out", str(root / "export"), "--study", args.study]
    )
    export["output_mb"] = folder_mb(root / "export")
    report = {
        "dialogs": args.dialogs,
        "machine": {
            "cpus": os.cpu_count(),
            "loadavg_before": load_before,
            "loadavg_after": os.getloadavg(),
            "python": sys.version.split()[0],
        },
        "fill_database_s": round(fill_s, 1),
        "database_mb": round(db.stat().st_size / 1e6, 1),
        "baseline_json_dumps": baseline,
        "export": export,
        "targets": {"wall_s": 60, "peak_rss_mb": 300},
        "met": export["wall_s"] < 60 and export["peak_rss_mb"] < 300,
    }
    print(json.dumps(report, indent=2))
    if not args.keep:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
