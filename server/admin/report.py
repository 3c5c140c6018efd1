"""``avd report --out DIR``: the analysis charts as PNG + SVG and one HTML page, for a paper."""

from __future__ import annotations

import asyncio
import html
import json
from pathlib import Path
from typing import Annotated

import typer

from server.cli_common import settings_or_exit
from server.settings import Settings


async def _data(settings: Settings) -> tuple[dict, dict]:
    from server.admin import charts
    from server.db.engine import make_engine, make_sessionmaker
    from server.stats import study_stats

    engine = make_engine(settings.resolved_database_url)
    try:
        sessions = make_sessionmaker(engine)
        return await charts.chart_data(sessions, settings.study), await study_stats(sessions, settings)
    finally:
        await engine.dispose()


def write_report(out: Path, data: dict, stats: dict, study: str) -> Path:
    from server.admin import charts  # matplotlib: loaded only when a report is written

    out.mkdir(parents=True, exist_ok=True)
    sections = []
    for name in charts.CHARTS:
        for fmt in ("png", "svg"):
            (out / f"{name}.{fmt}").write_bytes(charts.render(name, data, fmt))
        sections.append(
            f'<figure><img src="{name}.svg" alt="{name}"><figcaption>{name}</figcaption></figure>'
        )
    (out / "data.json").write_text(json.dumps({"charts": data, "counts": stats}, indent=2, sort_keys=True))
    change = data["emotion_change_after_reveal"]
    counts = stats["dialogs"]
    page = f"""<!doctype html><meta charset="utf-8"><title>Study report: {html.escape(study)}</title>
<style>body{{font-family:system-ui,sans-serif;max-width:960px;margin:2em auto}}img{{max-width:100%}}</style>
<h1>Study report: {html.escape(study)}</h1>
<p>Dialogs: {counts["complete"]} complete, {counts["abandoned"]} abandoned, {counts["timed_out"]} timed out,
{counts["in_progress"]} in progress.</p>
<p>Questioners changed their emotion after the reveal in {change["changed"]} of {change["dialogs"]} dialogs
({"n/a" if change["rate"] is None else f"{change['rate']:.1%}"}).</p>
{"".join(sections)}
<p>Numbers behind the charts: <a href="data.json">data.json</a>.</p>
"""
    (out / "index.html").write_text(page)
    return out / "index.html"


def report(
    out: Annotated[Path, typer.Option(help="Folder to write the report into.")] = Path("report"),
) -> None:
    """Write the analysis charts (PNG + SVG) and an HTML page for a paper's appendix."""
    settings = settings_or_exit()
    data, stats = asyncio.run(_data(settings))
    page = write_report(out, data, stats, settings.study)
    typer.echo(f"report written: {page}")
