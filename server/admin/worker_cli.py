"""``avd qc workers``: the per-worker table of the dashboard, in the terminal or as JSON."""

from __future__ import annotations

import asyncio
import json
from typing import Annotated

import typer

from server.cli_common import settings_or_exit


def _ms(value: float | None) -> str:
    return "–" if value is None else f"{value / 1000:.1f} s"


def _num(value: float | None) -> str:
    return "–" if value is None else f"{value:g}"


def workers(
    as_json: Annotated[bool, typer.Option("--json", help="Print the rows as JSON.")] = False,
    top: Annotated[int, typer.Option("--top", min=1, help="Show this many workers.")] = 20,
    sort: Annotated[str, typer.Option(help="Order by this column (largest first).")] = "violations",
    min_violations: Annotated[int, typer.Option(min=0, help="Only workers with at least this many.")] = 0,
) -> None:
    """Per-worker figures: dialogs by outcome, rule violations, message length and latency, acceptance."""
    from server.admin import worker_stats
    from server.db.engine import make_engine, make_sessionmaker

    if sort not in worker_stats.SORT_KEYS:
        typer.echo(f"--sort must be one of {', '.join(worker_stats.SORT_KEYS)}", err=True)
        raise typer.Exit(2)
    settings = settings_or_exit()

    async def load() -> dict:
        engine = make_engine(settings.resolved_database_url)
        try:
            return await worker_stats.table(
                make_sessionmaker(engine),
                settings.study,
                sort=sort,
                descending=sort != "worker_id",
                min_violations=min_violations,
                limit=top,
            )
        finally:
            await engine.dispose()

    page = asyncio.run(load())
    if as_json:
        typer.echo(json.dumps(page, indent=2, sort_keys=True))
        return
    _print(page)


def _print(page: dict) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"Workers by {page['sort']} ({len(page['rows'])} of {page['total']})")
    for name in (
        "worker",
        "dialogs",
        "complete",
        "left/timed out",
        "bounces",
        "QC flags",
        "msgs",
        "chars mean/median",
        "median reply",
        "acc/rej/review",
        "paid",
    ):
        table.add_column(name, justify="left" if name == "worker" else "right")
    for r in page["rows"]:
        d, f = r["dialogs"], r["final"]
        table.add_row(
            r["worker_id"] + (" (blocked)" if r["blocked"] else ""),
            str(d["total"]),
            str(d["complete"]),
            f"{d['abandoned']}/{d['timed_out']}",
            str(r["rule_bounces"]),
            f"{r['qc_soft_flags']}+{r['qc_hard_flags']}",
            str(r["messages"]),
            f"{_num(r['mean_chars'])}/{_num(r['median_chars'])}",
            _ms(r["median_latency_ms"]),
            f"{f['accepted']}/{f['rejected']}/{f['to_review']}",
            f"{r['payments']['total_cents'] / 100:.2f}",
        )
    Console(soft_wrap=True).print(table)
