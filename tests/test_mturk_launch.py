"""``avd launch`` against the fake MTurk: cost estimate, confirmation, budget cap, HITs as specified."""

from __future__ import annotations

import asyncio
import json
import os

import pytest
from sqlalchemy import select
from typer.testing import CliRunner, Result

from server.cli import app as cli_app
from server.db.engine import make_engine, make_sessionmaker
from server.db.provider_models import Hit, Launch
from server.providers.launch import LaunchRefused, plan_launch
from server.providers.mturk import LOCALE, NUMBER_APPROVED, PERCENT_APPROVED, MTurkProvider
from server.providers.policy import assignments_for
from server.settings import Settings
from tests.conftest import settings_env
from tests.fake_mturk import EXTERNAL_NS, FAKE_AWS_ENV, running_fake


@pytest.fixture
def fake(monkeypatch):
    yield from running_fake(monkeypatch)


def avd(settings: Settings, *args: str, stdin: str | None = None) -> Result:
    """Run ``avd`` in this process with exactly the test's settings in the environment."""
    env = {k: None for k in os.environ if k.startswith("AVD_")}
    env |= settings_env(settings) | FAKE_AWS_ENV | {"COLUMNS": "250"}
    return CliRunner().invoke(cli_app, list(args), input=stdin, env=env, catch_exceptions=False)


def rows(settings: Settings, model: type) -> list:
    async def go() -> list:
        engine = make_engine(settings.resolved_database_url)
        try:
            async with make_sessionmaker(engine)() as db:
                return list((await db.execute(select(model).where(model.study == settings.study))).scalars())
        finally:
            await engine.dispose()

    return asyncio.run(go())


def test_launch_shows_the_cost_and_creates_nothing_without_confirmation(settings_factory, fake):
    settings = settings_factory(mturk_endpoint_url=fake.url)
    out = avd(
        settings, "launch", "--provider", "mturk-sandbox", "--dialogs", "4", "--reward", "0.50", stdin="n\n"
    )
    assert out.exit_code == 0, out.stderr
    slots = assignments_for(4)
    assert f"worker slots: {slots}" in out.stderr
    assert "expected cost: $" in out.stderr and "platform fees" in out.stderr
    assert "most it can cost: $" in out.stderr
    assert "Nothing launched." in out.stderr
    assert fake.hits == {} and fake.count("CreateHITWithHITType") == 0
    assert rows(settings, Launch) == []


def test_launch_creates_hits_with_external_question_and_requirements(settings_factory, fake):
    settings = settings_factory(
        mturk_endpoint_url=fake.url,
        public_url="http://127.0.0.1:8123",
        mturk_max_dialogs_per_worker=1,
        mturk_locales="US, GB",
    )
    out = avd(
        settings, "launch", "--provider", "mturk-sandbox", "--dialogs", "4", "--reward", "0.50", "--yes"
    )
    assert out.exit_code == 0, out.stderr
    hits = json.loads(out.stdout)["hits"]
    slots = assignments_for(4)  # 12 slots: one HIT of 9 and one of 3 (under 10 avoids the extra fee)
    assert sorted(h["MaxAssignments"] for h in fake.hits.values()) == [3, 9]
    assert sum(h["MaxAssignments"] for h in fake.hits.values()) == slots
    assert set(hits) == set(fake.hits)

    (htype,) = fake.hit_types.values()
    assert htype["Reward"] == "0.50"
    assert htype["AssignmentDurationInSeconds"] == settings.mturk_assignment_duration_seconds
    assert htype["AutoApprovalDelayInSeconds"] == settings.mturk_auto_approval_delay_seconds
    reqs = {r["QualificationTypeId"]: r for r in htype["QualificationRequirements"]}
    names = {q["QualificationTypeId"]: q["Name"] for q in fake.qual_types.values()}
    own = {names[q]: r["Comparator"] for q, r in reqs.items() if q in names}
    assert own == {
        f"avd {settings.study} blocked": "DoesNotExist",
        f"avd {settings.study} limit": "DoesNotExist",
    }
    assert [v["Country"] for v in reqs[LOCALE]["LocaleValues"]] == ["US", "GB"]
    assert reqs[PERCENT_APPROVED]["IntegerValues"] == [95]
    assert reqs[NUMBER_APPROVED]["IntegerValues"] == [100]

    hit_id = hits[0]
    assert fake.external_url(hit_id) == "http://127.0.0.1:8123/?provider=mturk-sandbox"
    assert EXTERNAL_NS in fake.hits[hit_id]["Question"]
    lifetime = fake.hits[hit_id]["Expiration"] - fake.hits[hit_id]["CreationTime"]
    assert lifetime == pytest.approx(settings.mturk_hit_lifetime_seconds)

    (launch,) = rows(settings, Launch)
    hit_rows = rows(settings, Hit)
    assert all(h.launch_id == launch.id for h in hit_rows)
    assert launch.status == "launched" and launch.assignments == slots and launch.reward_cents == 50
    assert sorted(r.id for r in hit_rows) == sorted(hits)
    assert all(r.reward_cents == 50 and r.status == "open" for r in hit_rows)

    again = avd(
        settings, "launch", "--provider", "mturk-sandbox", "--dialogs", "1", "--reward", "0.50", "--yes"
    )
    assert again.exit_code == 0, again.stderr
    assert len(fake.qual_types) == 2  # the study's qualification types are found again, not duplicated


def test_the_budget_cap_is_never_exceeded(settings_factory, fake):
    settings = settings_factory(mturk_endpoint_url=fake.url, pay_budget_cap_cents=10_000)
    first = avd(
        settings, "launch", "--provider", "mturk-sandbox", "--dialogs", "4", "--reward", "0.50", "--yes"
    )
    assert first.exit_code == 0, first.stderr
    created = len(fake.hits)
    second = avd(
        settings, "launch", "--provider", "mturk-sandbox", "--dialogs", "10", "--reward", "0.50", "--yes"
    )
    assert second.exit_code == 1
    assert "budget cap" in second.stderr
    assert len(fake.hits) == created
    launches = rows(settings, Launch)
    assert len(launches) == 1 and launches[0].max_cost_cents <= 10_000


async def test_a_real_platform_needs_an_https_page(settings_factory, services, monkeypatch):
    settings = settings_factory(public_url="http://example.org")  # no endpoint override: real MTurk
    provider = MTurkProvider(settings, sandbox=True)
    with pytest.raises(LaunchRefused, match="HTTPS"):
        await plan_launch(services.sessions, settings, provider, 2, 50)


def test_cli_rejects_an_unknown_provider(settings):
    out = avd(settings, "launch", "--provider", "nope", "--yes")
    assert out.exit_code == 2 and "unknown provider" in out.output


def test_fake_external_question_namespace_matches_ours():
    from server.providers.mturk import EXTERNAL_NS as OURS

    assert OURS == EXTERNAL_NS
