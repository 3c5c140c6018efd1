"""Paying study raters by the written policy (docs/payments.md): the rules, then end to end.

End to end: a real server process, bots rating through the real rater API after arriving
from the study's HITs on the fake MTurk (or by link, locally), submissions with the
completion code, then ``avd payments run`` bonusing, approving and rejecting the right
assignments through the same provider code as the dialogs, once: a second run does nothing.
"""

from __future__ import annotations

import asyncio
import json
import urllib.parse
from dataclasses import replace
from pathlib import Path

import httpx
import pytest
from sqlalchemy import select

from server.db.provider_models import Assignment, Payment
from server.providers.api import provider_api_key
from server.providers.mturk import MTurkProvider
from server.providers.payments import PaymentRun
from server.providers.policy import (
    DUPLICATE_STUDY,
    EXCLUDED_FEEDBACK,
    UNEARNED_STUDY,
    PayPolicy,
    WorkerOutcome,
    decide,
    split,
)
from server.providers.reconcile import reconcile
from server.settings import Settings
from server.studies.bots import RaterBot, run_bots
from server.studies.build import BuildOptions, build_study
from server.studies.manage import set_status
from tests.fake_mturk import FakeMTurk, MTurkFault, running_fake
from tests.test_mturk_launch import avd
from tests.test_payments import POLICY as DIALOG_POLICY
from tests.test_study_launch import launch_study
from tests.test_study_support import export_with_images, real_run, reasonable_oracle

POLICY = replace(
    DIALOG_POLICY,
    study_completed_cents=100,
    study_excluded_cents=25,
    study_reject_excluded=False,
    study_max_too_fast_share=0.5,
)
REJECTING = PayPolicy(**{**POLICY.__dict__, "study_reject_excluded": True})
MIN_SECONDS = 1.5  # answers faster than this are replaced (a bot answering at once is far below) ...
THINK = 1.8  # ... and the bots that read take this long
# 4 items (2 pairs) x 2 raters; 3 items each with the check 2nd: 2 regular, so 4 raters (+ margin)
SMALL = BuildOptions(kind="reasonableness", items=4, raters=2, items_per_rater=3, attention_every=2, seed=1)


def completed(valid: int, **invalid: int) -> WorkerOutcome:
    return WorkerOutcome("study_completed", task="study", valid_judgments=valid, invalid_judgments=invalid)


# ---------------------------------------------------------------------- the rules


def test_a_rater_who_finished_is_paid_the_completed_rate_without_waiting_for_review():
    decision = decide(POLICY, completed(5, lease_expired=1))
    assert (decision.action, decision.base_cents, decision.bonus_cents, decision.usable) == (
        "approve", 100, 0, True,
    )  # fmt: skip
    assert split(decision, 25) == 75  # the HIT reward plus the rest as a bonus


def test_an_excluded_rater_is_paid_the_excluded_rate_or_rejected_with_the_reason():
    excluded = WorkerOutcome("study_excluded", task="study", invalid_judgments={"failed_attention_check": 1})
    paid = decide(POLICY, excluded)
    assert (paid.action, paid.base_cents, paid.bonus_cents, paid.usable) == ("approve", 25, 0, False)
    assert split(paid, 25) == 0  # the reward only: no completion pay
    rejected = decide(REJECTING, excluded)
    assert (rejected.action, rejected.base_cents) == ("reject", 0)
    assert rejected.feedback == EXCLUDED_FEEDBACK["attention"] and "check" in rejected.feedback


def test_a_rater_with_mostly_too_fast_answers_is_paid_as_excluded():
    fast = decide(POLICY, completed(1, too_fast=2))
    assert (fast.action, fast.base_cents, fast.usable) == ("approve", 25, False) and "too fast" in fast.why
    assert decide(REJECTING, completed(1, too_fast=2)).feedback == EXCLUDED_FEEDBACK["too_fast"]
    half = decide(POLICY, completed(2, too_fast=2))  # not more than the share: still finished
    assert (half.action, half.base_cents) == ("approve", 100)
    strict = PayPolicy(**{**POLICY.__dict__, "study_max_too_fast_share": 0.0})
    assert decide(strict, completed(9, too_fast=1)).base_cents == 25


def test_the_same_ratings_submitted_twice_are_paid_once():
    twice = WorkerOutcome("study_completed", task="study", valid_judgments=3, claimed_by="A1")
    decision = decide(POLICY, twice)
    assert (decision.action, decision.feedback) == ("reject", DUPLICATE_STUDY)
    lenient = PayPolicy(**{**POLICY.__dict__, "reject_unearned": False})
    assert (decide(lenient, twice).action, decide(lenient, twice).base_cents) == ("approve", 0)
    nothing = decide(POLICY, WorkerOutcome(None, task="study"))
    assert (nothing.action, nothing.feedback) == ("reject", UNEARNED_STUDY)
    assert "dialog" in decide(POLICY, WorkerOutcome(None, task="dialog")).feedback


def test_policy_settings_come_from_the_settings(settings_factory):
    policy = PayPolicy.from_settings(
        settings_factory(
            pay_study_completed_cents=120,
            pay_study_excluded_cents=10,
            pay_study_reject_excluded=True,
            pay_study_max_too_fast_share=0.25,
        )
    )
    assert (
        policy.study_completed_cents,
        policy.study_excluded_cents,
        policy.study_reject_excluded,
        policy.study_max_too_fast_share,
    ) == (120, 10, True, 0.25)


# ---------------------------------------------------------------------- end to end


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("study-pay")
    return real_run("retrieval", export_with_images(root / "export"), root / "run")


@pytest.fixture
def fake(monkeypatch):
    yield from running_fake(monkeypatch)


def mturk_rater(fake: FakeMTurk, server_url: str, sid: str, hit: str, worker: str, behaviour: str):
    """A bot arriving from a HIT the way the page does: the assignment goes with its session."""
    worker = worker if worker in fake.workers else fake.add_worker(worker)
    assignment = fake.accept(hit, worker)
    url = urllib.parse.urlparse(fake.worker_url(hit, assignment))
    assert url.path == f"/rate/{sid}"
    query = dict(urllib.parse.parse_qsl(url.query))
    session = {
        "provider": query["provider"],
        "assignment_id": query["assignmentId"],
        "hit_id": query["hitId"],
        "turk_submit_to": query["turkSubmitTo"],
    }
    bot = RaterBot(
        server_url, sid, query["workerId"], behaviour, oracle=reasonable_oracle, think=THINK, session=session
    )
    return assignment, bot


def submit(fake: FakeMTurk, assignment: str, bot: RaterBot) -> None:
    """What the page's form does at the end: the completion code goes to MTurk."""
    fake.submit(assignment, {"completion_code": bot.final["completion_code"]})


async def payments(settings: Settings, provider: str) -> dict:
    out = await asyncio.to_thread(avd, settings, "payments", "run", "--provider", provider)
    assert out.exit_code == 0, out.stderr
    return json.loads(out.stdout)


async def payment_rows(services, settings: Settings) -> dict[str, Payment]:
    async with services.sessions() as db:
        rows = (await db.execute(select(Payment).where(Payment.study == settings.study))).scalars()
        return {p.assignment_id: p for p in rows}


async def test_mturk_raters_are_paid_by_outcome_once_and_kept_out_after(
    settings_factory, services, server_factory, fake, run_dir
):
    settings = settings_factory(
        mturk_endpoint_url=fake.url,
        study_min_seconds=MIN_SECONDS,
        study_rater_margin=1.0,
        mturk_max_assignments_per_hit=3,
    )
    sid = (await build_study(services.sessions, settings, run_dir, SMALL)).study.id
    server = server_factory(settings)
    hits = await launch_study(settings.model_copy(update={"public_url": server.url}), services, sid)
    assert sorted(fake.hits[h]["MaxAssignments"] for h in hits) == [2, 3, 3]  # 4 raters + 4 spare
    hits.sort(key=lambda h: -fake.hits[h]["MaxAssignments"])

    a_fast, fast = mturk_rater(fake, server.url, sid, hits[0], "AFAST", "fast")
    a_lazy, lazy = mturk_rater(fake, server.url, sid, hits[0], "ALAZY", "inattentive")
    await run_bots([fast, lazy])
    a_one, one = mturk_rater(fake, server.url, sid, hits[0], "ACAREFULONE", "careful")
    a_two, two = mturk_rater(fake, server.url, sid, hits[1], "ACAREFULTWO", "careful")
    await run_bots([one, two])
    assert [b.final["state"] for b in (fast, lazy, one, two)] == ["done", "excluded", "done", "done"]
    assert len(lazy.answers) == 2 and all(len(b.answers) == 3 for b in (fast, one, two))
    for assignment, bot in ((a_fast, fast), (a_lazy, lazy), (a_one, one), (a_two, two)):
        submit(fake, assignment, bot)

    # the first careful rater takes another HIT of the study before reconciliation keeps them out:
    # nothing is left for them, and submitting the same code again is not paid twice
    a_again, again = mturk_rater(fake, server.url, sid, hits[1], "ACAREFULONE", "careful")
    await run_bots([again])
    assert again.answers == [] and again.final["completion_code"] == one.final["completion_code"]
    submit(fake, a_again, again)

    balance = fake.balance
    report = await payments(settings, "mturk-sandbox")
    assert (report["paid"], report["rejected"], report["held"], report["failed"]) == (4, 1, 0, 0)
    assert report["cents"] == 4 * 25 + 2 * 75
    status = {a: fake.assignments[a].status for a in (a_fast, a_lazy, a_one, a_two, a_again)}
    assert status == {a_fast: "Approved", a_lazy: "Approved", a_one: "Approved", a_two: "Approved",
                      a_again: "Rejected"}  # fmt: skip
    assert fake.assignments[a_again].feedback == DUPLICATE_STUDY
    bonuses = {b["AssignmentId"]: b["BonusAmount"] for b in fake.bonuses}
    assert bonuses == {a_one: "0.75", a_two: "0.75"}  # finished: the reward plus the rest of $1.00
    for assignment in (a_one, a_two):
        calls = [op for op, p in fake.calls if p.get("AssignmentId") == assignment]
        assert calls.index("SendBonus") < calls.index("ApproveAssignment")
    assert balance - fake.balance == 4 * (25 + 5) + 2 * (75 + 15)  # MTurk's 20% on reward and bonus

    rows = await payment_rows(services, settings)
    assert {a: (p.outcome, p.action, p.base_cents, p.usable) for a, p in rows.items()} == {
        a_fast: ("study_completed", "approve", 25, False),  # 2 of 3 answers too fast: the excluded rate
        a_lazy: ("study_excluded", "approve", 25, False),
        a_one: ("study_completed", "approve", 100, True),
        a_two: ("study_completed", "approve", 100, True),
        a_again: ("study_completed", "reject", 0, False),
    }
    assert all(p.status == "done" and p.dialog_id is None for p in rows.values())

    # reconciliation granted the study's "rated" qualification: its other HITs are closed to them
    names = {v["Name"]: q for q, v in fake.qual_types.items()}
    rated = names[f"avd {settings.study} rated {sid}"]
    assert {w for (q, w) in fake.worker_quals if q == rated} == {
        "AFAST",
        "ALAZY",
        "ACAREFULONE",
        "ACAREFULTWO",
    }
    with pytest.raises(MTurkFault, match=rated):
        fake.accept(hits[2], "ACAREFULTWO")
    fake.accept(hits[2], fake.add_worker("ANEWCOMER"))  # the HIT itself is open

    calls = len(fake.calls)
    rerun = await payments(settings, "mturk-sandbox")
    assert rerun["paid"] == rerun["rejected"] == 0
    money = {"SendBonus", "ApproveAssignment", "RejectAssignment"}
    assert not [op for op, _ in fake.calls[calls:] if op in money] and fake.balance == balance - 300


async def test_excluded_raters_can_be_rejected_with_the_reason(
    settings_factory, services, server_factory, fake, run_dir
):
    settings = settings_factory(
        mturk_endpoint_url=fake.url, study_min_seconds=MIN_SECONDS, pay_study_reject_excluded=True
    )
    sid = (await build_study(services.sessions, settings, run_dir, SMALL)).study.id
    server = server_factory(settings)
    public = settings.model_copy(update={"public_url": server.url})
    hits = await launch_study(public, services, sid)
    assert fake.hit_types[fake.hits[hits[0]]["HITTypeId"]]["Reward"] == "1.00"  # nothing left to bonus
    a_fast, fast = mturk_rater(fake, server.url, sid, hits[0], "AFAST", "fast")
    a_lazy, lazy = mturk_rater(fake, server.url, sid, hits[0], "ALAZY", "inattentive")
    a_good, good = mturk_rater(fake, server.url, sid, hits[0], "AGOOD", "careful")
    await run_bots([fast, lazy])
    await run_bots([good])
    for assignment, bot in ((a_fast, fast), (a_lazy, lazy), (a_good, good)):
        submit(fake, assignment, bot)

    provider = MTurkProvider(settings, sandbox=True)
    await reconcile(services.sessions, settings, provider)
    report = await PaymentRun(settings, services.sessions, provider).run()
    assert (report.paid, report.rejected) == (1, 2)
    assert fake.assignments[a_lazy].status == fake.assignments[a_fast].status == "Rejected"
    assert fake.assignments[a_lazy].feedback == EXCLUDED_FEEDBACK["attention"]
    assert fake.assignments[a_fast].feedback == EXCLUDED_FEEDBACK["too_fast"]
    assert fake.assignments[a_good].status == "Approved" and fake.bonuses == []


async def test_local_raters_fill_the_ledger_and_the_status_endpoint_says_done(
    settings_factory, services, server_factory, run_dir
):
    settings = settings_factory(study_min_seconds=MIN_SECONDS)
    sid = (await build_study(services.sessions, settings, run_dir, SMALL)).study.id
    await set_status(services.sessions, sid, "open")
    server = server_factory(settings)
    kw = {"oracle": reasonable_oracle, "think": THINK}
    lazy = RaterBot(server.url, sid, f"{settings.study}-lazy", "inattentive", **kw)
    good = RaterBot(server.url, sid, f"{settings.study}-good", "careful", **kw)
    await run_bots([lazy])
    await run_bots([good])
    assert (lazy.final["state"], good.final["state"]) == ("excluded", "done")

    report = await payments(settings, "local")
    assert (report["paid"], report["rejected"], report["cents"]) == (2, 0, 125)  # to pay by hand
    rows = await payment_rows(services, settings)
    assert sorted((p.outcome, p.action, p.base_cents, p.usable) for p in rows.values()) == [
        ("study_completed", "approve", 100, True),
        ("study_excluded", "approve", 25, False),
    ]
    assert all(a.startswith("local-") for a in rows)
    again = await payments(settings, "local")
    assert again["paid"] == 0 and len(await payment_rows(services, settings)) == 2

    async with services.sessions() as db:  # what the Mephisto task's runner and review ask
        ids = (await db.execute(select(Assignment.id).where(Assignment.study == settings.study))).scalars()
        ids = list(ids)
    auth = {"Authorization": f"Bearer {provider_api_key(settings)}"}
    async with httpx.AsyncClient(base_url=server.url) as http:
        answers = [(await http.get(f"/api/providers/assignments/{a}", headers=auth)).json() for a in ids]
    assert sorted((x["outcome"], x["done"], x["decision"]["base_cents"]) for x in answers) == [
        ("study_completed", True, 100),
        ("study_excluded", True, 25),
    ]
