"""The pay policy, pricing, and payment runs with the local provider against the real database."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from server.bots import simulate
from server.db.models import QcResult, Review
from server.db.provider_models import Assignment, Payment
from server.db.semantic_models import QcSemantic
from server.providers import get_provider
from server.providers.payments import PaymentRun, payment_token
from server.providers.policy import (
    MTURK_PRICING,
    PayPolicy,
    WorkerOutcome,
    assignments_for,
    decide,
    estimate,
    split,
)
from server.providers.reconcile import reconcile

POLICY = PayPolicy(
    completed_cents=150,
    dropout_floor_cents=50,
    lobby_timeout_cents=25,
    max_bonus_cents=300,
    hold_unreviewed=True,
    reject_unearned=True,
    rounds=10,
)


# ---------------------------------------------------------------------- the policy


def test_completed_dialog_waits_for_an_accept_then_gets_base_pay_and_bonus():
    waiting = decide(POLICY, WorkerOutcome("completed", "d1", 10, "complete", qc_verdict="review"))
    assert waiting.action == "hold" and "QC: review" in waiting.why
    accepted_by_qc = decide(POLICY, WorkerOutcome("completed", "d1", 10, "complete", qc_verdict="accept"))
    assert (accepted_by_qc.action, accepted_by_qc.base_cents, accepted_by_qc.bonus_cents) == (
        "approve",
        150,
        0,
    )
    assert accepted_by_qc.usable
    reviewed = decide(
        POLICY,
        WorkerOutcome("completed", "d1", 10, "complete", review_decision="accept", review_bonus_cents=80),
    )
    assert (reviewed.action, reviewed.base_cents, reviewed.bonus_cents, reviewed.usable) == (
        "approve",
        150,
        80,
        True,
    )


def test_review_bonus_is_capped_and_a_rejection_pays_nothing_with_feedback():
    big = decide(
        POLICY,
        WorkerOutcome("completed", "d1", 10, "complete", review_decision="accept", review_bonus_cents=9000),
    )
    assert big.bonus_cents == 300
    rejected = decide(
        POLICY,
        WorkerOutcome(
            "completed", "d1", 10, "complete", review_decision="reject", review_reason="greetings only"
        ),
    )
    assert (rejected.action, rejected.base_cents, rejected.bonus_cents, rejected.usable) == (
        "reject",
        0,
        0,
        False,
    )
    assert rejected.feedback == "greetings only"


def test_hold_can_be_switched_off():
    eager = PayPolicy(**{**POLICY.__dict__, "hold_unreviewed": False})
    decision = decide(eager, WorkerOutcome("completed", "d1", 10, "complete"))
    assert decision.action == "approve" and decision.base_cents == 150
    assert not decision.usable  # paid, but not usable until QC or a researcher accepts it


@pytest.mark.parametrize(
    ("rounds_done", "expected"),
    [(0, 50), (2, 50), (3, 50), (4, 60), (7, 105), (10, 150), (12, 150)],
)
def test_a_worker_whose_partner_left_is_paid_by_rounds_done_with_a_floor(rounds_done, expected):
    decision = decide(POLICY, WorkerOutcome("partner_dropped", "d1", rounds_done, "abandoned"))
    assert decision.action == "approve"
    assert decision.base_cents == expected
    assert not decision.usable


@pytest.mark.parametrize("kind", ["abandoned", "timed_out", "lobby_left", None])
def test_the_one_who_left_gets_nothing(kind):
    decision = decide(POLICY, WorkerOutcome(kind, "d1", 4, "abandoned"))
    assert decision.base_cents == 0 and decision.bonus_cents == 0
    assert decision.action == "reject" and decision.feedback
    lenient = PayPolicy(**{**POLICY.__dict__, "reject_unearned": False})
    assert decide(lenient, WorkerOutcome(kind)).action == "approve"


def test_lobby_timeout_follows_the_policy():
    assert decide(POLICY, WorkerOutcome("lobby_timeout")).base_cents == 25
    unpaid = PayPolicy(**{**POLICY.__dict__, "lobby_timeout_cents": 0})
    assert decide(unpaid, WorkerOutcome("lobby_timeout")).action == "reject"


def test_split_pays_the_rest_of_the_base_pay_as_a_bonus():
    d = decide(
        POLICY,
        WorkerOutcome("completed", "d", 10, "complete", review_decision="accept", review_bonus_cents=40),
    )
    assert split(d, reward_cents=50) == 100 + 40
    assert split(d, reward_cents=150) == 40
    assert split(d, reward_cents=200) == 40  # the reward is paid in full anyway
    assert split(decide(POLICY, WorkerOutcome("abandoned")), 50) == 0


def test_mturk_fees_and_the_cost_estimate():
    assert MTURK_PRICING.fee(150) == 30
    assert MTURK_PRICING.fee(3) == 1  # at least a cent
    assert MTURK_PRICING.fee(150, assignments_per_hit=10) == 60
    assert MTURK_PRICING.fee(0) == 0
    est = estimate(POLICY, MTURK_PRICING, dialogs=100, reward_cents=150, per_hit=9)
    assert est.assignments == assignments_for(100)
    assert est.expected_cents == est.assignments * 180
    assert est.max_cents == est.assignments * (150 + 30 + 300 + 60)
    assert any("$" in line for line in est.lines())


def test_over_provisioning_shrinks_with_batch_size():
    margins = [(assignments_for(d) - 2 * d) / (2 * d) for d in (1, 4, 25, 100, 1000, 10_000)]
    assert all(a >= b for a, b in zip(margins, margins[1:], strict=False))
    assert margins[0] == 0.5 and margins[-1] == 0.05
    assert all(assignments_for(d) > 2 * d for d in (1, 10, 1000))


def test_payment_tokens_are_stable_and_fit_mturk():
    token = payment_token("study", "3XYZ")
    assert token == payment_token("study", "3XYZ") != payment_token("study", "3XYZA")
    assert 1 <= len(token) <= 64


# ---------------------------------------------------------------------- local provider, real data


async def test_local_payment_run_pays_from_outcomes_and_reviews(settings, stimuli, server_factory, services):
    """Bots finish a dialog, a researcher accepts it with a bonus; the ledger says who is owed what."""
    await stimuli(2)
    server = server_factory(settings)
    summary, results = await simulate(server.url, pairs=1, timeout=60)
    assert summary["completed"] == 1, summary
    dialog_id = results[0].dialog_id
    provider = get_provider(settings, "local")

    first = await reconcile(services.sessions, settings, provider)
    assert len(first.added) == 2
    assert (await reconcile(services.sessions, settings, provider)).added == []  # idempotent

    run = PaymentRun(settings, services.sessions, provider)
    report = await run.run()
    assert len(report.held) == 2 and report.paid == 0  # no QC verdict or review yet

    async with services.sessions() as db:
        db.add(Review(dialog_id=dialog_id, decision="accept", bonus_cents=40, reviewer="tester"))
        await db.commit()
    report = await PaymentRun(settings, services.sessions, provider).run()
    assert report.paid == 2 and not report.held and not report.failed
    async with services.sessions() as db:
        payments = list((await db.execute(select(Payment).where(Payment.study == settings.study))).scalars())
        review = await db.get(Review, dialog_id)
        statuses = set(
            (await db.execute(select(Assignment.status).where(Assignment.study == settings.study))).scalars()
        )
    assert review.paid  # a decision that money depends on is locked
    assert statuses == {"approved"}
    assert (
        sorted((p.outcome, p.base_cents, p.bonus_cents, p.usable, p.status) for p in payments)
        == [("completed", 150, 40, True, "done")] * 2
    )
    again = await PaymentRun(settings, services.sessions, provider).run()
    assert again.paid == 0 and not again.held  # nothing left to do


async def test_with_the_semantic_stage_on_an_accepted_dialog_waits_for_it(
    settings_factory, stimuli, server_factory, services
):
    """QC's accept is not final while the semantic stage may still send the dialog to review."""
    settings = settings_factory(semantic_after_qc=True)
    await stimuli(2)
    server = server_factory(settings)
    summary, results = await simulate(server.url, pairs=1, timeout=60)
    assert summary["completed"] == 1, summary
    dialog_id = results[0].dialog_id
    provider = get_provider(settings, "local")
    await reconcile(services.sessions, settings, provider)
    async with services.sessions() as db:
        db.add(QcResult(dialog_id=dialog_id, verdict="accept", config_hash="test"))
        await db.commit()
    report = await PaymentRun(settings, services.sessions, provider).run()
    assert len(report.held) == 2 and report.paid == 0
    async with services.sessions() as db:
        db.add(QcSemantic(dialog_id=dialog_id, model="test", config_hash="test"))
        await db.commit()
    report = await PaymentRun(settings, services.sessions, provider).run()
    assert report.paid == 2 and not report.held


async def test_local_partner_abandons_and_the_remaining_worker_is_compensated(
    settings_factory, stimuli, server_factory, services, settings
):
    await stimuli(2)
    server = server_factory(settings)
    summary, results = await simulate(server.url, pairs=1, behaviour="abandon", at_round=4, timeout=60)
    by_outcome = {r.outcome: r for r in results}
    assert set(by_outcome) == {"left", "partner_left_paid"}, summary
    provider = get_provider(settings, "local")
    await reconcile(services.sessions, settings, provider)
    report = await PaymentRun(settings, services.sessions, provider).run()
    assert report.paid == 1 and report.rejected == 0
    async with services.sessions() as db:
        (payment,) = (await db.execute(select(Payment).where(Payment.study == settings.study))).scalars()
    assert payment.outcome == "partner_dropped"
    assert payment.base_cents == POLICY.dropout_pay(3)  # three whole rounds before the leave in round 4
    assert payment.worker_id != results[0].worker  # pseudonym, not the platform id


async def test_the_budget_cap_stops_payments_before_money_moves(settings_factory, stimuli, server_factory):
    settings = settings_factory(pay_budget_cap_cents=100, pay_hold_unreviewed=False)
    from server.services import Services

    services = Services.build(settings, settings.redis_url or "")
    try:
        await stimuli(2, target=settings)
        server = server_factory(settings)
        summary, _ = await simulate(server.url, pairs=1, timeout=60)
        assert summary["completed"] == 1
        provider = get_provider(settings, "local")
        await reconcile(services.sessions, settings, provider)
        from server.providers.payments import BudgetExceeded

        with pytest.raises(BudgetExceeded):
            await PaymentRun(settings, services.sessions, provider).run()
        async with services.sessions() as db:
            rows = list((await db.execute(select(Payment).where(Payment.study == settings.study))).scalars())
        assert rows == []  # the 150-cent payment would pass the 100-cent cap: nothing planned
    finally:
        await services.close()
