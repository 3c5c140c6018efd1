"""``avd import-dialogs``: read an exported ``dialogs.jsonl`` back into the database.

Used to merge studies and to re-run QC or evaluation on published data. Every line is
checked against the record schema; a line that does not fit is refused and reported with
its line number and the offending field, and the valid lines are imported. Records are
stored as they were exported: the same dialog and stimulus ids, the pseudonymous worker ids
(as workers of provider ``imported``, so a later export keeps them unchanged), the QC
verdict if any. Dialogs whose id is already in the database are skipped, so importing the
same file twice is harmless. Images are taken from ``images/`` next to the file when
present (checked against their SHA-256); otherwise the stimulus is recorded without one.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import secrets
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from pydantic import ValidationError
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from server.db.engine import make_engine, make_sessionmaker
from server.db.models import Dialog, QcResult, Response, Stimulus, Turn, Worker
from server.export.records import IMPORTED_PROVIDER
from server.export.schema import (
    DialogRecord,
    EmotionResponse,
    describe_errors,
    parse_timestamp,
    validate_record,
)
from server.media import MediaStore, media_store
from server.settings import Settings

BATCH = 200


@dataclass
class ImportReport:
    imported: int = 0
    skipped_existing: int = 0
    missing_images: int = 0
    errors: list[tuple[int, str, str]] = field(default_factory=list)  # (line, field, message)

    def summary(self) -> str:
        return (
            f"{self.imported} dialogs imported, {self.skipped_existing} already present, "
            f"{len({line for line, _, _ in self.errors})} lines refused, "
            f"{self.missing_images} stimuli without an image file"
        )


def parse_record(line: str) -> DialogRecord | list[tuple[str, str]]:
    """The record on one line, or the (field, problem) pairs that make it unacceptable."""
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        return [("line", f"not valid JSON ({exc.msg} at column {exc.colno})")]
    if not isinstance(data, dict):
        return [("line", "not a JSON object")]
    try:
        return validate_record(data)
    except ValidationError as exc:
        return describe_errors(exc)


async def import_dialogs(
    settings: Settings,
    path: Path,
    study: str | None = None,
    images_dir: Path | None = None,
    dry_run: bool = False,
) -> ImportReport:
    """Import the valid records of ``path``; ``study`` renames the study they belong to."""
    report = ImportReport()
    images_dir = images_dir or path.parent / "images"
    store = media_store(settings)
    engine = make_engine(settings.resolved_database_url)
    sessions = make_sessionmaker(engine)
    seen: set[str] = set()
    batch: list[tuple[int, DialogRecord]] = []
    try:
        with path.open(encoding="utf-8") as fh:
            for number, line in enumerate(fh, start=1):
                if not line.strip():
                    continue
                parsed = parse_record(line)
                if isinstance(parsed, list):
                    report.errors += [(number, where, problem) for where, problem in parsed]
                    continue
                if parsed["dialog_id"] in seen:
                    report.errors.append(
                        (number, "dialog_id", f"{parsed['dialog_id']} appears twice in the file")
                    )
                    continue
                seen.add(parsed["dialog_id"])
                if dry_run:
                    continue
                batch.append((number, parsed))
                if len(batch) >= BATCH:
                    await _store_batch(sessions, batch, study, images_dir, store, report)
                    batch = []
        if batch:
            await _store_batch(sessions, batch, study, images_dir, store, report)
    finally:
        await engine.dispose()
    return report


async def _store_batch(
    sessions,
    batch: list[tuple[int, DialogRecord]],
    study: str | None,
    images_dir: Path,
    store: MediaStore,
    report: ImportReport,
) -> None:
    """Insert one batch of records in one transaction."""
    async with sessions() as db:
        db: AsyncSession
        ids = [rec["dialog_id"] for _, rec in batch]
        present = set((await db.execute(select(Dialog.id).where(Dialog.id.in_(ids)))).scalars())
        stimulus_ids = {rec["stimulus"]["id"] for _, rec in batch}
        stimuli = {
            s.id: s
            for s in (await db.execute(select(Stimulus).where(Stimulus.id.in_(stimulus_ids)))).scalars()
        }
        worker_ids = {
            w for _, rec in batch for w in (rec["questioner"]["worker_id"], rec["answerer"]["worker_id"])
        }
        workers = set((await db.execute(select(Worker.id).where(Worker.id.in_(worker_ids)))).scalars())
        parents: list[object] = []  # stimuli and workers, then dialogs, then their rows:
        dialogs: list[object] = []  # the tables have foreign keys but no ORM relationships,
        children: list[object] = []  # so the insert order is ours to keep
        for number, rec in batch:
            if rec["dialog_id"] in present:
                report.skipped_existing += 1
                continue
            target = study or rec["collection"]["study"]
            stimulus = stimuli.get(rec["stimulus"]["id"])
            if stimulus is None:
                stimulus = await _new_stimulus(rec, target, images_dir, store, report, number)
                if stimulus is None:
                    continue
                stimuli[stimulus.id] = stimulus
                parents.append(stimulus)
            elif stimulus.image_sha256 != rec["stimulus"]["image_sha256"]:
                report.errors.append(
                    (number, "stimulus.image_sha256", f"stimulus {stimulus.id} exists with a different image")
                )
                continue
            for worker_id in (rec["questioner"]["worker_id"], rec["answerer"]["worker_id"]):
                if worker_id not in workers:
                    parents.append(Worker(id=worker_id, provider=IMPORTED_PROVIDER))
                    workers.add(worker_id)
            rows = _rows(rec, target)
            dialogs.append(rows[0])
            children += rows[1:]
            report.imported += 1
        for group in (parents, dialogs, children):
            db.add_all(group)
            await db.flush()
        await db.commit()


async def _new_stimulus(
    rec: DialogRecord, study: str, images_dir: Path, store: MediaStore, report: ImportReport, number: int
) -> Stimulus | None:
    s = rec["stimulus"]
    suffix = PurePosixPath(s["image"]).suffix or ".jpg"
    key = secrets.token_urlsafe(24) + suffix
    file = images_dir / PurePosixPath(s["image"]).name
    if file.is_file():
        data = await asyncio.to_thread(file.read_bytes)
        if hashlib.sha256(data).hexdigest() != s["image_sha256"]:
            report.errors.append((number, "stimulus.image", f"{file} does not match image_sha256"))
            return None
        await asyncio.to_thread(store.put, key, data, "image/png" if suffix == ".png" else "image/jpeg")
    else:
        key = "missing-" + key
        report.missing_images += 1
    positive = next(o for o in s["opinions"] if o["polarity"] == "positive")
    negative = next(o for o in s["opinions"] if o["polarity"] == "negative")
    return Stimulus(
        id=s["id"],
        study=study,
        image_key=key,
        image_sha256=s["image_sha256"],
        width=s["width"],
        height=s["height"],
        title=s["title"],
        genre=s["genre"],
        style=s["style"],
        source=s["source"],
        positive_emotion=positive["emotion"],
        positive_text=positive["text"],
        negative_emotion=negative["emotion"],
        negative_text=negative["text"],
    )


def _response(rec: DialogRecord, role: str, phase: str, value: EmotionResponse | None) -> list[Response]:
    if value is None:
        return []
    return [
        Response(
            dialog_id=rec["dialog_id"],
            role=role,
            phase=phase,
            emotion=value["emotion"],
            explanation=value["explanation"],
            client_id=f"import-{phase}",
            submitted_at=parse_timestamp(value["submitted_at"]),
            latency_ms=value["latency_ms"],
        )
    ]


def _rows(rec: DialogRecord, study: str) -> list[object]:
    """The dialog, its turns, responses and QC verdict as model rows."""
    rows: list[object] = [
        Dialog(
            id=rec["dialog_id"],
            study=study,
            stimulus_id=rec["stimulus"]["id"],
            questioner_id=rec["questioner"]["worker_id"],
            answerer_id=rec["answerer"]["worker_id"],
            status=rec["status"],
            end_reason=rec["end_reason"],
            ended_by=rec["ended_by"],
            rounds_done=rec["rounds_done"],
            positive_first=rec["stimulus"]["shown_first"] == "positive",
            settings=dict(rec["collection"]["settings"]),
            started_at=parse_timestamp(rec["started_at"]),
            ended_at=parse_timestamp(rec["ended_at"]) if rec["ended_at"] else None,
        )
    ]
    for r in rec["rounds"]:
        messages = [("questioner", r["question"], r["question_sent_at"], r["question_latency_ms"])]
        if r["answer"] is not None:
            messages.append(("answerer", r["answer"], r["answer_sent_at"], r["answer_latency_ms"]))
        for offset, (role, text, sent_at, latency) in enumerate(messages):
            seq = 2 * r["round"] - 1 + offset
            rows.append(
                Turn(
                    dialog_id=rec["dialog_id"],
                    seq=seq,
                    round=r["round"],
                    role=role,
                    text=text,
                    client_id=f"import-{seq}",
                    sent_at=parse_timestamp(sent_at),  # type: ignore[arg-type]
                    latency_ms=latency,
                )
            )
    rows += _response(rec, "questioner", "before_reveal", rec["questioner"]["before_reveal"])
    rows += _response(rec, "questioner", "after_reveal", rec["questioner"]["after_reveal"])
    rows += _response(rec, "answerer", "answerer", rec["answerer"]["response"])
    if rec["qc"] is not None:
        rows.append(
            QcResult(
                dialog_id=rec["dialog_id"],
                verdict=rec["qc"]["verdict"],
                reasons=list(rec["qc"]["reasons"]),
                summary="imported with the dialog",
                flags={},
                scores=dict(rec["qc"]["scores"]),
                config_hash="imported",
            )
        )
    return rows
