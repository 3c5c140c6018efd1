"""The opt-in mypyc build of the rules (``avd rules compile``, ``server/rules/compiled.py``).

One real build of a few modules (``SUBSET``, the others stay interpreted; about a minute on two cores):
built from the current sources it judges a labeled file exactly as the pure-Python rules; a build of
other sources is refused with a warning; without ``AVD_COMPILED_RULES=1`` nothing compiled is loaded.
Skipped when mypyc (the ``fast`` extra) or a C compiler is missing.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("mypyc")

from server.rules import compiled  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
LABELED = ROOT / "tasks" / "rules-eval" / "heldout_batch4.jsonl"
SUBSET = ("text", "prefix", "base", "opinions", "overlap")
PROBE = (
    "import sys, server.rules.registry, server.rules.overlap as o, server.rules.config as c;"
    "print(o.__file__); print(c.__file__); print('server.rules.compiled' in sys.modules)"
)


@pytest.fixture(scope="module")
def build(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path]]:
    if compiled._c_compiler() is None:
        pytest.skip("no C compiler")
    root = tmp_path_factory.mktemp("compiled-rules")
    old = os.environ.get(compiled.ENV_DIR)
    os.environ[compiled.ENV_DIR] = str(root)
    start = time.monotonic()
    try:
        folder = compiled.build(modules=SUBSET)
    finally:
        if old is None:
            os.environ.pop(compiled.ENV_DIR)
        else:
            os.environ[compiled.ENV_DIR] = old
    print(f"compiled {len(SUBSET)} rule modules in {time.monotonic() - start:.0f} s")
    yield root, folder
    shutil.rmtree(root, ignore_errors=True)


def _run(args: list[str], root: Path, switch: bool) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, compiled.ENV_DIR: str(root)}
    env.pop(compiled.ENV_SWITCH, None)
    if switch:
        env[compiled.ENV_SWITCH] = "1"
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
    )


def test_build_records_its_sources(build: tuple[Path, Path]) -> None:
    root, folder = build
    meta = json.loads((folder / "BUILD.json").read_text())
    assert meta["source_hash"] == compiled.source_hash()
    assert folder == root / f"{sys.implementation.cache_tag}-{meta['source_hash']}"
    assert sorted(p.name.split(".")[0] for p in (folder / "server" / "rules").glob("*.so")) == sorted(SUBSET)
    assert not list((ROOT / "server" / "rules").glob("*.so")), "nothing is written into the sources"


def test_compiled_rules_judge_as_the_pure_ones(build: tuple[Path, Path]) -> None:
    root, _ = build
    probe = _run(["-c", PROBE], root, switch=True)
    overlap_file, config_file, _ = probe.stdout.split()
    assert overlap_file.endswith(".so") and str(root) in overlap_file, probe.stderr
    assert config_file.endswith("config.py")  # not compiled: read from the sources
    assert "AVD_COMPILED_RULES" not in probe.stderr
    cmd = ["-m", "server.cli", "rules", "check", "--jsonl", str(LABELED), "--explain"]
    fast, pure = _run(cmd, root, switch=True), _run(cmd, root, switch=False)
    assert fast.returncode == pure.returncode == 0, fast.stderr + pure.stderr
    assert len(pure.stdout.splitlines()) == sum(1 for line in LABELED.open() if line.strip())
    assert any('"rules": ["' in line for line in pure.stdout.splitlines())  # some messages break rules
    assert fast.stdout == pure.stdout


def test_a_stale_build_is_refused(build: tuple[Path, Path], tmp_path: Path) -> None:
    _, folder = build
    stale_root = tmp_path / "stale"
    stale = stale_root / f"{sys.implementation.cache_tag}-0123456789abcdef"
    shutil.copytree(folder, stale)
    meta = json.loads((stale / "BUILD.json").read_text())
    (stale / "BUILD.json").write_text(json.dumps({**meta, "source_hash": "0123456789abcdef"}))
    probe = _run(["-c", PROBE], stale_root, switch=True)
    assert probe.stdout.split()[0].endswith("overlap.py")
    assert probe.stderr.count("AVD_COMPILED_RULES=1 but the compiled rules") == 1
    assert "stale" in probe.stderr and "avd rules compile" in probe.stderr
    missing = _run(["-c", PROBE], tmp_path / "none", switch=True)
    assert missing.stdout.split()[0].endswith("overlap.py")
    assert "has not been built" in missing.stderr


def test_nothing_compiled_without_the_switch(build: tuple[Path, Path]) -> None:
    root, _ = build
    probe = _run(["-c", PROBE], root, switch=False)
    overlap_file, _, compiled_imported = probe.stdout.split()
    assert overlap_file.endswith("overlap.py")
    assert compiled_imported == "False"
    assert probe.stderr == ""
