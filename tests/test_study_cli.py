"""``avd study build / list / launch / results`` as a researcher runs them, on real runs and a real DB."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from server.db.engine import make_engine, make_sessionmaker
from server.db.models import Worker
from server.redis_conn import connect
from server.settings import Settings
from server.studies.assign import Assigner
from tests.test_study_support import export_with_images, real_run


@pytest.fixture(scope="module")
def export(tmp_path_factory) -> Path:
    return export_with_images(tmp_path_factory.mktemp("cli-export") / "export")


@pytest.fixture
def env(settings: Settings, monkeypatch) -> Settings:
    """The CLI reads its settings from the environment, as for a researcher."""
    monkeypatch.setenv("DATABASE_URL", settings.database_url)
    monkeypatch.setenv("REDIS_URL", settings.redis_url)
    monkeypatch.setenv("AVD_DATA_DIR", str(settings.data_dir))
    monkeypatch.setenv("AVD_MEDIA_DIR", str(settings.media_dir))
    monkeypatch.setenv("AVD_STUDY", settings.study)
    monkeypatch.setenv("AVD_SECRET_KEY", settings.secret_key)
    monkeypatch.setenv("AVD_PUBLIC_URL", "http://raters.example")
    return settings


def avd(*args: str, code: int = 0) -> str:
    from server.cli import app

    result = CliRunner().invoke(app, list(args), catch_exceptions=False)
    assert result.exit_code == code, result.output
    return result.stdout


def rate(settings: Settings, study_id: str, raters: int, choose) -> None:
    """Raters answer every item they get with ``choose(item, judgment)`` (attention checks correctly)."""

    async def go() -> None:
        engine = make_engine(settings.resolved_database_url)
        redis = connect(settings.redis_url)
        sessions = make_sessionmaker(engine)
        assigner = Assigner(redis, sessions, settings.study, min_seconds=0.0)
        try:
            async with sessions() as db:
                db.add_all(
                    [Worker(id=f"{study_id[:6]}w{n}", platform_worker_id=f"p{n}") for n in range(raters)]
                )
                await db.commit()
            for n in range(raters):
                while True:
                    h = await assigner.next_item(study_id, f"{study_id[:6]}w{n}")
                    if h.item is None:
                        break
                    raw = h.item.known_answer if h.item.is_attention else choose(h.item, h.judgment)
                    await assigner.submit(study_id, h.judgment.rater_id, h.item.id, raw)
        finally:
            await redis.aclose()
            await engine.dispose()

    asyncio.run(go())


def test_preference_study_end_to_end(env: Settings, export: Path):
    runs = env.data_dir / "eval-runs"
    real_run("generation", export, runs / "gen-cli")
    sid = avd(
        "study", "build", "preference", "--from-run", "generationgen", "--items", "12", "--raters", "3"
    ).strip()
    listed = json.loads(avd("study", "list", "--json"))
    assert [(r["id"], r["status"], r["items"], r["wanted_judgments"]) for r in listed] == [
        (sid, "draft", 12, 36)
    ]
    avd("study", "launch", sid[:6], "--provider", "mturk", code=2)  # real MTurk needs an HTTPS page
    urls = avd("study", "launch", sid[:6], "--links", "2").split()
    assert urls == [
        f"http://raters.example/rate/{sid}",
        f"http://raters.example/rate/{sid}?worker=rater-1",
        f"http://raters.example/rate/{sid}?worker=rater-2",
    ]

    # Planted: people prefer the machine reaction exactly when its sentence BLEU is above the median.
    async def items_truth():
        from sqlalchemy import select

        from server.db.study_models import StudyItem

        engine = make_engine(env.resolved_database_url)
        async with make_sessionmaker(engine)() as db:
            rows = (await db.scalars(select(StudyItem).where(StudyItem.study_id == sid))).all()
        await engine.dispose()
        return rows

    items = [i for i in asyncio.run(items_truth()) if not i.is_attention]
    bleu = sorted(i.truth["scores"]["sentence_bleu"] for i in items)
    distinct = sorted(set(bleu))
    assert len(distinct) >= 2, "the seeded run should give different BLEU scores"
    median = distinct[(len(distinct) - 1) // 2]  # a threshold with items on both sides

    def choose(item, judgment) -> str:
        wanted = "machine" if item.truth["scores"]["sentence_bleu"] > median else "human"
        first = item.truth["sources"][judgment.shown["order"][0]]
        return "first" if first == wanted else "second"

    rate(env, sid, 4, choose)
    out = env.data_dir / "results"
    printed = avd("study", "results", sid, "--out", str(out), "--resamples", "200")
    assert "preference" in printed and "sentence_bleu" in printed and "Fleiss" in printed
    results = json.loads((out / "results.json").read_text())
    (model,) = results["by_model"]
    row = results["by_model"][model]
    higher = sum(1 for b in bleu if b > median)
    assert row["tallies"] == {
        "machine": 3 * higher,
        "human": 3 * (12 - higher),
        "both_good": 0,
        "both_bad": 0,
    }
    assert results["summary"]["valid_judgments_per_item"] == {"3": 12}
    assert results["agreement"]["krippendorff_alpha"] == pytest.approx(1.0)
    agreement = results["metric_agreement"]["sentence_bleu"]
    assert agreement["auc_majority_acceptable"] == pytest.approx(1.0)
    assert agreement["spearman_acceptable"] > 0.8
    assert {"preference.png", "preference.svg"} <= {p.name for p in out.iterdir()}
    from server.studies.charts import render_all

    assert render_all(results)["preference"].lstrip().startswith(b"<?xml")

    lines = [json.loads(x) for x in (out / "judgments.jsonl").read_text().splitlines()]
    assert len(lines) == results["summary"]["judgments_submitted"]
    raters = {x["rater"] for x in lines}
    assert len(raters) == 3 and all(r.startswith("r") and sid[:6] not in r for r in raters)
    assert not any("p0" in json.dumps(x) for x in lines)  # no platform ids


def test_multichoice_from_the_documented_sample_format(env: Settings, tmp_path: Path, export: Path):
    """A multiple-choice run in the format docs/studies.md defines; accuracies worked out by hand."""
    run = tmp_path / "mc-run"
    run.mkdir()
    (run / "results.json").write_text(json.dumps({"run_id": "mc1", "task": "multichoice", "model": "toy"}))
    samples = []
    for n in range(6):  # the model picks choice 0 every time; the right answer is n % 3
        samples.append(
            {
                "id": f"q{n}",
                "meta": {},
                "inputs": {"question": f"Question {n}?", "choices": ["red", "green", "blue"]},
                "target": n % 3,
                "output": [0.9, 0.1, 0.0],
            }
        )
    (run / "samples.jsonl").write_text("\n".join(json.dumps(s) for s in samples) + "\n")
    sid = avd(
        "study", "build", "multichoice", "--from-run", str(run), "--data", str(export),
        "--items", "6", "--raters", "2", "--attention-every", "0",
    ).strip()  # fmt: skip
    avd("study", "launch", sid)

    # Rater 0 is always right; rater 1 always says "0" (right for 2 of 6 questions).
    def choose(item, judgment) -> str:
        return item.truth["correct"] if judgment.rater_id.endswith("w0") else "0"

    rate(env, sid, 2, choose)
    out = tmp_path / "mc-results"
    avd("study", "results", sid, "--out", str(out), "--resamples", "200")
    row = json.loads((out / "results.json").read_text())["by_model"]["toy"]
    # people: 6 + 2 right of 12 = 2/3; majority: the two disagree on 4 items (no majority), agree
    # (and are right) on 2 -> 2/2 = 1; model: right for n % 3 == 0, i.e. 2 of 6 = 1/3
    assert row["human_accuracy"] == pytest.approx(2 / 3)
    assert row["majority_accuracy"] == pytest.approx(1.0)
    assert row["model_accuracy"] == pytest.approx(1 / 3)
    assert (out / "multichoice_accuracy.png").exists()


def test_build_refuses_what_it_cannot_use(env: Settings, export: Path):
    runs = env.data_dir / "eval-runs"
    real_run("retrieval", export, runs / "ret-cli", split="test")
    avd("study", "build", "sculpture", "--from-run", "retrievalret", code=2)
    avd("study", "build", "turing", "--from-run", "retrievalret", code=2)  # no generated explanations
    avd("study", "build", "turing", "--from-run", "nosuchrun", code=2)
