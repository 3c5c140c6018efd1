"""``avd report --out DIR``: the analysis charts and one chart per human study (PNG + SVG), one HTML page."""

from __future__ import annotations

import asyncio
import html
import json
from pathlib import Path
from typing import Annotated

import typer

from server.cli_common import settings_or_exit
from server.settings import Settings


async def _data(settings: Settings) -> tuple[dict, dict, list[dict]]:
    from server.admin import charts, study_results
    from server.db.engine import make_engine, make_sessionmaker
    from server.stats import study_stats

    engine = make_engine(settings.resolved_database_url)
    try:
        sessions = make_sessionmaker(engine)
        studies = []
        for row in await study_results.list_studies(sessions, settings.study):
            found = await study_results.study_result(sessions, settings.study, row["id"])
            if found is not None:
                studies.append(found)
        data = await charts.chart_data(sessions, settings.study)
        return data, await study_stats(sessions, settings), studies
    finally:
        await engine.dispose()


def _table_html(table: dict) -> str:
    from server.admin.study_tables import cell

    head = "".join(f"<th>{html.escape(c)}</th>" for c in table["columns"])
    body = "".join(
        "<tr>"
        + "".join(f"<td>{html.escape(cell(v, i in table['percent']))}</td>" for i, v in enumerate(row))
        + "</tr>"
        for row in table["rows"]
    )
    return f"<table><caption>{html.escape(table['title'])}</caption><tr>{head}</tr>{body}</table>"


def write_studies(out: Path, studies: list[dict]) -> list[str]:
    """study-<id>.png and .svg for each human study; the HTML sections that show them."""
    from server.admin import study_charts, study_tables

    sections = []
    for result in studies:
        sid, name = result["study"]["id"], result["study"]["name"]
        for fmt in ("png", "svg"):
            (out / f"study-{sid}.{fmt}").write_bytes(study_charts.render(result, fmt))
        tables = "".join(_table_html(t) for t in study_tables.tables(result))
        sections.append(
            f"<section><h3>{html.escape(name)} ({html.escape(result['study']['kind'])}, {sid})</h3>"
            f'<figure><img src="study-{sid}.svg" alt="study {sid}"></figure>{tables}</section>'
        )
    return sections


def write_report(out: Path, data: dict, stats: dict, study: str, studies: list[dict] | None = None) -> Path:
    """The collection charts, one chart per human study (``studies``: their aggregates), a page."""
    from server.admin import charts  # matplotlib: loaded only when a report is written
    from server.admin.study_results import without_items

    out.mkdir(parents=True, exist_ok=True)
    sections = []
    for name in charts.CHARTS:
        for fmt in ("png", "svg"):
            (out / f"{name}.{fmt}").write_bytes(charts.render(name, data, fmt))
        sections.append(
            f'<figure><img src="{name}.svg" alt="{name}"><figcaption>{name}</figcaption></figure>'
        )
    studies = studies or []
    study_sections = write_studies(out, studies)
    numbers = {"charts": data, "counts": stats, "studies": [without_items(r) for r in studies]}
    (out / "data.json").write_text(json.dumps(numbers, indent=2, sort_keys=True, default=str))
    change = data["emotion_change_after_reveal"]
    counts = stats["dialogs"]
    page = f"""<!doctype html><meta charset="utf-8"><title>Study report: {html.escape(study)}</title>
<style>body{{font-family:system-ui,sans-serif;max-width:960px;margin:2em auto}}img{{max-width:100%}}
table{{border-collapse:collapse;margin:0.5em 0 1.2em}}
td,th{{border-bottom:1px solid #ddd;padding:2px 8px;text-align:left}}
caption{{text-align:left;font-weight:600}}</style>
<h1>Study report: {html.escape(study)}</h1>
<p>Dialogs: {counts["complete"]} complete, {counts["abandoned"]} abandoned, {counts["timed_out"]} timed out,
{counts["in_progress"]} in progress.</p>
<p>Questioners changed their emotion after the reveal in {change["changed"]} of {change["dialogs"]} dialogs
({"n/a" if change["rate"] is None else f"{change['rate']:.1%}"}).</p>
{"".join(sections)}
<h2>Human studies</h2>
{"".join(study_sections) or "<p>No human studies yet.</p>"}
<p>Numbers behind the charts: <a href="data.json">data.json</a>.</p>
"""
    (out / "index.html").write_text(page)
    return out / "index.html"


def report(
    out: Annotated[Path, typer.Option(help="Folder to write the report into.")] = Path("report"),
) -> None:
    """Write the analysis charts and the human studies' charts (PNG + SVG) and an HTML page."""
    settings = settings_or_exit()
    data, stats, studies = asyncio.run(_data(settings))
    page = write_report(out, data, stats, settings.study, studies)
    typer.echo(f"report written: {page}")
