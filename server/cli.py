"""``avd``: the researcher's command line, one command group per stage of the pipeline."""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import signal
import subprocess
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from server import supervise
from server.cli_common import settings_or_exit
from server.settings import REPO_ROOT, Settings

app = typer.Typer(help="Collect, check, publish and evaluate live affective visual dialogs.")
db_app = typer.Typer(help="Database schema.")
app.add_typer(db_app, name="db")
console = Console(stderr=True, soft_wrap=True)

DEMO_STIMULI = REPO_ROOT / "tasks" / "demo-stimuli"


def _settings() -> Settings:
    return settings_or_exit()


@db_app.command("upgrade")
def db_upgrade(revision: str = "head") -> None:
    """Create or migrate the database schema (Alembic)."""
    from server.db.migrate import upgrade

    settings = _settings()
    upgrade(settings.resolved_database_url, revision)
    console.print(f"database at {revision}: {settings.resolved_database_url}")


def _worker_queues(settings: Settings, qc_workers: int) -> list[str]:
    """The queue of each worker process ``avd serve`` starts: ``qc_workers`` QC workers, and one
    semantic worker when QC jobs queue semantic ones (``semantic_after_qc``), if the ml extra is
    installed; without it the semantic jobs wait, and payments with them, so say so."""
    from importlib.util import find_spec

    from server.qc.jobs import queue_name, semantic_queue_name

    queues = [queue_name(settings.study)] * qc_workers
    if settings.semantic_after_qc:
        if find_spec("sentence_transformers") is None:
            console.print(
                "[yellow]semantic_after_qc is on but the ml extra is not installed: semantic jobs "
                "(and the payments waiting for them) wait for `avd qc worker --semantic` on a "
                "machine that has it.[/yellow]"
            )
        else:
            queues.append(semantic_queue_name(settings.study))
    return queues


def _server_command(settings: Settings, host: str, port: int, workers: int, stop_timeout: float) -> list[str]:
    """uvicorn serving the app, as its own process; it cancels requests still running after half
    the stop timeout, so its lifespan (Redis and database closed) runs before the deadline."""
    return [
        sys.executable,
        "-m",
        "uvicorn",
        "server.app:create_app",
        "--factory",
        "--app-dir",
        str(Path(__file__).resolve().parent.parent),  # this code, whatever the working directory
        "--host",
        host,
        "--port",
        str(port),
        "--workers",
        str(workers),
        "--log-level",
        "warning",
        "--ws-max-size",
        str(settings.max_frame_bytes * 2),
        "--ws-per-message-deflate",  # chat frames are tiny: compressing them only costs CPU
        "false",
        "--timeout-graceful-shutdown",
        str(max(1, int(stop_timeout / 2))),
    ]


def _health_url(host: str, port: int) -> str:
    """Where this machine reaches the server's health check (a wildcard address means loopback)."""
    local = {"0.0.0.0": "127.0.0.1", "::": "[::1]", "": "127.0.0.1"}.get(host, host)
    if ":" in local and not local.startswith("["):
        local = f"[{local}]"
    return f"http://{local}:{port}/healthz"


def _run_server(
    settings: Settings,
    host: str,
    port: int,
    workers: int,
    qc_workers: int = 1,
    stop_timeout: float = supervise.STOP_SECONDS,
) -> None:
    """Start uvicorn and the QC workers as child processes and watch them; without REDIS_URL, first
    start the embedded Redis they share, which this process owns and stops last.

    On SIGTERM or Ctrl-C (or when the server exits by itself) every child is stopped within one
    shared deadline of ``stop_timeout`` seconds, then killed; exits 1 if any had to be killed.
    """
    from server.db.migrate import upgrade
    from server.redis_conn import EmbeddedRedis

    signals = supervise.StopSignals()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, signals)
    upgrade(settings.resolved_database_url)
    embedded = None
    if not settings.redis_url:
        embedded = EmbeddedRedis(settings.data_dir)
        os.environ["REDIS_URL"] = embedded.url
    os.environ.setdefault("AVD_DATA_DIR", str(settings.data_dir))
    commands = {"server": _server_command(settings, host, port, workers, stop_timeout)}
    for n, queue in enumerate(_worker_queues(settings, qc_workers), 1):
        commands[f"worker {n} ({queue})"] = [sys.executable, "-m", "server.qc.worker", queue]
    children: dict[str, subprocess.Popen] = {}
    try:
        supervise.start_and_watch(children, commands, signals, _health_url(host, port))
    finally:
        killed = supervise.stop_children(children, stop_timeout, signals)
        if embedded:
            embedded.close()
    if killed:
        console.print(f"[red]killed after {stop_timeout:g} s or a second signal: {', '.join(killed)}[/red]")
        raise typer.Exit(1)
    if not signals.count:  # the server exited by itself
        raise typer.Exit(children["server"].returncode or 1)


@app.command()
def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    workers: Annotated[int, typer.Option(help="Server processes sharing Redis and the DB.")] = 1,
    qc_workers: Annotated[int, typer.Option(help="QC worker processes to start beside them.")] = 1,
    stop_timeout: Annotated[
        float,
        typer.Option(min=0, help="Seconds all processes get to stop on SIGTERM/Ctrl-C before being killed."),
    ] = supervise.STOP_SECONDS,
) -> None:
    """Run the service as configured (DATABASE_URL, REDIS_URL, AVD_* or AVD_SETTINGS_FILE).

    Beside the server it starts the QC workers and, with ``semantic_after_qc``, a semantic worker.
    SIGTERM or Ctrl-C stops them all within ``--stop-timeout`` seconds (a second one at once);
    what has not stopped by then is killed, and the exit code is 1."""
    _run_server(_settings(), host, port, workers, qc_workers, stop_timeout)


@app.command()
def demo(host: str = "127.0.0.1", port: int = 8000) -> None:
    """Run everything embedded (SQLite + embedded Redis) with the shipped demo stimuli."""
    from server.admin.cli import save_researcher
    from server.db.migrate import upgrade
    from server.stimuli.importer import import_into_database

    settings = _settings()
    upgrade(settings.resolved_database_url)
    report = asyncio.run(import_into_database(settings, DEMO_STIMULI, skip_existing=True))
    password = secrets.token_urlsafe(9)
    asyncio.run(save_researcher(settings, "researcher", password))
    base = f"http://{host}:{port}"
    console.print(f"[bold]Demo stimuli:[/bold] {report.summary()}")
    console.print("[bold]Open these in two browser windows (two different workers):[/bold]")
    console.print(f"  worker 1: {base}/?worker=demo-alice")
    console.print(f"  worker 2: {base}/?worker=demo-bob")
    console.print(f"[bold]Researcher:[/bold] {base}/admin  (user: researcher, password: {password})")
    console.print(f"Health: {base}/healthz   Stop with Ctrl+C; data stays in {settings.data_dir}/")
    _run_server(settings, host, port, 1)


@app.command()
def stats(as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False) -> None:
    """Counts of dialogs by status, of workers, and of stimuli by collection progress."""
    from server.stats import collect_stats

    result = asyncio.run(collect_stats(_settings()))
    if as_json:
        typer.echo(json.dumps(result, indent=2))
    else:
        for section, values in result.items():
            typer.echo(f"{section}: " + ", ".join(f"{k}={v}" for k, v in values.items()))


@app.command()
def simulate(
    url: Annotated[str, typer.Option(help="Base URL of a running server.")] = "http://127.0.0.1:8000",
    pairs: Annotated[int, typer.Option(min=1)] = 1,
    behaviour: Annotated[str, typer.Option(help="good|slow|timeout|disconnect|abandon")] = "good",
    think: Annotated[float, typer.Option(help="Seconds a bot thinks before each step.")] = 0.0,
    at_round: Annotated[int, typer.Option(help="Round where the behaviour kicks in.")] = 3,
    timeout: Annotated[float, typer.Option(help="Give up after this many seconds.")] = 600.0,
    partner_url: Annotated[str | None, typer.Option(help="Server URL for the partner bots.")] = None,
) -> None:
    """Drive N pairs of bot workers through the real websocket protocol; prints a JSON summary."""
    from server.bots import BEHAVIOURS
    from server.bots import simulate as run

    if behaviour not in BEHAVIOURS:
        raise typer.BadParameter(f"choose one of {', '.join(BEHAVIOURS)}", param_hint="--behaviour")
    summary, _ = asyncio.run(
        run(url, pairs, behaviour, think, at_round, timeout=timeout, partner_url=partner_url)  # type: ignore[arg-type]
    )
    typer.echo(json.dumps(summary, indent=2))


def main() -> None:
    app()


def register(group: typer.Typer, name: str) -> None:
    """Add a command group defined in another module (stimuli, qc, export...)."""
    app.add_typer(group, name=name)


def _load_groups() -> None:
    from server.stimuli.cli import app as stimuli_app

    register(stimuli_app, "stimuli")
    from server.evaluation.cli import app as eval_app

    register(eval_app, "eval")
    from server.export.cli import register as register_export

    register_export(app)  # avd export, avd import-dialogs
    from server.qc.cli import app as qc_app

    register(qc_app, "qc")
    from server.admin.cli import app as admin_app

    register(admin_app, "admin")
    from server.studies.cli import app as study_app

    register(study_app, "study")
    from server.providers.cli import register as register_providers

    register_providers(app)  # avd launch, avd payments, avd workers, avd hits
    from server.admin.report import report

    app.command("report")(report)
    from server.rules.cli import app as rules_app

    register(rules_app, "rules")


_load_groups()

if __name__ == "__main__":  # pragma: no cover
    main()

__all__ = ["app", "main", "Path"]
