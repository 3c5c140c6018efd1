"""The assignment engine on real Redis and a real database: counts, exclusions, leases, races."""

from __future__ import annotations

import asyncio
import uuid
from collections import Counter
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select, update

from server.db.models import Worker
from server.db.study_models import Judgment, Study, StudyItem
from server.redis_conn import connect
from server.settings import Settings
from server.studies.assign import Assigner, StudyError


@pytest.fixture
async def db(services):
    return services.sessions


def make_assigner(services, settings: Settings, **kw) -> Assigner:
    return Assigner(services.redis, services.sessions, settings.study, **kw)


async def make_study(
    sessions,
    settings: Settings,
    *,
    items: int = 6,
    pairs: bool = True,
    target: int = 2,
    per_rater: int = 50,
    every: int = 0,
    checks: int = 0,
    min_seconds: float = 0.0,
    lease: float = 600.0,
    kind: str = "reasonableness",
) -> str:
    sid = uuid.uuid4().hex
    async with sessions() as s:
        s.add(
            Study(
                id=sid,
                study=settings.study,
                kind=kind,
                name="t",
                status="open",
                raters_per_item=target,
                items_per_rater=per_rater,
                attention_every=every,
                min_seconds=min_seconds,
                config={"lease_seconds": lease},
            )
        )
        await s.flush()
        for i in range(items):
            s.add(
                StudyItem(
                    id=f"{sid[:8]}-i{i}",
                    study_id=sid,
                    position=i,
                    pair_key=f"p{i // 2}" if pairs else None,
                    source="human" if i % 2 else "model",
                    payload={"n": i},
                )
            )
        for c in range(checks):
            s.add(
                StudyItem(
                    id=f"{sid[:8]}-c{c}",
                    study_id=sid,
                    position=items + c,
                    source="attention",
                    is_attention=True,
                    known_answer="not_reasonable",
                )
            )
        await s.commit()
    return sid


async def add_raters(sessions, n: int, tag: str = "r") -> list[str]:
    ids = [f"{tag}{uuid.uuid4().hex[:10]}" for _ in range(n)]
    async with sessions() as s:
        for w in ids:
            s.add(Worker(id=w, provider="local", platform_worker_id=w))
        await s.commit()
    return ids


async def age(sessions, study_id: str, rater: str, item_id: str, seconds: float = 60) -> None:
    """Pretend the rater has been looking at the item for a while (no sleeping in tests)."""
    async with sessions() as s:
        await s.execute(
            update(Judgment)
            .where(Judgment.study_id == study_id, Judgment.rater_id == rater, Judgment.item_id == item_id)
            .values(started_at=datetime.now(UTC) - timedelta(seconds=seconds))
        )
        await s.commit()


async def rate_all(assigner: Assigner, sid: str, rater: str, answer: str = "reasonable") -> list[str]:
    """Take and answer items until the engine has nothing more for this rater."""
    got = []
    while True:
        h = await assigner.next_item(sid, rater)
        if h.state not in ("assigned", "current"):
            return got
        ans = h.item.known_answer if h.item.is_attention else answer
        await assigner.submit(sid, rater, h.item.id, ans)
        got.append(h.item.id)


async def judgments(sessions, sid: str) -> list[Judgment]:
    async with sessions() as s:
        return list((await s.scalars(select(Judgment).where(Judgment.study_id == sid))).all())


def valid_per_item(rows: list[Judgment]) -> Counter:
    """Valid judgments of the regular items (attention checks are not counted)."""
    return Counter(j.item_id for j in rows if j.valid and "-c" not in j.item_id)


async def test_each_item_gets_exactly_the_target_and_pairs_stay_apart(services, settings, db):
    sid = await make_study(db, settings, items=6, target=3)
    assigner = make_assigner(services, settings)
    raters = await add_raters(db, 12)
    for r in raters:
        await rate_all(assigner, sid, r)
    rows = await judgments(db, sid)
    assert valid_per_item(rows) == {f"{sid[:8]}-i{i}": 3 for i in range(6)}
    assert len(rows) == 18
    by_rater: dict[str, list[int]] = {}
    for j in rows:
        by_rater.setdefault(j.rater_id, []).append(int(j.item_id.rsplit("i", 1)[1]))
    for items in by_rater.values():
        assert len(items) == len(set(items))  # never the same item twice
        assert len({i // 2 for i in items}) == len(items)  # never both versions of a pair
    # Nothing is left: the next rater is told there is nothing for them.
    late = (await add_raters(db, 1))[0]
    assert (await assigner.next_item(sid, late)).state == "none"


async def test_a_held_item_is_handed_out_again_until_answered(services, settings, db):
    sid = await make_study(db, settings, items=4, pairs=False, target=1)
    assigner = make_assigner(services, settings)
    (r,) = await add_raters(db, 1)
    first = await assigner.next_item(sid, r)
    again = await assigner.next_item(sid, r)
    assert first.state == "assigned" and again.state == "current"
    assert again.item.id == first.item.id
    with pytest.raises(StudyError) as bad:
        await assigner.submit(sid, r, first.item.id, "maybe")
    assert bad.value.status == 422
    await assigner.submit(sid, r, first.item.id, "reasonable")
    with pytest.raises(StudyError) as twice:
        await assigner.submit(sid, r, first.item.id, "reasonable")
    assert twice.value.status == 409


async def test_too_fast_judgments_are_invalid_and_their_item_reopens(services, settings, db):
    sid = await make_study(db, settings, items=2, pairs=False, target=1, min_seconds=5)
    assigner = make_assigner(services, settings)
    fast, careful = await add_raters(db, 2)
    h = await assigner.next_item(sid, fast)
    verdict = await assigner.submit(sid, fast, h.item.id, "reasonable")
    assert (verdict.valid, verdict.reason) == (False, "too_fast")
    # The careful rater gets both items, including the one the fast rater answered.
    taken = []
    for _ in range(2):
        h2 = await assigner.next_item(sid, careful)
        await age(db, sid, careful, h2.item.id)
        assert (await assigner.submit(sid, careful, h2.item.id, "reasonable")).valid
        taken.append(h2.item.id)
    assert h.item.id in taken
    rows = await judgments(db, sid)
    assert valid_per_item(rows) == {f"{sid[:8]}-i0": 1, f"{sid[:8]}-i1": 1}
    assert Counter(j.reason for j in rows) == {None: 2, "too_fast": 1}


async def test_failing_an_attention_check_excludes_the_rater_and_replaces_their_work(services, settings, db):
    sid = await make_study(db, settings, items=4, pairs=False, target=1, every=3, checks=2)
    assigner = make_assigner(services, settings)
    bad, good = await add_raters(db, 2)
    first = await assigner.next_item(sid, bad)
    assert not first.item.is_attention
    assert (await assigner.submit(sid, bad, first.item.id, "reasonable")).valid
    check = await assigner.next_item(sid, bad)
    assert check.item.is_attention  # the second item a rater gets is a check
    verdict = await assigner.submit(sid, bad, check.item.id, "reasonable")
    assert (verdict.valid, verdict.reason, verdict.excluded) == (False, "failed_attention_check", True)
    assert (await assigner.next_item(sid, bad)).state == "excluded"
    rows = await judgments(db, sid)
    assert {j.reason for j in rows if j.rater_id == bad} == {"rater_excluded", "failed_attention_check"}
    # The careful rater passes their checks and does every item, the excluded one's too.
    done = await rate_all(assigner, sid, good)
    rows = await judgments(db, sid)
    assert valid_per_item(rows) == {f"{sid[:8]}-i{i}": 1 for i in range(4)}
    assert first.item.id in done
    assert sum(1 for j in rows if j.rater_id == good and j.reason is None) == len(done)


async def test_an_expired_lease_reopens_the_item_and_a_late_answer_does_not_count(services, settings, db):
    sid = await make_study(db, settings, items=1, pairs=False, target=1, lease=0.2)
    assigner = make_assigner(services, settings)
    slow, other = await add_raters(db, 2)
    h = await assigner.next_item(sid, slow)
    await asyncio.sleep(0.3)
    h2 = await assigner.next_item(sid, other)
    assert h2.state == "assigned" and h2.item.id == h.item.id
    late = await assigner.submit(sid, slow, h.item.id, "reasonable")
    assert (late.valid, late.reason) == (False, "lease_expired")
    assert (await assigner.submit(sid, other, h2.item.id, "reasonable")).valid
    assert valid_per_item(await judgments(db, sid)) == {h.item.id: 1}


async def test_state_is_rebuilt_from_the_database(services, settings, db):
    sid = await make_study(db, settings, items=4, target=2, every=2, checks=1)
    assigner = make_assigner(services, settings)
    r, *others = await add_raters(db, 4)
    first = await assigner.next_item(sid, r)
    await assigner.submit(sid, r, first.item.id, "reasonable")
    held = await assigner.next_item(sid, r)
    # Redis loses everything about the study; the engine rebuilds it from the rows.
    keys = [k async for k in services.redis.scan_iter(match=assigner.prefix(sid) + "*")]
    await services.redis.delete(*keys)
    again = await assigner.next_item(sid, r)
    assert again.state == "current" and again.item.id == held.item.id
    await assigner.submit(sid, r, held.item.id, held.item.known_answer or "reasonable")
    done = set(await rate_all(assigner, sid, r))
    assert first.item.id not in done and held.item.id not in done
    for other in others:
        await rate_all(assigner, sid, other)
    assert valid_per_item(await judgments(db, sid)) == {f"{sid[:8]}-i{i}": 2 for i in range(4)}


async def test_two_engines_racing_never_over_assign(services, settings, db):
    """Two engines with their own Redis and DB connections, like two server processes."""
    from server.db.engine import make_engine, make_sessionmaker

    sid = await make_study(db, settings, items=10, pairs=False, target=3, per_rater=4)
    engine2 = make_engine(settings.resolved_database_url)
    redis2 = connect(settings.redis_url)
    try:
        engines = [
            make_assigner(services, settings),
            Assigner(redis2, make_sessionmaker(engine2), settings.study),
        ]
        raters = await add_raters(db, 16)
        await asyncio.gather(*(rate_all(engines[i % 2], sid, r) for i, r in enumerate(raters)))
        rows = await judgments(db, sid)
    finally:
        await redis2.aclose()
        await engine2.dispose()
    assert valid_per_item(rows) == {f"{sid[:8]}-i{i}": 3 for i in range(10)}
    assert len(rows) == 30
    assert max(Counter(j.rater_id for j in rows).values()) <= 4
