"""The Mephisto task (tasks/mephisto/) and the HTTP contract between it and our server.

Three layers:
- the contract, from the server side: sessions with ``provider=mephisto`` and the agent as
  the assignment; ``GET /api/providers/assignments/<agent>`` with the provider key;
- the worker page in Mephisto mode, in headless Chromium inside a parent frame, telling the
  parent (the Mephisto task page) that the worker's part is done;
- the blueprint itself, in its own Python 3.10 environment (tasks/mephisto/.venv, made by
  tasks/mephisto/install.sh), under Mephisto's mock provider and mock architect: a real
  Operator, worker pool and our task runner, talking to a real server process. Skipped, with
  the reason, when that environment has not been installed.
"""

from __future__ import annotations

import asyncio
import json
import urllib.parse
from pathlib import Path

import httpx
import pytest
from playwright.async_api import Browser, async_playwright, expect

from server.bots import Bot, BotConfig
from server.db.models import Review
from server.providers.api import provider_api_key
from server.settings import REPO_ROOT
from tests.browser_support import CHROMIUM, LAUNCH_ARGS
from tests.test_mturk_browser import play
from tests.test_mturk_launch import avd

MEPHISTO = REPO_ROOT / "tasks" / "mephisto"
VENV_PYTHON = MEPHISTO / ".venv" / "bin" / "python"


class MephistoBot(Bot):
    """A bot arriving the way the Mephisto task page frames our page: agent id as the assignment."""

    def __init__(self, page_url: str, config: BotConfig, sent: dict) -> None:
        query = dict(urllib.parse.parse_qsl(urllib.parse.urlparse(page_url).query))
        super().__init__(page_url.split("?")[0].rstrip("/"), query["workerId"], config, sent)
        self.agent_id = query["assignmentId"]

    async def run(self, timeout: float = 240):
        body = {"worker": self.name, "consent": True, "provider": "mephisto", "assignment_id": self.agent_id}
        async with httpx.AsyncClient(base_url=self.base_url, timeout=30) as http:
            reply = await http.post("/api/sessions", json=body)
            reply.raise_for_status()
            self.token = reply.json()["token"]
        try:
            await asyncio.wait_for(self._session(self.base_url, join=True), timeout)
        except TimeoutError:
            self.result.outcome = "bot_timeout"
        return self.result


def page(base: str, agent: str, worker: str) -> str:
    query = urllib.parse.urlencode({"provider": "mephisto", "assignmentId": agent, "workerId": worker})
    return f"{base}/?{query}"


async def test_the_status_contract(settings_factory, stimuli, server_factory, services):
    settings = settings_factory(rounds=2)
    await stimuli(2)
    server = server_factory(settings)
    key = provider_api_key(settings)
    status = server.url + "/api/providers/assignments/"
    async with httpx.AsyncClient() as http:
        assert (await http.get(status + "1")).status_code == 401
        assert (await http.get(status + "1", headers={"Authorization": "Bearer nope"})).status_code == 401
        auth = {"Authorization": f"Bearer {key}"}
        assert (await http.get(status + "1", headers=auth)).status_code == 404  # never started here

        sent: dict = {}
        bots = [
            MephistoBot(page(server.url, str(i), f"MOCK_W{i}_sandbox"), BotConfig(), sent) for i in (1, 2)
        ]
        results = await asyncio.gather(*(b.run() for b in bots))
        assert [r.outcome for r in results] == ["completed", "completed"]
        first = (await http.get(status + "1", headers=auth)).json()
        assert first["done"] and first["outcome"] == "completed"
        assert first["completion_code"] == results[0].completion_code
        assert first["decision"]["action"] == "hold"  # no QC verdict or review yet
        async with services.sessions() as db:
            db.add(Review(dialog_id=first["dialog_id"], decision="accept", bonus_cents=30, reviewer="r"))
            await db.commit()
        decided = (await http.get(status + "1", headers=auth)).json()["decision"]
        assert decided == {
            "action": "approve",
            "base_cents": settings.pay_completed_cents,
            "bonus_cents": 30,
            "usable": True,
            "feedback": None,
        }


@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium")
async def test_the_page_in_a_mephisto_frame_tells_its_parent_when_done(
    settings_factory, stimuli, server_factory
):
    settings = settings_factory(rounds=2)
    await stimuli(2)
    server = server_factory(settings)
    expect.set_options(timeout=20_000)
    async with async_playwright() as pw:
        browser: Browser = await pw.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=LAUNCH_ARGS
        )
        try:
            parent = await (await browser.new_context()).new_page()
            await parent.goto(server.url + "/healthz")  # any page of ours as the parent's origin
            src = page(server.url, "41", "MOCK_FRAMED_sandbox")
            await parent.evaluate(
                """src => { window.messages = [];
                   window.addEventListener('message', e => window.messages.push(e.data));
                   const f = document.createElement('iframe'); f.src = src; f.width = 1200; f.height = 900;
                   document.body.append(f); }""",
                src,
            )
            frame = parent.frame_locator("iframe")
            await frame.get_by_test_id("consent-agree").click()
            partner = MephistoBot(page(server.url, "42", "MOCK_PARTNER_sandbox"), BotConfig(), {})
            partner_task = asyncio.create_task(partner.run())
            inner = next(f for f in parent.frames if f.url.startswith(server.url + "/?provider=mephisto"))
            await play(inner)
            assert (await partner_task).outcome == "completed"
            code = (await inner.get_by_test_id("completion-code").inner_text()).strip()
            await expect(inner.get_by_test_id("mephisto-done")).to_be_visible()
            await parent.wait_for_function("window.messages.length > 0")
            messages = await parent.evaluate("window.messages")
            assert messages == [{"assignment_id": "41", "type": "avd-done", "completion_code": code}]
        finally:
            await browser.close()


async def _events(proc: asyncio.subprocess.Process, want: str, timeout: float = 120) -> dict:
    """The next JSON event line of kind ``want`` from the driver (Mephisto's own log lines are skipped)."""
    assert proc.stdout is not None
    while True:
        raw = await asyncio.wait_for(proc.stdout.readline(), timeout)
        if not raw:
            raise AssertionError(f"the Mephisto driver ended before {want!r}")
        line = raw.decode().strip()
        if line.startswith('{"event"'):
            event = json.loads(line)
            if event["event"] == "error":
                raise AssertionError(event)
            if event["event"] == want:
                return event


@pytest.mark.skipif(
    not VENV_PYTHON.exists(),
    reason="the Mephisto environment is not installed: run tasks/mephisto/install.sh",
)
async def test_the_blueprint_under_mephisto_mock_provider_and_architect(
    settings_factory, stimuli, server_factory, services, tmp_path: Path
):
    settings = settings_factory(rounds=2)
    await stimuli(2)
    server = server_factory(settings)
    proc = await asyncio.create_subprocess_exec(
        str(VENV_PYTHON),
        "mock_run.py",
        "--avd-url",
        server.url,
        "--avd-key",
        provider_api_key(settings),
        "--slots",
        "3",
        "--grace",
        "2",
        "--data-dir",
        str(tmp_path / "mephisto"),
        cwd=MEPHISTO,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
        limit=2**20,
    )

    async def send(**cmd) -> None:
        assert proc.stdin is not None
        proc.stdin.write((json.dumps(cmd) + "\n").encode())
        await proc.stdin.drain()

    try:
        await _events(proc, "ready")
        agents = []
        for worker in ("MOCKA", "MOCKB", "MOCKIDLE"):
            await send(cmd="register", worker=worker)
            agents.append(await _events(proc, "agent"))
        a, b, idle = agents
        assert a["page"].startswith(server.url + "/?provider=mephisto&assignmentId=")

        sent: dict = {}
        bots = [MephistoBot(x["page"], BotConfig(), sent) for x in (a, b)]
        results = await asyncio.gather(*(bot.run() for bot in bots))
        assert [r.outcome for r in results] == ["completed", "completed"]
        # A's page submits the unit itself; B's tab is gone: the runner submits for B after the grace
        await send(cmd="submit", agent_id=a["agent_id"], data={"completion_code": results[0].completion_code})
        await _events(proc, "submitted")
        await send(cmd="wait", agents=[a["agent_id"], b["agent_id"]], timeout=60)
        units = await _events(proc, "units")
        assert units["status"] == {a["agent_id"]: "completed", b["agent_id"]: "completed"}
        for agent, result in ((a, results[0]), (b, results[1])):
            checked = units["avd"][agent["agent_id"]]
            assert checked["done"] and checked["completion_code"] == result.completion_code

        await send(cmd="review")
        held = await _events(proc, "reviewed")
        assert sorted(held["done"]["held"]) == sorted([a["agent_id"], b["agent_id"]])  # no review yet
        async with services.sessions() as db:
            db.add(Review(dialog_id=results[0].dialog_id, decision="accept", bonus_cents=20, reviewer="r"))
            await db.commit()
        await send(cmd="review")
        reviewed = await _events(proc, "reviewed")
        assert sorted(reviewed["done"]["approved"]) == sorted([a["agent_id"], b["agent_id"]])
        assert reviewed["status"][a["agent_id"]] == reviewed["status"][b["agent_id"]] == "approved"
        assert reviewed["status"][idle["agent_id"]] != "approved"  # never worked: nothing paid
        await send(cmd="review")
        again = await _events(proc, "reviewed")
        assert again["done"]["approved"] == []  # decided units are not paid again
        await send(cmd="quit")
        await _events(proc, "stopped", timeout=60)
    finally:
        if proc.returncode is None:
            proc.kill()
        await proc.wait()


def test_mephisto_is_launched_and_paid_from_its_own_tooling(settings):
    commands = (("launch", "--provider", "mephisto", "--yes"), ("payments", "run", "--provider", "mephisto"))
    for args in commands:
        out = avd(settings, *args)
        assert out.exit_code == 1 and "tasks/mephisto" in out.output
