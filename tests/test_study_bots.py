"""Simulated raters with known behaviour, through the real rater API of two real server processes.

The aggregation must recover what was planted: careful raters reproduce the planted shares
within the bootstrap interval, raters who fail attention checks are excluded and replaced,
too-fast answers are replaced, an always-"human" crowd is reported as such, and random
raters show no agreement.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import httpx
import pytest
from sqlalchemy import select, update

from server.db.models import Worker, WorkerEvent
from server.studies import results as res
from server.studies.bots import RaterBot, run_bots
from server.studies.build import BuildOptions, build_study
from server.studies.kinds import load_kind
from server.studies.manage import set_status
from server.tokens import Signer
from tests.test_study_support import export_with_images, real_run, reasonable_oracle

THINK = 0.6  # careful raters take this long per item ...
MIN_SECONDS = 0.5  # ... and anything faster than this is replaced


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("study-runs")
    export = export_with_images(root / "export")
    return {
        "export": export,
        "retrieval": real_run("retrieval", export, root / "retrieval"),
        "generation": real_run("generation", export, root / "generation"),
    }


async def _open(services, settings, run_dir: Path, opts: BuildOptions) -> str:
    built = await build_study(services.sessions, settings, run_dir, opts)
    await set_status(services.sessions, built.study.id, "open")
    return built.study.id


def _answer_in(answers: set[str]):
    return lambda item: (item.get("rounds") or [{}])[-1].get("answer") in answers


def _bots(urls: list[str], study_id: str, specs: list[tuple[str, int]], tag: str, **kw) -> list[RaterBot]:
    bots = []
    for behaviour, count in specs:
        for n in range(count):
            name = f"{tag}-{behaviour.replace(':', '-')}-{n}"
            bots.append(RaterBot(urls[len(bots) % len(urls)], study_id, name, behaviour, seed=n, **kw))
    return bots


async def test_careful_raters_recover_planted_shares_and_bad_raters_are_replaced(
    runs, settings_factory, server_factory, services
):
    settings = settings_factory(study_min_seconds=MIN_SECONDS)
    servers = [server_factory(settings), server_factory(settings)]
    urls = [s.url for s in servers]
    opts = BuildOptions(
        kind="reasonableness", items=16, raters=3, items_per_rater=8, attention_every=4, seed=2
    )
    sid = await _open(services, settings, runs["retrieval"], opts)

    # Phase 1: two inattentive raters (fail their first check), two fast ones, three careful ones.
    # Careful raters slip on 10% of real items but never on a check's blatant nonsense answer.
    nonsense = {t["answer"] for t in load_kind("reasonableness").attention}
    kw = {"oracle": reasonable_oracle, "error": 0.1, "think": THINK, "obvious": _answer_in(nonsense)}
    first = _bots(urls, sid, [("inattentive", 2), ("fast", 2), ("careful", 3)], "p1", **kw)
    await run_bots(first)
    # Phase 2: enough careful raters to fill every item.
    second = _bots(urls, sid, [("careful", 8)], "p2", **kw)
    await run_bots(second)
    # On a loaded machine a careful rater can lose an item to its lease; top up until full.
    for extra in range(3):
        study, items, judgments = await res.load(services.sessions, sid)
        s = res.aggregate(study, items, judgments, seed=1, resamples=10)["summary"]
        if s["valid_judgments_per_item"] == {"3": 16}:
            break
        more = _bots(urls, sid, [("careful", 4)], f"p3x{extra}", **kw)
        await run_bots(more)
        second += more

    study, items, judgments = await res.load(services.sessions, sid)
    out = res.aggregate(study, items, judgments, seed=1, resamples=1000)
    s = out["summary"]
    assert s["items"] == 16 and s["valid_judgments_per_item"] == {"3": 16}  # exactly 3 valid each
    assert s["raters_excluded"] == 2
    invalid = s["judgments_invalid"]
    assert invalid["failed_attention_check"] == 2
    # nothing an excluded rater answered counts: their regular answers were struck (usually as
    # rater_excluded; one that was already invalid for another reason keeps that reason) ...
    excluded_ids = {j.rater_id for j in judgments if j.reason == "failed_attention_check"}
    attention = {i.id for i in items if i.is_attention}
    struck = [j for j in judgments if j.rater_id in excluded_ids and j.item_id not in attention]
    assert struck and not any(j.valid for j in struck), [(j.reason, j.submitted_at) for j in struck]
    assert invalid["rater_excluded"] >= 1
    assert invalid["too_fast"] >= 2  # ... and the fast raters' answers were replaced

    for bot in first[:2]:
        assert bot.final["state"] == "excluded" and len(bot.answers) == 2
    for bot in first[2:4]:
        assert bot.final["state"] == "done"
    async with services.sessions() as db:
        events = (await db.scalars(select(WorkerEvent).where(WorkerEvent.study == settings.study))).all()
    kinds = Counter(e.kind for e in events)
    done = sum(1 for b in first + second if b.final["state"] == "done")
    assert kinds == {"study_excluded": 2, "study_completed": done} and done >= 5
    assert all(e.completion_code for e in events)
    signer = Signer(settings.resolved_secret, settings.study, 3600)
    fast_ids = {signer.worker_id("local", b.worker) for b in first[2:4]}
    too_fast = {j.rater_id for j in judgments if j.reason == "too_fast"}
    assert too_fast and too_fast <= fast_ids  # careful raters are never too fast

    # Planted truth: each item's oracle answer; careful raters err 10% of the time. The share is
    # exactly the valid "reasonable" votes over valid votes; it lies in its own bootstrap interval
    # and within sampling noise (3.3 standard deviations for 48 votes at 10% error) of the plant.
    truth = {i.id: reasonable_oracle(i.payload) for i in items if not i.is_attention}
    source_of = {i.id: i.source for i in items if not i.is_attention}
    for source, row in out["by_source"].items():
        own = [i for i in items if not i.is_attention and i.source == source]
        votes = [j.answer for j in judgments if j.valid and source_of.get(j.item_id) == source]
        assert row["share"] == pytest.approx(votes.count("reasonable") / len(votes))
        low, high = row["ci95"]
        assert low <= row["share"] <= high, (source, row)
        p = sum(truth[i.id] == "reasonable" for i in own) / len(own)
        expected = p * 0.9 + (1 - p) * 0.1
        assert abs(row["share"] - expected) <= 0.25, (source, expected, row)
    assert out["by_source"]["human"]["share"] > out["by_source"]["random:3"]["share"]
    agree = [v["majority"] == truth[v["id"]] for v in out["items"] if v["majority"]]
    assert sum(agree) >= 0.85 * len(agree)
    assert out["agreement"]["krippendorff_alpha"] > 0.3


async def test_always_human_and_random_raters(runs, settings_factory, server_factory, services):
    settings = settings_factory(study_min_seconds=0.0)
    server = server_factory(settings)
    opts = BuildOptions(kind="turing", items=8, raters=3, items_per_rater=8, attention_every=0, seed=1)
    sid = await _open(services, settings, runs["generation"], opts)
    await run_bots(_bots([server.url], sid, [("always:human", 6)], "h"))
    study, items, judgments = await res.load(services.sessions, sid)
    out = res.aggregate(study, items, judgments, resamples=500)
    assert set(out["by_source"]) == {"human", "random:3"}
    for row in out["by_source"].values():
        assert row["share"] == 1.0 and row["ci95"] == [1.0, 1.0] and row["majority_share"] == 1.0
        assert row["answers"] == {"human": row["judgments"], "ai": 0, "not_sure": 0}
    assert out["agreement"]["fleiss_kappa"] is None  # one category only: chance agreement is total

    # Random raters on a fresh study: agreement indistinguishable from chance.
    opts = BuildOptions(kind="turing", items=30, raters=6, items_per_rater=30, attention_every=0, seed=2)
    sid = await _open(services, settings, runs["generation"], opts)
    await run_bots(_bots([server.url], sid, [("random", 14)], "x"))
    study, items, judgments = await res.load(services.sessions, sid)
    out = res.aggregate(study, items, judgments, resamples=500)
    a = out["agreement"]
    assert a["fleiss_items"] == out["summary"]["items"]
    assert abs(a["krippendorff_alpha"]) < 0.12 and abs(a["fleiss_kappa"]) < 0.12


async def test_rater_api_hides_the_source_and_guards_images(runs, settings_factory, server_factory, services):
    settings = settings_factory(study_min_seconds=0.0)
    server = server_factory(settings)
    opts = BuildOptions(kind="preference", items=4, raters=1, items_per_rater=10, attention_every=0)
    built = await build_study(services.sessions, settings, runs["generation"], opts)
    sid = built.study.id
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
        info = (await client.get(f"/api/studies/{sid}")).json()
        assert [o["value"] for o in info["options"]] == ["first", "second", "both_good", "both_bad"]
        assert (await client.get("/api/studies/nope")).status_code == 404
        assert (await client.post(f"/api/studies/{sid}/next")).status_code == 401
        token = (await client.post("/api/sessions", json={"worker": "api-rater", "consent": True})).json()[
            "token"
        ]
        auth = {"Authorization": f"Bearer {token}"}
        closed = (await client.post(f"/api/studies/{sid}/next", headers=auth)).json()
        assert closed["state"] == "closed"  # a draft hands out nothing
        await set_status(services.sessions, sid, "open")
        reply = (await client.post(f"/api/studies/{sid}/next", headers=auth)).json()
        item = reply["item"]
        text = str(item)
        for secret in ("human", "machine", "random:3", "sources", "truth", "image_key", "study-"):
            assert secret not in text.replace(item["image_url"] or "", "")
        assert len(item["reactions"]) == 2 and item["emotion"]
        image = await client.get(item["image_url"])
        assert image.status_code == 200 and image.headers["content-type"] == "image/png"
        assert (await client.get(item["image_url"][:-3] + "xyz")).status_code == 404
        bad = await client.post(
            f"/api/studies/{sid}/judgments", json={"item_id": item["id"], "answer": "x"}, headers=auth
        )
        assert bad.status_code == 422
        ok = await client.post(
            f"/api/studies/{sid}/judgments", json={"item_id": item["id"], "answer": "first"}, headers=auth
        )
        assert ok.json() == {"ok": True}
        async with services.sessions() as db:  # a worker blocked later is refused at once
            await db.execute(
                update(Worker).where(Worker.platform_worker_id == "api-rater").values(blocked=True)
            )
            await db.commit()
        assert (await client.post(f"/api/studies/{sid}/next", headers=auth)).status_code == 403
    study, items, judgments = await res.load(services.sessions, sid)
    (j,) = [j for j in judgments if j.submitted_at]
    by_id = {i.id: i for i in items}
    shown_first = j.shown["order"][0]
    assert j.answer == by_id[j.item_id].truth["sources"][shown_first]  # "first" stored as its source
