"""``avd export`` and ``avd import-dialogs``."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from server.settings import Settings

console = Console(stderr=True)


def _settings() -> Settings:
    try:
        return Settings()
    except Exception as exc:  # a malformed settings file or env var: say which
        console.print(f"[red]Invalid settings:[/red] {exc}")
        raise typer.Exit(2) from exc


def parse_since(text: str) -> datetime:
    """A date (``2024-05-01``) or an ISO date-time; without a zone it is UTC."""
    try:
        value = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError as exc:
        raise typer.BadParameter(
            "use a date like 2024-05-01 or 2024-05-01T12:00", param_hint="--since"
        ) from exc
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def export_cmd(
    out: Annotated[Path, typer.Option("--out", help="Folder to create (must be new or empty).")],
    status: Annotated[
        str, typer.Option(help="accepted (QC verdict accept) | complete | all (incl. incomplete, marked)")
    ] = "complete",
    since: Annotated[str | None, typer.Option(help="Only dialogs that ended at or after this date.")] = None,
    seed: Annotated[int, typer.Option(help="Seed of the splits and the retrieval candidates.")] = 0,
    images: Annotated[str, typer.Option(help="copy: images/ folder; manifest: images.jsonl only")] = "copy",
    ratios: Annotated[str, typer.Option(help="train,val,test shares")] = "0.8,0.1,0.1",
    retrieval: Annotated[bool, typer.Option(help="Write retrieval/<split>.json candidates.")] = True,
    study: Annotated[str | None, typer.Option(help="Study to export (default: the configured one).")] = None,
    force: Annotated[bool, typer.Option(help="Replace a non-empty --out folder.")] = False,
) -> None:
    """Write a publishable dataset: dialogs.jsonl, images, splits, retrieval candidates, datasheet."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    from server.export.source import STATUSES
    from server.export.splits import parse_ratios
    from server.export.writer import ExportOptions, InvalidRecord, NothingToExport, export_dataset

    if status not in STATUSES:
        raise typer.BadParameter(f"choose one of {', '.join(STATUSES)}", param_hint="--status")
    if images not in ("copy", "manifest"):
        raise typer.BadParameter("choose copy or manifest", param_hint="--images")
    try:
        split_ratios = parse_ratios(ratios)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--ratios") from exc
    options = ExportOptions(
        status=status,  # type: ignore[arg-type]
        since=parse_since(since) if since else None,
        seed=seed,
        images=images,  # type: ignore[arg-type]
        ratios=split_ratios,
        retrieval=retrieval,
        force=force,
    )
    settings = _settings()
    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    ) as bar:
        task = bar.add_task("dialogs", total=None)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        try:
            summary = asyncio.run(export_dataset(settings, out, options, progress, study=study))
        except NothingToExport as exc:
            console.print(f"[yellow]{exc}[/yellow]")
            raise typer.Exit(1) from exc
        except InvalidRecord as exc:
            console.print(f"[red]Nothing was written:[/red] {exc}")
            raise typer.Exit(1) from exc
        except FileExistsError as exc:
            console.print(f"[red]{exc}[/red]")
            raise typer.Exit(2) from exc
    splits = ", ".join(f"{k} {v}" for k, v in summary.splits.items())
    console.print(f"[bold]{summary.dialogs} dialogs[/bold] ({splits}) -> {summary.out}")
    for reason, count in summary.excluded.items():
        console.print(f"  left out: {count} {reason}")
    if summary.missing_images:
        console.print(f"[yellow]{len(summary.missing_images)} images missing from the media store[/yellow]")


def import_dialogs_cmd(
    file: Annotated[Path, typer.Argument(help="An exported dialogs.jsonl.")],
    study: Annotated[
        str | None, typer.Option(help="Put the dialogs in this study (default: as exported).")
    ] = None,
    images: Annotated[Path | None, typer.Option(help="Image folder (default: images/ next to FILE).")] = None,
    dry_run: Annotated[bool, typer.Option(help="Only check the file against the schema.")] = False,
) -> None:
    """Import exported dialogs; lines that do not fit the schema are refused with line and field (exit 1)."""
    from server.export.importer import import_dialogs

    if not file.is_file():
        console.print(f"[red]{file} does not exist[/red]")
        raise typer.Exit(2)
    report = asyncio.run(import_dialogs(_settings(), file, study=study, images_dir=images, dry_run=dry_run))
    for line, where, problem in report.errors:
        console.print(f"[yellow]line {line}[/yellow] {where}: {problem}")
    console.print(("checked only: " if dry_run else "") + report.summary())
    if report.errors:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    """Add the commands to the ``avd`` app (called from server/cli.py)."""
    app.command("export")(export_cmd)
    app.command("import-dialogs")(import_dialogs_cmd)
