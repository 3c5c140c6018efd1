"""``avd launch``, ``avd payments run|reconcile``, ``avd workers block``, ``avd hits expire``."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from typing import Annotated, Any

import typer
from rich.console import Console
from sqlalchemy.ext.asyncio import async_sessionmaker

from server.cli_common import settings_or_exit
from server.db.engine import make_engine, make_sessionmaker
from server.providers import get_provider
from server.providers.base import PROVIDERS, Provider, ProviderError, dollars_to_cents
from server.settings import Settings

console = Console(stderr=True)
payments_app = typer.Typer(help="Pay workers by the written pay policy (docs/payments.md).")
workers_app = typer.Typer(help="Crowd workers: block.")
hits_app = typer.Typer(help="Platform HITs: expire and delete.")

ProviderOpt = Annotated[str, typer.Option(help=f"One of: {', '.join(PROVIDERS)}.")]


@asynccontextmanager
async def _db(settings: Settings) -> AsyncIterator[async_sessionmaker]:
    engine = make_engine(settings.resolved_database_url)
    try:
        yield make_sessionmaker(engine)
    finally:
        await engine.dispose()


def provider_or_exit(settings: Settings, name: str) -> Provider:
    try:
        return get_provider(settings, name)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--provider") from exc


def _here_or_exit(provider: Provider) -> None:
    """Mephisto launches and pays from its own tooling; say so instead of failing half-way."""
    if not provider.pays_here:
        from server.providers.mephisto import ELSEWHERE

        console.print(f"[yellow]{ELSEWHERE}[/yellow]")
        raise typer.Exit(1)


def _run(make: Callable[[async_sessionmaker], Awaitable[Any]], settings: Settings) -> Any:
    async def main() -> Any:
        async with _db(settings) as sessions:
            return await make(sessions)

    return asyncio.run(main())


def _reward(value: str) -> int:
    try:
        cents = dollars_to_cents(value.lstrip("$"))
    except ValueError as exc:
        raise typer.BadParameter("give the reward in dollars, e.g. 1.50", param_hint="--reward") from exc
    return cents


def launch(
    provider: ProviderOpt = "mturk-sandbox",
    dialogs: Annotated[int, typer.Option(min=1, help="Dialogs wanted (two workers each).")] = 10,
    reward: Annotated[str, typer.Option(help="Reward per worker slot in dollars, e.g. 1.50.")] = "0.50",
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")] = False,
) -> None:
    """Open worker slots (HITs) for a batch of dialogs, after showing the cost and asking."""
    from server.providers.launch import LaunchRefused, carry_out, plan_launch

    settings = settings_or_exit()
    prov = provider_or_exit(settings, provider)
    reward_cents = _reward(reward)
    _here_or_exit(prov)

    async def go(sessions: async_sessionmaker) -> list[str] | None:
        try:
            plan = await plan_launch(sessions, settings, prov, dialogs, reward_cents)
        except LaunchRefused as exc:
            console.print(f"[red]Launch refused:[/red] {exc}")
            raise typer.Exit(1) from exc
        for line in plan.lines():
            console.print(line)
        if not yes and not typer.confirm("Launch this batch?", default=False):
            console.print("Nothing launched.")
            return None
        hits = await carry_out(sessions, settings, prov, plan, dialogs)
        console.print(
            f"launch {plan.spec.launch_id}: {len(hits)} HIT(s), {plan.spec.assignments} worker slots"
        )
        if prov.name == "local":
            console.print(f"workers open: {settings.public_url.rstrip('/')}/")
        return hits

    try:
        hits = _run(go, settings)
    except ProviderError as exc:
        console.print(f"[red]{prov.name} refused:[/red] {exc}")
        raise typer.Exit(1) from exc
    if hits is not None:
        typer.echo(json.dumps({"hits": hits}))


@payments_app.command("run")
def payments_run(
    provider: ProviderOpt = "mturk-sandbox",
    reconcile_first: Annotated[bool, typer.Option(help="Reconcile with the platform first.")] = True,
    limit: Annotated[int | None, typer.Option(help="Pay at most this many assignments.")] = None,
) -> None:
    """Apply the pay policy and review decisions; safe to re-run, also after a crash."""
    from server.providers.payments import BudgetExceeded, PaymentRun
    from server.providers.reconcile import reconcile

    settings = settings_or_exit()
    prov = provider_or_exit(settings, provider)
    _here_or_exit(prov)

    async def go(sessions: async_sessionmaker) -> dict[str, Any]:
        if reconcile_first:
            rec = await reconcile(sessions, settings, prov)
            console.print(f"reconciled: {rec.summary()}")
        report = await PaymentRun(settings, sessions, prov).run(limit)
        console.print(report.summary())
        for assignment_id, error in report.failed.items():
            console.print(f"[red]failed[/red] {assignment_id}: {error} (re-run to retry)")
        return {
            "paid": report.paid,
            "rejected": report.rejected,
            "held": len(report.held),
            "failed": len(report.failed),
            "cents": report.cents,
        }

    try:
        typer.echo(json.dumps(_run(go, settings)))
    except BudgetExceeded as exc:
        console.print(f"[red]Stopped:[/red] {exc}")
        raise typer.Exit(1) from exc


@payments_app.command("reconcile")
def payments_reconcile(
    provider: ProviderOpt = "mturk-sandbox",
    every: Annotated[float, typer.Option(help="Repeat every N seconds (0: once).")] = 0.0,
) -> None:
    """Repair our assignment records from the platform's (submitted, returned, abandoned)."""
    from server.providers.reconcile import reconcile

    settings = settings_or_exit()
    prov = provider_or_exit(settings, provider)

    async def go(sessions: async_sessionmaker) -> None:
        while True:
            report = await reconcile(sessions, settings, prov)
            console.print(f"{datetime.now(UTC):%H:%M:%S} {report.summary()}")
            if every <= 0:
                return
            await asyncio.sleep(every)

    _run(go, settings)


@payments_app.command("key")
def payments_key() -> None:
    """Print the key platform tooling (the Mephisto task) uses to ask this server about assignments."""
    from server.providers.api import provider_api_key

    typer.echo(provider_api_key(settings_or_exit()))


@workers_app.command("block")
def workers_block(
    worker: Annotated[
        str, typer.Argument(help="The worker's pseudonym (w...) as in exports and the dashboard.")
    ],
    reason: Annotated[str, typer.Option(help="Why; kept with the block.")],
    platform_block: Annotated[
        bool, typer.Option(help="Also place an MTurk block (counts against the worker's standing).")
    ] = False,
) -> None:
    """Keep a worker out of this study: refused by our server and excluded on their platform."""
    from server.db.models import Worker
    from server.db.provider_models import WorkerBlock

    if not reason.strip():
        raise typer.BadParameter("a block needs a reason", param_hint="--reason")
    settings = settings_or_exit()

    async def go(sessions: async_sessionmaker) -> str:
        async with sessions() as db:
            row = await db.get(Worker, worker)
            if row is None:
                console.print(f"[red]No worker {worker!r}[/red] (use the pseudonym from the data).")
                raise typer.Exit(1)
            row.blocked, row.blocked_reason = True, reason
            block = await db.get(WorkerBlock, (worker, row.provider))
            if block is None:
                block = WorkerBlock(worker_id=worker, provider=row.provider, reason=reason)
                db.add(block)
            await db.commit()
            provider_name, platform_id = row.provider, row.platform_worker_id
        if provider_name not in PROVIDERS or provider_name in ("local", "mephisto") or not platform_id:
            return f"blocked {worker} on our server"
        prov = provider_or_exit(settings, provider_name)
        await asyncio.to_thread(prov.block, platform_id, reason, platform_block)
        async with sessions() as db:
            block = await db.get(WorkerBlock, (worker, provider_name))
            assert block is not None
            block.platform_done = True
            await db.commit()
        return f"blocked {worker} on our server and on {provider_name}"

    try:
        console.print(_run(go, settings))
    except ProviderError as exc:
        console.print(f"[red]Blocked here, but the platform refused:[/red] {exc} (run again to retry)")
        raise typer.Exit(1) from exc


@hits_app.command("expire")
def hits_expire(
    provider: ProviderOpt = "mturk-sandbox",
    delete: Annotated[bool, typer.Option(help="Also delete HITs whose work is all decided.")] = False,
) -> None:
    """Stop every open HIT of this study from taking new workers (and optionally delete them)."""
    from server.providers.hits import expire_hits

    settings = settings_or_exit()
    prov = provider_or_exit(settings, provider)

    async def go(sessions: async_sessionmaker) -> dict[str, int]:
        return await expire_hits(sessions, settings.study, prov, delete=delete)

    counts = _run(go, settings)
    console.print(
        f"expired {counts['expired']}, deleted {counts['deleted']}"
        + (f", {counts['kept']} kept (work still to decide: run avd payments run)" if counts["kept"] else "")
    )
    typer.echo(json.dumps(counts))


def register(app: typer.Typer) -> None:
    """Add the crowd-platform commands to ``avd``."""
    app.command("launch")(launch)
    app.add_typer(payments_app, name="payments")
    app.add_typer(workers_app, name="workers")
    app.add_typer(hits_app, name="hits")
