"""``avd rules``: try the live chat rules on messages without a chat, and measure them.

``avd rules check --jsonl FILE`` prints one JSON line per input line; ``avd rules evaluate``
scores every rule on the labeled set and refreshes the table in ``docs/qc.md``; ``avd rules
agreement`` compares two annotators' labels of the same messages.
"""

from __future__ import annotations

import json
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

import typer
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from rich.console import Console

if TYPE_CHECKING:  # importing the rules loads the profanity model: only when a command runs
    from server.rules.config import RulesConfig

app = typer.Typer(help="Live chat rules: check messages, list the rules, measure them.")
console = Console(stderr=True, soft_wrap=True)
_CHUNK = 5000  # lines judged per batch (one call of the profanity model)


class _Earlier(BaseModel):
    role: Literal["questioner", "answerer"]
    text: str


class _Opinion(BaseModel):
    emotion: str | None = None
    text: str


class MessageIn(BaseModel):
    """One input line; other keys (labels, split...) are allowed and ignored."""

    model_config = ConfigDict(extra="ignore")

    role: Literal["questioner", "answerer"]
    round: int = Field(0, ge=0)
    text: str
    history: list[_Earlier] = Field(default_factory=list)
    opinions: list[_Opinion] = Field(default_factory=list)


def _load_config(path: Path | None) -> RulesConfig:
    """Rules from a TOML file (its [rules] table, or the whole file), else from the study settings."""
    from server.rules.config import RulesConfig

    try:
        if path is None:
            from server.cli_common import settings_or_exit

            return RulesConfig.model_validate(settings_or_exit().rules)
        with path.open("rb") as fh:
            doc = tomllib.load(fh)
        return RulesConfig.model_validate(doc.get("rules", doc))
    except ValidationError as exc:
        for error in exc.errors():
            key = ".".join(str(x) for x in ("rules", *error["loc"]))
            console.print(f"[red]Invalid setting[/red] {key}: {error['msg']}")
        raise typer.Exit(2) from exc
    except (OSError, tomllib.TOMLDecodeError) as exc:
        console.print(f"[red]Cannot read {path}:[/red] {exc}")
        raise typer.Exit(2) from exc


def _parse(line: str) -> dict[str, Any]:
    try:
        return MessageIn.model_validate_json(line).model_dump()
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(x) for x in first["loc"])
        raise ValueError(f"{where}: {first['msg']}" if where else first["msg"]) from None


def _lines(path: Path) -> Iterator[tuple[int, str]]:
    stream = sys.stdin if str(path) == "-" else path.open(encoding="utf-8")
    try:
        for n, line in enumerate(stream, start=1):
            if line.strip():
                yield n, line
    finally:
        if stream is not sys.stdin:
            stream.close()


@app.command("check")
def check_cmd(
    jsonl: Annotated[
        Path, typer.Option("--jsonl", help="JSON lines {role, round, text, history?}; - for stdin.")
    ],
    config: Annotated[
        Path | None, typer.Option("--config", help="TOML with a rules table (default: the study settings).")
    ] = None,
    explain: Annotated[bool, typer.Option(help="Also print each hit's severity and explanation.")] = False,
) -> None:
    """Print {"line", "rules", "action"} per input line; a bad line prints {"line", "error"} (exit 1)."""
    if str(jsonl) != "-" and not jsonl.is_file():
        console.print(f"[red]No such file:[/red] {jsonl}")
        raise typer.Exit(2)
    from server.rules.registry import check_many

    cfg = _load_config(config)
    bad = 0

    def flush(batch: list[tuple[int, dict[str, Any] | str]]) -> None:
        good = [m for _, m in batch if isinstance(m, dict)]
        results = iter(check_many(good, cfg))
        for n, item in batch:
            if isinstance(item, str):
                out: dict[str, Any] = {"line": n, "error": item}
            else:
                result = next(results)
                out = {"line": n, "rules": result.rule_ids, "action": result.action}
                if explain:
                    out["hits"] = [h.as_dict() for h in result.hits]
            typer.echo(json.dumps(out, ensure_ascii=False))

    batch: list[tuple[int, dict[str, Any] | str]] = []
    try:
        for n, line in _lines(jsonl):
            try:
                batch.append((n, _parse(line)))
            except ValueError as exc:
                bad += 1
                batch.append((n, str(exc)))
            if len(batch) >= _CHUNK:
                flush(batch)
                batch = []
    except UnicodeDecodeError as exc:
        console.print(f"[red]{jsonl} is not UTF-8 text:[/red] {exc}")
        raise typer.Exit(2) from exc
    flush(batch)
    if bad:
        console.print(f"[yellow]{bad} line(s) could not be read[/yellow]")
        raise typer.Exit(1)


@app.command("list")
def list_cmd(
    config: Annotated[Path | None, typer.Option("--config", help="TOML with a rules table.")] = None,
) -> None:
    """Every rule with its roles, severity under the configuration, and the worker's explanation."""
    from server.rules.registry import RULES

    cfg = _load_config(config)
    for rule in RULES:
        rule_cfg = cfg.rule_config(rule.id)
        state = rule_cfg.severity if cfg.is_enabled(rule.id) else "off"
        roles = "+".join(sorted(rule.roles))
        typer.echo(f"{rule.id:20} {state:5} {roles:21} {rule_cfg.message or rule.explanation}")


@app.command("evaluate")
def evaluate_cmd(
    data: Annotated[
        Path | None, typer.Option(help="Labeled JSON lines (default: tasks/rules-eval/).")
    ] = None,
    docs: Annotated[Path | None, typer.Option(help="Markdown file with the table markers.")] = None,
    config: Annotated[Path | None, typer.Option("--config", help="TOML with a rules table.")] = None,
    write: Annotated[bool, typer.Option(help="Write the table into the docs file.")] = True,
    errors: Annotated[bool, typer.Option(help="List every mislabeled message.")] = False,
) -> None:
    """Per-rule precision / recall / F1 on the labeled set (dev and test splits).

    Lines the learned classifiers were trained on are judged by cross-validation models that left
    them out; other lines (a new held-out batch) by the shipped models.
    """
    from server.rules import evaluate as ev
    from server.rules.config import RulesConfig

    cfg = RulesConfig() if config is None else _load_config(config)
    try:
        reports = ev.evaluate(ev.load_labeled(data or ev.LABELED_SET), cfg)
    except (OSError, ValueError, KeyError) as exc:
        console.print(f"[red]Cannot evaluate:[/red] {exc}")
        raise typer.Exit(2) from exc
    table = ev.render_table(reports)
    typer.echo(table)
    if errors:
        for err in reports["all"].errors:
            typer.echo(json.dumps(err, ensure_ascii=False))
    if write:
        try:
            ev.write_docs(table, docs or ev.DOCS)
        except (OSError, ValueError) as exc:
            console.print(f"[red]Cannot write the table:[/red] {exc}")
            raise typer.Exit(2) from exc
        console.print(f"table written to {docs or ev.DOCS}")


@app.command("agreement")
def agreement_cmd(
    first: Annotated[Path, typer.Argument(help="Labeled JSON lines (the first annotator's).")],
    second: Annotated[Path, typer.Argument(help="The same messages, in the same order, labelled again.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
) -> None:
    """How far two annotators agree, per rule (precision/recall of the second against the first, kappa).

    Each line needs a "labels" list; where both lines carry a "text", the texts must match.
    """
    from server.rules import agreement as ag

    try:
        result = ag.compare(ag.load_labels(first), ag.load_labels(second))
    except (OSError, ValueError) as exc:
        console.print(f"[red]Cannot compare:[/red] {exc}")
        raise typer.Exit(2) from exc
    typer.echo(json.dumps(result.as_dict()) if as_json else ag.render(result))


@app.command("compile")
def compile_cmd() -> None:
    """Compile the hot rule modules with mypyc (opt-in speed-up; use with AVD_COMPILED_RULES=1).

    Needs the "fast" extra (pip install 'avd[fast]'), a C compiler and the Python headers. The build
    goes to the cache folder, one per source hash; a build of other sources is never loaded.
    """
    import time

    from server.rules import compiled

    start = time.monotonic()
    try:
        folder = compiled.build(progress=console.print)
    except compiled.CompileError as exc:
        console.print(f"[red]Cannot compile the rules:[/red] {exc}")
        raise typer.Exit(2) from exc
    console.print(
        f"compiled rules ready in {time.monotonic() - start:.0f} s: {folder}\n"
        f"use them with {compiled.ENV_SWITCH}=1"
    )
