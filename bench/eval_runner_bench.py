"""Peak memory of a streamed evaluation run: retrieval with the random model on a large export.

    python bench/eval_runner_bench.py [--dialogs 100000] [--workdir DIR] [--keep]

Writes a synthetic export of ``--dialogs`` dialogs (10 answered rounds each, so 100,000
dialogs = 1,000,000 retrieval rounds over the three splits; ``write_large_export``), then
runs ``python -m server.evaluation.runner`` on ``split=all`` in a child process, the way every
backend starts it, and reads the child's peak RSS from the kernel (``wait4``). The floor is
a child that only imports what the runner imports, picks the device and loads the export:
what any run of that export needs before the first sample. Prints one JSON object.
The run writes ``samples.jsonl`` (~8.5 KB a round) and the output cache (~4 KB a round)
under the work directory, which is removed afterwards unless ``--keep``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

FLOOR = """
import sys
from server.evaluation import runner, stream
from server.evaluation.data import ExportData
from server.evaluation.models import pick_device
from server.evaluation.tasks.retrieval import RetrievalTask
pick_device(None)
ExportData.load(sys.argv[1])
"""


def child(argv: list[str]) -> tuple[float, int]:
    """Wall seconds and peak RSS (MB) of one child process."""
    t = time.perf_counter()
    proc = subprocess.Popen(argv, cwd=REPO_ROOT)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise SystemExit(f"{argv[:3]} failed with {proc.returncode}")
    return time.perf_counter() - t, usage.ru_maxrss // 1024  # kB on Linux


def main() -> None:
    from server.evaluation.synthetic import write_large_export

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dialogs", type=int, default=100_000)
    parser.add_argument("--workdir", type=Path, default=None)
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args()

    work = args.workdir or Path(tempfile.mkdtemp(prefix="avd-eval-bench-"))
    export = work / "export"
    try:
        t = time.perf_counter()
        if not (export / "dialogs.jsonl").exists():
            write_large_export(export, args.dialogs, seed=0)
        write_s = time.perf_counter() - t
        floor_s, floor_mb = child([sys.executable, "-c", FLOOR, str(export)])
        out = work / "run"
        shutil.rmtree(out, ignore_errors=True)
        out.mkdir(parents=True)
        spec = {
            "run_id": "bench",
            "task": "retrieval",
            "model": "random:1",
            "data": str(export),
            "split": "all",
            "out": str(out),
            "progress": False,
        }
        (out / "spec.json").write_text(json.dumps(spec))
        run_s, run_mb = child([sys.executable, "-m", "server.evaluation.runner", str(out / "spec.json")])
        results = json.loads((out / "results.json").read_text())
        print(
            json.dumps(
                {
                    "dialogs": args.dialogs,
                    "rounds": results["n_samples"],
                    "export_write_s": round(write_s, 1),
                    "retrieval_files_mb": round(
                        sum(p.stat().st_size for p in (export / "retrieval").iterdir()) / 2**20
                    ),
                    "floor_peak_rss_mb": floor_mb,
                    "floor_wall_s": round(floor_s, 1),
                    "run_peak_rss_mb": run_mb,
                    "run_wall_s": round(run_s, 1),
                    "timings": results["timings"],
                    "samples_jsonl_mb": round((out / "samples.jsonl").stat().st_size / 2**20),
                    "cache_mb": round((out / "cache" / "outputs.sqlite").stat().st_size / 2**20),
                    "overall": results["metrics"]["overall"],
                    "machine": {"cpus": os.cpu_count(), "python": platform.python_version()},
                },
                indent=1,
            )
        )
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
