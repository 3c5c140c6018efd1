"""What every ``avd`` command group shares: reading the settings with a clear error."""

from __future__ import annotations

import typer
from pydantic import ValidationError
from rich.console import Console

from server.settings import Settings

console = Console(stderr=True, soft_wrap=True)


def settings_or_exit(**overrides: object) -> Settings:
    """The settings, or a readable message naming the bad key and exit code 2."""
    try:
        return Settings(**overrides)  # type: ignore[arg-type]
    except ValidationError as exc:
        for error in exc.errors():
            key = ".".join(str(x) for x in error["loc"]) or "settings"
            console.print(f"[red]Invalid setting[/red] {key}: {error['msg']}")
        raise typer.Exit(2) from exc
    except (OSError, ValueError) as exc:  # an unreadable or malformed settings file
        console.print(f"[red]Cannot read the settings file:[/red] {exc}")
        raise typer.Exit(2) from exc
