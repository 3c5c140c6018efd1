"""``avd study launch`` on MTurk (the fake), Mephisto and locally: slots, cost, HITs, the rater page.

The slot count is checked against the real assignment engine (a rater taken through it gets
exactly the checks and regular items the count assumes); the HITs against the fake MTurk
(ExternalQuestion on the rater page, reward, the dialogs' requirements plus the study's own
*rated* one, the budget cap); the rater page in headless Chromium as MTurk frames it.
"""

from __future__ import annotations

import json
import os
import subprocess
import urllib.parse
from pathlib import Path

import pytest
from sqlalchemy import select

from server.db.models import Worker
from server.db.provider_models import Assignment, Hit, Launch
from server.db.study_models import Study
from server.providers.mturk import LOCALE, NUMBER_APPROVED, PERCENT_APPROVED, MTurkProvider
from server.providers.policy import MTURK_PRICING, PayPolicy
from server.settings import REPO_ROOT, Settings
from server.studies.assign import Assigner
from server.studies.build import BuildOptions, build_study
from server.studies.launch import (
    checks_per_rater,
    rater_slots,
    study_cost,
    study_of_launch,
    study_page_url,
    study_reward,
)
from tests.browser_support import CHROMIUM, LAUNCH_ARGS
from tests.fake_mturk import MTurkFault, running_fake
from tests.test_mturk_launch import avd, rows
from tests.test_study_support import export_with_images, real_run

MEPHISTO = REPO_ROOT / "tasks" / "mephisto"
MEPHISTO_PYTHON = Path(os.environ.get("AVD_MEPHISTO_PYTHON", MEPHISTO / ".venv" / "bin" / "python"))


# 8 items x 2 raters; 4 items each, checks 2nd and 4th, so 2 regular: 8 raters, 20% more: 10 slots
TEN_SLOTS = ("--items", "8", "--raters", "2", "--items-per-rater", "4", "--attention-every", "2")


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("study-launch")
    export = export_with_images(root / "export")
    return real_run("retrieval", export, root / "run")


@pytest.fixture
def fake(monkeypatch):
    yield from running_fake(monkeypatch)


def build(settings: Settings, run_dir: Path, *options: str) -> str:
    out = avd(settings, "study", "build", "reasonableness", "--from-run", str(run_dir), *options)
    assert out.exit_code == 0, out.stderr
    return out.stdout.strip()


def study_row(settings: Settings, sid: str) -> Study:
    (row,) = [s for s in rows(settings, Study) if s.id == sid]
    return row


# ---------------------------------------------------------------------- slots


def test_checks_per_rater_counts_the_second_item_then_every_nth():
    assert [checks_per_rater(n, 5, 99) for n in (1, 2, 6, 7, 20)] == [0, 1, 1, 2, 4]
    assert checks_per_rater(20, 0, 99) == checks_per_rater(20, 1, 99) == 0
    assert checks_per_rater(20, 2, 3) == 3  # never more than the study has


async def _walk(services, settings: Settings, sid: str, rater: str) -> tuple[int, int]:
    """Take one rater through the real engine; returns (checks, regular items) they were handed."""
    async with services.sessions() as db:
        db.add(Worker(id=rater, platform_worker_id=rater))
        await db.commit()
    engine = Assigner(services.redis, services.sessions, settings.study, min_seconds=0.0)
    checks = regular = 0
    while True:
        handout = await engine.next_item(sid, rater)
        if handout.item is None:
            return checks, regular
        item = handout.item
        checks += item.is_attention
        regular += not item.is_attention
        await engine.submit(sid, rater, item.id, item.known_answer if item.is_attention else "reasonable")


async def test_slots_follow_items_raters_checks_pairs_and_the_margin(settings, services, run_dir):
    opts = BuildOptions(kind="reasonableness", items=12, raters=3, items_per_rater=5, attention_every=2)
    built = await build_study(services.sessions, settings, run_dir, opts)
    await _open(services, built.study.id)
    slots = await rater_slots(services.sessions, built.study, margin=0.2)
    # 5 items each: checks 2nd and 4th, so 3 regular; 12 x 3 judgments / 3 = 12 raters; 20% more
    assert (slots.checks_per_rater, slots.regular_per_rater, slots.raters, slots.spare) == (2, 3, 12, 3)
    assert slots.slots == 15
    assert await _walk(services, settings, built.study.id, f"{settings.study}-a") == (2, 3)

    # 20 items each, but 12 items are 6 pairs and a rater sees one version of each: 6 regular
    wide = BuildOptions(kind="reasonableness", items=12, raters=3, items_per_rater=20, attention_every=2)
    built = await build_study(services.sessions, settings, run_dir, wide)
    await _open(services, built.study.id)
    slots = await rater_slots(services.sessions, built.study, margin=0.0)
    assert (slots.regular_per_rater, slots.raters, slots.spare) == (6, 6, 1)  # at least one spare
    checks, regular = await _walk(services, settings, built.study.id, f"{settings.study}-b")
    assert regular == slots.regular_per_rater and checks <= slots.checks_per_rater


async def _open(services, sid: str) -> None:
    from server.studies.manage import set_status

    await set_status(services.sessions, sid, "open")


def test_ids_reward_and_page_url(settings_factory):
    from server.studies.launch import study_launch_id

    launch = study_launch_id("0123456789abcdef")
    assert study_of_launch(launch) == "0123456789abcdef" and len(launch) + len("-99") <= 64
    assert study_of_launch("LABCDEF0123456789") is None and study_of_launch(None) is None
    s = settings_factory(public_url="https://h.example/avd/", mturk_external_url=None)
    assert study_page_url(s, "mturk", "abc") == "https://h.example/avd/rate/abc?provider=mturk"
    s = settings_factory(mturk_external_url="https://w.example/?x=1")
    assert study_page_url(s, "mturk-sandbox", "abc") == "https://w.example/rate/abc?provider=mturk-sandbox"
    assert study_reward(settings_factory()) == 25  # the excluded pay: finishing adds the rest as a bonus
    assert study_reward(settings_factory(pay_study_reject_excluded=True)) == 100
    assert study_reward(settings_factory(study_reward_cents=40)) == 40


# ---------------------------------------------------------------------- MTurk


def test_launch_shows_the_cost_asks_then_creates_hits_on_the_rater_page(settings_factory, fake, run_dir):
    settings = settings_factory(
        mturk_endpoint_url=fake.url,
        public_url="http://127.0.0.1:8123",
        mturk_max_dialogs_per_worker=1,
        mturk_max_assignments_per_hit=4,
    )
    sid = build(settings, run_dir, *TEN_SLOTS)
    declined = avd(settings, "study", "launch", sid, "--provider", "mturk-sandbox", stdin="n\n")
    assert declined.exit_code == 0, declined.stderr
    assert (
        "rater slots: 10 (8 needed, 2 spare" in declined.stderr and "most it can cost: $" in declined.stderr
    )
    assert "reward per slot: $0.25; a finished rater gets $0.75 more as a bonus" in declined.stderr
    assert "Nothing launched." in declined.stderr
    assert fake.hits == {} and study_row(settings, sid).status == "draft"

    out = avd(settings, "study", "launch", sid[:8], "--provider", "mturk-sandbox", "--yes")
    assert out.exit_code == 0, out.stderr
    reply = json.loads(out.stdout)
    assert reply["study"] == sid and reply["slots"] == 10 and set(reply["hits"]) == set(fake.hits)
    assert sorted(h["MaxAssignments"] for h in fake.hits.values()) == [2, 4, 4]
    for hit_id in fake.hits:
        assert fake.external_url(hit_id) == f"http://127.0.0.1:8123/rate/{sid}?provider=mturk-sandbox"
    (htype,) = fake.hit_types.values()
    assert htype["Reward"] == "0.25" and "$1.00 in all" in htype["Description"]
    reqs = {r["QualificationTypeId"]: r for r in htype["QualificationRequirements"]}
    names = {q: v["Name"] for q, v in fake.qual_types.items()}
    own = {names[q]: r["Comparator"] for q, r in reqs.items() if q in names}
    assert own == {  # the dialogs' per-worker dialog limit does not apply to a study
        f"avd {settings.study} blocked": "DoesNotExist",
        f"avd {settings.study} rated {sid}": "DoesNotExist",
    }
    assert {LOCALE, PERCENT_APPROVED, NUMBER_APPROVED} <= set(reqs)

    (launch,) = rows(settings, Launch)
    assert study_of_launch(launch.id) == sid and launch.dialogs == 0 and launch.assignments == 10
    policy = PayPolicy.from_settings(settings)
    assert launch.max_cost_cents == study_cost(policy, MTURK_PRICING, 10, 25, 4).max_cents
    assert launch.max_cost_cents == 10 * (100 + 5 + 15)  # paid in full, 20% fee on reward and bonus
    assert {h.launch_id for h in rows(settings, Hit)} == {launch.id}
    assert study_row(settings, sid).status == "open"

    again = avd(settings, "study", "launch", sid, "--provider", "mturk-sandbox", "--margin", "0", "--yes")
    assert again.exit_code == 0, again.stderr
    assert "already has 10 slots from 1 launch" in again.stderr
    assert json.loads(again.stdout)["slots"] == 9
    assert len(fake.qual_types) == 3  # blocked, limit (made for the dialogs), rated: found again

    # closing the study with its provider stops its HITs from taking anyone new
    closed = avd(settings, "study", "close", sid, "--provider", "mturk-sandbox")
    assert closed.exit_code == 0, closed.stderr
    assert f"expired {len(fake.hits)} of its HITs" in closed.stderr
    assert study_row(settings, sid).status == "closed"
    assert {h.status for h in rows(settings, Hit)} == {"expired"}
    for hit_id in fake.hits:
        with pytest.raises(MTurkFault):
            fake.accept(hit_id, fake.add_worker())


def test_the_budget_cap_and_https_refuse_before_anything_is_made(settings_factory, fake, run_dir):
    settings = settings_factory(mturk_endpoint_url=fake.url, pay_budget_cap_cents=500)
    sid = build(settings, run_dir, *TEN_SLOTS)
    out = avd(settings, "study", "launch", sid, "--provider", "mturk-sandbox", "--yes")
    assert out.exit_code == 2 and "budget cap" in out.stderr
    assert fake.hits == {} and rows(settings, Launch) == [] and study_row(settings, sid).status == "draft"

    real = settings_factory(public_url="http://example.org")  # no endpoint override: real MTurk
    out = avd(real, "study", "launch", sid, "--provider", "mturk", "--yes")
    assert out.exit_code == 2 and "HTTPS" in out.stderr
    out = avd(real, "study", "launch", "nosuch", "--provider", "mturk", "--yes")
    assert out.exit_code == 2 and "no study" in out.stderr


def test_local_launch_still_prints_links(settings_factory, run_dir):
    settings = settings_factory(public_url="http://raters.example")
    sid = build(settings, run_dir, "--items", "4", "--raters", "1")
    out = avd(settings, "study", "launch", sid, "--links", "1")
    assert out.exit_code == 0 and out.stdout.split() == [
        f"http://raters.example/rate/{sid}",
        f"http://raters.example/rate/{sid}?worker=rater-1",
    ]
    assert rows(settings, Launch) == []


# ---------------------------------------------------------------------- Mephisto


def test_mephisto_launch_opens_the_study_and_prints_the_task_command(settings_factory, run_dir):
    settings = settings_factory(public_url="https://avd.example")
    sid = build(settings, run_dir, *TEN_SLOTS)
    out = avd(settings, "study", "launch", sid, "--provider", "mephisto")
    assert out.exit_code == 0, out.stderr
    command = out.stdout.strip()
    assert command.startswith("AVD_URL=https://avd.example AVD_KEY=$(avd payments key) ")
    assert "tasks/mephisto/run_study.py" in command and (MEPHISTO / "run_study.py").exists()
    assert f"mephisto.blueprint.study_id={sid}" in command and "mephisto.blueprint.slots=10" in command
    assert "mephisto.task.task_reward=0.25" in command
    assert study_row(settings, sid).status == "open" and rows(settings, Launch) == []


@pytest.mark.skipif(
    not MEPHISTO_PYTHON.exists(),
    reason="the Mephisto environment is not installed: run tasks/mephisto/install.sh",
)
def test_mephisto_composes_the_printed_study_config(settings_factory, run_dir):
    """The printed overrides against the real blueprint and Hydra config (no units are launched)."""
    settings = settings_factory(public_url="https://avd.example")
    sid = build(settings, run_dir, "--items", "4", "--raters", "1")
    command = avd(settings, "study", "launch", sid, "--provider", "mephisto").stdout.split()
    overrides = [w for w in command if w.startswith("mephisto.")]
    env = {**os.environ, "AVD_URL": "https://avd.example", "AVD_KEY": "k"}
    shown = subprocess.run(
        [str(MEPHISTO_PYTHON), "run_study.py", *overrides, "--cfg", "job", "--resolve"],
        cwd=MEPHISTO, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert shown.returncode == 0, shown.stderr[-2000:]
    for line in ("_blueprint_type: avd_study", f"study_id: {sid}", "maximum_units_per_worker: 1"):
        assert line in shown.stdout
    code = (
        "from avd_mephisto.study import study_page_url as u; print(u('https://a.example/', 'S1', '7', 'W 1'))"
    )
    page = subprocess.run(
        [str(MEPHISTO_PYTHON), "-c", code], cwd=MEPHISTO, capture_output=True, text=True, timeout=120
    )
    assert page.stdout.strip() == "https://a.example/rate/S1?provider=mephisto&assignmentId=7&workerId=W_1"


# ---------------------------------------------------------------------- the rater page on MTurk


async def launch_study(settings: Settings, services, sid: str) -> list[str]:
    """Launch a built study on the fake MTurk in this process (what ``avd study launch --yes`` does)."""
    from server.studies.launch import carry_out_study, plan_study_launch
    from server.studies.manage import find_study, set_status

    provider = MTurkProvider(settings, sandbox=True)
    study = await find_study(services.sessions, settings.study, sid)
    plan = await plan_study_launch(
        services.sessions, settings, provider, study, study_reward(settings), settings.study_rater_margin
    )
    await set_status(services.sessions, sid, "open")
    return await carry_out_study(services.sessions, settings, provider, plan)


@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium")
async def test_the_rater_page_in_an_mturk_frame_submits_the_hit(
    settings_factory, services, server_factory, fake, run_dir
):
    from playwright.async_api import async_playwright, expect

    settings = settings_factory(
        mturk_endpoint_url=fake.url, study_min_seconds=0.0, mturk_max_assignments_per_hit=2
    )
    opts = BuildOptions(kind="reasonableness", items=4, raters=1, items_per_rater=3, attention_every=2)
    sid = (await build_study(services.sessions, settings, run_dir, opts)).study.id
    server = server_factory(settings)
    hits = await launch_study(settings.model_copy(update={"public_url": server.url}), services, sid)
    assert len(hits) >= 2
    expect.set_options(timeout=20_000)  # a busy machine; not a timing assertion
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=LAUNCH_ARGS)
        errors: list[str] = []

        async def open_page(url: str):
            page = await (await browser.new_context()).new_page()
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            await page.goto(url)
            return page

        preview = await open_page(fake.worker_url(hits[0]))  # before accepting: nothing can start
        await expect(preview.get_by_test_id("mturk-preview")).to_be_visible()
        await expect(preview.get_by_test_id("consent-agree")).to_be_disabled()
        await expect(preview.get_by_test_id("instructions")).to_contain_text("highlighted")

        worker = fake.add_worker("ABROWSERRATER")
        assignment = fake.accept(hits[0], worker)
        page = await open_page(fake.worker_url(hits[0], assignment))
        await page.get_by_test_id("consent-agree").click()
        for _ in range(3):  # "not reasonable" is also the checks' stated answer
            await expect(page.get_by_test_id("screen-item")).to_be_visible()
            progress = await page.get_by_test_id("progress").inner_text()
            await page.get_by_test_id("option-not_reasonable").click()
            await expect(page.get_by_test_id("progress")).not_to_have_text(progress)
        await expect(page.get_by_test_id("mturk-done")).to_be_visible()
        code = (await page.get_by_test_id("completion-code").inner_text()).strip()
        async with page.expect_navigation():
            await page.get_by_test_id("mturk-submit").click()
        assert fake.assignments[assignment].status == "Submitted"
        assert fake.assignments[assignment].fields == {"completion_code": code}

        # the same rater takes another HIT of the study (before reconciliation keeps them out)
        second = fake.accept(hits[1], worker)
        page = await open_page(fake.worker_url(hits[1], second))
        await page.get_by_test_id("consent-agree").click()
        await expect(page.get_by_test_id("rater-return")).to_contain_text("return this HIT")
        await expect(page.get_by_test_id("mturk-submit")).to_have_count(0)
        await browser.close()
    assert errors == []
    assert urllib.parse.urlparse(fake.worker_url(hits[1], second)).path == f"/rate/{sid}"
    async with services.sessions() as db:
        known = select(Assignment.id).where(Assignment.study == settings.study)
        assert set((await db.execute(known)).scalars()) == {assignment, second}  # both pages' sessions
