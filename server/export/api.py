"""Download the export from the dashboard: GET /admin/api/export.zip?status=...&seed=...

The router carries no authentication of its own; mount it behind the dashboard's admin
check, e.g. ``app.include_router(export_router, dependencies=[Depends(require_admin)])``.
The zip holds exactly the folder ``avd export`` writes, with fixed entry dates so the same
data and seed give the same bytes (apart from ``manifest.json``, which records the time).
"""

from __future__ import annotations

import shutil
import tempfile
import zipfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import FileResponse
from starlette.background import BackgroundTask

from server.export.writer import ExportOptions, InvalidRecord, NothingToExport, export_dataset
from server.settings import Settings

router = APIRouter(tags=["export"])
ZIP_DATE = (1980, 1, 1, 0, 0, 0)


def zip_folder(folder: Path, target: Path, root: str) -> Path:
    """Zip ``folder`` under the top-level name ``root``, entries sorted and dated 1980-01-01."""
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            info = zipfile.ZipInfo(f"{root}/{path.relative_to(folder).as_posix()}", date_time=ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            with path.open("rb") as src, archive.open(info, "w") as dst:
                shutil.copyfileobj(src, dst, 1 << 20)
    return target


async def build_export_zip(settings: Settings, options: ExportOptions, workdir: Path) -> Path:
    """Export into ``workdir`` and zip it; returns the zip's path (inside ``workdir``)."""
    root = f"avd-{settings.study}-{options.status}-seed{options.seed}"
    summary = await export_dataset(settings, workdir / root, options)
    return zip_folder(summary.out, workdir / f"{root}.zip", root)


@router.get("/admin/api/export.zip")
async def export_zip(
    request: Request,
    status: Literal["accepted", "complete", "all"] = "complete",
    seed: int = 0,
    since: datetime | None = Query(None, description="Only dialogs that ended at or after this time."),
    images: Literal["copy", "manifest"] = "copy",
) -> FileResponse:
    """The dataset as a zip; 409 with the reason when the selection is empty."""
    settings: Settings = request.app.state.services.settings
    options = ExportOptions(status=status, seed=seed, since=_utc(since), images=images)
    workdir = Path(tempfile.mkdtemp(prefix="avd-export-zip-"))
    try:
        path = await build_export_zip(settings, options, workdir)
    except NothingToExport as exc:
        shutil.rmtree(workdir, ignore_errors=True)
        raise HTTPException(409, str(exc)) from exc
    except InvalidRecord as exc:  # bad data in the database: say which dialog
        shutil.rmtree(workdir, ignore_errors=True)
        raise HTTPException(500, str(exc)) from exc
    except BaseException:
        shutil.rmtree(workdir, ignore_errors=True)
        raise
    return FileResponse(
        path,
        media_type="application/zip",
        filename=path.name,
        background=BackgroundTask(shutil.rmtree, workdir, ignore_errors=True),
    )


def _utc(value: datetime | None) -> datetime | None:
    if value is None:
        return None
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
