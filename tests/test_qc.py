"""QC after the dialog: verdicts with reasons, TextBlob scores, jobs on RQ, bulk CLI runs."""

from __future__ import annotations

import subprocess
import sys
import time

from sqlalchemy import select

from bench.harness import start_timeout
from server.bots import simulate
from server.db.models import Dialog, QcResult, Response
from server.qc.inclusion import content_words
from server.qc.pipeline import config_hash, pending_dialogs, run_qc
from server.qc.verdict import decide
from tests.conftest import settings_env


def test_decide_orders_reject_over_review_over_accept():
    assert decide([], [], {}, 1, 2).verdict == "accept"
    soft = {"3": [{"id": "chat_language", "severity": "soft"}], "5": [{"id": "greeting", "severity": "soft"}]}
    review = decide([], [], soft, 1, 2)
    assert review.verdict == "review" and review.reasons == ["rule:chat_language:1", "rule:greeting:1"]
    hard = {"2": [{"id": "offensive", "severity": "hard"}]}
    rejected = decide([], ["explanation_unrelated:before_reveal"], hard, 1, 2)
    assert rejected.verdict == "reject"
    assert rejected.reasons == ["rule:offensive:1", "explanation_unrelated:before_reveal"]
    assert "does not refer to the conversation" in rejected.summary


def test_content_words_ignore_function_words():
    assert content_words("The colours of the sky feel calm") == {"colour", "sky", "calm"}


async def test_finished_dialogs_get_verdicts_from_a_qc_worker(settings, stimuli, server_factory, services):
    await stimuli(3)
    server = server_factory(settings)
    env = settings_env(settings)
    worker = subprocess.Popen([sys.executable, "-m", "server.qc.worker", f"avd-{settings.study}-qc"], env=env)
    try:
        good, _ = await simulate(server.url, pairs=1, timeout=60)
        left, _ = await simulate(server.url, pairs=1, behaviour="abandon", at_round=2, timeout=60)
        assert good["completed"] == 1 and left["outcomes"].get("left") == 1
        deadline = time.time() + start_timeout()  # a busy machine can be slow to start the worker
        while time.time() < deadline:
            async with services.sessions() as db:
                mine = select(QcResult).join(Dialog, Dialog.id == QcResult.dialog_id)
                results = (await db.execute(mine.where(Dialog.study == settings.study))).scalars().all()
            if len(results) == 2:
                break
            time.sleep(0.2)
    finally:
        worker.terminate()
        worker.wait(10)
    by_verdict = {r.verdict: r for r in results}
    assert set(by_verdict) == {"accept", "reject"}, [(r.reasons, r.flags) for r in results]
    accepted = by_verdict["accept"]
    assert set(accepted.scores) == {"before_reveal", "after_reveal", "answerer"}
    assert all(-1 <= s["polarity"] <= 1 and 0 <= s["subjectivity"] <= 1 for s in accepted.scores.values())
    rejected = by_verdict["reject"]
    assert "incomplete:abandoned" in rejected.reasons
    assert any(r.startswith("rounds_missing") for r in rejected.reasons)


async def test_qc_is_idempotent_and_follows_the_configuration(
    settings, settings_factory, stimuli, server_factory, services
):
    await stimuli(2)
    server = server_factory(settings)
    await simulate(server.url, pairs=1, timeout=60)
    ids = await pending_dialogs(services.sessions, settings)
    assert len(ids) == 1
    first = await run_qc(services.sessions, settings, ids)
    assert first["accept"] == 1
    again = await run_qc(services.sessions, settings, ids)
    assert again["skipped"] == 1 and again["accept"] == 0
    assert await pending_dialogs(services.sessions, settings) == []
    # a stricter threshold is a new configuration: the dialog is judged again, and now rejected
    strict = settings_factory(qc_min_explanation_words=500)
    assert config_hash(strict) != config_hash(settings)
    assert await pending_dialogs(services.sessions, strict) == ids
    counts = await run_qc(services.sessions, strict, ids)
    assert counts["reject"] == 1
    async with services.sessions() as db:
        result = await db.get(QcResult, ids[0])
        assert "explanation_too_short:before_reveal" in result.reasons


async def test_unrelated_explanation_goes_to_review(settings, stimuli, server_factory, services):
    await stimuli(2)
    server = server_factory(settings)
    await simulate(server.url, pairs=1, timeout=60)
    [dialog_id] = await pending_dialogs(services.sessions, settings)
    async with services.sessions() as db:
        row = (
            await db.execute(
                select(Response).where(Response.dialog_id == dialog_id, Response.phase == "before_reveal")
            )
        ).scalar_one()
        row.explanation = "Honestly I just want to finish quickly today and then go to bed early tonight."
        await db.commit()
    counts = await run_qc(services.sessions, settings, [dialog_id], force=True)
    async with services.sessions() as db:
        result = await db.get(QcResult, dialog_id)
    assert counts["review"] == 1, (result.reasons, result.flags)


async def test_bulk_cli_run_with_progress_and_resume(settings, stimuli, server_factory, services):
    await stimuli(3)
    server = server_factory(settings)
    await simulate(server.url, pairs=3, timeout=60)
    env = settings_env(settings)
    run = subprocess.run(
        [sys.executable, "-m", "server.cli", "qc", "run", "--workers", "1"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert "3/3" in run.stderr and "verdicts:" in run.stderr
    async with services.sessions() as db:
        mine = select(QcResult.verdict).join(Dialog, Dialog.id == QcResult.dialog_id)
        verdicts = (await db.execute(mine.where(Dialog.study == settings.study))).scalars().all()
    assert verdicts == ["accept"] * 3
    again = subprocess.run(
        [sys.executable, "-m", "server.cli", "qc", "run"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "Nothing to do" in again.stderr


async def test_qc_run_then_eval_starts_the_studys_automatic_runs(
    settings_factory, stimuli, server_factory, services
):
    from server.db.eval_models import EvalRun

    policy = {"every": 1000, "runs": [{"task": "retrieval", "model": "random"}]}
    settings = settings_factory(auto_eval=policy)
    await stimuli(4, settings)
    server = server_factory(settings)
    await simulate(server.url, pairs=3, timeout=90)
    env = settings_env(settings)
    run = subprocess.run(
        [sys.executable, "-m", "server.cli", "qc", "run", "--workers", "1", "--then-eval"],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    assert "evaluation runs started: " in run.stderr and "none" not in run.stderr, run.stderr
    async with services.sessions() as db:
        runs = (await db.execute(select(EvalRun).where(EvalRun.study == settings.study))).scalars().all()
    assert [(r.task, r.trigger) for r in runs] == [("retrieval", "auto")]
    assert runs[0].config["accepted_count"] == 3


def test_scores_equal_textblobs_own():
    from textblob import TextBlob

    from server.qc.scores import sentiment

    for text in [
        "The calm colours and soft light make me feel peaceful about the quiet lake.",
        "It is a horrible, ugly and very sad picture!",
        "Nothing special.",
        "",
    ]:
        blob = TextBlob(text).sentiment
        assert sentiment(text) == (blob.polarity, blob.subjectivity)
