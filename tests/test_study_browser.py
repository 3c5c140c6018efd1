"""The rater page in headless Chromium: consent, items with image and highlight, keys, completion."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.async_api import async_playwright, expect

from server.studies import results as res
from server.studies.build import BuildOptions, build_study
from server.studies.manage import set_status
from tests.browser_support import CHROMIUM, LAUNCH_ARGS
from tests.test_study_support import export_with_images, real_run

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium")


@pytest.fixture(scope="module")
def retrieval_run(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("study-browser")
    export = export_with_images(root / "export", n_dialogs=8)
    return real_run("retrieval", export, root / "run")


async def test_a_rater_works_through_a_reasonableness_study(
    retrieval_run, settings_factory, server_factory, services
):
    settings = settings_factory(study_min_seconds=0.0)
    opts = BuildOptions(
        kind="reasonableness", items=4, raters=1, items_per_rater=4, attention_every=2, seed=3
    )
    built = await build_study(services.sessions, settings, retrieval_run, opts)
    sid = built.study.id
    await set_status(services.sessions, sid, "open")
    server = server_factory(settings)

    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        page = await browser.new_page()
        await page.goto(f"{server.url}/rate/{sid}?worker=browser-rater")
        await expect(page.get_by_test_id("screen-consent")).to_be_visible()
        await expect(page.get_by_test_id("instructions")).to_contain_text("highlighted")
        await page.get_by_test_id("consent-agree").click()

        # First item: a real one, with the artwork, the opinions and the highlighted answer.
        await expect(page.get_by_test_id("screen-item")).to_be_visible()
        await expect(page.get_by_test_id("progress")).to_have_text("Item 1 of at most 4")
        image = page.get_by_test_id("item-image")
        await expect(image).to_be_visible()
        await page.wait_for_function("document.querySelector('[data-testid=item-image]').naturalWidth > 0")
        await expect(page.get_by_test_id("opinions").locator("li")).to_have_count(2)
        await expect(page.get_by_test_id("highlighted-answer")).to_have_count(1)
        await expect(page.get_by_test_id("question")).to_have_text(
            "Is the highlighted answer a reasonable reply?"
        )
        await page.get_by_test_id("option-reasonable").click()

        # Second item: the attention check; answered with the keyboard ("2" = not reasonable).
        await expect(page.get_by_test_id("progress")).to_have_text("Item 2 of at most 4")
        await expect(page.get_by_test_id("highlighted-answer")).to_be_visible()
        await page.keyboard.press("2")

        # A reload keeps the same item (the server hands it out again until it is answered).
        await expect(page.get_by_test_id("progress")).to_have_text("Item 3 of at most 4")
        before = await page.get_by_test_id("highlighted-answer").inner_text()
        await page.reload()
        await expect(page.get_by_test_id("progress")).to_have_text("Item 3 of at most 4")
        assert await page.get_by_test_id("highlighted-answer").inner_text() == before
        await page.get_by_test_id("option-not_reasonable").click()
        await expect(page.get_by_test_id("progress")).to_have_text("Item 4 of at most 4")
        await page.keyboard.press("2")

        await expect(page.get_by_test_id("screen-done")).to_be_visible()
        code = await page.get_by_test_id("completion-code").inner_text()
        assert len(code) == 12
        await browser.close()

    study, items, judgments = await res.load(services.sessions, sid)
    submitted = [j for j in judgments if j.submitted_at]
    assert len(submitted) == 4 and all(j.valid for j in submitted)
    checks = {i.id for i in items if i.is_attention}
    assert [j.item_id in checks for j in submitted] == [False, True, False, True]
    assert [j.answer for j in submitted] == [
        "reasonable",
        "not_reasonable",
        "not_reasonable",
        "not_reasonable",
    ]
