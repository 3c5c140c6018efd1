"""Pairing latency with 1,000 workers in the lobby, on one and on two server processes.

All workers first open their socket and say hello (so they are present); then every one
of them sends ``join_lobby`` -- all at once by default (``--join-rate 0``: the lobby goes
from empty to 1,000 waiting in a burst), or at a steady arrival rate. Figures, measured in
the generator process (never inside a server):

- join -> matched for every worker (the first of a pair also waits for the second to arrive);
- pairing delay: join -> matched of the *later* of the two workers of each match, i.e. how
  long the server took once a partner was there;
- matched -> state: the join handshake (both ``ready``) plus creating the dialog;
- the largest ``waiting`` count the lobby reported, and the time to pair everyone.

With two processes, workers alternate between them, so about half of the pairs span
processes (frames go through Redis pub/sub). The bare relay's in-memory FIFO lobby is run
in the same script with the same generator as the baseline.

    python bench/pairing_bench.py                     # 1,000 workers, 1 and 2 processes, both backends
    python bench/pairing_bench.py --workers 200 --backends embedded --servers 1
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import harness as h
import httpx
import websockets

COLUMNS = [
    ("server", "server"),
    ("backend", "backend"),
    ("processes", "processes"),
    ("workers", "workers"),
    ("arrivals", "arrivals"),
    ("matched", "matched"),
    ("max_waiting", "max waiting"),
    ("join_p50", "join->matched p50 ms"),
    ("join_p99", "join->matched p99 ms"),
    ("delay_p50", "pairing delay p50 ms"),
    ("delay_p99", "pairing delay p99 ms"),
    ("start_p99", "matched->state p99 ms"),
    ("all_paired_s", "all paired after s"),
    ("errors", "errors"),
    ("cpu_server", "server CPU %"),
    ("cpu_gen", "generator CPU %"),
    ("cpu_machine", "machine CPU % (2 cores)"),
]


class Waiter:
    """One worker: hello, then join when told; notes when it was matched and when the dialog began."""

    def __init__(self, name: str, url: str, baseline: bool) -> None:
        self.name, self.url, self.baseline = name, url, baseline
        self.token = ""
        self.ws = None
        self.welcomed = asyncio.Event()
        self.joined = self.matched = self.started = None
        self.match_id: str | None = None
        self.max_waiting = 0
        self.errors: list[str] = []
        self.task: asyncio.Task | None = None

    async def connect(self, sem: asyncio.Semaphore) -> None:
        async with sem:
            self.ws = await websockets.connect(
                self.url.replace("http://", "ws://") + "/ws", open_timeout=120, ping_interval=None
            )
            self.task = asyncio.create_task(self.read())
            await self.ws.send(json.dumps({"type": "hello", "v": 1, "token": self.token, "tab": self.name}))
            async with asyncio.timeout(60):  # not wait_for: it can lose a cancellation on 3.11
                await self.welcomed.wait()

    async def join(self) -> None:
        self.joined = time.monotonic()
        await self.ws.send('{"type": "join_lobby"}')

    async def read(self) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            async for raw in self.ws:
                f = json.loads(raw)
                kind = f["type"]
                if kind == "welcome":
                    self.welcomed.set()
                elif kind == "lobby":
                    self.max_waiting = max(self.max_waiting, f["waiting"])
                elif kind == "matched" and self.matched is None:
                    self.matched = time.monotonic()
                    self.match_id = f["match_id"]
                    if not self.baseline:
                        await self.ws.send(json.dumps({"type": "ready", "match_id": f["match_id"]}))
                elif kind == "state" and self.started is None:
                    self.started = time.monotonic()
                elif kind in ("error", "requeued", "lobby_timeout"):
                    self.errors.append(f.get("code", kind))


async def sessions(waiters: list[Waiter]) -> None:
    sem = asyncio.Semaphore(16)
    async with httpx.AsyncClient(timeout=120) as http:

        async def one(w: Waiter) -> None:
            async with sem:
                reply = await http.post(w.url + "/api/sessions", json={"worker": w.name, "consent": True})
                reply.raise_for_status()
                w.token = reply.json()["token"]

        await asyncio.gather(*(one(w) for w in waiters))


def spy(pids: list[int], folder: Path | None, label: str) -> list[subprocess.Popen]:
    """With --profile DIR: sample each server with py-spy (a dev tool, not a dependency) on the clock."""
    if folder is None:
        return []
    folder.mkdir(parents=True, exist_ok=True)
    procs = []
    for pid in pids:
        # blocking sampling: slower, but non-blocking samples of asyncio code land on the wrong frames
        cmd = ["py-spy", "record", "--pid", str(pid), "--rate", "250", "--format", "raw"]
        cmd += ["--output", str(folder / f"{label}-{pid}.txt")]
        procs.append(subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    return procs


def stop_spies(procs: list[subprocess.Popen]) -> None:
    for proc in procs:
        proc.send_signal(signal.SIGINT)  # py-spy writes its output on Ctrl-C
    for proc in procs:
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(30)


async def scenario(
    urls: list[str],
    workers: int,
    rate: float,
    baseline: bool,
    meter: h.CpuMeter,
    profile: tuple[list[int], Path, str] | None = None,
) -> dict:
    prefix = "p" + uuid.uuid4().hex[:6]
    waiters = [Waiter(f"{prefix}-{i}", urls[i % len(urls)], baseline) for i in range(workers)]
    if not baseline:
        await sessions(waiters)
    sem = asyncio.Semaphore(50)
    await asyncio.gather(*(w.connect(sem) for w in waiters))
    await asyncio.sleep(1.0)  # let connection set-up settle before the clock starts
    spies = spy(*profile) if profile else []
    if spies:
        await asyncio.sleep(1.0)  # py-spy attaches
    meter.start()
    cpu0 = time.process_time()
    t_start = time.monotonic()
    if rate <= 0:
        await asyncio.gather(*(w.join() for w in waiters))
    else:
        for i, w in enumerate(waiters):
            await asyncio.sleep(max(0.0, t_start + i / rate - time.monotonic()))
            await w.join()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if all(w.matched for w in waiters) and (baseline or all(w.started for w in waiters)):
            break
        await asyncio.sleep(0.05)
    window = time.monotonic() - t_start
    cpu = meter.stop()
    stop_spies(spies)
    cpu["gen"] = round(100 * (time.process_time() - cpu0) / window, 1)
    await asyncio.gather(*(w.ws.close() for w in waiters if w.ws), return_exceptions=True)
    for w in waiters:
        if w.task:
            w.task.cancel()
    return figures(waiters, t_start, cpu)


def figures(waiters: list[Waiter], t_start: float, cpu: dict) -> dict:
    join_ms = [(w.matched - w.joined) * 1000 for w in waiters if w.matched and w.joined]
    by_match: dict[str, list[Waiter]] = {}
    for w in waiters:
        if w.match_id:
            by_match.setdefault(w.match_id, []).append(w)
    delay_ms = []
    for pair in by_match.values():
        later = max(pair, key=lambda w: w.joined or 0)
        delay_ms.append((later.matched - later.joined) * 1000)
    start_ms = [(w.started - w.matched) * 1000 for w in waiters if w.started and w.matched]
    last = max((w.matched for w in waiters if w.matched), default=t_start)
    errors: dict[str, int] = {}
    for w in waiters:
        for e in w.errors:
            errors[e] = errors.get(e, 0) + 1
    return {
        "matched": sum(1 for w in waiters if w.matched),
        "max_waiting": max(w.max_waiting for w in waiters),
        "join_to_matched_ms": h.dist(join_ms),
        "pairing_delay_ms": h.dist(delay_ms),
        "matched_to_state_ms": h.dist(start_ms),
        "all_paired_s": round(last - t_start, 3),
        "errors": errors,
        "cpu": cpu,
    }


def row(server: str, backend: str, procs: int, workers: int, rate: float, f: dict) -> dict:
    return {
        "server": server,
        "backend": backend,
        "processes": procs,
        "workers": workers,
        "arrivals": "burst" if rate <= 0 else f"{rate:g}/s",
        "matched": f["matched"],
        "max_waiting": f["max_waiting"],
        "join_p50": f["join_to_matched_ms"]["p50"],
        "join_p99": f["join_to_matched_ms"]["p99"],
        "delay_p50": f["pairing_delay_ms"]["p50"],
        "delay_p99": f["pairing_delay_ms"]["p99"],
        "start_p99": f["matched_to_state_ms"]["p99"],
        "all_paired_s": f["all_paired_s"],
        "errors": sum(f["errors"].values()),
        "cpu_server": f["cpu"].get("server"),
        "cpu_gen": f["cpu"].get("gen"),
        "cpu_redis": f["cpu"].get("redis"),
        "cpu_pg": f["cpu"].get("postgres"),
        "cpu_machine": f["cpu"].get("machine_all_cores"),
        "detail": f,
        "loadavg_after": h.loadavg(),
    }


def compare(rows: list[dict]) -> list[dict]:
    """Each of our rows next to the bare relay's row for the same arrivals (same run)."""
    base = {r["arrivals"]: r for r in rows if r["server"].startswith("bare")}
    out = []
    for r in rows:
        b = base.get(r["arrivals"])
        if r["server"].startswith("bare") or b is None:
            continue
        out.append(
            {
                "backend": r["backend"],
                "processes": r["processes"],
                "arrivals": r["arrivals"],
                "pairing_delay_p99_ms": r["delay_p99"],
                "baseline_pairing_delay_p99_ms": b["delay_p99"],
                "join_to_matched_p99_ms": r["join_p99"],
                "baseline_join_to_matched_p99_ms": b["join_p99"],
                "all_paired_s": r["all_paired_s"],
                "baseline_all_paired_s": b["all_paired_s"],
            }
        )
    return out


def run(coro):
    try:
        import uvloop

        return uvloop.run(coro)
    except ImportError:
        return asyncio.run(coro)


def main() -> None:
    parser = argparse.ArgumentParser(description="Pairing latency with many workers waiting.")
    parser.add_argument("--workers", type=int, default=1000)
    parser.add_argument("--servers", type=int, nargs="+", default=[1, 2], help="Server processes.")
    parser.add_argument("--backends", nargs="+", default=["real", "embedded"], choices=["real", "embedded"])
    parser.add_argument("--join-rates", type=float, nargs="+", default=[0.0, 200.0], help="0 = burst.")
    parser.add_argument("--stimuli", type=int, default=20)
    parser.add_argument("--no-baseline", action="store_true")
    parser.add_argument("--json-out")
    parser.add_argument("--profile", type=Path, help="py-spy our servers into this folder (raw stacks).")
    args = parser.parse_args()

    h.raise_fd_limit()
    facts = h.machine_facts()
    load_before = h.loadavg()
    settings = {
        "dialogs_per_stimulus": 100_000,
        "lobby_max_wait_seconds": 600,
        "handshake_seconds": 60,
    }
    rows = []
    for rate in args.join_rates:
        if not args.no_baseline:
            base = h.start_baseline(Path(tempfile.gettempdir()))
            try:
                meter = h.CpuMeter({"server": [base.pid]})
                f = run(scenario([base.url], args.workers, rate, True, meter))
            finally:
                base.stop()
            rows.append(row("bare relay (in-memory FIFO)", "-", 1, args.workers, rate, f))
            print(h.table(rows[-1:], COLUMNS), flush=True)
        for kind in args.backends:
            if kind == "real" and not h.real_services_reachable():
                print("PostgreSQL/Redis not reachable: skipping the real backend", file=sys.stderr)
                continue
            for procs in args.servers:
                backend = h.open_backend(kind)
                servers = []
                try:
                    h.import_stimuli(backend, args.stimuli, **settings)
                    servers = [h.start_server(backend, **settings) for _ in range(procs)]
                    groups = {"server": [s.pid for s in servers], "redis": backend.redis_pids}
                    if kind == "real":
                        groups["postgres"] = h.postgres_pids
                    label = f"{kind}-{procs}p-{'burst' if rate <= 0 else f'{rate:g}'}"
                    prof = ([s.pid for s in servers], args.profile, label) if args.profile else None
                    meter = h.CpuMeter(groups)
                    f = run(scenario([s.url for s in servers], args.workers, rate, False, meter, prof))
                finally:
                    for s in servers:
                        s.stop()
                    backend.close()
                rows.append(row("avd", backend.kind, procs, args.workers, rate, f))
                print(h.table(rows[-1:], COLUMNS), flush=True)
    report = {
        "benchmark": "pairing",
        "command": " ".join(["python", *sys.argv]),
        "machine": facts,
        "loadavg_before": load_before,
        "loadavg_after": h.loadavg(),
        "settings": settings,
        "rows": rows,
        "comparison": compare(rows),
    }
    print()
    print(h.table(rows, COLUMNS))
    print()
    print(json.dumps(report, indent=2))
    if args.json_out:
        with open(args.json_out, "w") as fh:
            json.dump(report, fh, indent=2)


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    main()
