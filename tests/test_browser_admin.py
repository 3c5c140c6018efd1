"""The researcher dashboard in a real headless Chromium: log in, watch live counts, review, charts."""

from __future__ import annotations

import asyncio

import pytest
from playwright.async_api import async_playwright, expect
from sqlalchemy import select

from server.bots import simulate
from server.db.models import Review
from server.qc.pipeline import pending_dialogs, run_qc
from server.settings import REPO_ROOT
from tests.browser_support import CHROMIUM, LAUNCH_ARGS
from tests.test_admin_api import create_admin

ARTIFACTS = REPO_ROOT / "test-artifacts" / "admin"
pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium")


async def test_dashboard_live_review_and_charts(settings, stimuli, server_factory, services):
    await stimuli(3)
    server = server_factory(settings)
    create_admin(settings)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        page = await browser.new_page(viewport={"width": 1280, "height": 900})
        await page.goto(server.url + "/admin")
        await page.get_by_test_id("login-user").fill("ada")
        await page.get_by_test_id("login-password").fill("wrong")
        await page.get_by_test_id("login-submit").click()
        await expect(page.locator("#login-error")).to_contain_text("wrong password")
        await page.get_by_test_id("login-password").fill("correct horse")
        await page.get_by_test_id("login-submit").click()
        await expect(page.get_by_test_id("complete-count")).to_have_text("0")

        # live counts change while bots chat, without reloading the page
        bots = asyncio.create_task(simulate(server.url, pairs=2, think=0.15, timeout=90))
        await expect(page.get_by_test_id("active-count")).not_to_have_text("0", timeout=20_000)
        await page.screenshot(path=str(ARTIFACTS / "live.png"), full_page=True)
        summary, _ = await bots
        assert summary["completed"] == 2
        await expect(page.get_by_test_id("complete-count")).to_have_text("2", timeout=10_000)

        # pause intake from the dashboard
        await page.get_by_test_id("intake-toggle").click()
        await expect(page.locator("#intake-state")).to_have_text("paused")
        assert await services.redis.exists(services.keys.paused)

        # QC sends both dialogs to review; reject one with a reason, by keyboard
        ids = await pending_dialogs(services.sessions, settings)
        strict = settings.model_copy(update={"qc_min_reference_overlap": 50})
        await run_qc(services.sessions, strict, ids, force=True)
        await page.get_by_role("button", name="Review").click()
        await expect(page.get_by_test_id("queue-list").locator("li")).to_have_count(2)
        await expect(page.get_by_test_id("dialog-view").locator(".turn")).to_have_count(20)
        first = await page.get_by_test_id("queue-list").locator("li").first.get_attribute("data-dialog")
        await page.screenshot(path=str(ARTIFACTS / "review.png"), full_page=True)
        page.once("dialog", lambda d: asyncio.ensure_future(d.accept("Questions were too generic.")))
        await page.keyboard.press("r")
        await expect(page.get_by_test_id("queue-list").locator("li")).to_have_count(1)
        async with services.sessions() as db:
            review = (await db.execute(select(Review).where(Review.dialog_id == first))).scalar_one()
        assert (review.decision, review.reason, review.reviewer) == (
            "reject",
            "Questions were too generic.",
            "ada",
        )

        # charts render as images
        await page.get_by_role("button", name="Charts").click()
        chart = page.get_by_test_id("chart-subjectivity")
        await expect(chart).to_be_visible()
        await page.wait_for_function(
            "document.querySelector('[data-testid=chart-subjectivity]').naturalWidth > 0"
        )
        await expect(page.locator("#change-rate")).to_contain_text("of 2 dialogs")
        await page.screenshot(path=str(ARTIFACTS / "charts.png"), full_page=True)
        await browser.close()
