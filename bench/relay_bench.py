"""Message relay latency and throughput: our server (one process) against the bare relay.

For each number of concurrent pairs, in the same script and with the same load generator
(bench/loadgen.py, in its own process(es), never inside a server):

- ``paced``: each worker replies ``--think`` seconds (x U(0.5, 1.5)) after the partner's
  message arrives, a stated, realistic offered load; figures: relay latency p50/p99 (sender's
  send -> partner's receipt), ack latency, delivered messages/s;
- ``saturation``: ``think = 0``, each side replies the instant the partner's message lands;
  figure: delivered messages/s (the most a closed loop of N pairs gets through).

Every message is checked: received exactly once by the partner, in the order sent.

    python bench/relay_bench.py                       # 50/200/500 pairs, real + embedded backends
    python bench/relay_bench.py --pairs 50 --backends embedded --measure 10   # quick look
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import multiprocessing as mp
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import harness as h
from loadgen import child_main, merge

COLUMNS = [
    ("server", "server"),
    ("backend", "backend"),
    ("pairs", "pairs"),
    ("load", "load"),
    ("offered_per_s", "sent msg/s"),
    ("delivered_per_s", "delivered msg/s"),
    ("relay_p50", "relay p50 ms"),
    ("relay_p99", "relay p99 ms"),
    ("relay_max", "relay max ms"),
    ("ack_p99", "ack p99 ms"),
    ("lost", "lost"),
    ("dup", "dup"),
    ("order", "out of order"),
    ("errors", "errors"),
    ("cpu_server", "server CPU %"),
    ("cpu_gen", "generator CPU %"),
    ("cpu_redis", "redis CPU %"),
    ("cpu_pg", "postgres CPU %"),
    ("cpu_machine", "machine CPU % (2 cores)"),
]


def run_load(server: h.Server, mode: str, pairs: int, think: float, args, extra_pids: dict) -> dict:
    """One measurement: spawn the generator process(es), wait for setup, run the window."""
    ctx = mp.get_context("spawn")
    procs, pipes = [], []
    prefix = "w" + uuid.uuid4().hex[:6]
    share = [
        pairs // args.gen_procs + (1 if i < pairs % args.gen_procs else 0) for i in range(args.gen_procs)
    ]
    offset = 0
    for i, n in enumerate(share):
        parent, child = ctx.Pipe()
        cfg = {
            "url": server.url,
            "mode": mode,
            "pairs": n,
            "think": think,
            "prefix": f"{prefix}g{i}",
            "pair_offset": offset,
        }
        offset += n
        proc = ctx.Process(target=child_main, args=(cfg, child), daemon=True)
        proc.start()
        procs.append(proc)
        pipes.append(parent)
    for pipe in pipes:
        if not pipe.poll(args.setup_timeout + 60):
            raise RuntimeError("generator did not get ready:\n" + server.log_tail())
        kind, _ = pipe.recv()
        assert kind == "ready"
    go_at = time.monotonic() + 0.5
    t0 = go_at + args.warmup
    t1 = t0 + args.measure
    groups = {"server": server.pids, "gen": [p.pid for p in procs], **extra_pids}
    meter = h.CpuMeter(groups)
    for pipe in pipes:
        pipe.send((go_at, t0, t1))
    time.sleep(max(0.0, t0 - time.monotonic()))
    meter.start()
    spy = profile(server, mode, pairs, think, args)
    time.sleep(max(0.0, t1 - time.monotonic()))
    cpu = meter.stop()
    if spy is not None:
        spy.wait(60)
    results = []
    for pipe in pipes:
        if not pipe.poll(120):
            raise RuntimeError("generator did not finish:\n" + server.log_tail())
        kind, result = pipe.recv()
        results.append(result)
    for proc in procs:
        proc.join(10)
    merged = merge(results)
    merged["cpu"] = cpu
    merged["t0"] = t0
    merged["t0_unix"] = round(time.time() - (time.monotonic() - t0), 3)
    return merged


def profile(server: h.Server, mode: str, pairs: int, think: float, args) -> subprocess.Popen | None:
    """With --profile DIR: sample our server with py-spy (a dev tool, not a dependency) in the window.
    Blocking sampling: it pauses the server for each sample (so throughput drops while profiling),
    but non-blocking samples of asyncio code attribute time to the wrong frames."""
    if not args.profile or mode != "avd":
        return None
    args.profile.mkdir(parents=True, exist_ok=True)
    out = args.profile / f"avd-{pairs}p-{'sat' if not think else 'paced'}-{server.pid}.txt"
    cmd = ["py-spy", "record", "--pid", str(server.pid), "--duration", str(int(args.measure))]
    cmd += ["--rate", "200", "--format", "raw", "--output", str(out)]
    return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def stalls_in_window(log: str, t0: float) -> list[str]:
    """The server's stall lines (server/stalls.py), their clock turned into seconds of the window."""
    out = []
    for line in log.splitlines():
        if "stall:" in line:
            head, _, at = line.partition(" at monotonic ")
            with contextlib.suppress(ValueError):
                head = f"{head} at {float(at) - t0:.2f} s"
            out.append(head)
    return out


def by_second(relay_ms: list[float], relay_at: list[float]) -> list[list[float]]:
    """[second of the window, slowest relay ms, messages] for each second in which a message was sent:
    a stall shows as one or two seconds far above the rest, a slow server as all seconds up."""
    worst: dict[int, list[float]] = {}
    for ms, at in zip(relay_ms, relay_at, strict=True):
        slot = worst.setdefault(int(at), [int(at), 0.0, 0])
        slot[1] = max(slot[1], round(ms, 1))
        slot[2] += 1
    return [worst[k] for k in sorted(worst)]


def summarise(kind: str, backend: str, pairs: int, think: float, measure: float, m: dict) -> dict:
    relay, ack = h.dist(m["relay_ms"]), h.dist(m["ack_ms"])
    check = m["check"]
    cpu = m["cpu"]
    seconds = by_second(m["relay_ms"], m["relay_at"])
    return {
        "server": kind,
        "backend": backend,
        "pairs": pairs,
        "load": f"reply after {think:g}s" if think else "saturation",
        "think_s": think,
        "offered_per_s": round(m["sent_in_window"] / measure, 1),
        "delivered_per_s": round(m["delivered_in_window"] / measure, 1),
        "relay_p50": relay["p50"],
        "relay_p99": relay["p99"],
        "relay_max": relay["max"],
        "relay_n": relay["n"],
        "server_stalls": m.get("server_stalls", []),
        "generator_stalls": [
            f"{kind}{gen if kind == 'gc' else ''} {ms:.0f} ms ({cpu:.0f} ms CPU) at {at - m['t0']:.2f} s"
            for kind, at, ms, cpu, gen in m["stalls"]
        ],
        "window_start_unix": m["t0_unix"],
        "relay_worst_seconds": sorted(seconds, key=lambda s: -s[1])[:5],
        "relay_max_by_second": seconds,
        "ack_p50": ack["p50"],
        "ack_p99": ack["p99"],
        "lost": check["lost"],
        "dup": check["duplicated"],
        "order": check["dialogs_out_of_order"],
        "check": check,
        "errors": sum(m["errors"].values()),
        "error_codes": m["errors"],
        "in_dialog": f"{m['in_dialog']}/{m['bots']}",
        "setup_s": m["setup_seconds"],
        "dialogs_started": m["dialogs_started"] // 2,
        "dialogs_done": m["dialogs_done"] // 2,
        "cpu_server": cpu.get("server"),
        "cpu_gen": cpu.get("gen"),
        "cpu_redis": cpu.get("redis"),
        "cpu_pg": cpu.get("postgres"),
        "cpu_machine": cpu.get("machine_all_cores"),
        "loadavg_after": h.loadavg(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description="Relay latency/throughput: ours vs a bare relay.")
    parser.add_argument("--pairs", type=int, nargs="+", default=[50, 200, 500])
    parser.add_argument("--think", type=float, default=5.0, help="Paced load: seconds before each reply.")
    parser.add_argument("--backends", nargs="+", default=["real", "embedded"], choices=["real", "embedded"])
    parser.add_argument(
        "--loads", nargs="+", default=["paced", "saturation"], choices=["paced", "saturation"]
    )
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--measure", type=float, default=30.0)
    parser.add_argument("--rounds", type=int, default=50, help="AVD_ROUNDS for our server (max 50).")
    parser.add_argument("--gen-procs", type=int, default=1, help="Load generator processes.")
    parser.add_argument("--setup-timeout", type=float, default=180.0)
    parser.add_argument("--stimuli", type=int, default=40)
    parser.add_argument(
        "--server-procs", type=int, nargs="+", default=[1], help="Server processes (avd serve --workers N)."
    )
    parser.add_argument("--no-baseline", action="store_true")
    parser.add_argument(
        "--framework-baseline",
        action="store_true",
        help="Also run the bare relay's logic on FastAPI + uvicorn (what the framework alone costs).",
    )
    parser.add_argument(
        "--rules-off",
        action="store_true",
        help="Run our server with every live rule disabled (what the rules cost; not how studies run).",
    )
    parser.add_argument("--profile", type=Path, help="py-spy our server into this folder (raw stacks).")
    parser.add_argument("--json-out", type=Path, help="Also write the JSON here.")
    parser.add_argument(
        "--server-setting",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="A setting of our server (AVD_NAME), e.g. stall_gc_ms=1 to log every collector pass.",
    )
    args = parser.parse_args()

    h.raise_fd_limit()
    facts = h.machine_facts()
    load_before = h.loadavg()
    backends = []
    for kind in args.backends:
        if kind == "real" and not h.real_services_reachable():
            print("PostgreSQL/Redis on 127.0.0.1 not reachable: skipping the real backend", file=sys.stderr)
            continue
        backends.append(kind)
    settings = {
        "rounds": args.rounds,
        "dialogs_per_stimulus": 100_000,
        "lobby_max_wait_seconds": 600,
        "handshake_seconds": 60,
    }
    for item in args.server_setting:
        name, _, value = item.partition("=")
        settings[name] = value
    if args.rules_off:
        settings["rules"] = json.dumps({"enabled": []})
    rows: list[dict] = []
    opened: dict[str, h.Backend] = {}
    try:
        for kind in backends:
            opened[kind] = h.open_backend(kind)
            h.import_stimuli(opened[kind], args.stimuli, **settings)
        for pairs in args.pairs:
            for load in args.loads:
                think = args.think if load == "paced" else 0.0
                baselines = [] if args.no_baseline else [("bare relay", h.start_baseline)]
                if args.framework_baseline:
                    baselines.append(("FastAPI relay", h.start_framework_relay))
                for name, start in baselines:
                    base = start(Path(tempfile.gettempdir()))
                    try:
                        m = run_load(base, "baseline", pairs, think, args, {})
                    finally:
                        base.stop()
                    rows.append(summarise(name, "-", pairs, think, args.measure, m))
                    print(h.table(rows[-1:], COLUMNS), flush=True)
                for (kind, backend), procs in itertools.product(opened.items(), args.server_procs):
                    server = h.start_server(backend, workers=procs, **settings)
                    extra = {"redis": backend.redis_pids}
                    if kind == "real":
                        extra["postgres"] = h.postgres_pids
                    try:
                        m = run_load(server, "avd", pairs, think, args, extra)
                    finally:
                        server.stop()
                    m["server_stalls"] = stalls_in_window(server.log_tail(10**6), m["t0"])
                    name = ("avd" if procs == 1 else f"avd x{procs} processes") + (
                        " (rules off)" if args.rules_off else ""
                    )
                    rows.append(summarise(name, backend.kind, pairs, think, args.measure, m))
                    print(h.table(rows[-1:], COLUMNS), flush=True)
    finally:
        for backend in opened.values():
            backend.close()
    report = {
        "benchmark": "relay",
        "command": " ".join(["python", *sys.argv]),
        "machine": facts,
        "loadavg_before": load_before,
        "loadavg_after": h.loadavg(),
        "settings": {**settings, "think_s": args.think, "warmup_s": args.warmup, "measure_s": args.measure},
        "gen_procs": args.gen_procs,
        "rows": rows,
        "comparison": compare(rows),
    }
    print()
    print(h.table(rows, COLUMNS))
    print()
    print(json.dumps(report, indent=2))
    if args.json_out:
        args.json_out.write_text(json.dumps(report, indent=2))


BASELINES = ("bare relay", "FastAPI relay")


def compare(rows: list[dict]) -> list[dict]:
    """Each of our rows next to the bare relay's row for the same pairs and load."""
    base = {(r["pairs"], r["load"]): r for r in rows if r["server"] == "bare relay"}
    framework = {(r["pairs"], r["load"]): r for r in rows if r["server"] == "FastAPI relay"}
    out = []
    for r in rows:
        b = base.get((r["pairs"], r["load"]))
        f = framework.get((r["pairs"], r["load"]))
        if r["server"] in BASELINES or b is None:
            continue
        out.append(
            {
                "backend": r["backend"],
                "pairs": r["pairs"],
                "load": r["load"],
                "throughput_vs_baseline": round(r["delivered_per_s"] / b["delivered_per_s"], 3)
                if b["delivered_per_s"]
                else None,
                "relay_p99_ms": r["relay_p99"],
                "baseline_relay_p99_ms": b["relay_p99"],
                "throughput_vs_fastapi_relay": round(r["delivered_per_s"] / f["delivered_per_s"], 3)
                if f and f["delivered_per_s"]
                else None,
                "ours_lost_dup_order": [r["lost"], r["dup"], r["order"]],
            }
        )
    return out


if __name__ == "__main__":
    main()
