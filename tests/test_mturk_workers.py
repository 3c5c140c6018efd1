"""``avd workers block`` and ``avd hits expire`` against the fake MTurk and a real server."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
from sqlalchemy import select

from server.db.engine import make_engine, make_sessionmaker
from server.db.models import Worker
from server.db.provider_models import Hit, WorkerBlock
from server.settings import Settings
from server.tokens import Signer
from tests.fake_mturk import MTurkFault, running_fake
from tests.test_mturk_launch import avd


@pytest.fixture
def fake(monkeypatch):
    yield from running_fake(monkeypatch)


def db_run(settings: Settings, work):
    async def go():
        engine = make_engine(settings.resolved_database_url)
        try:
            async with make_sessionmaker(engine)() as db:
                return await work(db)
        finally:
            await engine.dispose()

    return asyncio.run(go())


def pseudonym(settings: Settings, provider: str, platform_id: str) -> str:
    return Signer(settings.resolved_secret, settings.study, settings.token_max_age_seconds).worker_id(
        provider, platform_id
    )


def launch(settings: Settings, dialogs: int = 1) -> list[str]:
    out = avd(settings, "launch", "--provider", "mturk-sandbox", "--dialogs", str(dialogs), "--yes")
    assert out.exit_code == 0, out.output
    return json.loads(out.stdout)["hits"]


def test_block_keeps_a_worker_out_here_and_on_mturk(settings_factory, fake, server_factory):
    settings = settings_factory(mturk_endpoint_url=fake.url)
    server = server_factory(settings)
    hit = launch(settings)[0]
    raw = fake.add_worker("ASPAMMER")
    body = {"worker": raw, "consent": True, "provider": "mturk-sandbox"}
    assert httpx.post(server.url + "/api/sessions", json=body).status_code == 200
    worker = pseudonym(settings, "mturk-sandbox", raw)

    refused = avd(settings, "workers", "block", worker, "--reason", " ")
    assert refused.exit_code == 2
    unknown = avd(settings, "workers", "block", "wnobody", "--reason", "spam")
    assert unknown.exit_code == 1 and "No worker" in unknown.output

    out = avd(settings, "workers", "block", worker, "--reason", "copied answers from the web")
    assert out.exit_code == 0, out.output
    row, block = db_run(settings, lambda db: _worker_and_block(db, worker, "mturk-sandbox"))
    assert row.blocked and row.blocked_reason == "copied answers from the web"
    assert block.platform_done
    blocked_q = next(q for q, v in fake.qual_types.items() if v["Name"] == f"avd {settings.study} blocked")
    assert fake.worker_quals[(blocked_q, raw)] == 1
    assert raw not in fake.blocks  # no platform block unless asked: it hurts the worker's standing
    with pytest.raises(MTurkFault):  # the study's HITs require "not blocked"
        fake.accept(hit, raw)
    assert httpx.post(server.url + "/api/sessions", json=body).status_code == 403

    hard = avd(settings, "workers", "block", worker, "--reason", "abuse", "--platform-block")
    assert hard.exit_code == 0, hard.output
    assert fake.blocks[raw] == "abuse"


def test_block_of_a_local_worker_is_recorded_on_our_server(settings, server_factory):
    server = server_factory(settings)
    body = {"worker": "colleague-1", "consent": True}
    assert httpx.post(server.url + "/api/sessions", json=body).status_code == 200
    worker = pseudonym(settings, "local", "colleague-1")
    out = avd(settings, "workers", "block", worker, "--reason", "testing the block")
    assert out.exit_code == 0 and "on our server" in out.output
    assert httpx.post(server.url + "/api/sessions", json=body).status_code == 403


def test_hits_expire_then_delete_only_what_is_decided(settings_factory, fake):
    settings = settings_factory(mturk_endpoint_url=fake.url)
    hits = launch(settings, dialogs=8)  # several HITs
    assert len(hits) >= 2
    busy = hits[0]
    worker = fake.add_worker("ALATEWORKER")
    assignment = fake.accept(busy, worker)
    fake.submit(assignment, {"completion_code": "C0DE"})

    out = avd(settings, "hits", "expire", "--provider", "mturk-sandbox")
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout) == {"expired": len(hits), "deleted": 0, "kept": 0}
    for hit in hits:
        with pytest.raises(MTurkFault):
            fake.accept(hit, fake.add_worker())  # no one new gets in
    statuses = db_run(settings, lambda db: _hit_statuses(db, settings))
    assert set(statuses.values()) == {"expired"}

    out = avd(settings, "hits", "expire", "--provider", "mturk-sandbox", "--delete")
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout) == {"expired": 0, "deleted": len(hits) - 1, "kept": 1}
    assert "work still to decide" in out.output
    statuses = db_run(settings, lambda db: _hit_statuses(db, settings))
    assert statuses[busy] == "expired" and {s for h, s in statuses.items() if h != busy} == {"deleted"}
    assert not fake.hits[busy]["disposed"]

    fake.advance(settings.mturk_auto_approval_delay_seconds + 1)  # MTurk approves it by itself
    out = avd(settings, "hits", "expire", "--provider", "mturk-sandbox", "--delete")
    assert json.loads(out.stdout) == {"expired": 0, "deleted": 1, "kept": 0}
    assert fake.hits[busy]["disposed"]


def test_reconcile_command_reports_what_it_repaired(settings_factory, fake):
    settings = settings_factory(mturk_endpoint_url=fake.url)
    hit = launch(settings)[0]
    assignment = fake.accept(hit, fake.add_worker("ASUBMITTER"))
    fake.submit(assignment, {"completion_code": "X"})
    out = avd(settings, "payments", "reconcile", "--provider", "mturk-sandbox")
    assert out.exit_code == 0, out.output
    assert "added 1" in out.output and "submitted 1" in out.output


async def _worker_and_block(db, worker: str, provider: str):
    return await db.get(Worker, worker), await db.get(WorkerBlock, (worker, provider))


async def _hit_statuses(db, settings: Settings) -> dict[str, str]:
    return dict((await db.execute(select(Hit.id, Hit.status).where(Hit.study == settings.study))).all())
