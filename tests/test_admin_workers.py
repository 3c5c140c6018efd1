"""Per-worker statistics: the API and ``avd qc workers`` against figures worked out by hand.

The first test writes a small, fully known set of rows (three dialogs between three workers,
with their messages, bounces, QC results, decisions and payments); every expected number
below is computed by hand from those rows. The second runs a real dialog over websockets
and QC, to check that bounces and QC flags land on the worker who wrote the message.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import subprocess
import sys
from datetime import UTC, datetime, timedelta

import httpx
from sqlalchemy import select

from server.db.models import Dialog, QcResult, Review, Turn, Worker, WorkerEvent
from server.db.provider_models import Assignment, Payment
from server.qc.pipeline import pending_dialogs, run_qc
from tests.conftest import settings_env
from tests.test_admin_api import create_admin, logged_in
from tests.test_ws_bad_input import pair, refused, say

T0 = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)
SOFT = {"id": "generic_question", "severity": "soft", "message": "too generic"}
HARD = {"id": "greeting", "severity": "hard", "message": "no greetings"}


def _turn(dialog: str, seq: int, role: str, text: str, latency: int) -> Turn:
    return Turn(
        dialog_id=dialog,
        seq=seq,
        round=(seq + 1) // 2,
        role=role,
        text=text,
        client_id=f"c{seq}",
        sent_at=T0,
        latency_ms=latency,
    )


async def _rows(sessions, settings, stimulus: str, tag: str) -> dict[str, str]:
    """Workers q, a, x, l; dialogs d1 (q asks a, complete), d2 (a asks q, abandoned), d3 (q asks x)."""
    w = {k: f"{tag}-{k}" for k in ("q", "a", "x", "l")}
    d = {k: f"{tag}-{k}" for k in ("d1", "d2", "d3")}
    study = settings.study

    def dialog(key: str, q: str, a: str, status: str, minutes: int) -> Dialog:
        return Dialog(
            id=d[key],
            study=study,
            stimulus_id=stimulus,
            questioner_id=w[q],
            answerer_id=w[a],
            status=status,
            positive_first=True,
            started_at=T0 + timedelta(minutes=minutes),
        )

    async with sessions() as db:
        db.add_all([Worker(id=v, provider="mturk", platform_worker_id="P" + v) for v in w.values()])
        await db.flush()
        db.add_all(
            [
                dialog("d1", "q", "a", "complete", 0),
                dialog("d2", "a", "q", "abandoned", 10),
                dialog("d3", "q", "x", "timed_out", 20),
            ]
        )
        await db.flush()
        db.add_all(
            [
                # q wrote 10, 20, 60, 5 characters after 1000, 3000, 6000, 2500 ms
                # a wrote 30, 40, 50 characters after 4000, 2000, 500 ms; x wrote nothing
                _turn(d["d1"], 1, "questioner", "q" * 10, 1000),
                _turn(d["d1"], 2, "answerer", "a" * 30, 4000),
                _turn(d["d1"], 3, "questioner", "q" * 20, 3000),
                _turn(d["d1"], 4, "answerer", "a" * 40, 2000),
                _turn(d["d2"], 1, "questioner", "a" * 50, 500),
                _turn(d["d2"], 2, "answerer", "q" * 60, 6000),
                _turn(d["d3"], 1, "questioner", "q" * 5, 2500),
            ]
        )
        bounce = {"rules": ["greeting"], "text": "hello there", "count": 1}
        db.add_all(
            [
                WorkerEvent(
                    study=study, worker_id=w["q"], dialog_id=d["d1"], kind="rule_bounce", detail=bounce
                ),
                WorkerEvent(
                    study=study, worker_id=w["q"], dialog_id=d["d1"], kind="rule_bounce", detail=bounce
                ),
                WorkerEvent(
                    study=study, worker_id=w["a"], dialog_id=d["d2"], kind="rule_bounce", detail=bounce
                ),
                WorkerEvent(
                    study=study, worker_id=w["a"], dialog_id=d["d2"], kind="rule_bounce", detail=bounce
                ),
                WorkerEvent(study="elsewhere", worker_id=w["q"], kind="rule_bounce", detail=bounce),
                WorkerEvent(study=study, worker_id=w["q"], dialog_id=d["d1"], kind="completed"),
                WorkerEvent(study=study, worker_id=w["l"], kind="lobby_timeout"),
            ]
        )
        # QC: in d1 seq 3 (q's) has a soft hit, seq 2 (a's) a soft and a hard one
        db.add_all(
            [
                QcResult(
                    dialog_id=d["d1"],
                    verdict="review",
                    flags={"3": [SOFT], "2": [SOFT, HARD]},
                    config_hash="x",
                ),
                QcResult(dialog_id=d["d2"], verdict="reject", flags={}, config_hash="x"),
                QcResult(dialog_id=d["d3"], verdict="reject", flags={}, config_hash="x"),
                Review(dialog_id=d["d1"], decision="accept", bonus_cents=25, reviewer="ada"),
                Review(dialog_id=d["d3"], decision="reject", reason="off topic", reviewer="ada"),
            ]
        )
        db.add_all(
            [
                Assignment(id=f"{tag}-as1", study=study, provider="mturk", worker_id=w["q"]),
                Assignment(id=f"{tag}-as2", study=study, provider="mturk", worker_id=w["q"]),
            ]
        )
        await db.flush()
        db.add_all(
            [
                Payment(
                    assignment_id=f"{tag}-as1",
                    study=study,
                    provider="mturk",
                    worker_id=w["q"],
                    dialog_id=d["d1"],
                    outcome="completed",
                    action="approve",
                    base_cents=150,
                    bonus_cents=25,
                    token=f"{tag}-t1",
                    status="done",
                ),
                Payment(
                    assignment_id=f"{tag}-as2",
                    study=study,
                    provider="mturk",
                    worker_id=w["q"],
                    dialog_id=d["d2"],
                    outcome="partner_left",
                    action="approve",
                    base_cents=50,
                    token=f"{tag}-t2",
                    status="planned",
                ),
            ]
        )
        await db.commit()
    return w | d


async def test_worker_figures_match_hand_computed_values(settings, stimuli, server_factory, services):
    [stimulus] = await stimuli(1)
    ids = await _rows(services.sessions, settings, stimulus, "hw")
    server = server_factory(settings)
    create_admin(settings)
    client, _ = logged_in(server.url)

    page = client.get("/admin/api/workers").json()
    assert page["total"] == 4 and page["sort"] == "violations"
    # a: 2 bounces + 1 soft + 1 hard = 4; q: 2 bounces + 1 soft = 3; x and l: 0 (ties by id)
    assert [r["worker_id"] for r in page["rows"]] == [ids["a"], ids["q"], ids["l"], ids["x"]]
    rows = {r["worker_id"]: r for r in page["rows"]}
    q, a, x, lobby = rows[ids["q"]], rows[ids["a"]], rows[ids["x"]], rows[ids["l"]]

    assert q["dialogs"] == {"total": 3, "complete": 1, "abandoned": 1, "timed_out": 1, "in_progress": 0}
    assert q["roles"] == {"questioner": 2, "answerer": 1}
    assert (q["messages"], q["mean_chars"], q["median_chars"]) == (4, 23.8, 15.0)  # 95/4; (10+20)/2
    assert q["median_latency_ms"] == 2750.0  # (2500+3000)/2
    assert (q["rule_bounces"], q["qc_soft_flags"], q["qc_hard_flags"], q["violations"]) == (2, 1, 0, 3)
    assert q["qc"] == {"accept": 0, "review": 1, "reject": 2}
    assert q["decisions"] == {"accept": 1, "reject": 1}
    assert q["final"] == {"accepted": 1, "rejected": 2, "to_review": 0}  # d1 decided, d2 by QC, d3 decided
    assert q["acceptance_rate"] == 0.333
    assert q["review_bonus_cents"] == 25
    assert q["payments"] == {"count": 2, "done": 1, "base_cents": 200, "bonus_cents": 25, "total_cents": 225}
    assert q["events"] == {"completed": 1, "rule_bounce": 2}
    assert (q["provider"], q["blocked"]) == ("mturk", False)

    assert a["dialogs"]["total"] == 2 and a["roles"] == {"questioner": 1, "answerer": 1}
    assert (a["messages"], a["mean_chars"], a["median_chars"], a["median_latency_ms"]) == (
        3,
        40.0,
        40.0,
        2000.0,
    )
    assert (a["rule_bounces"], a["qc_soft_flags"], a["qc_hard_flags"], a["violations"]) == (2, 1, 1, 4)
    assert a["final"] == {"accepted": 1, "rejected": 1, "to_review": 0} and a["acceptance_rate"] == 0.5
    assert a["review_bonus_cents"] == 25 and a["payments"]["count"] == 0

    assert x["dialogs"] == {"total": 1, "complete": 0, "abandoned": 0, "timed_out": 1, "in_progress": 0}
    assert (x["messages"], x["mean_chars"], x["median_chars"], x["median_latency_ms"]) == (
        0,
        None,
        None,
        None,
    )
    assert x["final"] == {"accepted": 0, "rejected": 1, "to_review": 0} and x["acceptance_rate"] == 0.0
    assert lobby["dialogs"]["total"] == 0 and lobby["events"] == {"lobby_timeout": 1}

    def order(**params) -> list[str]:
        reply = client.get("/admin/api/workers", params=params)
        assert reply.status_code == 200, reply.text
        return [r["worker_id"] for r in reply.json()["rows"]]

    assert order(min_violations=4) == [ids["a"]]
    assert order(min_violations=1, sort="median_chars") == [ids["a"], ids["q"]]
    # empty values go last either way
    assert order(sort="median_latency_ms", order="asc") == [ids["a"], ids["q"], ids["l"], ids["x"]]
    assert order(sort="worker_id", order="asc", limit=2, offset=1) == [ids["l"], ids["q"]]
    assert order(sort="acceptance_rate") == [ids["a"], ids["q"], ids["x"], ids["l"]]
    assert client.get("/admin/api/workers", params={"sort": "nope"}).status_code == 422
    assert client.get("/admin/api/workers", params={"limit": 0}).status_code == 422

    detail = client.get(f"/admin/api/workers/{ids['q']}").json()
    assert detail["worker"] == q
    assert [(d["dialog_id"], d["role"], d["status"]) for d in detail["dialogs"]] == [
        (ids["d3"], "questioner", "timed_out"),
        (ids["d2"], "answerer", "abandoned"),
        (ids["d1"], "questioner", "complete"),
    ]
    first = detail["dialogs"][2]
    assert (first["messages"], first["qc_flags"], first["qc_verdict"], first["decision"]) == (
        2,
        {"soft": 1, "hard": 0},
        "review",
        "accept",
    )
    assert first["bonus_cents"] == 25
    assert [(b["dialog_id"], b["rules"], b["text"]) for b in detail["bounces"]] == [
        (ids["d1"], ["greeting"], "hello there")
    ] * 2
    assert sorted((p["base_cents"], p["status"]) for p in detail["payments"]) == [
        (50, "planned"),
        (150, "done"),
    ]
    assert client.get("/admin/api/workers/nobody").status_code == 404
    forged = httpx.Client(base_url=server.url, cookies={"avd_admin": "forged"})
    assert forged.get(f"/admin/api/workers/{ids['q']}").status_code == 401

    # the same table on the command line
    done = subprocess.run(
        [sys.executable, "-m", "server.cli", "qc", "workers", "--json", "--top", "2"],
        env=settings_env(settings),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    printed = json.loads(done.stdout)
    assert [r["worker_id"] for r in printed["rows"]] == [ids["a"], ids["q"]] and printed["total"] == 4
    assert printed["rows"][1] == q
    text = subprocess.run(
        [sys.executable, "-m", "server.cli", "qc", "workers", "--sort", "median_latency_ms"],
        env=settings_env(settings) | {"COLUMNS": "250"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert text.returncode == 0, text.stderr
    lines = [line for line in text.stdout.splitlines() if ids["q"] in line or ids["a"] in line]
    assert ids["q"] in lines[0] and "2.8 s" in lines[0] and ids["a"] in lines[1] and "2.0 s" in lines[1]


async def test_live_bounces_and_qc_flags_count_for_their_author(
    settings_factory, stimuli, server_factory, services
):
    settings = settings_factory(rounds=1)
    await stimuli(1, settings)
    server = server_factory(settings)
    create_admin(settings)
    q, a, _ = await pair(server.url)
    hello = {"type": "message", "client_id": "g1", "text": "Hi there, how are you today?"}
    await refused(services, q, a, hello, "rule_violation")
    await say(q, a, "What is the image about?")  # soft: generic question, accepted and flagged
    assert [f["type"] for f in await q.fence()] == ["rule_warning"]
    await refused(services, a, q, {"type": "message", "client_id": "y1", "text": "yes"}, "rule_violation")
    await refused(services, a, q, {"type": "message", "client_id": "y2", "text": "no"}, "rule_violation")
    await say(a, q, "A small red boat floats on a calm lake under a pale morning sky.")
    await q.send({"type": "leave"})
    await q.expect("ended")
    dialog_id = q.dialog["dialog_id"]
    for _ in range(300):  # the record is finished by the server after the frame; wait for it (bounded)
        if dialog_id in await pending_dialogs(services.sessions, settings):
            break
        await asyncio.sleep(0.1)
    assert await run_qc(services.sessions, settings, [dialog_id], force=True) == {"reject": 1}
    async with services.sessions() as db:
        dialog = await db.get(Dialog, dialog_id)
        turns = (
            await db.execute(select(Turn).where(Turn.dialog_id == dialog_id).order_by(Turn.seq))
        ).scalars()
        by_role = {t.role: t for t in turns}
    client, _ = logged_in(server.url)
    rows = {r["worker_id"]: r for r in client.get("/admin/api/workers").json()["rows"]}
    asker, teller = rows[dialog.questioner_id], rows[dialog.answerer_id]
    assert (asker["rule_bounces"], asker["qc_soft_flags"], asker["violations"]) == (1, 1, 2)
    assert (teller["rule_bounces"], teller["qc_soft_flags"], teller["violations"]) == (2, 0, 2)
    for row in (asker, teller):
        assert row["dialogs"]["total"] == row["dialogs"][dialog.status] == 1
    for row, turn in ((asker, by_role["questioner"]), (teller, by_role["answerer"])):
        assert (row["messages"], row["median_chars"]) == (1, float(len(turn.text)))
        assert row["median_latency_ms"] == statistics.median([turn.latency_ms])
    detail = client.get(f"/admin/api/workers/{dialog.answerer_id}").json()
    assert sorted(b["text"] for b in detail["bounces"]) == ["no", "yes"]
    assert detail["dialogs"][0]["dialog_id"] == dialog_id
