"""``avd stimuli``: import stimuli and list collection progress."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from server.cli_common import settings_or_exit

app = typer.Typer(help="Stimuli: import images with their two opinions.")
console = Console(stderr=True, soft_wrap=True)


@app.command("import")
def import_(
    source: Annotated[Path, typer.Argument(help="A folder with manifest.jsonl/.csv, or the manifest.")],
) -> None:
    """Import stimuli; bad rows are reported by line number and skipped (exit code 1)."""
    from server.db.migrate import upgrade
    from server.stimuli.importer import import_into_database

    settings = settings_or_exit()
    # a fresh embedded data dir has no tables yet; upgrading an up-to-date schema is a no-op
    upgrade(settings.resolved_database_url)
    try:
        report = asyncio.run(import_into_database(settings, source))
    except (FileNotFoundError, ValueError) as exc:  # no manifest; S3 chosen without a bucket
        console.print(f"[red]{exc}[/red]")
        raise typer.Exit(2) from exc
    except Exception as exc:  # the database or the media store failed: not the fault of a row
        console.print(f"[red]import failed:[/red] {type(exc).__name__}: {exc}")
        raise typer.Exit(3) from exc
    for line, problem in report.errors:
        where = f"line {line}" if line else "row"
        console.print(f"[yellow]{where}:[/yellow] {problem}")
    console.print(report.summary())
    if report.errors:
        raise typer.Exit(1)
