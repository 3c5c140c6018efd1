"""The worker page in MTurk mode, in headless Chromium, framed by a HIT from the fake MTurk.

A preview starts nothing; an accepted assignment holds a real dialog (the browser worker with
a bot partner), and the page itself submits the completion code to ``turkSubmitTo``. A lone
worker whose lobby wait runs out can submit for the waiting pay. Both are then paid.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from playwright.async_api import Browser, Page, async_playwright, expect
from sqlalchemy import select

from server.bots import ANSWERS, EXPLANATION, QUESTIONS, BotConfig
from server.db.provider_models import Assignment, Payment
from server.providers.payments import PaymentRun
from server.providers.reconcile import reconcile
from tests.browser_support import CHROMIUM, LAUNCH_ARGS
from tests.fake_mturk import running_fake
from tests.test_mturk_e2e import REWARD, MTurkBot, arrive, launch

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium")


@pytest.fixture
def fake(monkeypatch):
    yield from running_fake(monkeypatch)


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    expect.set_options(timeout=20_000)  # a busy machine; not a timing assertion
    async with async_playwright() as pw:
        chromium = await pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=LAUNCH_ARGS)
        yield chromium
        await chromium.close()


async def open_page(browser: Browser, url: str) -> tuple[Page, list[str], list[str]]:
    page = await (await browser.new_context()).new_page()
    sockets: list[str] = []
    errors: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    await page.goto(url)
    return page, sockets, errors


async def play(page: Page) -> None:
    """Take whatever step the page offers, as a worker would, until the done page shows."""
    tid = page.get_by_test_id
    sent = 0
    for _ in range(1500):
        if await tid("screen-done").is_visible():
            return
        if await tid("chat-form").is_visible() and await tid("chat-input").is_enabled():
            role = await tid("screen-dialog").get_attribute("data-role")
            text = (QUESTIONS if role == "questioner" else ANSWERS)[sent % len(QUESTIONS)]
            await tid("chat-input").fill(text)
            await tid("chat-send").click()
            sent += 1
            await expect(tid("chat-input")).to_have_value("")
        elif await tid("emotion-form").is_visible() and await tid("form-submit").is_enabled():
            await tid("form-submit").click()  # filled below on the previous pass
            await asyncio.sleep(0.3)
        elif await tid("emotion-form").is_visible():
            phase = await tid("emotion-form").get_attribute("data-phase")
            await tid("emotion-contentment").check()
            await tid("explanation").fill(f"{EXPLANATION} ({phase})")
        await asyncio.sleep(0.1)
    raise AssertionError("the page never reached the done screen")


async def test_preview_then_a_whole_dialog_then_the_page_submits_the_hit(
    settings_factory, stimuli, server_factory, services, fake, browser: Browser
):
    settings = settings_factory(mturk_endpoint_url=fake.url, rounds=2, pay_hold_unreviewed=False)
    await stimuli(2)
    server = server_factory(settings)
    provider, hits = await launch(settings.model_copy(update={"public_url": server.url}), services, dialogs=1)
    hit = hits[0]

    # preview: the task is described, nothing can start, no socket is opened
    preview, preview_sockets, preview_errors = await open_page(browser, fake.worker_url(hit))
    await expect(preview.get_by_test_id("mturk-preview")).to_be_visible()
    await expect(preview.get_by_test_id("mturk-preview")).to_contain_text("$1.50")
    await expect(preview.get_by_test_id("consent-agree")).to_be_disabled()
    await expect(preview.get_by_test_id("screen-consent")).to_contain_text("Start right away")
    await asyncio.sleep(1)
    assert preview_sockets == [] and preview_errors == []

    # accepted: the browser worker and a bot partner
    assignment, url = arrive(fake, hit, "BROWSERWORKER")
    partner_assignment, partner_url = arrive(fake, hit, "BOTPARTNER")
    page, _, errors = await open_page(browser, url)
    await page.get_by_test_id("consent-agree").click()
    await expect(page.get_by_test_id("screen-lobby")).to_be_visible()
    partner = MTurkBot(partner_url, BotConfig(), {})
    partner_task = asyncio.create_task(partner.run(240))
    await play(page)
    partner_result = await partner_task
    assert partner_result.outcome == "completed"

    code = (await page.get_by_test_id("completion-code").inner_text()).strip()
    await expect(page.get_by_test_id("mturk-done")).to_be_visible()
    async with page.expect_navigation():
        await page.get_by_test_id("mturk-submit").click()
    await expect(page.locator("body")).to_contain_text("Your HIT has been submitted.")
    assert errors == []
    submitted = fake.assignments[assignment]
    assert submitted.status == "Submitted" and submitted.fields == {"completion_code": code}
    assert partner.submit({"completion_code": partner_result.completion_code}).status_code == 200

    async with services.sessions() as db:
        row = await db.get(Assignment, (assignment, settings.study))
    assert row is not None and row.hit_id == hit and row.submit_to == fake.url
    await reconcile(services.sessions, settings, provider)
    report = await PaymentRun(settings, services.sessions, provider).run()
    assert report.paid == 2
    assert fake.assignments[assignment].status == fake.assignments[partner_assignment].status == "Approved"


async def test_a_lone_worker_submits_for_the_lobby_wait_and_is_paid(
    settings_factory, stimuli, server_factory, services, fake, browser: Browser
):
    settings = settings_factory(
        mturk_endpoint_url=fake.url, lobby_max_wait_seconds=2, pay_lobby_timeout_cents=60
    )
    await stimuli(2)
    server = server_factory(settings)
    provider, hits = await launch(settings.model_copy(update={"public_url": server.url}), services, dialogs=1)
    assignment, url = arrive(fake, hits[0], "LONEWORKER")
    page, _, errors = await open_page(browser, url)
    await page.get_by_test_id("consent-agree").click()
    await expect(page.get_by_test_id("screen-start")).to_be_visible()  # no partner in time
    await expect(page.get_by_test_id("mturk-lobby-pay")).to_contain_text("$0.60")
    async with page.expect_navigation():
        await page.get_by_test_id("mturk-submit").click()
    assert fake.assignments[assignment].fields == {"outcome": "lobby_timeout"}
    assert errors == []

    await reconcile(services.sessions, settings, provider)
    await PaymentRun(settings, services.sessions, provider).run()
    async with services.sessions() as db:
        (payment,) = (await db.execute(select(Payment).where(Payment.study == settings.study))).scalars()
    assert (payment.outcome, payment.base_cents, payment.topup_cents) == ("lobby_timeout", 60, 60 - REWARD)
    (bonus,) = fake.bonuses
    assert bonus["BonusAmount"] == "0.10" and fake.assignments[assignment].status == "Approved"
