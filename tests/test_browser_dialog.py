"""The worker page in a real headless Chromium: two workers hold a whole dialog by typing and clicking.

Everything is real: the uvicorn server process, Redis, the database, the websocket and the
browser. The test reads the page the way a worker would (role banner, turn indicator, the
image or its placeholder) and checks the record the server kept. Screenshots of each stage
go to ``test-artifacts/browser/`` for a human look at the layout.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import pytest
from playwright.async_api import Browser, Page, async_playwright, expect
from sqlalchemy import select

from server.db.models import Dialog, Response, Turn, WorkerEvent
from server.settings import REPO_ROOT
from tests.browser_support import CHROMIUM, LAUNCH_ARGS

ARTIFACTS = REPO_ROOT / "test-artifacts" / "browser"
WIDE = {"width": 1280, "height": 860}
PHONE = {"width": 390, "height": 844}

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium")

QUESTIONS = [
    "Which colours cover most of the canvas?",
    "Is there a main shape or object in the middle of the picture?",
    "What does the background look like behind that shape?",
    "Are there any people or animals anywhere in the scene?",
    "How would you describe the edges of the shapes, sharp or blurred?",
    "Is there any visible texture, such as brush strokes or grain?",
    "Where does the light seem to come from in the picture?",
    "Does the picture look like a painting, a drawing or a photograph?",
    "Is there anything written or any symbol in the image?",
    "How much empty space is there around the main shape?",
]
ANSWERS = [
    "Most of it is a flat medium blue, with one bright yellow area near the top left.",
    "Yes, there is a yellow circle slightly left of the centre, about a third of the width.",
    "The background is a plain blue with no objects, lines or gradients at all.",
    "There are no people or animals, only the circle on the blue background.",
    "The edges of the circle are crisp and clean, like a cut-out shape.",
    "The surface is smooth and even, without visible brush strokes or grain.",
    "The lighting is flat and even; there are no shadows anywhere in the image.",
    "It looks like a simple digital drawing made of two flat colours.",
    "There is no text, signature or symbol anywhere in the picture.",
    "The circle takes up the upper left part; the right half is empty blue.",
]
EXPLANATIONS = {
    "before_reveal": (
        "My partner described a bright yellow circle on a plain blue background, which sounds like "
        "a sunny sky and makes me expect a pleasant, restful picture."
    ),
    "after_reveal": (
        "Seeing it, the yellow circle really looks like a small sun over the blue, so my first "
        "impression holds and I feel the same quiet satisfaction as before."
    ),
    "answerer": (
        "The simple round yellow shape against the clean blue makes me think of a clear day "
        "outside and the composition is tidy and balanced."
    ),
}
CHOICES = {"before_reveal": "awe", "after_reveal": "contentment", "answerer": "something_else"}


@dataclass
class WorkerPage:
    """One worker's browser tab with every websocket frame it received, in order."""

    page: Page
    frames: list[dict] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def tid(self, test_id: str):
        return self.page.get_by_test_id(test_id)


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    # Generous waits: the machine may be busy, and these are not timing assertions.
    expect.set_options(timeout=20_000)
    async with async_playwright() as pw:
        chromium = await pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=LAUNCH_ARGS)
        yield chromium
        await chromium.close()


async def open_worker(browser: Browser, base_url: str, worker: str, viewport: dict = WIDE) -> WorkerPage:
    context = await browser.new_context(viewport=viewport)  # type: ignore[arg-type]
    await context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base_url)
    context.set_default_timeout(20_000)
    page = await context.new_page()
    wp = WorkerPage(page)

    def on_socket(ws) -> None:
        ws.on("framereceived", lambda payload: wp.frames.append(json.loads(payload)))

    page.on("websocket", on_socket)
    page.on("pageerror", lambda exc: wp.errors.append(str(exc)))
    await page.goto(f"{base_url}/?worker={worker}")
    return wp


async def shot(wp: WorkerPage, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    # a full-page shot of a scrolled page draws sticky parts mid-page
    await wp.page.evaluate("window.scrollTo(0, 0)")
    await wp.page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


async def image_loaded(wp: WorkerPage) -> None:
    """The stimulus <img> is there and the browser actually decoded the picture."""
    await expect(wp.tid("stimulus-image")).to_be_visible()
    await wp.page.wait_for_function(
        "() => { const i = document.querySelector('[data-testid=stimulus-image]');"
        " return i && i.complete && i.naturalWidth > 0; }"
    )


async def fill_form(wp: WorkerPage, phase: str) -> None:
    form = wp.tid("emotion-form")
    await expect(form).to_be_visible()
    await expect(form).to_have_attribute("data-phase", phase)
    await wp.tid(f"emotion-{CHOICES[phase]}").check()
    await wp.tid("explanation").fill(EXPLANATIONS[phase])
    await expect(wp.tid("word-count")).to_contain_text(f"{len(EXPLANATIONS[phase].split())} words")
    await expect(wp.tid("form-submit")).to_be_enabled()


async def test_two_workers_hold_a_whole_dialog_in_chromium(
    settings, stimuli, server_factory, services, browser: Browser
) -> None:
    await stimuli(2)
    server = server_factory(settings)
    suffix = uuid.uuid4().hex[:6]
    first = await open_worker(browser, server.url, f"alice-{suffix}")
    second = await open_worker(browser, server.url, f"bob-{suffix}")

    # consent, then the lobby while the first worker waits alone
    await expect(first.tid("screen-consent")).to_be_visible()
    await expect(first.tid("screen-consent")).to_contain_text("Start right away")
    await shot(first, "01-consent")
    await first.tid("consent-agree").click()
    await expect(first.tid("screen-lobby")).to_be_visible()
    await expect(first.tid("lobby-remaining")).to_contain_text("more")
    await shot(first, "02-lobby")
    await second.tid("consent-agree").click()

    # paired: each page says which role it has
    for wp in (first, second):
        await expect(wp.tid("screen-dialog")).to_be_visible()
    roles = {await wp.tid("screen-dialog").get_attribute("data-role"): wp for wp in (first, second)}
    assert set(roles) == {"questioner", "answerer"}
    q, a = roles["questioner"], roles["answerer"]
    a_worker = f"alice-{suffix}" if a is first else f"bob-{suffix}"
    await expect(q.tid("role-title")).to_have_text("You are the questioner")
    await expect(a.tid("role-title")).to_have_text("You are the answerer")

    # both see the two opinions in the order the server gave; only the answerer sees the image
    first_state = next(f["dialog"] for f in q.frames if f["type"] == "state")
    expected = [o["text"] for o in first_state["opinions"]]
    assert len(expected) == 2
    for wp in (q, a):
        await expect(wp.tid("opinion")).to_have_count(2)
        shown = await wp.tid("opinion").locator("blockquote").all_inner_texts()
        assert [t.strip() for t in shown] == expected
    await expect(q.tid("image-placeholder")).to_be_visible()
    await expect(q.page.locator("img")).to_have_count(0)
    await image_loaded(a)
    await expect(a.tid("chat-input")).to_be_disabled()
    await expect(a.tid("turn-indicator")).to_have_text("Waiting for your partner's question…")

    # a message the server refuses shows its error next to the input and keeps the text
    await expect(q.tid("turn-indicator")).to_have_text("Your turn to ask")
    await q.tid("chat-input").fill("a")
    await q.tid("chat-send").click()
    await expect(q.tid("chat-error")).to_contain_text("too short")
    await expect(q.tid("chat-input")).to_have_value("a")
    await expect(q.tid("char-count")).to_have_text("1 / 500")

    for rnd, (question, answer) in enumerate(zip(QUESTIONS, ANSWERS, strict=True), start=1):
        await expect(q.tid("round-counter")).to_have_text(f"Round {rnd} of 10")
        await expect(q.tid("turn-indicator")).to_have_text("Your turn to ask")
        await q.tid("chat-input").fill(question)
        await q.tid("chat-send").click()
        await expect(q.tid("chat-error")).to_be_hidden()
        await expect(a.tid("turn-indicator")).to_have_text("Your turn to answer")
        await expect(a.tid("message").last).to_contain_text(question)
        await expect(q.tid("turn-indicator")).to_have_text("Waiting for your partner's answer…")
        await expect(q.tid("chat-input")).to_be_disabled()
        if rnd == 1:
            await shot(q, "03-questioner-chat")
        if rnd == 5:  # a reload resumes the dialog where it was, without a new consent
            await a.page.reload()
            await expect(a.tid("screen-dialog")).to_be_visible()
            await expect(a.tid("message")).to_have_count(9)
            await expect(a.tid("turn-indicator")).to_have_text("Your turn to answer")
        if rnd == 7:  # away from the page: the partner is told, and it clears when the worker is back
            await a.page.goto("about:blank")
            await expect(q.tid("partner-notice")).to_be_visible()
            await shot(q, "03b-questioner-partner-away")
            await a.page.goto(f"{server.url}/?worker={a_worker}")
            await expect(q.tid("partner-notice")).to_be_hidden()
            await expect(a.tid("message")).to_have_count(13)
        await a.tid("chat-input").fill(answer)
        if rnd % 2:
            await a.tid("chat-input").press("Enter")
        else:
            await a.tid("chat-send").click()
        await expect(q.tid("message").last).to_contain_text(answer)
        if rnd == 3:
            await shot(a, "04-answerer-chat")
            await a.page.set_viewport_size(PHONE)
            await shot(a, "04b-answerer-chat-phone")
            await a.page.set_viewport_size(WIDE)

    # the chat is over: forms. The questioner still has no image, and never received one.
    await expect(q.tid("round-counter")).to_have_text("All rounds done")
    await expect(q.tid("chat-form")).to_be_hidden()
    await expect(q.tid("message")).to_have_count(20)
    await expect(q.tid("emotion-form")).to_have_attribute("data-phase", "before_reveal")
    await expect(q.tid("form-submit")).to_be_disabled()
    await q.tid("emotion-awe").check()
    await q.tid("explanation").fill("Too few words here.")
    await expect(q.tid("word-count")).to_have_text("4 words (at least 10)")
    await expect(q.tid("form-submit")).to_be_disabled()
    await fill_form(q, "before_reveal")
    await expect(q.page.locator("img")).to_have_count(0)
    await expect(q.tid("image-placeholder")).to_be_visible()
    before_reveal = list(q.frames)
    assert any(f["type"] == "state" for f in before_reveal)
    assert all(f["dialog"]["image_url"] is None for f in before_reveal if f["type"] == "state")
    assert "/img/" not in json.dumps(before_reveal)
    await shot(q, "05-questioner-before-reveal-form")

    await fill_form(a, "answerer")
    await shot(a, "06-answerer-form")
    await q.tid("form-submit").click()

    # revealed: the questioner now sees the picture and the second form
    await image_loaded(q)
    await expect(q.tid("image-placeholder")).to_have_count(0)
    await fill_form(q, "after_reveal")
    assert any(f["type"] == "state" and f["dialog"]["image_url"] for f in q.frames[len(before_reveal) :])
    await shot(q, "07-questioner-after-reveal")
    await q.tid("form-submit").click()
    await a.tid("form-submit").click()

    # both finish with a completion code they can copy
    codes = {}
    for role, wp in (("questioner", q), ("answerer", a)):
        await expect(wp.tid("screen-done")).to_be_visible()
        code = (await wp.tid("completion-code").inner_text()).strip()
        assert re.fullmatch(r"[0-9A-F]{12}", code), code
        codes[role] = code
        await wp.tid("copy-code").click()
        await expect(wp.tid("copy-status")).to_have_text("Copied to the clipboard.")
        assert await wp.page.evaluate("navigator.clipboard.readText()") == code
    assert codes["questioner"] != codes["answerer"]
    await shot(q, "08-done")
    await q.page.set_viewport_size(PHONE)
    await shot(q, "09-done-phone")
    for wp in (q, a):
        assert wp.errors == [], wp.errors

    # the database holds the complete dialog exactly as typed
    dialog_id = first_state["dialog_id"]
    async with services.sessions() as db:
        dialog = await db.get(Dialog, dialog_id)
        assert dialog is not None and dialog.status == "complete" and dialog.rounds_done == 10
        turns = (await db.scalars(select(Turn).where(Turn.dialog_id == dialog_id).order_by(Turn.seq))).all()
        typed = [text for pair in zip(QUESTIONS, ANSWERS, strict=True) for text in pair]
        assert [t.text for t in turns] == typed
        assert [t.role for t in turns] == ["questioner", "answerer"] * 10
        responses = (await db.scalars(select(Response).where(Response.dialog_id == dialog_id))).all()
        assert {r.phase: r.emotion for r in responses} == CHOICES
        assert {r.phase: r.explanation for r in responses} == EXPLANATIONS
        events = (
            await db.execute(
                select(WorkerEvent.kind, WorkerEvent.worker_id, WorkerEvent.completion_code).where(
                    WorkerEvent.dialog_id == dialog_id
                )
            )
        ).all()
    by_worker = {w: (kind, code) for kind, w, code in events}
    assert by_worker == {
        dialog.questioner_id: ("completed", codes["questioner"]),
        dialog.answerer_id: ("completed", codes["answerer"]),
    }


async def test_second_tab_of_the_same_worker_is_turned_away(
    settings, stimuli, server_factory, services, browser: Browser
) -> None:
    await stimuli(2)
    server = server_factory(settings)
    worker = f"carol-{uuid.uuid4().hex[:6]}"
    first = await open_worker(browser, server.url, worker)
    await first.tid("consent-agree").click()
    await expect(first.tid("screen-lobby")).to_be_visible()

    # same worker, same browser, a new tab: it must not join a second time
    second = WorkerPage(await first.page.context.new_page())
    second.page.on("pageerror", lambda exc: second.errors.append(str(exc)))
    await second.page.goto(f"{server.url}/?worker={worker}")
    await second.tid("consent-agree").click()
    await expect(second.tid("screen-fatal")).to_be_visible()
    await expect(second.tid("fatal-message")).to_contain_text("another tab")
    await second.page.set_viewport_size(PHONE)
    await shot(second, "10-second-tab-phone")

    # the first tab keeps its place, and a reload resumes it without asking for consent again
    await expect(first.tid("screen-lobby")).to_be_visible()
    await first.page.reload()
    await expect(first.tid("screen-lobby")).to_be_visible()
    await expect(first.tid("lobby-elapsed")).to_have_text(re.compile(r"^\d+:\d\d$"))
    await expect(first.tid("screen-consent")).to_be_hidden()

    # leaving the queue is recorded, and the worker may join again
    await first.tid("lobby-leave").click()
    await expect(first.tid("screen-start")).to_be_visible()
    await expect(first.tid("start-message")).to_contain_text("no longer waiting")
    for _ in range(50):
        async with services.sessions() as db:
            kinds = await db.scalars(select(WorkerEvent.kind).where(WorkerEvent.study == settings.study))
            if "lobby_left" in kinds.all():
                break
        await first.page.wait_for_timeout(100)
    else:
        pytest.fail("leaving the lobby was not recorded")
    await first.tid("start-join").click()
    await expect(first.tid("screen-lobby")).to_be_visible()
    await expect(first.tid("lobby-remaining")).to_contain_text("more")
    assert first.errors == [] and second.errors == []


async def test_a_silent_questioner_times_out_and_the_answerer_finishes(
    settings_factory, stimuli, server_factory, services, browser: Browser
) -> None:
    """Warning, turn timeout, the ended screen, and salvage: the partner still gets a code."""
    quick = settings_factory(turn_seconds=6, warn_seconds=4)
    await stimuli(2, target=quick)
    server = server_factory(quick)
    suffix = uuid.uuid4().hex[:6]
    pages = [await open_worker(browser, server.url, f"{name}-{suffix}") for name in ("dora", "eli")]
    for wp in pages:
        await wp.tid("consent-agree").click()
    for wp in pages:
        await expect(wp.tid("screen-dialog")).to_be_visible()
    roles = {await wp.tid("screen-dialog").get_attribute("data-role"): wp for wp in pages}
    q, a = roles["questioner"], roles["answerer"]

    await expect(q.tid("warning-banner")).to_contain_text("left")
    await shot(q, "11-questioner-warning")
    await expect(q.tid("screen-ended")).to_be_visible()
    await expect(q.tid("ended-message")).to_contain_text("time to reply ran out")

    await expect(a.tid("ended-notice")).to_contain_text("Your partner left")
    await expect(a.tid("emotion-form")).to_have_attribute("data-phase", "answerer")
    await expect(a.tid("round-counter")).to_have_text("Ended after 0 of 10 rounds")
    await shot(a, "12-answerer-salvage-form")
    await fill_form(a, "answerer")
    await a.tid("form-submit").click()
    await expect(a.tid("screen-done")).to_be_visible()
    code = (await a.tid("completion-code").inner_text()).strip()
    assert re.fullmatch(r"[0-9A-F]{12}", code), code
    await expect(q.tid("screen-done")).to_be_hidden()
    for wp in pages:
        assert wp.errors == [], wp.errors

    dialog_id = next(f["dialog"]["dialog_id"] for f in a.frames if f["type"] == "state")
    async with services.sessions() as db:
        dialog = await db.get(Dialog, dialog_id)
        assert dialog is not None
        assert (dialog.status, dialog.ended_by, dialog.end_reason) == (
            "timed_out",
            "questioner",
            "turn_timeout",
        )
        responses = (await db.scalars(select(Response).where(Response.dialog_id == dialog_id))).all()
        assert [(r.phase, r.emotion) for r in responses] == [("answerer", CHOICES["answerer"])]
        events = await db.execute(
            select(WorkerEvent.worker_id, WorkerEvent.kind, WorkerEvent.completion_code).where(
                WorkerEvent.dialog_id == dialog_id
            )
        )
        by_worker = {w: (kind, c) for w, kind, c in events}
    assert by_worker[dialog.answerer_id] == ("partner_dropped", code)
    assert by_worker[dialog.questioner_id][0] == "timed_out"


async def test_the_lobby_wait_runs_out_with_a_clear_message(
    settings_factory, stimuli, server_factory, browser: Browser
) -> None:
    short = settings_factory(lobby_max_wait_seconds=2)
    await stimuli(2, target=short)
    server = server_factory(short)
    wp = await open_worker(browser, server.url, f"finn-{uuid.uuid4().hex[:6]}")
    await wp.tid("consent-agree").click()
    await expect(wp.tid("screen-lobby")).to_be_visible()
    await expect(wp.tid("lobby-intro")).to_contain_text("up to 2 seconds")
    await expect(wp.tid("screen-start")).to_be_visible()
    await expect(wp.tid("start-message")).to_contain_text("No partner could be found")
    await shot(wp, "13-lobby-timeout")
    await wp.tid("start-join").click()  # trying again puts the worker back in the queue
    await expect(wp.tid("screen-lobby")).to_be_visible()
    await expect(wp.tid("lobby-remaining")).to_contain_text("more")
    assert wp.errors == [], wp.errors
