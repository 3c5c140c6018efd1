"""Human-study results in the dashboard API and in ``avd report``: one chart (PNG + SVG) per study.

Studies are rated through the real assignment engine; the expected shares and accuracies
are counted here straight from the stored judgments.
"""

from __future__ import annotations

import json
import subprocess
import sys
import uuid
from collections.abc import Callable

from sqlalchemy import select

from server.db.models import Worker
from server.db.study_models import Judgment, Study, StudyItem
from server.studies.assign import Assigner
from tests.conftest import settings_env
from tests.test_admin_api import create_admin, logged_in

Answer = Callable[[StudyItem, int], str]


async def rated_study(
    services, settings, kind: str, answer: Answer, *, items: int = 6, raters: int = 6, name: str = ""
) -> str:
    """A study of ``kind`` with ``items`` items (sources alternate model / human, pairs kept apart)
    and 3 raters per item; rater ``k`` answers ``answer(item, k)`` to everything it is given."""
    sid = uuid.uuid4().hex
    async with services.sessions() as db:
        db.add(
            Study(
                id=sid,
                study=settings.study,
                kind=kind,
                name=name or f"{kind} study",
                status="open",
                raters_per_item=3,
                items_per_rater=50,
                attention_every=0,
                min_seconds=0.0,
                config={"lease_seconds": 600.0},
            )
        )
        await db.flush()
        for i in range(items):
            multichoice = kind == "multichoice"
            db.add(
                StudyItem(
                    id=f"{sid[:8]}-i{i}",
                    study_id=sid,
                    position=i,
                    pair_key=None if multichoice else f"p{i // 2}",
                    source="tiny-model" if multichoice else ("human" if i % 2 else "model"),
                    payload={"choices": ["calm", "fear", "awe"]} if multichoice else {"n": i},
                    truth={"correct": "1", "model_choice": "1" if i % 3 else "0"} if multichoice else {},
                )
            )
        workers = [f"{sid[:6]}r{k}" for k in range(raters)]
        db.add_all([Worker(id=w, provider="local", platform_worker_id=w) for w in workers])
        await db.commit()
    assigner = Assigner(services.redis, services.sessions, settings.study, min_seconds=0.0)
    for k, rater in enumerate(workers):
        while (handout := await assigner.next_item(sid, rater)).item is not None:
            await assigner.submit(sid, rater, handout.item.id, answer(handout.item, k))
    return sid


def contrarian(item: StudyItem, k: int) -> str:
    """Human texts are reasonable and model texts are not, except for rater 0, who says the opposite."""
    return "reasonable" if (item.source == "human") != (k == 0) else "not_reasonable"


def mostly_right(item: StudyItem, k: int) -> str:
    """Multiple choice: rater 1 picks choice 0, everyone else the correct choice 1."""
    return "0" if k == 1 else "1"


async def counted(services, sid: str) -> list[tuple[str, str, str]]:
    """(source, answer, rater) of every valid judgment, straight from the table."""
    async with services.sessions() as db:
        rows = await db.execute(
            select(StudyItem.source, Judgment.answer, Judgment.rater_id)
            .join(StudyItem, StudyItem.id == Judgment.item_id)
            .where(Judgment.study_id == sid, Judgment.valid.is_(True))
        )
        return [tuple(r) for r in rows]


async def test_study_results_in_the_api_and_the_report(settings, stimuli, server_factory, services, tmp_path):
    await stimuli(1)
    reasonable = await rated_study(services, settings, "reasonableness", contrarian, name="Answers")
    choice = await rated_study(
        services, settings, "multichoice", mostly_right, items=3, raters=3, name="Pick"
    )
    server = server_factory(settings)
    create_admin(settings)
    client, _ = logged_in(server.url)

    listed = {s["id"]: s for s in client.get("/admin/api/studies").json()}
    assert set(listed) == {reasonable, choice}
    first = listed[reasonable]
    assert (first["kind"], first["items"], first["valid_judgments"]) == ("reasonableness", 6, 18)
    assert listed[choice]["raters"] == 3 and listed[choice]["valid_judgments"] == 9

    judged = await counted(services, reasonable)
    detail = client.get(f"/admin/api/studies/{reasonable}").json()
    by_source = detail["results"]["by_source"]
    for source in ("human", "model"):
        mine = [(a, r) for s, a, r in judged if s == source]
        row = by_source[source]
        assert row["judgments"] == len(mine) == 9
        assert row["share"] == sum(a == "reasonable" for a, _ in mine) / len(mine)
        low, high = row["ci95"]
        assert low <= row["share"] <= high
    assert "items" not in detail["results"]
    titles = [t["title"] for t in detail["tables"]]
    assert titles == ["Judged reasonable, by source", "Agreement"]
    human_row = next(r for r in detail["tables"][0]["rows"] if r[0] == "human")
    assert human_row[3] == by_source["human"]["share"]

    multi = client.get(f"/admin/api/studies/{choice}").json()["results"]["by_model"]["tiny-model"]
    assert multi["human_accuracy"] == 6 / 9  # raters 0 and 2 right on all three items, rater 1 never
    assert multi["model_accuracy"] == 2 / 3  # items 1 and 2 of 0..2
    assert multi["majority_accuracy"] == 1.0

    svg = client.get(f"/admin/api/studies/{reasonable}/chart.svg")
    assert svg.headers["content-type"].startswith("image/svg") and b"<svg" in svg.content
    png = client.get(f"/admin/api/studies/{choice}/chart.png")
    assert png.content[:8] == b"\x89PNG\r\n\x1a\n"
    assert client.get(f"/admin/api/studies/{reasonable}/chart.pdf").status_code == 404
    assert client.get("/admin/api/studies/nope").status_code == 404
    other = settings.model_copy(update={"study": settings.study + "x"})
    elsewhere = await rated_study(services, other, "reasonableness", contrarian, items=2, raters=3)
    assert client.get(f"/admin/api/studies/{elsewhere}").status_code == 404  # another collection study

    out = tmp_path / "report"
    done = subprocess.run(
        [sys.executable, "-m", "server.cli", "report", "--out", str(out)],
        env=settings_env(settings),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    for sid in (reasonable, choice):
        assert (out / f"study-{sid}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert (out / f"study-{sid}.png").stat().st_size > 5000
        assert b"<svg" in (out / f"study-{sid}.svg").read_bytes()
    assert not list(out.glob(f"study-{elsewhere}.*"))
    page = (out / "index.html").read_text()
    assert "Human studies" in page and f'src="study-{reasonable}.svg"' in page and "Answers" in page
    assert "Judged reasonable, by source" in page and "Multiple choice accuracy" in page
    numbers = json.loads((out / "data.json").read_text())
    assert {s["study"]["id"] for s in numbers["studies"]} == {reasonable, choice}
    shares = {s["study"]["id"]: s for s in numbers["studies"]}[reasonable]["by_source"]
    assert shares["human"]["share"] == by_source["human"]["share"]
