"""Import stimuli from a folder or a JSONL/CSV manifest.

Each row names an image (a path relative to the manifest, or an http(s) URL), the two
opinions (emotion + text each, one positive and one negative emotion) and optional
title, genre, style, source and target dialogs. Images are normalised (longest side at
most ``max_image_side``, JPEG) and stored under a random key. Bad rows are reported with
their line number and skipped; the good ones are committed together.
"""

from __future__ import annotations

import asyncio
import csv
import hashlib
import io
import json
import secrets
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from PIL import Image, ImageOps, UnidentifiedImageError
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator
from sqlalchemy import select

from server.db.engine import make_engine, make_sessionmaker
from server.db.models import Stimulus
from server.dialog.protocol import NEGATIVE_EMOTIONS, POSITIVE_EMOTIONS
from server.media import MediaStore, media_store
from server.settings import Settings

MANIFEST_NAMES = ("manifest.jsonl", "manifest.csv")
MAX_DOWNLOAD_BYTES = 50 * 2**20


class StimulusRow(BaseModel):
    """One manifest row, as documented in docs/stimuli.md."""

    model_config = ConfigDict(extra="ignore", str_strip_whitespace=True)

    image: str
    positive_emotion: str
    positive_text: str
    negative_emotion: str
    negative_text: str
    # limits of the database columns: checked here so one long value cannot fail the whole insert
    id: str | None = Field(None, max_length=64)
    title: str | None = Field(None, max_length=300)
    genre: str | None = Field(None, max_length=100)
    style: str | None = Field(None, max_length=100)
    source: str | None = Field(None, max_length=300)
    target_dialogs: int | None = Field(None, ge=1)

    @field_validator("positive_emotion")
    @classmethod
    def _positive(cls, v: str) -> str:
        v = v.lower()
        if v not in POSITIVE_EMOTIONS:
            raise ValueError(f"must be one of {', '.join(POSITIVE_EMOTIONS)}")
        return v

    @field_validator("negative_emotion")
    @classmethod
    def _negative(cls, v: str) -> str:
        v = v.lower()
        if v not in NEGATIVE_EMOTIONS:
            raise ValueError(f"must be one of {', '.join(NEGATIVE_EMOTIONS)}")
        return v

    @field_validator("positive_text", "negative_text", "image")
    @classmethod
    def _not_empty(cls, v: str) -> str:
        if not v:
            raise ValueError("must not be empty")
        return v

    @field_validator("id", "title", "genre", "style", "source", "target_dialogs", mode="before")
    @classmethod
    def _blank_is_missing(cls, v: object) -> object:
        """An empty CSV cell means "not given", not an empty title or a zero target."""
        return None if isinstance(v, str) and not v.strip() else v


@dataclass
class ImportReport:
    imported: list[str] = field(default_factory=list)
    skipped_existing: int = 0
    errors: list[tuple[int, str]] = field(default_factory=list)

    def summary(self) -> str:
        return (
            f"{len(self.imported)} imported, {self.skipped_existing} already present, "
            f"{len(self.errors)} bad rows"
        )


def find_manifest(source: Path) -> Path:
    if source.is_dir():
        for name in MANIFEST_NAMES:
            if (source / name).exists():
                return source / name
        raise FileNotFoundError(f"{source} has no {' or '.join(MANIFEST_NAMES)}")
    if not source.exists():
        raise FileNotFoundError(f"{source} does not exist")
    return source


def read_rows(manifest: Path) -> list[tuple[int, dict | str]]:
    """(line number, row) pairs; a row that cannot be parsed is a string explaining why."""
    rows: list[tuple[int, dict | str]] = []
    if manifest.suffix.lower() == ".csv":
        with manifest.open(newline="", encoding="utf-8-sig") as fh:  # -sig: spreadsheets add a BOM
            reader = csv.DictReader(fh)
            for row in reader:
                rows.append((reader.line_num, {k: v for k, v in row.items() if k}))
        return rows
    for number, line in enumerate(manifest.read_text(encoding="utf-8-sig").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            rows.append((number, f"not valid JSON ({exc.msg})"))
            continue
        rows.append((number, data if isinstance(data, dict) else "not a JSON object"))
    return rows


def load_image(ref: str, base: Path, client: httpx.Client) -> bytes:
    if ref.startswith(("http://", "https://")):
        with client.stream("GET", ref) as reply:
            reply.raise_for_status()
            chunks, size = [], 0
            for chunk in reply.iter_bytes():
                size += len(chunk)
                if size > MAX_DOWNLOAD_BYTES:
                    raise OSError(f"image at {ref} is larger than {MAX_DOWNLOAD_BYTES // 2**20} MB")
                chunks.append(chunk)
            return b"".join(chunks)
    path = (base / ref).resolve()
    if not path.is_file():
        raise FileNotFoundError(f"image file {ref} not found")
    return path.read_bytes()


def normalise_image(data: bytes, max_side: int) -> tuple[bytes, int, int]:
    """JPEG bytes with the longest side at most ``max_side`` (never enlarged).

    Camera photos are turned upright by their EXIF orientation, and transparent parts are
    laid on white (JPEG has no alpha; converting directly would turn them black).
    """
    with Image.open(io.BytesIO(data)) as opened:
        img = ImageOps.exif_transpose(opened)
        if img.mode in ("RGBA", "LA", "PA") or "transparency" in img.info:
            rgba = img.convert("RGBA")
            img = Image.new("RGB", rgba.size, (255, 255, 255))
            img.paste(rgba, mask=rgba.getchannel("A"))
        else:
            img = img.convert("RGB")
        img.thumbnail((max_side, max_side), Image.Resampling.LANCZOS)
        out = io.BytesIO()
        img.save(out, format="JPEG", quality=90)
        return out.getvalue(), img.width, img.height


def prepare(
    manifest: Path,
    media: MediaStore,
    max_side: int,
    known: set[str],
    report: ImportReport,
    study: str = "default",
    ids: set[str] | None = None,
) -> list[Stimulus]:
    """Validate every row and store its image; returns the stimuli ready to insert.

    Every check that can reject a row (including a clash of its ``id`` with an existing
    stimulus) runs before its image is stored, so a rejected row leaves no image behind.
    """
    ids = set() if ids is None else ids
    stimuli: list[Stimulus] = []
    with httpx.Client(timeout=30, follow_redirects=True) as client:
        for number, raw in read_rows(manifest):
            if isinstance(raw, str):
                report.errors.append((number, raw))
                continue
            try:
                row = StimulusRow.model_validate(raw)
                if row.id is not None and row.id in ids:
                    report.errors.append((number, f"id: stimulus {row.id} already exists"))
                    continue
                data, width, height = normalise_image(
                    load_image(row.image, manifest.parent, client), max_side
                )
            except ValidationError as exc:
                problems = "; ".join(
                    f"{'.'.join(str(x) for x in e['loc']) or 'row'}: {e['msg']}" for e in exc.errors()
                )
                report.errors.append((number, problems))
                continue
            except UnidentifiedImageError:
                report.errors.append((number, f"image: {row.image} is not an image Pillow can read"))
                continue
            except (OSError, Image.DecompressionBombError, httpx.HTTPError) as exc:
                report.errors.append((number, f"image: {exc}"))
                continue
            digest = hashlib.sha256(data).hexdigest()
            if digest in known:
                report.skipped_existing += 1
                continue
            known.add(digest)
            stimulus_id = row.id or "s" + secrets.token_hex(8)
            ids.add(stimulus_id)
            key = secrets.token_urlsafe(24) + ".jpg"
            media.put(key, data, "image/jpeg")
            stimuli.append(
                Stimulus(
                    id=stimulus_id,
                    study=study,
                    image_key=key,
                    image_sha256=digest,
                    width=width,
                    height=height,
                    title=row.title,
                    genre=row.genre,
                    style=row.style,
                    source=row.source,
                    positive_emotion=row.positive_emotion,
                    positive_text=row.positive_text,
                    negative_emotion=row.negative_emotion,
                    negative_text=row.negative_text,
                    target_dialogs=row.target_dialogs,
                )
            )
    return stimuli


async def import_into_database(settings: Settings, source: Path, skip_existing: bool = True) -> ImportReport:
    """Import a manifest into the database; images that are already there are skipped."""
    manifest = find_manifest(source)
    report = ImportReport()
    engine = make_engine(settings.resolved_database_url)
    sessions = make_sessionmaker(engine)
    try:
        async with sessions() as db:
            same_study = select(Stimulus.image_sha256).where(Stimulus.study == settings.study)
            known = set((await db.execute(same_study)).scalars()) if skip_existing else set()
            ids = set((await db.execute(select(Stimulus.id))).scalars())
        fresh = await asyncio.to_thread(
            prepare,
            manifest,
            media_store(settings),
            settings.max_image_side,
            known,
            report,
            settings.study,
            ids,
        )
        try:
            async with sessions() as db:
                db.add_all(fresh)
                await db.commit()
        except Exception:  # nothing half-imported: drop the images of the rows that were not stored
            store = media_store(settings)
            for stim in fresh:
                await asyncio.to_thread(store.delete, stim.image_key)
            raise
        report.imported = [s.id for s in fresh]
    finally:
        await engine.dispose()
    return report
