"""``avd study``: build human-evaluation studies from evaluation runs, launch them, read results."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from rich.console import Console
from rich.table import Table

from server.cli_common import settings_or_exit
from server.settings import Settings

app = typer.Typer(help="Human-evaluation studies: reasonableness, Turing test, preference, multiple choice.")
console = Console(stderr=True, soft_wrap=True)
out_console = Console(soft_wrap=True)
T = TypeVar("T")


def _with_db(settings: Settings, fn: Callable[[Any], Awaitable[T]]) -> T:
    from server.db.engine import make_engine, make_sessionmaker

    async def go() -> T:
        engine = make_engine(settings.resolved_database_url)
        try:
            return await fn(make_sessionmaker(engine))
        finally:
            await engine.dispose()

    return asyncio.run(go())


async def _run_dir(sessions: Any, settings: Settings, ref: str) -> Path:
    """A run directory from a path, a run id (prefix) under data_dir/eval-runs, or the eval_run table."""
    from server.studies.build import find_run

    try:
        return find_run(ref, [settings.data_dir / "eval-runs"])
    except KeyError as first:
        try:
            from server.evaluation.jobs import get_run

            run = await get_run(sessions, ref)
        except Exception:  # no eval_run table, or no such row: report the first error
            raise first from None
        return Path(run.out_dir)


def _parse_rounds(value: str | None) -> list[int] | None:
    if not value:
        return None
    try:
        return [int(x) for x in value.replace(" ", "").split(",") if x]
    except ValueError as exc:
        raise typer.BadParameter("rounds are numbers separated by commas, e.g. 7,8,9,10") from exc


@app.command("build")
def build(
    kind: Annotated[str, typer.Argument(help="reasonableness | turing | preference | multichoice")],
    from_run: Annotated[str, typer.Option("--from-run", help="Evaluation run id (or its directory).")],
    data: Annotated[Path | None, typer.Option(help="Export directory (default: the run's).")] = None,
    items: Annotated[int, typer.Option(min=1, help="Items to judge (attention checks come on top).")] = 100,
    raters: Annotated[int, typer.Option(min=1, help="Valid judgments wanted per item.")] = 5,
    items_per_rater: Annotated[int, typer.Option(min=1, help="Most items one rater gets.")] = 20,
    attention_every: Annotated[int, typer.Option(min=0, help="One check in this many items (0: none).")] = 5,
    checks: Annotated[int | None, typer.Option(help="Attention-check items to make.")] = None,
    rounds: Annotated[str | None, typer.Option(help="Reasonableness rounds, e.g. 7,8,9,10.")] = None,
    image: Annotated[bool, typer.Option(help="Turing / multiple choice: show the artwork.")] = True,
    caption: Annotated[bool, typer.Option(help="Preference: the caption instead of the opinions.")] = False,
    seed: int = 0,
    min_seconds: Annotated[float | None, typer.Option(help="Too-fast threshold (default: settings).")] = None,
    name: Annotated[str | None, typer.Option(help="A name for the study.")] = None,
) -> None:
    """Build a study (as a draft) from an evaluation run and its export; prints the study id."""
    from server.studies.build import BuildOptions, build_study

    settings = settings_or_exit()
    opts = BuildOptions(
        kind=kind,
        items=items,
        raters=raters,
        items_per_rater=items_per_rater,
        attention_every=attention_every,
        checks=checks,
        rounds=_parse_rounds(rounds),
        image=image,
        caption=caption,
        seed=seed,
        min_seconds=min_seconds,
        name=name,
    )

    async def go(sessions: Any):
        run_dir = await _run_dir(sessions, settings, from_run)
        return await build_study(sessions, settings, run_dir, opts, data)

    try:
        built = _with_db(settings, go)
    except (KeyError, ValueError, FileNotFoundError) as exc:
        console.print(f"[red]{exc}[/red]")
        raise typer.Exit(2) from exc
    regular = sum(1 for i in built.items if not i.is_attention)
    console.print(
        f"built {kind} study [bold]{built.study.id}[/bold]: {regular} items, "
        f"{len(built.items) - regular} attention checks, {raters} raters per item (draft; launch it next)"
    )
    for warning in built.warnings:
        console.print(f"[yellow]warning:[/yellow] {warning}")
    typer.echo(built.study.id)


@app.command("launch")
def launch(
    study: Annotated[str, typer.Argument(help="Study id or prefix.")],
    provider: Annotated[str, typer.Option(help="local | mturk-sandbox | mturk | mephisto")] = "local",
    links: Annotated[int, typer.Option(help="Example rater links to print (local).")] = 3,
    reward: Annotated[
        str | None, typer.Option(help="HIT reward in dollars (default: study_reward_cents, see docs).")
    ] = None,
    margin: Annotated[
        float | None,
        typer.Option(min=0.0, help="Spare rater slots as a share (default: study_rater_margin)."),
    ] = None,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")] = False,
) -> None:
    """Open a study for raters: print links (local), create HITs (MTurk) or the Mephisto command."""
    from server.providers.cli import provider_or_exit
    from server.studies.manage import find_study, rater_url, set_status

    settings = settings_or_exit()
    if provider == "local":

        async def go(sessions: Any):
            row = await find_study(sessions, settings.study, study)
            return await set_status(sessions, row.id, "open")

        try:
            row = _with_db(settings, go)
        except KeyError as exc:
            console.print(f"[red]{exc}[/red]")
            raise typer.Exit(2) from exc
        console.print(f"study {row.id} is open ({row.kind}, {row.raters_per_item} raters per item)")
        typer.echo(rater_url(settings.public_url, row.id))
        for n in range(links):
            typer.echo(rater_url(settings.public_url, row.id, f"rater-{n + 1}"))
        return
    prov = provider_or_exit(settings, provider)
    reward_cents = _reward(reward, settings)
    share = settings.study_rater_margin if margin is None else margin
    result = _with_db(
        settings, lambda sessions: _launch_on(sessions, settings, prov, study, reward_cents, share, yes)
    )
    if result is not None:
        typer.echo(json.dumps(result))


def _reward(value: str | None, settings: Settings) -> int:
    from server.providers.base import dollars_to_cents
    from server.studies.launch import study_reward

    if value is None:
        return study_reward(settings)
    try:
        return dollars_to_cents(value.lstrip("$"))
    except ValueError as exc:
        raise typer.BadParameter("give the reward in dollars, e.g. 0.25", param_hint="--reward") from exc


async def _launch_on(
    sessions: Any, settings: Settings, provider: Any, ref: str, reward_cents: int, margin: float, yes: bool
) -> dict[str, Any] | None:
    """Plan, show, confirm, open the study, create the HITs (or say how Mephisto launches them)."""
    from server.providers.base import ProviderError
    from server.providers.launch import LaunchRefused
    from server.studies.launch import carry_out_study, plan_study_launch, rater_slots
    from server.studies.manage import find_study, set_status, study_launches

    try:
        row = await find_study(sessions, settings.study, ref)
    except KeyError as exc:
        console.print(f"[red]{exc}[/red]")
        raise typer.Exit(2) from exc
    if not provider.pays_here:  # Mephisto recruits and pays from its own tooling
        try:
            slots = await rater_slots(sessions, row, margin)
        except LaunchRefused as exc:
            console.print(f"[red]Launch refused:[/red] {exc}")
            raise typer.Exit(2) from exc
        await set_status(sessions, row.id, "open")
        for line in slots.lines():
            console.print(line)
        console.print(f"study {row.id} is open; launch its units with Mephisto (tasks/mephisto/README.md):")
        typer.echo(mephisto_command(settings, row.id, slots.slots, reward_cents))
        return None
    try:
        plan = await plan_study_launch(sessions, settings, provider, row, reward_cents, margin)
    except LaunchRefused as exc:
        console.print(f"[red]Launch refused:[/red] {exc}")
        raise typer.Exit(2) from exc
    before = await study_launches(sessions, settings.study, row.id)
    if before:
        slots = sum(launch.assignments for launch in before)
        console.print(f"[yellow]this study already has {slots} slots from {len(before)} launch(es)[/yellow]")
    for line in plan.lines():
        console.print(line)
    if not yes and not typer.confirm("Launch this study?", default=False):
        console.print("Nothing launched.")
        return None
    await set_status(sessions, row.id, "open")
    try:
        hits = await carry_out_study(sessions, settings, provider, plan)
    except (ProviderError, LaunchRefused) as exc:
        console.print(f"[red]{provider.name} refused:[/red] {exc} (the study is open; HITs made so far stay)")
        raise typer.Exit(1) from exc
    spec = plan.plan.spec
    console.print(
        f"study {row.id} is open: launch {spec.launch_id}, {len(hits)} HIT(s), {spec.assignments} slots"
    )
    return {"study": row.id, "launch": spec.launch_id, "hits": hits, "slots": spec.assignments}


def mephisto_command(settings: Settings, study_id: str, slots: int, reward_cents: int) -> str:
    """The command that launches a study's units with the Mephisto task (its own environment)."""
    return (
        f"AVD_URL={settings.public_url.rstrip('/')} AVD_KEY=$(avd payments key) "
        "tasks/mephisto/.venv/bin/python tasks/mephisto/run_study.py "
        f"mephisto.blueprint.study_id={study_id} mephisto.blueprint.slots={slots} "
        f"mephisto.task.task_name=avd-study-{study_id} mephisto.task.task_reward={reward_cents / 100:.2f} "
        "mephisto.provider.requester_name=YOUR_REQUESTER"
    )


@app.command("close")
def close(
    study: Annotated[str, typer.Argument(help="Study id or prefix.")],
    provider: Annotated[
        str | None, typer.Option(help="Also expire the study's HITs on this provider (e.g. mturk).")
    ] = None,
) -> None:
    """Stop handing out items (answers already given stay); with --provider, stop its HITs too."""
    from server.providers.cli import provider_or_exit
    from server.providers.hits import expire_hits
    from server.studies.launch import study_launch_prefix
    from server.studies.manage import find_study, set_status

    settings = settings_or_exit()
    prov = provider_or_exit(settings, provider) if provider else None

    async def go(sessions: Any):
        row = await find_study(sessions, settings.study, study)
        row = await set_status(sessions, row.id, "closed")
        counts = None
        if prov is not None:
            prefix = study_launch_prefix(row.id)
            counts = await expire_hits(sessions, settings.study, prov, launch_prefix=prefix)
        return row, counts

    row, counts = _with_db(settings, go)
    console.print(f"study {row.id} is closed")
    if counts is not None:
        console.print(f"expired {counts['expired']} of its HITs on {provider}")


@app.command("list")
def list_command(as_json: Annotated[bool, typer.Option("--json")] = False) -> None:
    """The studies of this study namespace, with their progress."""
    from server.studies.manage import list_studies

    settings = settings_or_exit()
    rows = _with_db(settings, lambda sessions: list_studies(sessions, settings.study))
    if as_json:
        typer.echo(json.dumps(rows, indent=1))
        return
    table = Table("id", "kind", "status", "items", "valid / wanted", "name")
    for r in rows:
        table.add_row(
            r["id"],
            r["kind"],
            r["status"],
            str(r["items"]),
            f"{r['valid_judgments']} / {r['wanted_judgments']}",
            r["name"],
        )
    out_console.print(table)


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{value:.1%}"


def _ci(pair: list | tuple) -> str:
    low, high = pair
    return "–" if low is None else f"[{low:.1%}, {high:.1%}]"


def _num(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"


def print_tables(results: dict[str, Any]) -> None:
    """The results as terminal tables (the same numbers as results.json)."""
    s = results["summary"]
    out_console.print(
        f"[bold]{results['study']['name']}[/bold] ({results['study']['kind']}): {s['items']} items, "
        f"{s['items_complete']} with all {results['study']['raters_per_item']} judgments; "
        f"{s['raters']} raters ({s['raters_excluded']} excluded); {s['judgments_valid']} valid judgments; "
        f"invalid: {s['judgments_invalid'] or 'none'}; attention checks passed "
        f"{s['attention_checks_passed']}/{s['attention_checks_answered']}"
    )
    kind = results["study"]["kind"]
    if "by_source" in results:
        label = "share reasonable" if kind == "reasonableness" else "share judged human"
        table = Table("source", "items", "judgments", label, "95% CI", "by majority", title=label)
        for src, row in results["by_source"].items():
            table.add_row(
                src, str(row["items"]), str(row["judgments"]), _pct(row["share"]), _ci(row["ci95"]),
                _pct(row["majority_share"]),
            )  # fmt: skip
        out_console.print(table)
        sub = "round" if kind == "reasonableness" else "phase"
        detail = Table("source", sub, "items", label, "95% CI", title=f"by {sub}")
        for src, groups in results.get(f"by_source_{sub}", {}).items():
            for key, row in groups.items():
                detail.add_row(src, key, str(row["items"]), _pct(row["share"]), _ci(row["ci95"]))
        out_console.print(detail)
    if kind == "preference":
        table = Table("model", "machine better", "human better", "both good", "both bad", title="preference")
        for model, row in results["by_model"].items():
            cells = [f"{row['tallies'][a]} ({_pct(row['shares'][a]['share'])})" for a in row["tallies"]]
            table.add_row(model, *cells)
        out_console.print(table)
        metrics = Table(
            "metric", "items", "rho (acceptable)", "rho (machine wins)", "AUC", title="metric vs people"
        )
        for name, row in results.get("metric_agreement", {}).items():
            metrics.add_row(
                name, str(row["items"]), _num(row["spearman_acceptable"]), _num(row["spearman_machine_wins"]),
                _num(row["auc_majority_acceptable"]),
            )  # fmt: skip
        out_console.print(metrics)
    if kind == "multichoice":
        table = Table("model", "items", "people", "95% CI", "people (majority)", "model", title="accuracy")
        for model, row in results["by_model"].items():
            table.add_row(
                model, str(row["items"]), _pct(row["human_accuracy"]), _ci(row["human_accuracy_ci95"]),
                _pct(row["majority_accuracy"]), _pct(row["model_accuracy"]),
            )  # fmt: skip
        out_console.print(table)
    a = results["agreement"]
    out_console.print(
        f"agreement: Fleiss' kappa {_num(a['fleiss_kappa'])} "
        f"(95% CI {_num(a['fleiss_kappa_ci95'][0])}–{_num(a['fleiss_kappa_ci95'][1])}, "
        f"{a['fleiss_items']} items); "
        f"Krippendorff's alpha {_num(a['krippendorff_alpha'])} "
        f"(95% CI {_num(a['krippendorff_alpha_ci95'][0])}–{_num(a['krippendorff_alpha_ci95'][1])})"
    )


@app.command("results")
def results_command(
    study: Annotated[str, typer.Argument(help="Study id or prefix.")],
    out: Annotated[
        Path | None, typer.Option(help="Folder for results (default: data_dir/studies/ID).")
    ] = None,
    seed: Annotated[int, typer.Option(help="Bootstrap seed.")] = 0,
    resamples: Annotated[int, typer.Option(min=100, help="Bootstrap resamples.")] = 2000,
) -> None:
    """Print the tables and write results.json, judgments.jsonl (pseudonymous) and bar charts."""
    from server.studies import results as res
    from server.studies.manage import find_study

    settings = settings_or_exit()

    async def go(sessions: Any):
        row = await find_study(sessions, settings.study, study)
        return await res.load(sessions, row.id)

    try:
        row, items, judgments = _with_db(settings, go)
    except KeyError as exc:
        console.print(f"[red]{exc}[/red]")
        raise typer.Exit(2) from exc
    results = res.aggregate(row, items, judgments, seed=seed, resamples=resamples)
    rows = res.judgment_rows(row, items, judgments, settings.resolved_secret)
    paths = res.write_outputs(out or settings.data_dir / "studies" / row.id, results, rows)
    print_tables(results)
    console.print("written: " + ", ".join(str(p) for p in paths.values()))
