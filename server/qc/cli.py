"""``avd qc``: run quality control in bulk, or serve as a QC worker."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rq.job import Job

from server.cli_common import settings_or_exit
from server.settings import Settings
from server.supervise import stop_when_parent_dies

app = typer.Typer(help="Quality control of finished dialogs.")
console = Console(stderr=True, soft_wrap=True)


def _redis_url(settings: Settings):
    """The configured Redis, or an embedded one for the duration of the command."""
    from server.redis_conn import EmbeddedRedis

    if settings.redis_url:
        return settings.redis_url, None
    embedded = EmbeddedRedis(settings.data_dir / "qc-redis")
    return embedded.url, embedded


@app.command("run")
def run(
    force: Annotated[bool, typer.Option(help="Recompute verdicts that are already current.")] = False,
    workers: Annotated[int, typer.Option(min=0, help="Worker processes to start (0: use running ones).")] = 2,
    then_eval: Annotated[
        bool, typer.Option("--then-eval", help="Afterwards start the study's [auto_eval] runs.")
    ] = False,
) -> None:
    """Judge every finished dialog without a current verdict; resumable and idempotent."""
    from server.db.engine import make_engine, make_sessionmaker
    from server.qc.pipeline import pending_dialogs

    settings = settings_or_exit()

    async def pending() -> list[str]:
        engine = make_engine(settings.resolved_database_url)
        try:
            return await pending_dialogs(make_sessionmaker(engine), settings, force)
        finally:
            await engine.dispose()

    ids = asyncio.run(pending())
    if not ids:
        console.print("Nothing to do: every finished dialog has a current verdict.")
    else:
        _run_jobs(settings, ids, force, workers)
    if then_eval:
        _launch_evaluations(settings)


def _launch_evaluations(settings: Settings) -> None:
    from server.db.engine import make_engine, make_sessionmaker
    from server.qc.jobs import launch_evaluations

    if not settings.auto_eval.get("runs"):
        console.print("[yellow]--then-eval: the settings list no [auto_eval] runs; nothing started.[/yellow]")
        return

    async def launch() -> list[str]:
        engine = make_engine(settings.resolved_database_url)
        try:
            return await launch_evaluations(make_sessionmaker(engine), settings, force=True)
        finally:
            await engine.dispose()

    runs = asyncio.run(launch())
    console.print(f"evaluation runs started: {', '.join(runs) or 'none (no accepted dialogs)'}")


def _run_jobs(settings: Settings, ids: list[str], force: bool, workers: int) -> None:
    from server.qc.jobs import enqueue, qc_queue, queue_name

    url, embedded = _redis_url(settings)
    procs: list[subprocess.Popen] = []
    try:
        queue = qc_queue(settings, url)
        job_ids = enqueue(queue, settings.study, ids, force)
        env = dict(os.environ, REDIS_URL=url)
        for _ in range(workers):
            procs.append(
                subprocess.Popen(
                    [sys.executable, "-m", "server.qc.worker", queue_name(settings.study), "--burst"],
                    env=env,
                    preexec_fn=stop_when_parent_dies(os.getpid()),  # a kill -9 of this leaves none
                )
            )
        totals: dict[str, int] = {}
        columns = (TextColumn("QC"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
        with Progress(*columns, console=console) as progress:
            task = progress.add_task("qc", total=len(ids))
            remaining = set(job_ids)
            while remaining:
                for job in Job.fetch_many(list(remaining), connection=queue.connection):
                    if job is None:
                        continue
                    status = job.get_status()
                    if status == "finished":
                        for k, v in (job.return_value() or {}).items():
                            totals[k] = totals.get(k, 0) + v
                        progress.advance(task, len(job.args[1]))
                        remaining.discard(job.id)
                    elif status == "failed":
                        console.print(f"[red]job {job.id} failed[/red]: {job.exc_info}")
                        remaining.discard(job.id)
                if remaining and procs and all(p.poll() is not None for p in procs):
                    console.print("[red]workers exited with jobs left; re-run `avd qc run`[/red]")
                    break
                time.sleep(0.2)
        console.print("verdicts: " + ", ".join(f"{k}={v}" for k, v in sorted(totals.items())))
    finally:
        for p in procs:
            p.wait()
        if embedded:
            embedded.close()


@app.command("worker")
def worker(
    burst: Annotated[bool, typer.Option(help="Exit when the queue is empty.")] = False,
    semantic: Annotated[
        bool, typer.Option("--semantic", help="Serve the semantic queue (semantic_after_qc; ml extra).")
    ] = False,
) -> None:
    """Process QC jobs (the service enqueues one when a dialog ends)."""
    from server.qc.jobs import queue_name, semantic_queue_name

    settings = settings_or_exit()
    if not settings.redis_url:
        console.print("[red]REDIS_URL is required for a QC worker[/red]")
        raise typer.Exit(2)
    name = semantic_queue_name(settings.study) if semantic else queue_name(settings.study)
    args = [sys.executable, "-m", "server.qc.worker", name]
    # the worker stops when this process dies, even by SIGKILL or a SIGTERM sent to it alone
    raise typer.Exit(
        subprocess.call(args + (["--burst"] if burst else []), preexec_fn=stop_when_parent_dies(os.getpid()))
    )


@app.command("semantic")
def semantic(
    batch_size: Annotated[
        int | None, typer.Option(min=1, help="Dialogs per batch (default: semantic_batch_size).")
    ] = None,
    force: Annotated[bool, typer.Option(help="Embed every complete dialog again.")] = False,
) -> None:
    """Semantic checks (sentence embeddings) of complete dialogs, in batches; resumable and idempotent."""
    from server.db.engine import make_engine, make_sessionmaker
    from server.qc.embedder import SemanticUnavailable, shared_embedder
    from server.qc.semantic import batches, pending_semantic, run_semantic

    settings = settings_or_exit()
    size = batch_size or settings.semantic_batch_size

    async def main() -> dict[str, int]:
        engine = make_engine(settings.resolved_database_url)
        totals: dict[str, int] = {}
        try:
            sessions = make_sessionmaker(engine)
            ids = await pending_semantic(sessions, settings, force)
            if not ids:
                console.print("Nothing to do: every complete dialog has current semantic scores.")
                return totals
            with console.status("loading the sentence model"):
                embedder = shared_embedder(settings.semantic_model_path, settings.semantic_device)
            console.print(f"model {embedder.id} on {embedder.device}; {len(ids)} dialog(s) to check")
            columns = (TextColumn("semantic QC"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
            with Progress(*columns, console=console) as progress:
                task = progress.add_task("semantic", total=len(ids))
                for batch in batches(ids, size):
                    counts = await run_semantic(sessions, settings, batch, embedder, force)
                    for k, v in counts.items():
                        totals[k] = totals.get(k, 0) + v
                    progress.advance(task, len(batch))
        finally:
            await engine.dispose()
        return totals

    try:
        totals = asyncio.run(main())
    except SemanticUnavailable as exc:
        console.print(f"[red]{exc}[/red]")
        raise typer.Exit(2) from exc
    if totals:
        console.print("semantic: " + ", ".join(f"{k}={v}" for k, v in sorted(totals.items())))


@app.command("semantic-eval")
def semantic_eval(
    data: Annotated[
        Path | None, typer.Option(help="Labeled pairs (default: tasks/rules-eval/semantic_pairs.jsonl).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="JSON lines instead of a table.")] = False,
) -> None:
    """Precision / recall of the semantic repeat and opinion-copy checks, beside the lexical rules."""
    from server.qc.embedder import SemanticUnavailable, shared_embedder
    from server.qc.semantic_eval import LABELED_PAIRS, evaluate, load_pairs, render
    from server.qc.semantic_flags import Thresholds

    settings = settings_or_exit()
    try:
        items = load_pairs(data or LABELED_PAIRS)
        embedder = shared_embedder(settings.semantic_model_path, settings.semantic_device)
    except (OSError, ValueError, SemanticUnavailable) as exc:
        console.print(f"[red]Cannot evaluate:[/red] {exc}")
        raise typer.Exit(2) from exc
    rows = evaluate(items, embedder, Thresholds.from_settings(settings))
    typer.echo("\n".join(json.dumps(r) for r in rows) if as_json else render(rows))


@app.command("semantic-rules-eval")
def semantic_rules_eval(
    data: Annotated[
        list[Path] | None,
        typer.Option(help="Labeled message lines (repeatable; default: every training file)."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="JSON lines instead of tables.")] = False,
) -> None:
    """Per-rule precision / recall of the live rule, the semantic classifier, and rule OR classifier.

    Training lines are judged out of fold (cross-validation by text); other lines by the full model.
    """
    from server.qc.embedder import SemanticUnavailable, shared_embedder
    from server.qc.semantic_eval import evaluate_rules, render_rules
    from server.qc.semantic_flags import Thresholds
    from server.qc.semantic_rules import TRAINING_FILES, load_training

    settings = settings_or_exit()
    try:
        records = load_training(data or TRAINING_FILES)
        embedder = shared_embedder(settings.semantic_model_path, settings.semantic_device)
    except (OSError, ValueError, KeyError, SemanticUnavailable) as exc:
        console.print(f"[red]Cannot evaluate:[/red] {exc}")
        raise typer.Exit(2) from exc
    rows = evaluate_rules(records, embedder, Thresholds.from_settings(settings))
    typer.echo("\n".join(json.dumps(r) for r in rows) if as_json else render_rules(rows))


from server.admin.worker_cli import workers  # noqa: E402  (avd qc workers: per-worker figures)

app.command("workers")(workers)
