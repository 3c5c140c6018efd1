"""``avd study launch`` on a crowd platform: how many rater slots a study needs, what they cost, the HITs.

A study launch is a launch like the dialogs' (``server/providers/launch.py``): one
``provider_launch`` row with the most it can cost (counted by the budget cap) written before
the first HIT, each HIT recorded the moment the platform returns it. Its id names the study
(``S<study id>-<random>``), so payments and reconciliation can tell which study a HIT's
assignments belong to without a table of their own.

Slots: every regular item needs ``raters_per_item`` valid judgments; one rater judges at most
``items_per_rater`` items, of which some are attention checks and none is the second version
of a pair they already saw. That gives the raters needed if nobody is replaced; excluded
raters and too-fast answers are replaced, so a margin (``study_rater_margin``) is added.
"""

from __future__ import annotations

import asyncio
import math
import urllib.parse
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field

from sqlalchemy import select
from sqlalchemy.ext.asyncio import async_sessionmaker

from server.db.study_models import Study, StudyItem
from server.providers.base import LaunchSpec, Provider
from server.providers.launch import LaunchPlan, LaunchRefused, carry_out, committed_cents
from server.providers.policy import CostEstimate, PayPolicy, Pricing
from server.settings import Settings
from server.studies.kinds import load_kind

LAUNCH_PREFIX = "S"
KEYWORDS = "rating, art, emotion, research, survey"


def study_launch_prefix(study_id: str) -> str:
    return f"{LAUNCH_PREFIX}{study_id}-"


def study_launch_id(study_id: str) -> str:
    """A launch id that names its study (MTurk request tokens derived from it stay under 64)."""
    return study_launch_prefix(study_id) + uuid.uuid4().hex[:8].upper()


def study_of_launch(launch_id: str | None) -> str | None:
    """The study a launch was for, or None for a dialog launch."""
    if not launch_id or not launch_id.startswith(LAUNCH_PREFIX) or "-" not in launch_id:
        return None
    return launch_id[len(LAUNCH_PREFIX) :].split("-", 1)[0] or None


def checks_per_rater(items_per_rater: int, attention_every: int, checks: int) -> int:
    """Attention checks among one rater's items: the 2nd item, then every ``attention_every``-th.

    Mirrors the assignment engine (``server/studies/assign.py``); a rater never sees a check
    twice, so there are never more than the study has.
    """
    if attention_every <= 1 or items_per_rater <= 1:
        return 0
    return min(checks, (items_per_rater - 2) // attention_every + 1)


@dataclass(frozen=True)
class RaterSlots:
    items: int
    raters_per_item: int
    regular_per_rater: int  # regular items one rater can judge
    checks_per_rater: int
    raters: int  # raters needed when nobody is replaced
    spare: int  # extra slots for replaced raters

    @property
    def slots(self) -> int:
        return self.raters + self.spare

    def lines(self) -> list[str]:
        return [
            f"items: {self.items} x {self.raters_per_item} raters; one rater judges up to "
            f"{self.regular_per_rater} items (+{self.checks_per_rater} attention checks)",
            f"rater slots: {self.slots} ({self.raters} needed, {self.spare} spare for replaced raters)",
        ]


async def rater_slots(sessions: async_sessionmaker, study: Study, margin: float) -> RaterSlots:
    """How many raters a study needs, from its items and settings, plus the margin."""
    async with sessions() as db:
        rows = (
            await db.execute(
                select(StudyItem.is_attention, StudyItem.pair_key, StudyItem.id).where(
                    StudyItem.study_id == study.id
                )
            )
        ).all()
    regular = [r for r in rows if not r.is_attention]
    checks = len(rows) - len(regular)
    groups = len({r.pair_key or f"item:{r.id}" for r in regular})  # a rater sees one version of a pair
    check_count = checks_per_rater(study.items_per_rater, study.attention_every, checks)
    per_rater = min(study.items_per_rater - check_count, groups)
    if not regular or per_rater < 1:
        raise LaunchRefused(f"study {study.id} has no items a rater could judge")
    raters = math.ceil(len(regular) * study.raters_per_item / per_rater)
    spare = max(1, math.ceil(raters * margin))
    return RaterSlots(len(regular), study.raters_per_item, per_rater, check_count, raters, spare)


def study_reward(settings: Settings) -> int:
    """The HIT reward: what every approved rater gets; finishing adds a bonus up to the completed pay."""
    if settings.study_reward_cents:
        return settings.study_reward_cents
    if not settings.pay_study_reject_excluded and settings.pay_study_excluded_cents > 0:
        return settings.pay_study_excluded_cents
    return max(1, settings.pay_study_completed_cents)


def study_cost(
    policy: PayPolicy, pricing: Pricing, slots: int, reward_cents: int, per_hit: int
) -> CostEstimate:
    """Every slot taken and paid the completed rate: the expected and the largest cost (no review bonus)."""
    paid = max(reward_cents, policy.study_completed_cents, policy.study_excluded_cents)
    top_up = paid - reward_cents
    fees = pricing.fee(reward_cents, per_hit) + pricing.fee(top_up)
    each = paid + fees
    return CostEstimate(0, slots, reward_cents, slots * each, slots * each, slots * fees)


def study_page_url(settings: Settings, provider: str, study_id: str) -> str:
    """The rater page the HIT frames, beside the worker page (``mturk_external_url`` or ``public_url``)."""
    base = urllib.parse.urlsplit(settings.mturk_external_url or settings.public_url)
    path = base.path.rstrip("/") + f"/rate/{study_id}"
    return urllib.parse.urlunsplit((base.scheme, base.netloc, path, f"provider={provider}", ""))


@dataclass
class StudyLaunchPlan:
    """What ``avd study launch`` shows before asking; ``plan`` is what ``carry_out`` creates."""

    study: Study
    slots: RaterSlots
    plan: LaunchPlan
    warnings: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        est, plan = self.plan.estimate, self.plan
        slots = max(1, est.assignments)
        paid = est.expected_cents / slots
        top_up = (est.expected_cents - est.fees_expected_cents) // slots - est.reward_cents
        bonus = f"; a finished rater gets ${top_up / 100:.2f} more as a bonus" if top_up > 0 else ""
        return [
            f"study {self.study.id} ({self.study.kind}) on {plan.provider}, rater page: {plan.spec.url}",
            *self.slots.lines(),
            f"reward per slot: ${est.reward_cents / 100:.2f}{bonus}",
            f"most it can cost: ${est.max_cents / 100:.2f} (every slot paid in full, "
            f"${paid / 100:.2f} each with fees; platform fees ${est.fees_expected_cents / 100:.2f} in all)",
            f"budget: ${plan.committed_cents / 100:.2f} already committed of ${plan.cap_cents / 100:.2f}",
            *[f"warning: {w}" for w in [*plan.warnings, *self.warnings]],
        ]


async def plan_study_launch(
    sessions: async_sessionmaker,
    settings: Settings,
    provider: Provider,
    study: Study,
    reward_cents: int,
    margin: float,
) -> StudyLaunchPlan:
    """Slots, cost and HIT settings of a study launch; refuses what breaks a rule (budget, HTTPS)."""
    if reward_cents < 1:
        raise LaunchRefused("a study launch needs a reward of at least one cent")
    if study.status == "closed":
        raise LaunchRefused(f"study {study.id} is closed; nothing would be handed out")
    slots = await rater_slots(sessions, study, margin)
    policy = PayPolicy.from_settings(settings)
    per_hit = settings.mturk_max_assignments_per_hit
    est = study_cost(policy, provider.pricing, slots.slots, reward_cents, per_hit)
    url = study_page_url(settings, provider.name, study.id)
    if (
        provider.name.startswith("mturk")
        and not settings.mturk_endpoint_url
        and not url.startswith("https://")
    ):
        raise LaunchRefused(
            f"MTurk frames the rater page only over HTTPS; {url} is not (set mturk_external_url "
            "or public_url to your HTTPS address, see docs/mturk.md)"
        )
    committed = await committed_cents(sessions, settings)
    cap = settings.pay_budget_cap_cents
    if committed + est.max_cents > cap:
        raise LaunchRefused(
            f"this study launch may cost up to ${est.max_cents / 100:.2f}; with ${committed / 100:.2f} "
            f"already committed that passes the budget cap of ${cap / 100:.2f} (pay_budget_cap_cents)"
        )
    warnings = []
    excluded_pay = 0 if policy.study_reject_excluded else policy.study_excluded_cents
    if reward_cents > policy.study_completed_cents:
        warnings.append("the reward is above the completed pay; every approved rater gets the whole reward")
    elif excluded_pay and reward_cents > excluded_pay:
        warnings.append(
            f"the reward (${reward_cents / 100:.2f}) is above the excluded pay (${excluded_pay / 100:.2f}); "
            "approving an excluded rater pays the whole reward"
        )
    balance = await asyncio.to_thread(provider.balance_cents)
    if balance is not None and balance < est.max_cents:
        warnings.append(f"the account balance (${balance / 100:.2f}) is below the most this launch can cost")
    kind = load_kind(study.kind)
    total = policy.study_completed_cents
    spec = LaunchSpec(
        launch_id=study_launch_id(study.id),
        study=settings.study,
        assignments=slots.slots,
        reward_cents=reward_cents,
        per_hit=per_hit,
        lifetime_seconds=settings.mturk_hit_lifetime_seconds,
        assignment_seconds=settings.mturk_assignment_duration_seconds,
        auto_approve_seconds=settings.mturk_auto_approval_delay_seconds,
        title=f"{kind.title} (rate short items about art; research study)"[:128],
        description=(
            f"Answer one question each about up to {study.items_per_rater} short items on artworks "
            f"and conversations about them. ${reward_cents / 100:.2f} for taking part, "
            f"${max(total, reward_cents) / 100:.2f} in all when you finish the items we have for you."
        ),
        keywords=KEYWORDS,
        url=url,
    )
    plan = LaunchPlan(spec, est, committed, cap, [], provider=provider.name)
    return StudyLaunchPlan(study, slots, plan, warnings)


async def carry_out_study(
    sessions: async_sessionmaker,
    settings: Settings,
    provider: Provider,
    plan: StudyLaunchPlan,
    on_hit: Callable[[str], None] | None = None,
) -> list[str]:
    """Create the HITs of a confirmed study plan (MTurk: with the study's own requirements)."""
    from server.providers.mturk import MTurkProvider
    from server.studies.mturk import StudyMTurkProvider

    hits_provider: Provider = provider
    if isinstance(provider, MTurkProvider):
        hits_provider = StudyMTurkProvider.like(provider, plan.study.id)
    return await carry_out(sessions, settings, hits_provider, plan.plan, 0, on_hit)
