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


async def test_workers_studies_and_pushed_live_state(settings, stimuli, server_factory, services):
    from tests.test_admin_workers import _rows
    from tests.test_report_studies import contrarian, rated_study

    [stimulus] = await stimuli(1)
    ids = await _rows(services.sessions, settings, stimulus, "bw")
    await rated_study(services, settings, "reasonableness", contrarian, name="Are the answers reasonable?")
    server = server_factory(settings)
    create_admin(settings)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        page = await browser.new_page(viewport={"width": 1400, "height": 900})
        await page.goto(server.url + "/admin")
        await page.get_by_test_id("login-user").fill("ada")
        await page.get_by_test_id("login-password").fill("correct horse")
        await page.get_by_test_id("login-submit").click()
        # the live state arrives over the server's event stream
        await expect(page.get_by_test_id("live-mode")).to_have_attribute("data-mode", "pushed")
        await expect(page.get_by_test_id("complete-count")).to_have_text("1")

        # workers, most violations first; sort by another column; filter; open one
        await page.get_by_role("button", name="Workers").click()
        rows = page.get_by_test_id("workers-table").locator("tbody tr")
        await expect(rows).to_have_count(4)
        assert await rows.first.get_attribute("data-worker") == ids["a"]
        await expect(page.get_by_test_id("workers-count")).to_have_text("1–4 of 4")
        await page.screenshot(path=str(ARTIFACTS / "workers.png"), full_page=True)
        await page.locator("th[data-sort=median_latency_ms]").click()
        await expect(rows.first).to_have_attribute("data-worker", ids["q"])  # 2.75 s beats 2.0 s
        await page.get_by_test_id("min-violations").fill("4")
        await page.get_by_test_id("min-violations").dispatch_event("change")
        await expect(rows).to_have_count(1)
        await rows.first.click()
        detail = page.get_by_test_id("worker-detail")
        await expect(detail).to_contain_text("hello there")
        await expect(detail.locator("tbody tr[data-dialog]")).to_have_count(2)
        await page.screenshot(path=str(ARTIFACTS / "worker-detail.png"), full_page=True)

        # a dialog link opens that dialog in the review view (it is not in the review queue)
        await detail.get_by_test_id("worker-dialog-link").first.click()
        await expect(page.get_by_test_id("dialog-view").locator(".turn")).to_have_count(2)
        await expect(page.get_by_test_id("dialog-view")).to_contain_text("a" * 50)

        # human studies: the chart and its tables
        await page.get_by_role("button", name="Studies").click()
        await expect(page.get_by_test_id("studies-table").locator("tbody tr")).to_have_count(1)
        await expect(page.get_by_test_id("study-table")).to_have_count(2)
        await page.wait_for_function("document.querySelector('[data-testid=study-chart]').naturalWidth > 0")
        await expect(page.get_by_test_id("study-detail")).to_contain_text("Judged reasonable, by source")
        await page.screenshot(path=str(ARTIFACTS / "studies.png"), full_page=True)

        # without the event stream the page polls, and still shows the numbers
        await page.route("**/admin/api/live/stream*", lambda route: route.abort())
        await page.get_by_role("button", name="Live").click()
        await expect(page.get_by_test_id("live-mode")).to_have_attribute("data-mode", "polling")
        await expect(page.get_by_test_id("complete-count")).to_have_text("1")
        await browser.close()
