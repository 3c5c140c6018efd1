"""Dataset export and import, against the real database (PostgreSQL or SQLite) of the test run.

Dialogs come from bots talking through a real server, or, where volume matters, from model
rows inserted directly the way the runtime stores them.
"""

from __future__ import annotations

import hashlib
import hmac
import io
import json
import random
import subprocess
import zipfile
from collections import Counter, defaultdict
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest
from sqlalchemy import select, update

from server.bots import simulate
from server.db.engine import make_engine, make_sessionmaker
from server.db.migrate import upgrade
from server.db.models import Dialog, QcResult, Response, Stimulus, Turn, Worker
from server.dialog.protocol import EMOTIONS
from server.export import source
from server.export.api import build_export_zip
from server.export.importer import import_dialogs
from server.export.schema import SPLITS, describe_errors, validate_record
from server.export.splits import SplitItem, assign_splits
from server.export.writer import ExportOptions, InvalidRecord, NothingToExport, export_dataset
from server.settings import Settings

T0 = datetime(2024, 5, 1, 9, 0, tzinfo=UTC)
QUESTIONS = (
    "What colour is the {thing} in the middle?",
    "Is anybody standing close to the {thing}?",
    "How large does the {thing} look compared with the rest?",
    "Does the light fall on the {thing} from the left or the right?",
    "Which season might it be, judging by the {thing}?",
    "Are the brush strokes around the {thing} smooth or rough?",
    "What lies behind the {thing}?",
    "Is the {thing} painted in detail or only sketched?",
    "Are there animals anywhere near the {thing}?",
    "What mood does the sky above the {thing} suggest?",
)
THINGS = ("house", "tree", "boat", "bridge", "church", "river", "hill", "garden")
DATA_FILES = ("dialogs.jsonl", "splits.json", "datasheet.md", "retrieval/train.json", "retrieval/val.json")


# ---------------------------------------------------------------- building dialogs


def dialog_rows(
    study: str, n: int, stimulus_id: str, status: str, rounds: int, final: str, shared_answer: str | None
) -> list[object]:
    """Dialog ``n`` with its turns and (when complete) its three forms, as model rows."""
    rng = random.Random(n)
    did = f"{study}-d{n:04d}"
    began = T0 + timedelta(minutes=n)
    done = 2 if status == "in_progress" else rounds
    early = status not in ("complete", "in_progress")
    rows: list[object] = [
        Dialog(
            id=did,
            study=study,
            stimulus_id=stimulus_id,
            questioner_id=f"{study}-wq{n % 7}",
            answerer_id=f"{study}-wa{n % 5}",
            status=status,
            end_reason="left" if early else None,
            ended_by="answerer" if early else None,
            rounds_done=done,
            positive_first=n % 2 == 0,
            settings={"rounds": 10, "turn_seconds": 180.0},
            started_at=began,
            ended_at=None if status == "in_progress" else began + timedelta(minutes=9),
        )
    ]
    at = began
    for r in range(1, done + 1):
        question = QUESTIONS[(r - 1) % len(QUESTIONS)].format(thing=THINGS[n % len(THINGS)])
        answer = shared_answer if shared_answer and r == 1 else f"Answer {r} for {n} ({did})."
        for role, text in (("questioner", question), ("answerer", answer)):
            at += timedelta(seconds=rng.randint(3, 90), microseconds=rng.randint(0, 999_999))
            seq = 2 * r - (role == "questioner")
            rows.append(
                Turn(
                    dialog_id=did,
                    seq=seq,
                    round=r,
                    role=role,
                    text=text,
                    client_id=f"c{seq}",
                    sent_at=at,
                    latency_ms=rng.randint(100, 90_000),
                )
            )
    if status == "complete":
        forms = (("questioner", "before_reveal", "awe"), ("questioner", "after_reveal", final))
        for role, phase, emotion in (*forms, ("answerer", "answerer", "contentment")):
            at += timedelta(seconds=40)
            thing = THINGS[n % len(THINGS)]
            text = f"The {thing} my partner described in the {phase} light sounds lovely and calm."
            rows.append(
                Response(
                    dialog_id=did,
                    role=role,
                    phase=phase,
                    emotion=emotion,
                    explanation=text,
                    client_id=f"f-{phase}",
                    submitted_at=at,
                    latency_ms=12_345,
                )
            )
    return rows


async def insert_dialogs(
    settings: Settings,
    stimulus_ids: list[str],
    count: int,
    *,
    status: str = "complete",
    emotions: list[str] | None = None,
    start: int = 0,
    rounds: int = 10,
    shared_answer: str | None = None,
) -> list[str]:
    """``count`` dialogs stored like the runtime stores them; dialog n uses stimulus n % len.

    Every answer text is unique unless ``shared_answer`` is given (then round 1 uses it).
    """
    emotions = emotions or list(EMOTIONS)
    study = settings.study
    engine = make_engine(settings.resolved_database_url)
    try:
        async with make_sessionmaker(engine)() as db:
            known = set((await db.execute(select(Worker.id))).scalars())
            for wid in [f"{study}-wq{k}" for k in range(7)] + [f"{study}-wa{k}" for k in range(5)]:
                if wid not in known:
                    db.add(Worker(id=wid, provider="mturk", platform_worker_id=f"PLATFORM-{wid}"))
            await db.flush()
            for n in range(start, start + count):
                stimulus = stimulus_ids[n % len(stimulus_ids)]
                rows = dialog_rows(
                    study, n, stimulus, status, rounds, emotions[n % len(emotions)], shared_answer
                )
                db.add(rows[0])
                await db.flush()
                db.add_all(rows[1:])
            await db.commit()
    finally:
        await engine.dispose()
    return [f"{study}-d{n:04d}" for n in range(start, start + count)]


async def add_qc(settings: Settings, verdicts: dict[str, str], scores: dict | None = None) -> None:
    engine = make_engine(settings.resolved_database_url)
    try:
        async with make_sessionmaker(engine)() as db:
            for dialog_id, verdict in verdicts.items():
                db.add(
                    QcResult(
                        dialog_id=dialog_id,
                        verdict=verdict,
                        reasons=[] if verdict == "accept" else ["greeting in round 1"],
                        summary="",
                        flags={},
                        scores=scores or {},
                        config_hash="test",
                    )
                )
            await db.commit()
    finally:
        await engine.dispose()


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def every_file(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


# ---------------------------------------------------------------- live dialogs through a real server


async def test_export_of_live_bot_dialogs(settings, stimuli, server_factory, tmp_path):
    await stimuli(5)
    server = server_factory(settings)
    good, good_bots = await simulate(server.url, pairs=3, timeout=240)
    quit_, quit_bots = await simulate(server.url, pairs=1, behaviour="abandon", at_round=3, timeout=240)
    assert good["completed"] == 3, good
    server.stop()

    out = tmp_path / "all"
    summary = await export_dataset(settings, out, ExportOptions(status="all", seed=3))
    records = read_jsonl(out / "dialogs.jsonl")
    assert summary.dialogs == len(records) == 4
    for record in records:
        validate_record(record)
    complete = [r for r in records if r["complete"]]
    incomplete = [r for r in records if not r["complete"]]
    assert len(complete) == 3 and len(incomplete) == 1
    assert incomplete[0]["status"] == "abandoned" and len(incomplete[0]["rounds"]) < 10
    for r in complete:
        assert [x["round"] for x in r["rounds"]] == list(range(1, 11))
        assert all(x["answer"] and x["answer_latency_ms"] >= 0 for x in r["rounds"])
        assert r["questioner"]["before_reveal"]["emotion"] in EMOTIONS
        assert r["questioner"]["after_reveal"]["explanation"]
        assert r["answerer"]["response"]["emotion"] in EMOTIONS
        assert r["qc"] is None
        assert r["collection"]["study"] == settings.study and r["collection"]["schema_version"] == "1.0"
        assert [o["polarity"] for o in r["stimulus"]["opinions"]][0] == r["stimulus"]["shown_first"]

    # pseudonyms: neither the platform names nor the internal ids leave the database (the bots
    # write their own name into their chat messages, so message texts are left out of this check)
    files = {k: v for k, v in every_file(out).items() if not k.startswith("retrieval/")}
    files["dialogs.jsonl"] = json.dumps([{**r, "rounds": None} for r in records]).encode()
    everything = b"".join(files.values())
    for bot in good_bots + quit_bots:
        assert bot.worker.encode() not in everything
    engine = make_engine(settings.resolved_database_url)
    async with make_sessionmaker(engine)() as db:
        internal = (await db.execute(select(Dialog.questioner_id, Dialog.answerer_id))).all()
    await engine.dispose()
    for pair in internal:
        for worker_id in pair:
            assert worker_id.encode() not in everything
    pseudonyms = {pseudonym_of(settings, w) for pair in internal for w in pair}
    for record in records:  # an independent HMAC-SHA256 of the internal id with the study secret
        assert {record["questioner"]["worker_id"], record["answerer"]["worker_id"]} <= pseudonyms

    # images copied once per stimulus, named by content
    for record in records:
        image = out / "images" / record["stimulus"]["image"]
        assert hashlib.sha256(image.read_bytes()).hexdigest() == record["stimulus"]["image_sha256"]

    # --status complete leaves the abandoned one out and says why
    summary = await export_dataset(settings, tmp_path / "complete", ExportOptions(status="complete", seed=3))
    assert summary.dialogs == 3 and summary.excluded == {"incomplete (abandoned)": 1}
    sheet = (tmp_path / "complete" / "datasheet.md").read_text()
    assert "| incomplete (abandoned) | 1 |" in sheet


def pseudonym_of(settings: Settings, worker_id: str) -> str:
    key = settings.resolved_secret.encode()
    return "w" + hmac.new(key, b"avd-export-worker:" + worker_id.encode(), hashlib.sha256).hexdigest()[:24]


# ---------------------------------------------------------------- selection and consistency


async def test_in_progress_dialogs_are_never_exported(settings, stimuli, tmp_path):
    stims = await stimuli(3)
    done = await insert_dialogs(settings, stims, 4)
    await insert_dialogs(settings, stims, 2, status="in_progress", start=10)
    unstarted, quit_early = await insert_dialogs(settings, stims, 2, status="abandoned", start=20, rounds=0)
    engine = make_engine(settings.resolved_database_url)
    async with make_sessionmaker(engine)() as db:  # as the sweeper leaves a pairing that never began
        await db.execute(
            update(Dialog).where(Dialog.id == unstarted).values(end_reason="start_failed", ended_at=None)
        )
        await db.execute(update(Dialog).where(Dialog.id == quit_early).values(ended_at=None))
        await db.commit()
    await engine.dispose()
    summary = await export_dataset(settings, tmp_path / "out", ExportOptions(status="all"))
    records = {r["dialog_id"]: r for r in read_jsonl(tmp_path / "out" / "dialogs.jsonl")}
    assert set(records) == {*done, quit_early}
    assert records[quit_early]["rounds"] == [] and records[quit_early]["ended_at"] is None
    assert summary.excluded == {"never started (pairing failed)": 1, "still in progress (not final)": 2}


async def test_a_record_that_breaks_the_schema_stops_the_export(settings, stimuli, tmp_path):
    stims = await stimuli(2)
    ids = await insert_dialogs(settings, stims, 1200)  # the bad one is on the second page
    engine = make_engine(settings.resolved_database_url)
    async with make_sessionmaker(engine)() as db:
        await db.execute(
            update(Response)
            .where(Response.dialog_id == ids[1100], Response.phase == "after_reveal")
            .values(emotion="joy")
        )
        await db.commit()
    await engine.dispose()
    exports = tmp_path / "exports"
    with pytest.raises(InvalidRecord, match=f"dialog {ids[1100]} .*questioner.after_reveal.emotion"):
        await export_dataset(settings, exports / "out", ExportOptions())
    assert list(exports.iterdir()) == []  # nothing half written


async def test_export_reads_one_consistent_snapshot(settings, stimuli):
    """A dialog that completes while the export runs is not seen by that export at all."""
    stims = await stimuli(2)
    await insert_dialogs(settings, stims, 3)
    late = (await insert_dialogs(settings, stims, 1, status="in_progress", start=20))[0]
    sel = source.Selection(settings.study, "all")
    writer = make_engine(settings.resolved_database_url)
    try:
        async with source.snapshot(settings.resolved_database_url) as conn:
            before = [r.dialog_id for r in await source.read_index(conn, sel)]
            async with make_sessionmaker(writer)() as db:  # another connection finishes a dialog
                await db.execute(
                    update(Dialog).where(Dialog.id == late).values(status="complete", ended_at=T0)
                )
                await db.commit()
            after = [r.dialog_id for r in await source.read_index(conn, sel)]
            page = await source.read_page(conn, [late])
            counted, _ = await source.count_exclusions(conn, sel)
        async with source.snapshot(settings.resolved_database_url) as conn:
            fresh = [r.dialog_id for r in await source.read_index(conn, sel)]
    finally:
        await writer.dispose()
    assert before == after and late not in after and counted == 3
    assert page[0][0].status == "in_progress"  # the snapshot still sees the old row
    assert late in fresh


async def test_accepted_needs_qc_verdicts(settings, stimuli, tmp_path):
    stims = await stimuli(2)
    ids = await insert_dialogs(settings, stims, 4)
    with pytest.raises(NothingToExport, match="no QC verdict yet|has a QC verdict yet"):
        await export_dataset(settings, tmp_path / "a", ExportOptions(status="accepted"))
    assert not (tmp_path / "a").exists()

    stored = {"questioner_before_reveal": {"polarity": 0.25, "subjectivity": 0.5}}
    await add_qc(settings, {ids[0]: "accept", ids[1]: "accept", ids[2]: "reject"}, scores=stored)
    summary = await export_dataset(settings, tmp_path / "b", ExportOptions(status="accepted"))
    records = {r["dialog_id"]: r for r in read_jsonl(tmp_path / "b" / "dialogs.jsonl")}
    assert set(records) == {ids[0], ids[1]}
    assert summary.excluded == {"verdict reject (QC, or the researcher's review)": 1, "no QC verdict yet": 1}
    qc = records[ids[0]]["qc"]
    assert qc["verdict"] == "accept" and qc["reasons"] == []
    # a researcher's review decision overrides the automatic verdict, both ways
    from server.db.engine import make_engine, make_sessionmaker
    from server.db.models import Review

    engine = make_engine(settings.resolved_database_url)
    async with make_sessionmaker(engine)() as db:
        db.add(Review(dialog_id=ids[1], decision="reject", reason="off-topic", reviewer="ada"))
        db.add(Review(dialog_id=ids[2], decision="accept", reviewer="ada"))
        await db.commit()
    await engine.dispose()
    reviewed = await export_dataset(settings, tmp_path / "reviewed", ExportOptions(status="accepted"))
    assert {r["dialog_id"] for r in read_jsonl(tmp_path / "reviewed" / "dialogs.jsonl")} == {ids[0], ids[2]}
    assert reviewed.excluded == {"verdict reject (QC, or the researcher's review)": 1, "no QC verdict yet": 1}
    assert qc["scores"]["questioner_before_reveal"] == {"polarity": 0.25, "subjectivity": 0.5}
    # scores QC did not store are computed with TextBlob from the explanation
    from textblob import TextBlob

    text = records[ids[0]]["answerer"]["response"]["explanation"]
    assert qc["scores"]["answerer"]["polarity"] == round(TextBlob(text).sentiment.polarity, 4)
    assert qc["scores"]["answerer"]["polarity"] > 0  # "lovely and calm"

    summary = await export_dataset(settings, tmp_path / "c", ExportOptions(status="complete"))
    qcs = [r["qc"] for r in read_jsonl(tmp_path / "c" / "dialogs.jsonl")]
    assert summary.dialogs == 4 and sum(q is None for q in qcs) == 1


async def test_export_carries_the_verdicts_of_the_qc_step(settings, stimuli, tmp_path):
    """Real QC (server.qc) judges the dialogs; the export reads its verdicts and scores as stored."""
    from server.qc.pipeline import pending_dialogs, run_qc

    stims = await stimuli(3)
    ids = await insert_dialogs(settings, stims, 6)
    engine = make_engine(settings.resolved_database_url)
    sessions = make_sessionmaker(engine)
    async with sessions() as db:  # one explanation that has nothing to do with its dialog
        await db.execute(
            update(Response)
            .where(Response.dialog_id == ids[0], Response.phase == "before_reveal")
            .values(explanation="Bananas, rockets and spreadsheets have been chosen here for no reason.")
        )
        await db.commit()
    await run_qc(sessions, settings, await pending_dialogs(sessions, settings))
    async with sessions() as db:
        rows = await db.execute(select(QcResult).where(QcResult.dialog_id.in_(ids)))
        stored = {q.dialog_id: q for q in rows.scalars()}
    await engine.dispose()
    assert stored[ids[0]].verdict != "accept"
    verdicts = {d: (q.verdict, q.reasons) for d, q in stored.items()}
    assert {d for d, q in stored.items() if q.verdict == "accept"} == set(ids[1:]), verdicts

    await export_dataset(settings, tmp_path / "all", ExportOptions(status="complete"))
    for record in read_jsonl(tmp_path / "all" / "dialogs.jsonl"):
        qc, row = record["qc"], stored[record["dialog_id"]]
        assert qc["verdict"] == row.verdict and qc["reasons"] == list(row.reasons)
        for phase, key in (("before_reveal", "questioner_before_reveal"), ("answerer", "answerer")):
            assert qc["scores"][key]["polarity"] == row.scores[phase]["polarity"]
            assert qc["scores"][key]["subjectivity"] == row.scores[phase]["subjectivity"]
    summary = await export_dataset(settings, tmp_path / "acc", ExportOptions(status="accepted"))
    assert {r["dialog_id"] for r in read_jsonl(tmp_path / "acc" / "dialogs.jsonl")} == set(ids[1:])
    assert summary.excluded == {f"verdict {stored[ids[0]].verdict} (QC, or the researcher's review)": 1}


async def test_since_selects_by_end_time(settings, stimuli, tmp_path):
    stims = await stimuli(2)
    ids = await insert_dialogs(settings, stims, 6)  # dialog n ends at T0 + n minutes + 9 minutes
    since = T0 + timedelta(minutes=12)
    summary = await export_dataset(settings, tmp_path / "o", ExportOptions(since=since))
    got = sorted(r["dialog_id"] for r in read_jsonl(tmp_path / "o" / "dialogs.jsonl"))
    assert got == ids[3:] and summary.excluded == {"ended before --since": 3}


# ---------------------------------------------------------------- splits


def test_split_assignment_is_grouped_stratified_and_seeded():
    rng = random.Random(5)
    weights = {"awe": 40, "contentment": 25, "sadness": 15, "fear": 10, "amusement": 10}
    items = []
    for image in range(1500):
        label = rng.choices(list(weights), list(weights.values()))[0]
        for k in range(rng.randint(1, 4)):
            items.append(SplitItem(f"d{image}-{k}", f"img{image}", label if k else label))
    split_of = assign_splits(items, seed=11)
    assert split_of == assign_splits(list(reversed(items)), seed=11)  # order does not matter
    assert split_of != assign_splits(items, seed=12)
    images = defaultdict(set)
    for item in items:
        images[item.group].add(split_of[item.dialog_id])
    assert all(len(s) == 1 for s in images.values())  # grouped: no image in two splits
    total = Counter(item.label for item in items)
    for split, share in zip(SPLITS, (0.8, 0.1, 0.1), strict=True):
        members = [item for item in items if split_of[item.dialog_id] == split]
        assert abs(len(members) / len(items) - share) < 0.01
        got = Counter(item.label for item in members)
        for label, n in total.items():  # each split's emotion mix follows the whole
            assert abs(got[label] / len(members) - n / len(items)) < 0.02, (split, label)


async def test_exported_splits_keep_images_together(settings, stimuli, tmp_path):
    stims = await stimuli(30)
    await insert_dialogs(settings, stims, 90, emotions=["awe", "sadness", "fear"])
    await export_dataset(settings, tmp_path / "o", ExportOptions(seed=4))
    records = read_jsonl(tmp_path / "o" / "dialogs.jsonl")
    by_image = defaultdict(set)
    for r in records:
        by_image[r["stimulus"]["image_sha256"]].add(r["split"])
    assert len(by_image) == 30 and all(len(s) == 1 for s in by_image.values())
    splits = json.loads((tmp_path / "o" / "splits.json").read_text())
    assert splits["seed"] == 4 and splits["group_by"] == "stimulus.image_sha256"
    assert {d for ids in splits["dialogs"].values() for d in ids} == {r["dialog_id"] for r in records}
    for name, ids in splits["dialogs"].items():
        assert all(r["split"] == name for r in records if r["dialog_id"] in set(ids))
    assert Counter(r["split"] for r in records)["train"] == 72  # 24 images x 3 dialogs


# ---------------------------------------------------------------- retrieval candidates


async def test_retrieval_candidates_follow_the_visdial_rules(settings, stimuli, tmp_path):
    stims = await stimuli(40)
    shared = "Shared answer text that two dialogs gave word for word."
    await insert_dialogs(settings, stims, 120, shared_answer=None)
    await insert_dialogs(settings, stims, 2, start=500, shared_answer=shared)
    await export_dataset(settings, tmp_path / "o", ExportOptions(seed=9, ratios=(0.5, 0.5, 0.0)))
    records = {r["dialog_id"]: r for r in read_jsonl(tmp_path / "o" / "dialogs.jsonl")}
    checked = 0
    for split in ("train", "val"):
        doc = json.loads((tmp_path / "o" / "retrieval" / f"{split}.json").read_text())
        assert doc["split"] == split and doc["seed"] == 9 and doc["num_candidates"] == 100
        answers, questions = doc["data"]["answers"], doc["data"]["questions"]
        assert len(answers) == len(set(answers))  # identical texts share one pool entry
        split_answers = {x["answer"] for r in records.values() if r["split"] == split for x in r["rounds"]}
        assert set(answers) == split_answers  # candidates come from this split only
        for entry in doc["data"]["dialogs"]:
            record = records[entry["dialog_id"]]
            own = {x["answer"] for x in record["rounds"]}
            assert entry["image"] == record["stimulus"]["image"]
            for item, source_round in zip(entry["dialog"], record["rounds"], strict=True):
                options = item["answer_options"]
                assert len(options) == 100 and len(set(options)) == 100
                assert answers[options[item["gt_index"]]] == source_round["answer"] == answers[item["answer"]]
                assert questions[item["question"]] == source_round["question"]
                negatives = [answers[i] for k, i in enumerate(options) if k != item["gt_index"]]
                assert not set(negatives) & own  # never an answer of the same dialog
                checked += 1
    assert checked == 122 * 10
    positions = Counter()
    for split in ("train", "val"):
        doc = json.loads((tmp_path / "o" / "retrieval" / f"{split}.json").read_text())
        positions.update(item["gt_index"] // 25 for e in doc["data"]["dialogs"] for item in e["dialog"])
    assert all(n > 200 for n in positions.values()), positions  # the true answer is not parked


async def test_small_pools_give_shorter_candidate_lists(settings, stimuli, tmp_path):
    stims = await stimuli(3)
    await insert_dialogs(settings, stims, 3)  # 30 answers in all: nobody can have 99 negatives
    await export_dataset(settings, tmp_path / "o", ExportOptions(ratios=(1.0, 0.0, 0.0)))
    doc = json.loads((tmp_path / "o" / "retrieval" / "train.json").read_text())
    for entry in doc["data"]["dialogs"]:
        for item in entry["dialog"]:
            assert len(item["answer_options"]) == 21  # 20 other dialogs' answers + the true one
    assert "| train | 3 | 30 | 30 | 30 |" in (tmp_path / "o" / "datasheet.md").read_text()


# ---------------------------------------------------------------- determinism, formats, round trip


async def test_two_exports_are_byte_identical(settings, stimuli, tmp_path):
    stims = await stimuli(6)
    ids = await insert_dialogs(settings, stims, 30)
    await insert_dialogs(settings, stims, 3, status="timed_out", start=100, rounds=4)
    await add_qc(settings, {ids[0]: "accept", ids[1]: "review"})
    first = tmp_path / "one"
    await export_dataset(settings, first, ExportOptions(status="all", seed=21))
    await export_dataset(settings, tmp_path / "two", ExportOptions(status="all", seed=21))
    a, b = every_file(first), every_file(tmp_path / "two")
    assert a.pop("manifest.json") != b"" and b.pop("manifest.json")
    assert a == b
    assert any(name.startswith("images/") for name in a)
    manifest = json.loads((first / "manifest.json").read_text())
    assert manifest["sha256"]["dialogs.jsonl"] == hashlib.sha256(a["dialogs.jsonl"]).hexdigest()
    today = datetime.now(UTC).strftime("%Y-%m-%d").encode()  # the data are from 2024
    assert not [name for name, data in a.items() if today in data]
    await export_dataset(settings, tmp_path / "three", ExportOptions(status="all", seed=22))
    assert every_file(tmp_path / "three")["splits.json"] != a["splits.json"]
    with pytest.raises(FileExistsError):
        await export_dataset(settings, first, ExportOptions(status="all", seed=21))


async def test_round_trip_through_import_gives_the_same_records(
    settings, settings_factory, stimuli, tmp_path
):
    stims = await stimuli(5)
    ids = await insert_dialogs(settings, stims, 12)
    await insert_dialogs(settings, stims, 2, status="abandoned", start=50, rounds=3)
    await add_qc(settings, {ids[0]: "accept", ids[3]: "reject"})
    first = tmp_path / "first"
    await export_dataset(settings, first, ExportOptions(status="all", seed=2))

    other_db = tmp_path / "other.db"
    url = f"sqlite+aiosqlite:///{other_db}"
    upgrade(url)
    target = settings_factory(database_url=url, media_dir=tmp_path / "media2", secret_key="another-secret")
    report = await import_dialogs(target, first / "dialogs.jsonl")
    assert report.errors == [] and report.imported == 14 and report.missing_images == 0
    again = await import_dialogs(target, first / "dialogs.jsonl")
    assert again.imported == 0 and again.skipped_existing == 14

    second = tmp_path / "second"
    await export_dataset(target, second, ExportOptions(status="all", seed=2))
    a, b = every_file(first), every_file(second)
    for name in ("dialogs.jsonl", "splits.json", "retrieval/train.json", "datasheet.md"):
        assert a[name] == b[name], name
    assert {k for k in a if k.startswith("images/")} == {k for k in b if k.startswith("images/")}

    renamed = settings_factory(database_url=url, media_dir=tmp_path / "media2", study="renamed")
    (tmp_path / "renamed.jsonl").write_text(
        "\n".join(
            line.replace(ids[0], "copy-" + ids[0])
            for line in (first / "dialogs.jsonl").read_text().splitlines()[:1]
        )
    )
    report = await import_dialogs(renamed, tmp_path / "renamed.jsonl", study="renamed")
    assert report.imported == 1
    engine = make_engine(url)
    async with make_sessionmaker(engine)() as db:
        assert (await db.get(Dialog, "copy-" + ids[0])).study == "renamed"
        assert await db.get(
            Stimulus, json.loads((first / "dialogs.jsonl").read_text().splitlines()[0])["stimulus"]["id"]
        )
    await engine.dispose()


async def test_import_refuses_records_that_break_the_schema(settings, settings_factory, stimuli, tmp_path):
    stims = await stimuli(2)
    await insert_dialogs(settings, stims, 3)
    await export_dataset(settings, tmp_path / "o", ExportOptions())
    good = (tmp_path / "o" / "dialogs.jsonl").read_text().splitlines()
    bad_emotion = json.loads(good[1])
    bad_emotion["questioner"]["after_reveal"]["emotion"] = "joy"
    missing = json.loads(good[2])
    del missing["rounds"][4]["answer_sent_at"]
    extra = json.loads(good[2])
    extra["dialog_id"] = "new-id"
    extra["worker_platform_id"] = "A1B2C3"
    lines = [
        good[0],
        json.dumps(bad_emotion),
        "",
        json.dumps(missing),
        "{not json",
        "[1, 2]",
        json.dumps(extra),
    ]
    path = tmp_path / "mixed.jsonl"
    path.write_text("\n".join(lines) + "\n")

    other = tmp_path / "other.db"
    upgrade(f"sqlite+aiosqlite:///{other}")
    target = settings_factory(database_url=f"sqlite:///{other}", media_dir=tmp_path / "media2")
    report = await import_dialogs(target, path)
    errors = {(line, where) for line, where, _ in report.errors}
    assert errors == {
        (2, "questioner.after_reveal.emotion"),
        (4, "rounds.4.answer_sent_at"),
        (5, "line"),
        (6, "line"),
        (7, "worker_platform_id"),
    }
    assert report.imported == 1
    messages = dict(((line, where), msg) for line, where, msg in report.errors)
    assert "amusement" in messages[(2, "questioner.after_reveal.emotion")]
    assert "Field required" in messages[(4, "rounds.4.answer_sent_at")]


def test_documented_example_record_is_valid():
    """docs/export.md shows a record; it must be one the schema accepts."""
    from server.settings import REPO_ROOT

    text = (REPO_ROOT / "docs" / "export.md").read_text(encoding="utf-8")
    example = json.loads(text.split("```json\n", 1)[1].split("\n```", 1)[0])
    assert validate_record(example)["collection"]["schema_version"] == "1.0"
    assert example["rounds"][9]["round"] == 10 and example["qc"]["verdict"] == "accept"


def test_schema_errors_name_the_field():
    from pydantic import ValidationError

    record = {"dialog_id": "x"}
    with pytest.raises(ValidationError) as caught:
        validate_record(record)
    fields = {where for where, _ in describe_errors(caught.value)}
    assert {"split", "stimulus", "rounds", "collection"} <= fields


async def test_jsonl_loads_with_hugging_face_datasets(settings, stimuli, tmp_path, monkeypatch):
    try:
        import datasets
    except ImportError:  # pragma: no cover - the dev extra installs it
        pytest.skip("datasets is not installed")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    stims = await stimuli(4)
    ids = await insert_dialogs(settings, stims, 20)
    await insert_dialogs(settings, stims, 2, status="abandoned", start=40, rounds=2)
    await add_qc(settings, {ids[5]: "accept"})
    await export_dataset(settings, tmp_path / "o", ExportOptions(status="all"))
    path = tmp_path / "o" / "dialogs.jsonl"
    table = datasets.load_dataset("json", data_files=str(path), split="train", cache_dir=str(tmp_path / "c"))
    plain = read_jsonl(path)
    assert table.num_rows == len(plain) == 22
    assert table["dialog_id"] == [r["dialog_id"] for r in plain]
    row = table[[r["dialog_id"] for r in plain].index(ids[5])]
    assert row["qc"]["verdict"] == "accept" and len(row["rounds"]) == 10
    assert (
        row["rounds"][3]["answer"]
        == plain[[r["dialog_id"] for r in plain].index(ids[5])]["rounds"][3]["answer"]
    )
    assert sum(r["complete"] is False for r in table) == 2


# ---------------------------------------------------------------- the command line


async def test_avd_export_and_import_dialogs_commands(settings, settings_factory, stimuli, tmp_path):
    """The real ``avd`` entry point, configured only through the environment."""
    from tests.conftest import settings_env

    stims = await stimuli(3)
    await insert_dialogs(settings, stims, 6)
    env = settings_env(settings) | {"COLUMNS": "200"}

    def avd(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(["avd", *args], env=env, capture_output=True, text=True, timeout=120)

    refused = avd("export", "--out", str(tmp_path / "acc"), "--status", "accepted")
    assert refused.returncode == 1 and "has a QC verdict yet" in refused.stderr
    assert not (tmp_path / "acc").exists()

    done = avd("export", "--out", str(tmp_path / "out"), "--seed", "8", "--images", "manifest")
    assert done.returncode == 0, done.stderr
    assert "6 dialogs" in done.stderr
    images = read_jsonl(tmp_path / "out" / "images.jsonl")
    assert len(images) == 3 and not (tmp_path / "out" / "images").exists()
    assert "--images manifest" in (tmp_path / "out" / "datasheet.md").read_text()
    assert avd("export", "--out", str(tmp_path / "out")).returncode == 2  # never overwrites silently

    lines = (tmp_path / "out" / "dialogs.jsonl").read_text().splitlines()
    broken = json.loads(lines[2])
    broken["rounds"][0]["question_latency_ms"] = -5
    (tmp_path / "bad.jsonl").write_text("\n".join([lines[0], lines[1], json.dumps(broken)]) + "\n")
    other = tmp_path / "other.db"
    upgrade(f"sqlite+aiosqlite:///{other}")
    env = settings_env(settings_factory(database_url=f"sqlite:///{other}", media_dir=tmp_path / "m2"))
    env["COLUMNS"] = "200"
    checked = avd("import-dialogs", str(tmp_path / "bad.jsonl"), "--dry-run")
    assert checked.returncode == 1 and "line 3" in checked.stderr
    assert "rounds.0.question_latency_ms" in checked.stderr
    imported = avd("import-dialogs", str(tmp_path / "bad.jsonl"), "--study", "merged")
    assert imported.returncode == 1 and "2 dialogs imported" in imported.stderr
    engine = make_engine(f"sqlite+aiosqlite:///{other}")
    async with make_sessionmaker(engine)() as db:
        studies = (await db.execute(select(Dialog.study))).scalars().all()
    await engine.dispose()
    assert studies == ["merged", "merged"]


# ---------------------------------------------------------------- dashboard download


async def test_export_zip_download_from_the_dashboard(settings, stimuli, server_factory, tmp_path):
    """The real server process serves the zip to a logged-in researcher, and only to one."""
    from tests.test_admin_api import create_admin, logged_in

    stims = await stimuli(3)
    await insert_dialogs(settings, stims, 5)
    create_admin(settings)
    server = server_factory(settings)
    anonymous = httpx.get(server.url + "/admin/api/export.zip", timeout=30)
    client, _csrf = logged_in(server.url)
    try:
        reply = client.get("/admin/api/export.zip", params={"status": "complete", "seed": 5}, timeout=120)
        refused = client.get("/admin/api/export.zip", params={"status": "accepted"}, timeout=120)
    finally:
        client.close()
    assert anonymous.status_code == 401
    assert reply.status_code == 200, reply.text
    assert reply.headers["content-type"] == "application/zip"
    archive = zipfile.ZipFile(io.BytesIO(reply.content))
    root = f"avd-{settings.study}-complete-seed5"
    names = set(archive.namelist())
    assert {f"{root}/{n}" for n in DATA_FILES + ("manifest.json",)} <= names
    assert len(archive.read(f"{root}/dialogs.jsonl").splitlines()) == 5
    assert len([n for n in names if n.startswith(f"{root}/images/")]) == 3
    assert refused.status_code == 409 and "QC" in refused.json()["detail"]

    again = await build_export_zip(settings, ExportOptions(seed=5), tmp_path)
    same = zipfile.ZipFile(again)
    for name in names - {f"{root}/manifest.json"}:
        assert same.read(name) == archive.read(name), name
