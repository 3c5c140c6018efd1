"""Stimulus import: manifests, image normalisation, bad rows, re-import, the CLI, media backends.

Everything runs against the real database of the test session and a real media store
(a directory, or S3 faked by moto); remote images come from a real HTTP server.
"""

from __future__ import annotations

import csv
import functools
import io
import json
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from conftest import settings_env, write_manifest
from PIL import Image, ImageDraw
from sqlalchemy import select

from server.db.engine import make_engine, make_sessionmaker
from server.db.models import Stimulus
from server.media import media_store
from server.settings import REPO_ROOT, Settings
from server.stimuli.importer import import_into_database

OPINIONS = {
    "positive_emotion": "awe",
    "positive_text": "The sweeping sky makes the little houses look brave.",
    "negative_emotion": "sadness",
    "negative_text": "The empty road suggests everyone has already left.",
}


def picture(path: Path, size: tuple[int, int], colour: tuple[int, int, int] = (30, 90, 160)) -> Path:
    """A small drawing with some structure, so that different sizes give different files."""
    img = Image.new("RGB", size, colour)
    draw = ImageDraw.Draw(img)
    draw.ellipse((size[0] // 4, size[1] // 4, size[0] * 3 // 4, size[1] * 3 // 4), fill=(250, 200, 40))
    draw.line((0, 0, size[0], size[1]), fill=(200, 30, 30), width=3)
    path.parent.mkdir(parents=True, exist_ok=True)
    img.save(path)
    return path


def jsonl(folder: Path, lines: list[dict | str]) -> Path:
    """Write manifest.jsonl; a string is written verbatim (to make broken lines)."""
    folder.mkdir(parents=True, exist_ok=True)
    text = "".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines)
    (folder / "manifest.jsonl").write_text(text)
    return folder


async def stored(settings: Settings) -> list[Stimulus]:
    engine = make_engine(settings.resolved_database_url)
    try:
        async with make_sessionmaker(engine)() as db:
            rows = await db.execute(select(Stimulus).where(Stimulus.study == settings.study))
            return list(rows.scalars())
    finally:
        await engine.dispose()


def media_files(settings: Settings) -> set[str]:
    return {p.name for p in settings.resolved_media_dir.iterdir()}


def stored_image(settings: Settings, key: str) -> Image.Image:
    img = Image.open(io.BytesIO(media_store(settings).get(key)))
    img.load()
    return img


# ------------------------------------------------------------------------ manifests


async def test_folder_with_jsonl_manifest(settings: Settings, tmp_path: Path) -> None:
    folder = write_manifest(tmp_path / "set", 3)
    report = await import_into_database(settings, folder)
    assert report.errors == []
    assert len(report.imported) == 3 and report.skipped_existing == 0

    rows = {s.title: s for s in await stored(settings)}
    assert set(rows) == {"Test picture 0", "Test picture 1", "Test picture 2"}
    first = rows["Test picture 0"]
    assert first.id in report.imported
    assert (first.positive_emotion, first.negative_emotion) == ("contentment", "fear")
    assert first.positive_text.startswith("The warm circle")
    assert (first.genre, rows["Test picture 1"].genre) == ("landscape", "abstract")
    assert (first.width, first.height) == (64, 48)
    assert stored_image(settings, first.image_key).format == "JPEG"
    assert media_files(settings) == {s.image_key for s in rows.values()}


async def test_csv_manifest_named_directly(settings: Settings, tmp_path: Path) -> None:
    folder = tmp_path / "csvset"
    picture(folder / "images" / "harbour.png", (120, 80))
    picture(folder / "images" / "field.png", (90, 90), (60, 140, 60))
    manifest = folder / "my-stimuli.csv"
    header = ["image", "title", "genre", "style", "source", "target_dialogs", *OPINIONS]
    with manifest.open("w", newline="", encoding="utf-8-sig") as fh:  # with a BOM, as spreadsheets write it
        out = csv.DictWriter(fh, header)
        out.writeheader()
        harbour = {
            "title": "Harbour",
            "genre": "marina",
            "style": "realism",
            "source": "test",
            "target_dialogs": "3",
        }
        out.writerow({"image": "images/harbour.png", **harbour, **OPINIONS})
        blanks = {"title": "", "genre": "", "style": "", "source": "", "target_dialogs": ""}
        out.writerow({"image": "images/field.png", **blanks, **OPINIONS, "positive_emotion": "Contentment"})

    report = await import_into_database(settings, manifest)
    assert report.errors == []
    rows = sorted(await stored(settings), key=lambda s: s.width, reverse=True)
    assert [(s.width, s.height) for s in rows] == [(120, 80), (90, 90)]
    harbour, field = rows
    assert (harbour.title, harbour.genre, harbour.style, harbour.source, harbour.target_dialogs) == (
        "Harbour", "marina", "realism", "test", 3,
    )  # fmt: skip
    assert (field.title, field.genre, field.target_dialogs) == (None, None, None)
    assert field.positive_emotion == "contentment"


@pytest.fixture
def http_images(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A real HTTP server on 127.0.0.1 serving a directory; yields (base URL, directory)."""
    root = tmp_path / "www"
    root.mkdir()

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}", root
    server.shutdown()
    server.server_close()


async def test_images_from_http_urls(settings: Settings, tmp_path: Path, http_images) -> None:
    base, root = http_images
    picture(root / "remote-a.png", (1000, 500))
    picture(root / "remote-b.jpg", (200, 300), (120, 40, 40))
    folder = jsonl(
        tmp_path / "remote",
        [
            {"image": f"{base}/remote-a.png", "title": "A", **OPINIONS},
            {"image": f"{base}/missing.png", "title": "gone", **OPINIONS},
            {"image": f"{base}/remote-b.jpg", "title": "B", **OPINIONS},
        ],
    )
    report = await import_into_database(settings, folder)
    assert [line for line, _ in report.errors] == [2]
    assert "404" in report.errors[0][1]
    rows = {s.title: s for s in await stored(settings)}
    assert set(rows) == {"A", "B"}
    assert stored_image(settings, rows["A"].image_key).size == (600, 300)
    assert stored_image(settings, rows["B"].image_key).size == (200, 300)


# -------------------------------------------------------------------- normalisation


async def test_large_images_scaled_to_600_small_ones_kept(settings: Settings, tmp_path: Path) -> None:
    sizes = {"wide": (1500, 400), "tall": (500, 900), "exact": (600, 600), "small": (320, 200)}
    folder = tmp_path / "sizes"
    for name, size in sizes.items():
        picture(folder / f"{name}.png", size)
    jsonl(folder, [{"image": f"{name}.png", "title": name, **OPINIONS} for name in sizes])

    report = await import_into_database(settings, folder)
    assert report.errors == []
    rows = {s.title: s for s in await stored(settings)}
    got = {name: stored_image(settings, s.image_key).size for name, s in rows.items()}
    assert got == {"wide": (600, 160), "tall": (333, 600), "exact": (600, 600), "small": (320, 200)}
    assert max(got["wide"]) == max(got["tall"]) == settings.max_image_side
    assert {name: (s.width, s.height) for name, s in rows.items()} == got


async def test_max_image_side_is_a_setting(settings_factory, tmp_path: Path) -> None:
    settings = settings_factory(max_image_side=256)
    folder = tmp_path / "small-max"
    picture(folder / "p.png", (1024, 512))
    jsonl(folder, [{"image": "p.png", **OPINIONS}])
    await import_into_database(settings, folder)
    [row] = await stored(settings)
    assert stored_image(settings, row.image_key).size == (256, 128)


async def test_photo_orientation_and_transparency(settings: Settings, tmp_path: Path) -> None:
    folder = tmp_path / "odd"
    folder.mkdir()
    # a camera picture stored sideways: 200x100 pixels, EXIF says "rotate 90 degrees"
    photo = Image.new("RGB", (200, 100), (10, 10, 10))
    exif = Image.Exif()
    exif[0x0112] = 6
    photo.save(folder / "sideways.jpg", exif=exif)
    # a PNG whose left half is fully transparent
    clear = Image.new("RGBA", (100, 100), (0, 0, 0, 0))
    ImageDraw.Draw(clear).rectangle((50, 0, 99, 99), fill=(200, 0, 0, 255))
    clear.save(folder / "clear.png")
    jsonl(
        folder,
        [
            {"image": "sideways.jpg", "title": "photo", **OPINIONS},
            {"image": "clear.png", "title": "png", **OPINIONS},
        ],
    )

    await import_into_database(settings, folder)
    rows = {s.title: s for s in await stored(settings)}
    assert stored_image(settings, rows["photo"].image_key).size == (100, 200)
    png = stored_image(settings, rows["png"].image_key).convert("RGB")
    assert min(png.getpixel((10, 50))) > 240  # transparent became white, not black
    red = png.getpixel((90, 50))
    assert red[0] > 180 and red[1] < 40


# ---------------------------------------------------------------------- bad rows


def broken_manifest(folder: Path) -> Path:
    """A manifest in which every kind of mistake appears once, between two good rows."""
    picture(folder / "good1.png", (80, 60))
    picture(folder / "good2.png", (70, 60), (90, 20, 90))
    picture(folder / "other.png", (60, 60), (20, 90, 20))
    (folder / "notes.png").write_text("this is not an image at all")
    return jsonl(
        folder,
        [
            {"image": "good1.png", "title": "first", **OPINIONS},  # 1
            '{"image": "other.png", "positive_emotion": ',  # 2: invalid JSON
            {"image": "other.png", **OPINIONS, "positive_emotion": "joy"},  # 3: not an emotion
            {"image": "other.png", **OPINIONS, "negative_emotion": "awe"},  # 4: positive in negative slot
            "",  # 5: blank lines are allowed
            {k: v for k, v in {"image": "other.png", **OPINIONS}.items() if k != "positive_text"},  # 6
            {"image": "other.png", **OPINIONS, "negative_text": "   "},  # 7: empty text
            {"image": "nowhere/missing.png", **OPINIONS},  # 8: no such file
            {"image": "notes.png", **OPINIONS},  # 9: not an image
            {"image": "other.png", **OPINIONS, "target_dialogs": "many"},  # 10
            {"image": "other.png", **OPINIONS, "target_dialogs": 0},  # 11
            {"image": "good2.png", "title": "second", **OPINIONS, "target_dialogs": 2},  # 12
            '["a", "list"]',  # 13: JSON, but not an object
            {"image": "other.png", **OPINIONS, "id": "x" * 65},  # 14: longer than the id column
        ],
    )


EXPECTED_PROBLEMS = {
    2: "not valid JSON",
    3: "positive_emotion",
    4: "negative_emotion",
    6: "positive_text",
    7: "negative_text",
    8: "not found",
    9: "image",
    10: "target_dialogs",
    11: "target_dialogs",
    13: "not a JSON object",
    14: "id: String should have at most 64 characters",
}


async def test_bad_rows_reported_by_line_and_skipped(settings: Settings, tmp_path: Path) -> None:
    folder = broken_manifest(tmp_path / "broken")
    report = await import_into_database(settings, folder)

    assert [line for line, _ in report.errors] == sorted(EXPECTED_PROBLEMS)
    for line, problem in report.errors:
        assert EXPECTED_PROBLEMS[line] in problem, (line, problem)
    problems = dict(report.errors)
    assert "must be one of amusement, awe, contentment, excitement" in problems[3]
    assert "must be one of anger, disgust, fear, sadness" in problems[4]
    rows = {s.title: s for s in await stored(settings)}
    assert set(rows) == {"first", "second"}
    assert rows["second"].target_dialogs == 2
    assert sorted(report.imported) == sorted(s.id for s in rows.values())


async def test_csv_bad_rows_use_file_line_numbers(settings: Settings, tmp_path: Path) -> None:
    folder = tmp_path / "csvbad"
    picture(folder / "ok.png", (50, 50))
    header = "image,positive_emotion,positive_text,negative_emotion,negative_text,target_dialogs\n"
    (folder / "manifest.csv").write_text(
        header
        + "ok.png,awe,Wide open sky over the rooftops.,fear,The storm clouds are coming fast.,\n"  # line 2
        + 'ok.png,anger,"A quoted, comma-holding text.",fear,Another text.,\n'  # line 3: anger is negative
        + "absent.png,awe,Some text here.,fear,Other text here.,1\n"  # line 4
    )
    report = await import_into_database(settings, folder)
    assert [line for line, _ in report.errors] == [3, 4]
    assert "positive_emotion" in report.errors[0][1] and "not found" in report.errors[1][1]
    assert len(await stored(settings)) == 1


async def test_nothing_half_imported(settings: Settings, tmp_path: Path) -> None:
    """Every stored image belongs to a stimulus row and every row's image is in the store."""
    await import_into_database(settings, broken_manifest(tmp_path / "broken"))
    taken = (await stored(settings))[0].id
    # a row whose id clashes with an existing stimulus is rejected before its image is stored
    folder = tmp_path / "clash"
    picture(folder / "fresh.png", (90, 30), (5, 5, 5))
    picture(folder / "twin.png", (91, 30), (6, 6, 6))
    jsonl(
        folder,
        [
            {"id": taken, "image": "fresh.png", **OPINIONS},
            {"id": "same-id-twice-" + settings.study, "image": "twin.png", **OPINIONS},
            {"id": "same-id-twice-" + settings.study, "image": "fresh.png", **OPINIONS},
        ],
    )
    report = await import_into_database(settings, folder)
    assert [line for line, _ in report.errors] == [1, 3]
    assert all("already exists" in problem for _, problem in report.errors)
    assert report.imported == ["same-id-twice-" + settings.study]

    rows = await stored(settings)
    assert len(rows) == 3
    assert media_files(settings) == {s.image_key for s in rows}
    for s in rows:
        assert stored_image(settings, s.image_key).size == (s.width, s.height)


async def test_reimport_skips_existing_images(settings_factory, tmp_path: Path) -> None:
    settings = settings_factory()
    folder = write_manifest(tmp_path / "again", 4)
    first = await import_into_database(settings, folder)
    files = media_files(settings)
    assert len(first.imported) == 4 and len(files) == 4

    second = await import_into_database(settings, folder, skip_existing=True)
    assert (second.imported, second.skipped_existing, second.errors) == ([], 4, [])
    assert media_files(settings) == files
    assert len(await stored(settings)) == 4

    # "already present" is per study: another study gets its own copies
    other = settings_factory(study=settings.study + "b")
    third = await import_into_database(other, folder)
    assert len(third.imported) == 4 and len(await stored(other)) == 4


# ---------------------------------------------------------------------------- CLI


def run_cli(settings: Settings, *args: str) -> subprocess.CompletedProcess[str]:
    env = settings_env(settings) | {"COLUMNS": "200", "NO_COLOR": "1"}
    return subprocess.run(
        [sys.executable, "-m", "server.cli", *args],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


async def test_cli_prints_problems_and_exits_1(settings: Settings, tmp_path: Path) -> None:
    folder = broken_manifest(tmp_path / "broken")
    result = run_cli(settings, "stimuli", "import", str(folder))
    assert result.returncode == 1, result.stderr
    problem_lines = [line for line in result.stderr.splitlines() if line.startswith("line ")]
    assert [int(line.split()[1].rstrip(":")) for line in problem_lines] == sorted(EXPECTED_PROBLEMS)
    assert "2 imported, 0 already present, 11 bad rows" in result.stderr
    assert {s.title for s in await stored(settings)} == {"first", "second"}

    again = run_cli(settings, "stimuli", "import", str(folder))
    assert again.returncode == 1
    assert "0 imported, 2 already present, 11 bad rows" in again.stderr


async def test_cli_clean_import_and_missing_manifest(settings: Settings, tmp_path: Path) -> None:
    folder = write_manifest(tmp_path / "clean", 2)
    ok = run_cli(settings, "stimuli", "import", str(folder))
    assert ok.returncode == 0, ok.stderr
    assert "2 imported, 0 already present, 0 bad rows" in ok.stderr
    assert len(await stored(settings)) == 2

    empty = tmp_path / "empty"
    empty.mkdir()
    missing = run_cli(settings, "stimuli", "import", str(empty))
    assert missing.returncode == 2
    assert "manifest.jsonl" in missing.stderr


async def test_shipped_demo_stimuli_import_cleanly(settings: Settings) -> None:
    demo = REPO_ROOT / "tasks" / "demo-stimuli"
    report = await import_into_database(settings, demo)
    assert report.errors == [] and len(report.imported) == 12
    rows = await stored(settings)
    assert len({s.positive_text for s in rows}) == 12
    assert all(max(s.width, s.height) == 600 for s in rows)
    assert {s.source for s in rows} == {"drawn for the avd demo (public domain, CC0)"}
    again = await import_into_database(settings, demo)
    assert (again.imported, again.skipped_existing) == ([], 12)


# ------------------------------------------------------------------------------ S3


@pytest.fixture
def aws(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """moto's in-process S3; fake credentials so nothing can reach a real account."""
    moto = pytest.importorskip("moto")
    for name, value in {
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_SESSION_TOKEN": "testing",
        "AWS_DEFAULT_REGION": "us-east-1",
    }.items():
        monkeypatch.setenv(name, value)
    with moto.mock_aws():
        yield


async def test_s3_backend_stores_under_random_keys(aws, settings_factory, tmp_path: Path) -> None:
    import boto3

    s3 = boto3.client("s3")
    s3.create_bucket(Bucket="avd-stimuli")
    settings = settings_factory(media_backend="s3", s3_bucket="avd-stimuli", s3_prefix="study-a/")
    folder = tmp_path / "s3set"
    picture(folder / "sunset-painting.png", (900, 600))
    picture(folder / "harbour-painting.png", (300, 200), (200, 100, 50))
    jsonl(
        folder,
        [
            {
                "id": "stim-sunset-" + settings.study,
                "image": "sunset-painting.png",
                "title": "Sunset",
                **OPINIONS,
            },
            {"image": "harbour-painting.png", "title": "Harbour", **OPINIONS},
        ],
    )
    report = await import_into_database(settings, folder)
    assert report.errors == []

    listing = s3.list_objects_v2(Bucket="avd-stimuli")["Contents"]
    rows = {s.title: s for s in await stored(settings)}
    assert {o["Key"] for o in listing} == {"study-a/" + s.image_key for s in rows.values()}
    assert not any(settings.resolved_media_dir.iterdir())  # nothing went to the local directory
    for s in rows.values():
        head = s3.head_object(Bucket="avd-stimuli", Key="study-a/" + s.image_key)
        assert head["ContentType"] == "image/jpeg"
        img = stored_image(settings, s.image_key)
        assert img.format == "JPEG" and img.size == (s.width, s.height)
        # the key says nothing about the stimulus: not its file, id, title or content hash
        stem = s.image_key.removesuffix(".jpg")
        assert len(stem) >= 32
        for hint in ("sunset", "harbour", "painting", s.id, s.image_sha256[:12]):
            assert hint.lower() not in s.image_key.lower()
    assert rows["Sunset"].width == 600

    # the same images imported again elsewhere (without the fixed id) get unrelated keys
    jsonl(
        folder, [{"image": "sunset-painting.png", **OPINIONS}, {"image": "harbour-painting.png", **OPINIONS}]
    )
    other = settings_factory(
        study=settings.study + "b", media_backend="s3", s3_bucket="avd-stimuli", s3_prefix="study-a/"
    )
    assert (await import_into_database(other, folder)).errors == []
    keys_a = {s.image_sha256: s.image_key for s in rows.values()}
    keys_b = {s.image_sha256: s.image_key for s in await stored(other)}
    assert keys_a.keys() == keys_b.keys()
    assert all(keys_a[h] != keys_b[h] for h in keys_a)


async def test_s3_backend_without_bucket_is_refused(settings_factory, tmp_path: Path) -> None:
    settings = settings_factory(media_backend="s3", s3_bucket=None)
    with pytest.raises(ValueError, match="AVD_S3_BUCKET"):
        await import_into_database(settings, write_manifest(tmp_path / "x", 1))
    assert await stored(settings) == []


@pytest.fixture
def moto_server(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """moto as a real S3-compatible HTTP service on 127.0.0.1, for child processes."""
    from conftest import free_port
    from moto.server import ThreadedMotoServer

    for name, value in {
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_DEFAULT_REGION": "us-east-1",
    }.items():
        monkeypatch.setenv(name, value)
    port = free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    yield f"http://127.0.0.1:{port}"
    server.stop()


async def test_cli_with_s3_endpoint(moto_server: str, settings_factory, tmp_path: Path) -> None:
    import boto3

    s3 = boto3.client("s3", endpoint_url=moto_server)
    s3.create_bucket(Bucket="cli-bucket")
    folder = write_manifest(tmp_path / "s3cli", 2)
    settings = settings_factory(
        media_backend="s3", s3_bucket="cli-bucket", s3_prefix="p/", s3_endpoint_url=moto_server
    )
    result = run_cli(settings, "stimuli", "import", str(folder))
    assert result.returncode == 0, result.stderr
    keys = {o["Key"] for o in s3.list_objects_v2(Bucket="cli-bucket")["Contents"]}
    assert keys == {"p/" + s.image_key for s in await stored(settings)} and len(keys) == 2

    # a bucket that does not exist is a failure of the store, not of a row: exit code 3
    broken = settings_factory(
        study=settings.study + "x",
        media_backend="s3",
        s3_bucket="no-such-bucket",
        s3_endpoint_url=moto_server,
    )
    failed = run_cli(broken, "stimuli", "import", str(folder))
    assert failed.returncode == 3, failed.stderr
    assert "import failed" in failed.stderr and "NoSuchBucket" in failed.stderr
    assert await stored(broken) == []
