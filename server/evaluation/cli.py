"""``avd eval``: launch evaluation runs and follow them (status, logs, results, cancel)."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from rich.console import Console
from rich.table import Table

app = typer.Typer(help="Evaluate models on an exported dataset (retrieval, generation, prompting...).")
console = Console(stderr=True)
T = TypeVar("T")


def _parse_pairs(pairs: list[str] | None) -> dict[str, Any]:
    """``key=value`` options; values are read as JSON when they parse (numbers, booleans, lists)."""
    out: dict[str, Any] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep:
            raise typer.BadParameter(f"expected key=value, got {pair!r}")
        try:
            out[key.strip().replace("-", "_")] = json.loads(value)
        except json.JSONDecodeError:
            out[key.strip().replace("-", "_")] = value
    return out


def _with_db(fn: Callable[[Any, Any], Awaitable[T]]) -> T:
    from server.cli import _settings
    from server.db.engine import make_engine, make_sessionmaker

    settings = _settings()

    async def go() -> T:
        engine = make_engine(settings.resolved_database_url)
        try:
            return await fn(make_sessionmaker(engine), settings)
        finally:
            await engine.dispose()

    return asyncio.run(go())


@app.command("tasks")
def list_tasks() -> None:
    """List the evaluation tasks."""
    from server.evaluation.tasks import TASK_MODULES

    for name in TASK_MODULES:
        typer.echo(name)


@app.command("run")
def run_command(
    task: Annotated[str, typer.Argument(help="retrieval | generation | zeroshot | multichoice | classifier")],
    model: Annotated[str, typer.Option(help="Local checkpoint directory, 'random[:SEED]' or 'minilm'.")],
    data: Annotated[Path, typer.Option(help="Export directory (dialogs.jsonl, splits, retrieval).")],
    split: str = "test",
    out: Annotated[Path | None, typer.Option(help="Parent folder of run folders.")] = None,
    backend: Annotated[str, typer.Option(help="local | slurm | ray")] = "local",
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help="Task option key=value.")] = None,
    backend_option: Annotated[
        list[str] | None, typer.Option("--backend-option", "-b", help="Backend option key=value.")
    ] = None,
    cache_dir: Annotated[
        Path | None, typer.Option(help="Model-output cache (default: data_dir/eval-cache).")
    ] = None,
    device: Annotated[str | None, typer.Option(help="cuda | cpu (default: CUDA when present).")] = None,
    wait: Annotated[bool, typer.Option(help="Wait for the run to end and print its results.")] = False,
    timeout: Annotated[float, typer.Option(help="Give up waiting after this many seconds.")] = 24 * 3600.0,
) -> None:
    """Record and launch an evaluation run; prints its id."""
    from server.evaluation import jobs

    async def go(sm, settings):
        return await jobs.launch(
            sm,
            task=task,
            model=model,
            data=data,
            out_root=out or settings.data_dir / "eval-runs",
            split=split,
            backend=backend,
            options=_parse_pairs(option),
            backend_options=_parse_pairs(backend_option),
            cache_dir=cache_dir or settings.data_dir / "eval-cache",
            study=settings.study,
            device=device,
        )

    try:
        run = _with_db(go)
    except (KeyError, ValueError, FileNotFoundError) as exc:
        console.print(f"[red]{exc}[/red]")
        raise typer.Exit(2) from exc
    console.print(f"launched {run.task} run [bold]{run.id}[/bold] on {run.backend} -> {run.out_dir}")
    typer.echo(run.id)
    if wait:
        deadline = time.monotonic() + timeout
        while True:
            row = _with_db(lambda sm, _s: jobs.refresh(sm, run.id))
            if row.status in jobs.FINAL or time.monotonic() > deadline:
                break
            time.sleep(1.0)
        _print_results(row)
        if row.status != "succeeded":
            raise typer.Exit(1)


@app.command("status")
def status_command(
    job: Annotated[str | None, typer.Argument(help="Run id or prefix; omit to list recent runs.")] = None,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Show one run, or list the study's recent runs."""
    from server.evaluation import jobs

    if job:
        try:
            row = _with_db(lambda sm, _s: jobs.refresh(sm, job))
        except KeyError as exc:
            console.print(f"[red]{exc}[/red]")
            raise typer.Exit(2) from exc
        if as_json:
            typer.echo(json.dumps(jobs.as_dict(row), indent=1))
        else:
            typer.echo(f"{row.id} {row.task} {row.status} backend={row.backend} job={row.backend_job_id}")
            if row.error:
                typer.echo(f"error: {row.error}")
        return
    rows = _with_db(lambda sm, s: jobs.list_runs(sm, s.study))
    if as_json:
        typer.echo(json.dumps([jobs.as_dict(r) for r in rows], indent=1))
        return
    table = Table("id", "task", "model", "status", "backend", "created")
    for r in rows:
        table.add_row(r.id[:12], r.task, Path(r.model).name, r.status, r.backend, str(r.created_at)[:19])
    Console().print(table)


@app.command("logs")
def logs_command(job: str) -> None:
    """Print a run's log (stdout and stderr of the job)."""
    from server.evaluation import jobs

    row = _with_db(lambda sm, _s: jobs.get_run(sm, job))
    typer.echo(jobs.logs(row))


def _print_results(row: Any, as_json: bool = False) -> None:
    from server.evaluation import jobs

    results = jobs.results(row)
    if as_json:
        typer.echo(json.dumps(results, indent=1))
        return
    if results is None:
        typer.echo(f"{row.id}: {row.status}, no results" + (f" ({row.error})" if row.error else ""))
        return
    table = Table("metric", "value", title=f"{row.task} · {Path(row.model).name} · {row.split}")
    for key, value in jobs.summarise(results["metrics"]).items():
        table.add_row(key, f"{value:.4f}" if isinstance(value, float) else str(value))
    Console().print(table)
    per_round = results["metrics"].get("per_round")
    if per_round:
        rt = Table("round", "R@1", "R@5", "R@10", "MRR", "mean rank", title="per round")
        for rnd, m in per_round.items():
            rt.add_row(rnd, *(f"{m[k]:.4f}" for k in ("r@1", "r@5", "r@10", "mrr", "mean_rank")))
        Console().print(rt)


@app.command("results")
def results_command(job: str, as_json: Annotated[bool, typer.Option("--json")] = False) -> None:
    """Print a run's results (headline table, or the whole results.json with --json)."""
    from server.evaluation import jobs

    row = _with_db(lambda sm, _s: jobs.refresh(sm, job))
    _print_results(row, as_json)


@app.command("cancel")
def cancel_command(job: str) -> None:
    """Stop a queued or running run."""
    from server.evaluation import jobs

    row = _with_db(lambda sm, _s: jobs.cancel(sm, job))
    typer.echo(f"{row.id} {row.status}")
