"""``avd launch``: open worker slots on a platform within the budget, recording every HIT as it is made.

The launch row (with the most the batch can cost) is written before the first HIT, so the
budget check counts a launch that crashed half-way; each HIT is recorded the moment the
platform returns it, and HIT creation uses per-HIT request tokens, so nothing is created
twice by a retry.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import async_sessionmaker

from server.db.provider_models import Hit, Launch
from server.providers.base import LaunchSpec, Provider
from server.providers.policy import CostEstimate, PayPolicy, estimate
from server.settings import Settings


class LaunchRefused(Exception):
    """The launch would break a rule (budget, HTTPS); nothing was created."""


@dataclass
class LaunchPlan:
    spec: LaunchSpec
    estimate: CostEstimate
    committed_cents: int
    cap_cents: int
    warnings: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        return [
            f"provider: {self.provider}, worker page: {self.spec.url}",
            *self.estimate.lines(),
            f"budget: ${self.committed_cents / 100:.2f} already committed of ${self.cap_cents / 100:.2f}",
            *[f"warning: {w}" for w in self.warnings],
        ]

    provider: str = ""


def worker_page_url(settings: Settings, provider: str) -> str:
    base = settings.mturk_external_url or settings.public_url.rstrip("/") + "/"
    return base + ("&" if "?" in base else "?") + f"provider={provider}"


async def committed_cents(sessions: async_sessionmaker, settings: Settings) -> int:
    """The most every earlier launch of this study can still cost (failed launches excluded)."""
    async with sessions() as db:
        total = (
            await db.execute(
                select(func.coalesce(func.sum(Launch.max_cost_cents), 0)).where(
                    Launch.study == settings.study, Launch.status != "failed"
                )
            )
        ).scalar_one()
    return int(total)


async def plan_launch(
    sessions: async_sessionmaker, settings: Settings, provider: Provider, dialogs: int, reward_cents: int
) -> LaunchPlan:
    """Everything ``avd launch`` shows before asking for confirmation; refuses what breaks a rule."""
    if dialogs < 1 or reward_cents < 1:
        raise LaunchRefused("launch at least one dialog with a reward of at least one cent")
    policy = PayPolicy.from_settings(settings)
    per_hit = settings.mturk_max_assignments_per_hit
    est = estimate(policy, provider.pricing, dialogs, reward_cents, per_hit)
    url = worker_page_url(settings, provider.name)
    real_platform = provider.name.startswith("mturk") and not settings.mturk_endpoint_url
    if real_platform and not url.startswith("https://"):
        raise LaunchRefused(
            f"MTurk frames the worker page only over HTTPS; {url} is not (set mturk_external_url "
            "or public_url to your HTTPS address, see docs/mturk.md)"
        )
    committed = await committed_cents(sessions, settings)
    cap = settings.pay_budget_cap_cents
    if committed + est.max_cents > cap:
        raise LaunchRefused(
            f"this launch may cost up to ${est.max_cents / 100:.2f}; with ${committed / 100:.2f} already "
            f"committed that passes the budget cap of ${cap / 100:.2f} (pay_budget_cap_cents)"
        )
    warnings = []
    if reward_cents > policy.smallest_payout:
        warnings.append(
            f"the reward (${reward_cents / 100:.2f}) is above the smallest payout the policy owes "
            f"(${policy.smallest_payout / 100:.2f}); approving pays the whole reward, so workers "
            "paid less by the policy get the reward instead"
        )
    spec = LaunchSpec(
        launch_id="L" + uuid.uuid4().hex[:16].upper(),
        study=settings.study,
        assignments=est.assignments,
        reward_cents=reward_cents,
        per_hit=per_hit,
        lifetime_seconds=settings.mturk_hit_lifetime_seconds,
        assignment_seconds=settings.mturk_assignment_duration_seconds,
        auto_approve_seconds=settings.mturk_auto_approval_delay_seconds,
        title=settings.mturk_title,
        description=settings.mturk_description,
        keywords=settings.mturk_keywords,
        url=url,
    )
    balance = await asyncio.to_thread(provider.balance_cents)
    if balance is not None and balance < est.max_cents:
        warnings.append(f"the account balance (${balance / 100:.2f}) is below the most this batch can cost")
    return LaunchPlan(spec, est, committed, cap, warnings, provider=provider.name)


async def carry_out(
    sessions: async_sessionmaker,
    settings: Settings,
    provider: Provider,
    plan: LaunchPlan,
    dialogs: int,
    on_hit: Callable[[str], None] | None = None,
) -> list[str]:
    """Create the HITs of a confirmed plan; returns their ids."""
    spec = plan.spec
    async with sessions() as db:
        db.add(
            Launch(
                id=spec.launch_id,
                study=settings.study,
                provider=provider.name,
                dialogs=dialogs,
                assignments=spec.assignments,
                reward_cents=spec.reward_cents,
                max_cost_cents=plan.estimate.max_cents,
                status="launching",
            )
        )
        await db.commit()
    if provider.name == "local":  # nothing to create: workers come by link
        await _set_status(sessions, spec.launch_id, "launched")
        return []
    create_type = getattr(provider, "create_hit_type", None)
    create_hit = getattr(provider, "create_hit", None)
    if create_type is None or create_hit is None:
        raise LaunchRefused(f"{provider.name} HITs are launched from the platform's own tooling")
    ids: list[str] = []
    try:
        type_id = await asyncio.to_thread(create_type, spec)
        async with sessions() as db:
            launch = await db.get(Launch, spec.launch_id)
            assert launch is not None
            launch.hit_type_id = type_id
            await db.commit()
        left, index = spec.assignments, 0
        while left > 0:
            size = min(spec.per_hit, left)
            hit = await asyncio.to_thread(create_hit, spec, type_id, index, size)
            async with sessions() as db:
                db.add(
                    Hit(
                        id=hit.id,
                        study=settings.study,
                        provider=provider.name,
                        launch_id=spec.launch_id,
                        max_assignments=size,
                        reward_cents=spec.reward_cents,
                        expires_at=hit.expires_at,
                    )
                )
                await db.commit()
            ids.append(hit.id)
            if on_hit:
                on_hit(hit.id)
            left -= size
            index += 1
    except BaseException:
        await _set_status(sessions, spec.launch_id, "partial" if ids else "failed")
        raise
    await _set_status(sessions, spec.launch_id, "launched")
    return ids


async def _set_status(sessions: async_sessionmaker, launch_id: str, status: str) -> None:
    async with sessions() as db:
        launch = await db.get(Launch, launch_id)
        if launch is not None:
            launch.status = status
            await db.commit()
