"""The dashboard API through a real server: log-in, CSRF, live operations, review, charts, report."""

from __future__ import annotations

import io
import subprocess
import sys
import zipfile
from pathlib import Path

import httpx
from sqlalchemy import update

from server.bots import simulate
from server.db.models import Review
from server.qc.pipeline import pending_dialogs, run_qc
from tests.conftest import settings_env


def create_admin(settings, username: str = "ada", password: str = "correct horse") -> None:
    done = subprocess.run(
        [sys.executable, "-m", "server.cli", "admin", "create", username, "--password", password],
        env=settings_env(settings),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr


def logged_in(url: str, username: str = "ada", password: str = "correct horse") -> tuple[httpx.Client, str]:
    client = httpx.Client(base_url=url, timeout=30)
    reply = client.post("/admin/api/login", json={"username": username, "password": password})
    assert reply.status_code == 200, reply.text
    return client, reply.json()["csrf"]


async def test_login_csrf_and_worker_tokens(settings, stimuli, server_factory):
    await stimuli(1)
    server = server_factory(settings)
    create_admin(settings)
    anon = httpx.Client(base_url=server.url)
    assert anon.get("/admin/api/live").status_code == 401
    assert anon.post("/admin/api/login", json={"username": "ada", "password": "wrong"}).status_code == 401
    worker = anon.post("/api/sessions", json={"worker": "w1", "consent": True}).json()["token"]
    assert anon.get("/admin/api/live", headers={"Authorization": f"Bearer {worker}"}).status_code == 401
    forged = httpx.Client(base_url=server.url, cookies={"avd_admin": worker})
    assert forged.get("/admin/api/live").status_code == 401
    client, csrf = logged_in(server.url)
    assert client.get("/admin/api/me").json()["username"] == "ada"
    assert client.post("/admin/api/intake", json={"paused": True}).status_code == 403  # no CSRF header
    assert (
        client.post("/admin/api/intake", json={"paused": True}, headers={"X-CSRF-Token": "x"}).status_code
        == 403
    )
    assert client.post("/admin/api/intake", json={"paused": True}, headers={"X-CSRF-Token": csrf}).json() == {
        "paused": True
    }
    assert client.get("/admin/api/live").json()["paused"] is True


async def test_live_operations_and_targets(settings, stimuli, server_factory):
    ids = await stimuli(2)
    server = server_factory(settings)
    create_admin(settings)
    client, csrf = logged_in(server.url)
    headers = {"X-CSRF-Token": csrf}
    summary, _ = await simulate(server.url, pairs=1, timeout=60)
    live = client.get("/admin/api/live").json()
    assert live["counts"]["dialogs"]["complete"] == 1
    assert live["rates"]["completion"] == 1.0
    progress = {row["stimulus_id"]: row for row in client.get("/admin/api/stimuli").json()}
    assert set(progress) == set(ids) and sum(r["complete"] for r in progress.values()) == 1
    done_id = next(s for s, r in progress.items() if r["complete"] == 1)
    other = next(s for s in ids if s != done_id)
    # close the other stimulus: nothing left to collect, so a new pair waits instead of starting
    assert (
        client.post(f"/admin/api/stimuli/{other}/target", json={"target": 1}, headers=headers).status_code
        == 200
    )
    reply = client.post(f"/admin/api/stimuli/{done_id}/target", json={"target": 1}, headers=headers)
    assert reply.json()["load"] == 1
    assert (
        client.post("/admin/api/stimuli/nope/target", json={"target": 2}, headers=headers).status_code == 404
    )
    assert (
        client.post(f"/admin/api/stimuli/{other}/target", json={"target": 0}, headers=headers).status_code
        == 422
    )


async def test_review_decisions_charts_and_report(
    settings, stimuli, server_factory, services, tmp_path: Path
):
    await stimuli(3)
    server = server_factory(settings)
    create_admin(settings)
    await simulate(server.url, pairs=2, timeout=60)
    ids = await pending_dialogs(services.sessions, settings)
    strict = settings.model_copy(update={"qc_min_reference_overlap": 50})  # everything goes to review
    await run_qc(services.sessions, strict, ids, force=True)
    client, csrf = logged_in(server.url)
    headers = {"X-CSRF-Token": csrf}
    queue = client.get("/admin/api/review").json()
    assert sorted(q["dialog_id"] for q in queue) == sorted(ids)
    detail = client.get(f"/admin/api/dialogs/{ids[0]}").json()
    assert len(detail["turns"]) == 20 and detail["qc"]["verdict"] == "review"
    assert set(detail["responses"]) == {"before_reveal", "after_reveal", "answerer"}
    assert client.get(f"/admin/api/dialogs/{ids[0]}/image").headers["content-type"] == "image/jpeg"
    assert client.get("/admin/api/dialogs/unknown").status_code == 404
    bad = client.post("/admin/api/reviews", json={"dialog_ids": ids, "decision": "reject"}, headers=headers)
    assert bad.status_code == 422 and "reason" in bad.text
    unknown = client.post(
        "/admin/api/reviews", json={"dialog_ids": [ids[0], "nope"], "decision": "accept"}, headers=headers
    )
    assert unknown.status_code == 404
    ok = client.post(
        "/admin/api/reviews",
        json={"dialog_ids": [ids[0]], "decision": "reject", "reason": "Answers were off-topic."},
        headers=headers,
    )
    assert ok.json() == {"decided": 1, "decision": "reject"}
    bulk = client.post(
        "/admin/api/reviews",
        json={"dialog_ids": [ids[1]], "decision": "accept", "bonus_cents": 25},
        headers=headers,
    )
    assert bulk.status_code == 200
    assert client.get("/admin/api/review").json() == []
    assert client.get(f"/admin/api/dialogs/{ids[0]}").json()["review"]["reviewer"] == "ada"
    async with services.sessions() as db:
        await db.execute(update(Review).where(Review.dialog_id == ids[1]).values(paid=True))
        await db.commit()
    paid = client.post(
        "/admin/api/reviews",
        json={"dialog_ids": [ids[1]], "decision": "reject", "reason": "changed my mind"},
        headers=headers,
    )
    assert paid.status_code == 409
    zipped = client.get("/admin/api/export.zip", params={"status": "complete"})
    assert zipped.status_code == 200 and zipped.headers["content-type"] == "application/zip"
    with zipfile.ZipFile(io.BytesIO(zipped.content)) as archive:
        dialogs_file = next(n for n in archive.namelist() if n.endswith("dialogs.jsonl"))
        assert len(archive.read(dialogs_file).decode().splitlines()) == 2
    assert httpx.get(server.url + "/admin/api/export.zip").status_code == 401
    numbers = client.get("/admin/api/charts").json()
    assert numbers["emotion_change_after_reveal"]["dialogs"] == 2
    assert len(numbers["subjectivity"]["answerer"]) == 2
    svg = client.get("/admin/api/charts/subjectivity.svg")
    assert svg.headers["content-type"].startswith("image/svg") and b"<svg" in svg.content
    assert client.get("/admin/api/charts/nope.svg").status_code == 404
    out = tmp_path / "report"
    done = subprocess.run(
        [sys.executable, "-m", "server.cli", "report", "--out", str(out)],
        env=settings_env(settings),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert (out / "index.html").exists() and (out / "polarity.png").stat().st_size > 1000
    assert "changed their emotion" in (out / "index.html").read_text()


async def test_evaluation_runs_are_listed_with_their_results(settings_factory, stimuli, server_factory):
    import time

    # three dialogs land in one split; evaluate on whichever holds them (train, with this seed)
    policy = {"every": 1000, "runs": [{"task": "retrieval", "model": "random", "split": "train"}]}
    settings = settings_factory(auto_eval=policy)
    await stimuli(4, settings)
    server = server_factory(settings)
    create_admin(settings)
    await simulate(server.url, pairs=3, timeout=90)
    done = subprocess.run(
        [sys.executable, "-m", "server.cli", "qc", "run", "--workers", "1", "--then-eval"],
        env=settings_env(settings),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    client, _ = logged_in(server.url)
    deadline = time.time() + 120
    while time.time() < deadline:
        [run] = client.get("/admin/api/eval-runs").json()
        if run["status"] in ("succeeded", "failed", "cancelled"):
            break
        time.sleep(1)
    assert (run["task"], run["trigger"], run["status"]) == ("retrieval", "auto", "succeeded"), run
    detail = client.get(f"/admin/api/eval-runs/{run['id']}").json()
    overall = detail["results"]["metrics"]["overall"]
    assert overall["n"] > 0 and 0 <= overall["r@10"] <= 1, overall
    assert client.get("/admin/api/eval-runs/nope").status_code == 404
