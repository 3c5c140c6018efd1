"""MTurk end to end against the fake endpoint: launch, workers arrive from the HIT, dialog, pay.

Real server process, real Redis and database, real websockets (bots speaking the protocol
with the MTurk session fields the page sends), boto3 over HTTP to the fake MTurk, and for
the crash test the real ``avd payments run`` process, killed in the middle.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import urllib.parse
from datetime import UTC, datetime, timedelta

import httpx
import pytest
from sqlalchemy import select

from server.bots import Bot, BotConfig
from server.db.models import Review, Worker
from server.db.provider_models import Assignment, Payment
from server.providers.launch import carry_out, plan_launch
from server.providers.mturk import MTurkProvider
from server.providers.payments import PaymentRun
from server.providers.policy import PayPolicy
from server.providers.reconcile import reconcile
from server.settings import REPO_ROOT, Settings
from tests.conftest import settings_env
from tests.fake_mturk import FAKE_AWS_ENV, FakeMTurk, running_fake

REWARD = 50


@pytest.fixture
def fake(monkeypatch):
    yield from running_fake(monkeypatch)


class MTurkBot(Bot):
    """A bot that arrives the way the MTurk page does: from the HIT's URL, with the assignment."""

    def __init__(self, page_url: str, config: BotConfig, sent: dict, record_assignment: bool = True) -> None:
        query = dict(urllib.parse.parse_qsl(urllib.parse.urlparse(page_url).query))
        base = page_url.split("?")[0].rstrip("/")
        super().__init__(base, query["workerId"], config, sent)
        self.query = query
        self.record_assignment = record_assignment

    async def run(self, timeout: float = 120):
        body = {"worker": self.name, "consent": True, "provider": self.query["provider"]}
        if self.record_assignment:
            body |= {
                "assignment_id": self.query["assignmentId"],
                "hit_id": self.query["hitId"],
                "turk_submit_to": self.query["turkSubmitTo"],
            }
        async with httpx.AsyncClient(base_url=self.base_url, timeout=30) as http:
            reply = await http.post("/api/sessions", json=body)
            reply.raise_for_status()
            self.token = reply.json()["token"]
        try:
            await asyncio.wait_for(self._session(self.base_url, join=True), timeout)
        except TimeoutError:
            self.result.outcome = "bot_timeout"
        return self.result

    def submit(self, answers: dict[str, str]) -> httpx.Response:
        """What the page's form does at the end: post to turkSubmitTo/mturk/externalSubmit."""
        return httpx.post(
            self.query["turkSubmitTo"] + "/mturk/externalSubmit",
            data={"assignmentId": self.query["assignmentId"], **answers},
        )


async def launch(settings: Settings, services, dialogs: int) -> tuple[MTurkProvider, list[str]]:
    provider = MTurkProvider(settings, sandbox=True)
    plan = await plan_launch(services.sessions, settings, provider, dialogs, REWARD)
    hits = await carry_out(services.sessions, settings, provider, plan, dialogs)
    return provider, hits


def arrive(fake: FakeMTurk, hit_id: str, name: str) -> tuple[str, str]:
    worker = fake.add_worker("A" + name.upper())
    assignment = fake.accept(hit_id, worker)
    return assignment, fake.worker_url(hit_id, assignment)


def per_assignment_calls(fake: FakeMTurk, assignment: str) -> list[str]:
    return [op for op, params in fake.calls if params.get("AssignmentId") == assignment]


async def test_two_workers_complete_reconcile_then_bonus_before_approve(
    settings_factory, stimuli, server_factory, services, fake
):
    settings = settings_factory(mturk_endpoint_url=fake.url, rounds=3)  # short dialogs: a busy machine
    await stimuli(2)
    server = server_factory(settings)
    provider, hits = await launch(settings.model_copy(update={"public_url": server.url}), services, dialogs=1)
    assert len(hits) == 1

    (a1, url1), (a2, url2) = arrive(fake, hits[0], "WORKERONE"), arrive(fake, hits[0], "WORKERTWO")
    sent: dict = {}
    # the second worker's arrival is never recorded (say the request was lost): reconciling must find it
    bots = [MTurkBot(url1, BotConfig(), sent), MTurkBot(url2, BotConfig(), sent, record_assignment=False)]
    results = await asyncio.gather(*(b.run(240) for b in bots))
    outcomes = [(r.outcome, r.errors[:3], r.reconnects) for r in results]
    assert [r.outcome for r in results] == ["completed", "completed"], outcomes
    async with services.sessions() as db:
        known = set(
            (await db.execute(select(Assignment.id).where(Assignment.study == settings.study))).scalars()
        )
    assert known == {a1}

    for bot, result in zip(bots, results, strict=True):
        assert bot.submit({"completion_code": result.completion_code}).status_code == 200
    report = await reconcile(services.sessions, settings, provider)
    assert report.added == [a2] and set(report.submitted) == {a1, a2}
    async with services.sessions() as db:
        rows = {
            a.id: a
            for a in (
                await db.execute(select(Assignment).where(Assignment.study == settings.study))
            ).scalars()
        }
        workers = {
            w.id: w
            for w in (await db.execute(select(Worker))).scalars()
            if w.id in {r.worker_id for r in rows.values()}
        }
    assert {r.status for r in rows.values()} == {"submitted"}
    names = {v["Name"]: q for q, v in fake.qual_types.items()}
    consented_q = names[f"avd {settings.study} consented"]
    assert {w for (q, w) in fake.worker_quals if q == consented_q} == {"AWORKERONE", "AWORKERTWO"}
    assert {r.completion_code for r in rows.values()} == {r.completion_code for r in results}
    # our ids are pseudonyms; the raw MTurk id is kept only on the worker row, for payment
    assert {w.platform_worker_id for w in workers.values()} == {"AWORKERONE", "AWORKERTWO"}
    assert not set(workers) & {"AWORKERONE", "AWORKERTWO"}

    held = await PaymentRun(settings, services.sessions, provider).run()
    assert sorted(held.held) == sorted([a1, a2]) and fake.count("SendBonus") == 0  # waits for review
    dialog_id = results[0].dialog_id
    async with services.sessions() as db:
        db.add(Review(dialog_id=dialog_id, decision="accept", bonus_cents=40, reviewer="r"))
        await db.commit()
    balance = fake.balance
    paid = await PaymentRun(settings, services.sessions, provider).run()
    assert paid.paid == 2 and not paid.failed, paid

    policy = PayPolicy.from_settings(settings)
    expected_bonus = policy.completed_cents - REWARD + 40
    for assignment in (a1, a2):
        calls = per_assignment_calls(fake, assignment)
        assert calls.index("SendBonus") < calls.index("ApproveAssignment")  # bonus before approve
        assert fake.assignments[assignment].status == "Approved"
        (bonus,) = [b for b in fake.bonuses if b["AssignmentId"] == assignment]
        assert bonus["BonusAmount"] == f"{expected_bonus // 100}.{expected_bonus % 100:02d}"
        assert bonus["token"] and bonus["WorkerId"] == fake.assignments[assignment].worker_id
    fee = lambda c: max(1, -(-c * 20 // 100))  # noqa: E731
    assert balance - fake.balance == 2 * (REWARD + fee(REWARD) + expected_bonus + fee(expected_bonus))

    calls_before = len(fake.calls)
    again = await PaymentRun(settings, services.sessions, provider).run()
    assert again.paid == 0 and fake.calls[calls_before:] == []  # nothing left, nothing re-sent
    async with services.sessions() as db:
        payments = list((await db.execute(select(Payment).where(Payment.study == settings.study))).scalars())
        review = await db.get(Review, dialog_id)
    assert {(p.outcome, p.status, p.base_cents, p.bonus_cents, p.usable) for p in payments} == {
        ("completed", "done", policy.completed_cents, 40, True)
    }
    assert review.paid


async def test_partner_abandons_and_the_remaining_worker_is_compensated(
    settings_factory, stimuli, server_factory, services, fake
):
    settings = settings_factory(mturk_endpoint_url=fake.url, rounds=3)  # short dialogs: a busy machine
    await stimuli(2)
    server = server_factory(settings)
    provider, hits = await launch(settings.model_copy(update={"public_url": server.url}), services, dialogs=1)
    (a_left, url_left), (a_stay, url_stay) = arrive(fake, hits[0], "LEAVER"), arrive(fake, hits[0], "STAYER")
    sent: dict = {}
    leaver = MTurkBot(url_left, BotConfig("abandon", at_round=3), sent)
    stayer = MTurkBot(url_stay, BotConfig(), sent)
    left, stayed = await asyncio.gather(leaver.run(240), stayer.run(240))
    assert (left.outcome, stayed.outcome) == ("left", "partner_left_paid"), (left, stayed)

    fake.return_assignment(a_left)  # the page told them to return the HIT
    assert stayer.submit({"completion_code": stayed.completion_code}).status_code == 200
    report = await reconcile(services.sessions, settings, provider)
    assert report.returned == [a_left] and report.submitted == [a_stay]

    await PaymentRun(settings, services.sessions, provider).run()
    async with services.sessions() as db:
        payments = list((await db.execute(select(Payment).where(Payment.study == settings.study))).scalars())
    (payment,) = payments  # nothing at all for the one who left
    policy = PayPolicy.from_settings(settings)
    assert payment.assignment_id == a_stay and payment.outcome == "partner_dropped"
    assert payment.base_cents == policy.dropout_pay(2) and not payment.usable
    assert fake.assignments[a_stay].status == "Approved"
    bonuses = [b for b in fake.bonuses if b["AssignmentId"] == a_stay]
    assert sum(int(b["BonusAmount"].replace(".", "")) for b in bonuses) == max(0, payment.base_cents - REWARD)
    assert fake.assignments[a_left].status == "Returned"


async def test_returned_and_abandoned_assignments_are_closed_and_the_slot_reopens(
    settings_factory, stimuli, server_factory, services, fake
):
    settings = settings_factory(mturk_endpoint_url=fake.url, rounds=3)  # short dialogs: a busy machine
    await stimuli(2)
    server = server_factory(settings)
    provider, hits = await launch(settings.model_copy(update={"public_url": server.url}), services, dialogs=1)
    hit = hits[0]
    slots = fake.hits[hit]["MaxAssignments"]

    async def open_page(url: str) -> None:
        """The worker opens the page and consents (the session records the assignment)."""
        bot = MTurkBot(url, BotConfig(), {})
        body = {
            "worker": bot.name,
            "consent": True,
            "provider": "mturk-sandbox",
            "assignment_id": bot.query["assignmentId"],
            "hit_id": bot.query["hitId"],
            "turk_submit_to": bot.query["turkSubmitTo"],
        }
        async with httpx.AsyncClient(base_url=server.url) as http:
            assert (await http.post("/api/sessions", json=body)).status_code == 200
            assert (await http.post("/api/sessions", json=body)).status_code == 200  # a reload is fine
            stolen = body | {"worker": "ASOMEONEELSE"}
            assert (await http.post("/api/sessions", json=stolen)).status_code == 403

    returner, url_r = arrive(fake, hit, "RETURNER")
    await open_page(url_r)
    fake.return_assignment(returner)
    assert provider.get_hit(hit).available == slots  # the returned slot is open again
    report = await reconcile(services.sessions, settings, provider)
    assert report.returned == [returner] and report.abandoned == []

    walker, url_w = arrive(fake, hit, "WALKER")
    await open_page(url_w)
    report = await reconcile(services.sessions, settings, provider)
    assert report.returned == report.abandoned == []  # still within the assignment time: working
    fake.abandon(walker)  # never comes back; MTurk lets the assignment run out
    later = datetime.now(UTC) + timedelta(seconds=settings.mturk_assignment_duration_seconds + 120)
    report = await reconcile(services.sessions, settings, provider, now=later)
    assert report.abandoned == [walker]
    async with services.sessions() as db:
        statuses = dict(
            (
                await db.execute(
                    select(Assignment.id, Assignment.status).where(Assignment.study == settings.study)
                )
            ).all()
        )
    assert statuses == {returner: "returned", walker: "abandoned"}
    paid = await PaymentRun(settings, services.sessions, provider).run()
    assert paid.paid == paid.rejected == 0 and fake.count("SendBonus") == 0


async def test_preview_and_malformed_arrivals_are_refused(settings, server_factory):
    server = server_factory(settings)
    async with httpx.AsyncClient(base_url=server.url) as http:
        base = {"worker": "AWORKERX", "consent": True, "provider": "mturk-sandbox", "hit_id": "H1"}
        preview = await http.post(
            "/api/sessions", json=base | {"assignment_id": "ASSIGNMENT_ID_NOT_AVAILABLE"}
        )
        assert preview.status_code == 400 and "preview" in preview.json()["detail"]
        bad_submit = await http.post(
            "/api/sessions", json=base | {"assignment_id": "A1", "turk_submit_to": "javascript:alert(1)"}
        )
        assert bad_submit.status_code == 400
        plain_http = await http.post(
            "/api/sessions", json=base | {"assignment_id": "A2", "turk_submit_to": "http://evil.example"}
        )
        assert plain_http.status_code == 400
        ok = await http.post(
            "/api/sessions",
            json=base | {"assignment_id": "A3", "turk_submit_to": "https://workersandbox.mturk.com"},
        )
        assert ok.status_code == 200
        config = (await http.get("/api/providers/config")).json()
        assert config["completed_cents"] == settings.pay_completed_cents


async def test_payments_rerun_after_a_crash_in_the_middle_pays_nobody_twice(
    settings_factory, stimuli, server_factory, services, fake
):
    settings = settings_factory(mturk_endpoint_url=fake.url, rounds=3)  # short dialogs: a busy machine
    await stimuli(3)
    server = server_factory(settings)
    provider, hits = await launch(settings.model_copy(update={"public_url": server.url}), services, dialogs=2)
    arrivals = [arrive(fake, hits[0], f"CRASH{i}") for i in range(4)]
    sent: dict = {}
    bots = [MTurkBot(url, BotConfig(), sent) for _, url in arrivals]
    results = await asyncio.gather(*(b.run(240) for b in bots))
    assert [r.outcome for r in results] == ["completed"] * 4, results
    for bot, result in zip(bots, results, strict=True):
        assert bot.submit({"completion_code": result.completion_code}).status_code == 200
    async with services.sessions() as db:
        for dialog_id in {r.dialog_id for r in results}:
            db.add(Review(dialog_id=dialog_id, decision="accept", bonus_cents=25, reviewer="r"))
        await db.commit()

    env = settings_env(settings) | FAKE_AWS_ENV
    command = [sys.executable, "-m", "server.cli", "payments", "run", "--provider", "mturk-sandbox"]

    async def run_until(hold) -> None:
        """Start ``avd payments run``; kill it the moment the held call has been applied."""
        proc = subprocess.Popen(
            command, cwd=REPO_ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        try:
            assert await asyncio.to_thread(hold.arrived.wait, 90), (
                proc.stderr.read() if proc.poll() else "no call"
            )
            proc.kill()
            proc.wait(10)
        finally:
            hold.release.set()
            if proc.poll() is None:
                proc.kill()

    balance = fake.balance
    await run_until(fake.hold("SendBonus", nth=3))  # crash after the 3rd bonus is paid, before we record it
    assert len(fake.bonuses) == 3
    await run_until(fake.hold("ApproveAssignment", nth=1))  # crash after an approval, before we record it
    final = subprocess.run(command, cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert final.returncode == 0, final.stderr

    assignment_ids = [a for a, _ in arrivals]
    assert sorted(b["AssignmentId"] for b in fake.bonuses) == sorted(assignment_ids)  # one bonus each
    assert all(fake.assignments[a].status == "Approved" for a in assignment_ids)
    policy = PayPolicy.from_settings(settings)
    bonus = policy.completed_cents - REWARD + 25
    fee = lambda c: max(1, -(-c * 20 // 100))  # noqa: E731
    assert balance - fake.balance == 4 * (REWARD + fee(REWARD) + bonus + fee(bonus))  # exactly once each
    async with services.sessions() as db:
        payments = list((await db.execute(select(Payment).where(Payment.study == settings.study))).scalars())
    assert len(payments) == 4 and {p.status for p in payments} == {"done"}
    rerun = subprocess.run(command, cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert rerun.returncode == 0 and '"paid": 0' in rerun.stdout
