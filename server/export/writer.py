"""``avd export``: stream the selected dialogs into a publishable dataset folder.

The folder holds ``dialogs.jsonl`` (one validated record per line), ``images/`` or
``images.jsonl``, ``splits.json``, ``retrieval/<split>.json``, ``datasheet.md`` and
``manifest.json``. Everything except ``manifest.json`` (which holds the export time and
file checksums) is byte-identical when the same data is exported with the same seed.
The folder is built under a temporary name next to ``out`` and renamed at the end, so
a half-written export never looks finished.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal, TextIO

from pydantic import ValidationError

from server.export import datasheet, source
from server.export.records import dialog_record, image_file_name
from server.export.retrieval import RetrievalBuilder, SplitCounts
from server.export.schema import SCHEMA_VERSION, describe_errors, dump_line, format_timestamp, validate_record
from server.export.splits import DEFAULT_RATIOS, SplitItem, assign_splits
from server.media import MediaStore, media_store
from server.settings import Settings

ImagesMode = Literal["copy", "manifest"]
Progress = Callable[[int, int], None]  # (dialogs written, dialogs selected)


class NothingToExport(Exception):
    """The selection is empty; the message says why (e.g. no QC verdicts yet)."""


class InvalidRecord(Exception):
    """A dialog in the database cannot be written as a valid record (bad data): export stops."""


@dataclass(frozen=True)
class ExportOptions:
    status: source.Status = "complete"
    since: datetime | None = None
    seed: int = 0
    images: ImagesMode = "copy"
    ratios: tuple[float, float, float] = DEFAULT_RATIOS
    retrieval: bool = True
    page_size: int = 1000
    force: bool = False  # replace an existing, non-empty output folder

    def command(self) -> str:
        """The canonical command line (the output folder is left out: it does not change the data)."""
        words = ["avd", "export", "--out", "DIR", "--status", self.status, "--seed", str(self.seed)]
        if self.since is not None:
            words += ["--since", format_timestamp(self.since) or ""]
        if self.images != "copy":
            words += ["--images", self.images]
        if self.ratios != DEFAULT_RATIOS:
            words += ["--ratios", ",".join(f"{r:g}" for r in self.ratios)]
        if not self.retrieval:
            words.append("--no-retrieval")
        return " ".join(words)


@dataclass
class ExportSummary:
    out: Path
    dialogs: int
    splits: dict[str, int]
    excluded: dict[str, int]
    images: int
    missing_images: list[str] = field(default_factory=list)
    retrieval: dict[str, SplitCounts] | None = None


def empty_selection_message(sel: source.Selection, excluded: dict[str, int], have_verdicts: bool) -> str:
    if sel.status == "accepted" and not have_verdicts:
        return (
            f"No dialog of study {sel.study!r} has a QC verdict yet, so --status accepted selects nothing. "
            "Run quality control first, or export with --status complete."
        )
    why = "; ".join(f"{reason}: {n}" for reason, n in excluded.items()) or "the study has no dialogs"
    return f"No dialog of study {sel.study!r} matches --status {sel.status} ({why})."


async def export_dataset(
    settings: Settings,
    out: Path,
    options: ExportOptions = ExportOptions(),
    progress: Progress | None = None,
    study: str | None = None,
) -> ExportSummary:
    """Write the dataset folder ``out``; raises NothingToExport when the selection is empty."""
    out = out.resolve()
    if out.exists() and any(out.iterdir()) and not options.force:
        raise FileExistsError(f"{out} is not empty; choose a new folder or pass --force")
    sel = source.Selection(study or settings.study, options.status, options.since)
    out.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{out.name}.partial-", dir=out.parent))
    try:
        summary = await _write(settings, work, sel, options, progress)
        if out.exists():
            shutil.rmtree(out)
        work.rename(out)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    summary.out = out
    return summary


async def _write(
    settings: Settings, work: Path, sel: source.Selection, options: ExportOptions, progress: Progress | None
) -> ExportSummary:
    stats = datasheet.DatasetStats()
    scratch = Path(tempfile.mkdtemp(prefix="avd-export-"))
    retrieval = RetrievalBuilder(scratch, options.seed) if options.retrieval else None
    secret = settings.resolved_secret
    try:
        async with source.snapshot(settings.resolved_database_url) as conn:
            selected, excluded = await source.count_exclusions(conn, sel)
            index = await source.read_index(conn, sel)
            if not index:
                have_verdicts = await source.verdicts_exist(conn, sel.study)
                raise NothingToExport(empty_selection_message(sel, excluded, have_verdicts))
            split_of = assign_splits(
                (SplitItem(r.dialog_id, r.image_sha256, r.final_emotion) for r in index),
                options.seed,
                options.ratios,
            )
            ids = [r.dialog_id for r in index]
            del index

            def build(rows: list) -> list[str]:
                """Records of one page as lines: checked, counted and fed to the retrieval pools."""
                lines = []
                for row, turns, responses in rows:
                    record = dialog_record(row, turns, responses, split_of[row.id], secret)
                    _check(record)
                    lines.append(dump_line(record))
                    stats.add(record)
                    if retrieval:
                        retrieval.add(record)
                return lines

            images = await source.read_images(conn, sel)
            with (work / "dialogs.jsonl").open("w", encoding="utf-8", newline="\n") as fh:
                await _write_dialogs(conn, fh, ids, options.page_size, progress, build)
        splits = {name: sum(1 for s in split_of.values() if s == name) for name in ("train", "val", "test")}
        _write_splits(work / "splits.json", split_of, options)
        # the biggest file is checksummed while the retrieval files are written (hashlib and
        # SQLite both work without the GIL, so this uses the second core)
        dialogs_digest = asyncio.ensure_future(asyncio.to_thread(sha256_of, work / "dialogs.jsonl"))
        missing = await asyncio.to_thread(_write_images, work, images, media_store(settings), options.images)
        counts = await asyncio.to_thread(retrieval.write, work / "retrieval") if retrieval else None
        known = {"dialogs.jsonl": await dialogs_digest}
        since_text = format_timestamp(sel.since) if sel.since else None
        (work / "datasheet.md").write_text(
            datasheet.render(
                stats=stats,
                study=sel.study,
                command=options.command(),
                status=sel.status,
                since=since_text,
                seed=options.seed,
                ratios=options.ratios,
                excluded=excluded,
                retrieval=counts,
                images_mode=options.images,
                missing_images=missing,
                versions=datasheet.versions(),
            ),
            encoding="utf-8",
        )
        await asyncio.to_thread(_write_manifest, work, sel, options, selected, known)
    finally:
        if retrieval:
            retrieval.close()
        shutil.rmtree(scratch, ignore_errors=True)
    return ExportSummary(
        out=work,
        dialogs=sum(splits.values()),
        splits=splits,
        excluded=excluded,
        images=len(images) - len(missing),
        missing_images=missing,
        retrieval=counts,
    )


async def _write_dialogs(
    conn, fh: TextIO, ids: list[str], page_size: int, progress: Progress | None, build
) -> None:
    """Stream the records page by page; page n + 1 loads while page n is built in a thread."""
    pages = list(source.pages(ids, page_size))
    if progress:
        progress(0, len(ids))
    done = 0
    loading = asyncio.ensure_future(source.read_page(conn, pages[0]))
    try:
        for number in range(len(pages)):
            rows = await loading
            if number + 1 < len(pages):
                loading = asyncio.ensure_future(source.read_page(conn, pages[number + 1]))
            lines = await asyncio.to_thread(build, rows)
            await asyncio.to_thread(fh.write, "\n".join(lines) + "\n")
            done += len(rows)
            if progress:
                progress(done, len(ids))
    finally:
        if not loading.done():  # a failed page: do not leave a query running on the snapshot
            loading.cancel()
            with contextlib.suppress(BaseException):
                await loading


def _check(record: dict) -> None:
    """Never publish a record that ``import-dialogs`` would refuse; name the dialog and fields."""
    try:
        validate_record(record)
    except ValidationError as exc:
        problems = "; ".join(f"{where}: {msg}" for where, msg in describe_errors(exc))
        raise InvalidRecord(f"dialog {record['dialog_id']} does not fit the schema ({problems})") from exc


def _write_splits(path: Path, split_of: dict[str, str], options: ExportOptions) -> None:
    members: dict[str, list[str]] = {"train": [], "val": [], "test": []}
    for dialog_id in sorted(split_of):
        members[split_of[dialog_id]].append(dialog_id)
    document = {
        "seed": options.seed,
        "ratios": list(options.ratios),
        "group_by": "stimulus.image_sha256",
        "stratify_by": "questioner.after_reveal.emotion",
        "counts": {name: len(ids) for name, ids in members.items()},
        "dialogs": members,
    }
    path.write_text(json.dumps(document, sort_keys=True, indent=1) + "\n", encoding="utf-8")


def _write_images(
    work: Path, images: list[tuple[str, str, str, int, int]], store: MediaStore, mode: ImagesMode
) -> list[str]:
    """Copy (or list) each referenced image once; returns the stimulus ids whose image is missing."""
    missing: list[str] = []
    seen: set[str] = set()
    if mode == "copy":
        folder = work / "images"
        folder.mkdir()
        for stimulus_id, key, sha, _w, _h in images:
            name = image_file_name(sha, key)
            if name in seen:
                continue
            try:
                data = store.get(key)
            except Exception as exc:
                if not _is_missing(exc):
                    raise
                missing.append(stimulus_id)
                continue
            (folder / name).write_bytes(data)
            seen.add(name)
        return missing
    with (work / "images.jsonl").open("w", encoding="utf-8", newline="\n") as fh:
        for stimulus_id, key, sha, width, height in images:
            line = {"file_name": image_file_name(sha, key), "height": height, "media_key": key}
            line |= {"sha256": sha, "stimulus_id": stimulus_id, "width": width}
            fh.write(dump_line(line) + "\n")
    return missing


def _is_missing(exc: Exception) -> bool:
    """Local stores raise OSError for an absent file, S3 raises botocore's ClientError."""
    return isinstance(exc, OSError | ValueError) or exc.__class__.__name__ == "ClientError"


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        while chunk := fh.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def _write_manifest(
    work: Path, sel: source.Selection, options: ExportOptions, selected: int, known: dict[str, str]
) -> None:
    """The only file that changes between identical exports: time and checksums of the others."""
    files = {}
    for path in sorted(p for p in work.rglob("*") if p.is_file()):
        name = path.relative_to(work).as_posix()
        files[name] = known.get(name) or sha256_of(path)
    manifest = {
        "exported_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "schema_version": SCHEMA_VERSION,
        "study": sel.study,
        "status": sel.status,
        "seed": options.seed,
        "dialogs": selected,
        "command": options.command(),
        "sha256": files,
    }
    (work / "manifest.json").write_text(
        json.dumps(manifest, indent=1, sort_keys=True) + "\n", encoding="utf-8"
    )
