"""Opt-in mypyc build of the hot rule modules (``avd rules compile``; ``AVD_COMPILED_RULES=1``).

The detectors are pure Python around ``re``; compiled with mypyc they judge about 1.35-1.4 times as
many messages per CPU second (docs/benchmarks.md, "Session 17: compiled rules"). The default install
and the default run stay pure Python: nothing here is used unless ``AVD_COMPILED_RULES=1``.

Build: ``build()`` runs mypyc on ``MODULES`` in a child process, from a copy of the sources, into
``<cache>/compiled-rules/<python tag>-<source hash>/`` (the cache is ``AVD_COMPILED_RULES_DIR``, else
``AVD_CACHE_DIR`` or the user's cache folder), never into the source tree. The folder holds
``server/rules/<module>.<abi>.so`` for each module, the runtime library mypyc shares between them
(``<hash>__mypyc.<abi>.so``, a top-level module) and ``BUILD.json`` with the source hash.

Loading: ``server/rules/__init__.py`` calls ``activate(__path__)`` before any submodule is imported.
When the switch is on and a build of exactly the current sources exists (``source_hash()`` of every
``server/rules/*.py``, compared with the hash ``BUILD.json`` records), ``activate`` puts the build's
``server/rules`` folder first on the package's ``__path__`` and the build folder at the end of
``sys.path`` (for the shared runtime library). The import system then finds
``server.rules.questions`` as the compiled extension in the build folder, and every module that was
not compiled (``rule_configs``, ``config``, ``learned``...) in the source folder, the second entry.
When the build is missing or was made from other sources, ``activate`` logs one warning and changes
nothing: stale compiled code never runs.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Callable, MutableSequence, Sequence
from pathlib import Path

from server.cache import cache_dir

log = logging.getLogger(__name__)

ENV_SWITCH = "AVD_COMPILED_RULES"
ENV_DIR = "AVD_COMPILED_RULES_DIR"
RULES_DIR = Path(__file__).resolve().parent
# The modules on the judging path that mypyc compiles, the classifiers' features and scoring
# included (scikit-learn only trains them). The pydantic models stay interpreted (rule_configs.py),
# as do training, tuning and the CLI.
MODULES = (
    "text",
    "prefix",
    "phrasebook",
    "opinions",
    "base",
    "questions",
    "smalltalk",
    "answers",
    "overlap",
    "language",
    "offensive",
    "registry",
    "features",
    "learned",
)
_MYPY_INI = """\
[mypy]
plugins = pydantic.mypy
follow_imports = silent
ignore_missing_imports = True
# a decorated function used at import time of another module ("T.stem" under lru_cache): typed Any
disable_error_code = has-type
"""
_SETUP = """\
import sys
from setuptools import setup
from mypyc.build import mypycify

paths, mypy_args, target = sys.argv[1].split(","), sys.argv[2].split(), sys.argv[3]
setup(
    name="avd-compiled-rules",
    ext_modules=mypycify(paths + mypy_args, opt_level="3", target_dir=target),
    script_args=["-q", "build_ext", "--build-lib", sys.argv[4], "--build-temp", sys.argv[5]],
)
"""


class CompileError(Exception):
    """The build failed; the message says why (type errors, no C compiler...)."""


def enabled() -> bool:
    return os.environ.get(ENV_SWITCH, "").strip().lower() in ("1", "true", "yes", "on")


def root() -> Path:
    """Where builds are kept (``AVD_COMPILED_RULES_DIR``, else ``<cache>/compiled-rules``)."""
    if os.environ.get(ENV_DIR):
        return Path(os.environ[ENV_DIR])
    return cache_dir() / "compiled-rules"


def source_hash(rules_dir: Path = RULES_DIR) -> str:
    """Hash of every ``server/rules/*.py`` (compiled code binds to the interpreted modules too)."""
    h = hashlib.sha256(b"compiled-rules 1\0")
    for path in sorted(rules_dir.glob("*.py")):
        h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def build_dir(digest: str | None = None) -> Path:
    return root() / f"{sys.implementation.cache_tag}-{digest or source_hash()}"


def _is_build(folder: Path, digest: str) -> bool:
    try:
        meta = json.loads((folder / "BUILD.json").read_text())
    except (OSError, ValueError):
        return False
    return meta.get("source_hash") == digest and meta.get("python") == sys.implementation.cache_tag


def activate(package_path: MutableSequence[str]) -> Path | None:
    """Use the compiled modules for ``server.rules`` if a build of the current sources exists.

    Called from ``server/rules/__init__.py`` with the package's ``__path__``, before any rule module
    is imported; returns the build folder used, or None (pure Python, after one warning).
    """
    digest = source_hash()
    folder = build_dir(digest)
    if not _is_build(folder, digest):
        others = sorted(root().glob(f"{sys.implementation.cache_tag}-*/BUILD.json"))
        why = "was built from other sources (stale)" if others else "has not been built"
        log.warning(
            "%s=1 but the compiled rules %s; running the pure-Python rules. Run `avd rules compile`.",
            ENV_SWITCH,
            why,
        )
        return None
    package_path.insert(0, str(folder / "server" / "rules"))
    if str(folder) not in sys.path:
        sys.path.append(str(folder))
    return folder


def _c_compiler() -> str | None:
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    return shutil.which(os.environ.get("CC", cc).split()[0]) or shutil.which("cc") or shutil.which("gcc")


def build(progress: Callable[[str], None] = lambda _: None, modules: Sequence[str] = MODULES) -> Path:
    """Compile ``modules`` into ``build_dir()`` (done once per source hash); returns the folder.

    Other ``modules`` than ``MODULES`` are for the tests (a build of a few modules is quicker; the
    others are then read from the sources)."""
    digest = source_hash()
    final = build_dir(digest)
    if _is_build(final, digest):
        progress(f"already built: {final}")
        return final
    try:
        import mypy.version
        from mypyc import build as _mypyc_build  # noqa: F401
    except ImportError as exc:
        raise CompileError("mypy/mypyc is not installed: pip install 'avd[fast]'") from exc
    if _c_compiler() is None:
        raise CompileError("no C compiler found (install gcc or clang, e.g. apt-get install gcc)")
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").is_file():
        headers = sysconfig.get_paths()["include"]
        raise CompileError(f"no Python headers ({headers}/Python.h; install python3-dev or the like)")
    root().mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=root(), prefix=".build-") as tmp:
        work = Path(tmp)
        # a copy of the package, so that nothing (C files, mypy cache) is written into the sources
        src = work / "src"
        shutil.copytree(RULES_DIR, src / "server" / "rules", ignore=shutil.ignore_patterns("__pycache__"))
        (src / "server" / "__init__.py").write_text("")
        if source_hash(src / "server" / "rules") != digest:
            raise CompileError("the rule sources changed during the build; run it again")
        (work / "mypy.ini").write_text(_MYPY_INI)
        (work / "setup.py").write_text(_SETUP)
        out = work / "out"
        paths = ",".join(f"server/rules/{m}.py" for m in modules)
        mypy_args = f"--config-file {work / 'mypy.ini'} --cache-dir {work / 'mypy_cache'}"
        progress(
            f"compiling {len(modules)} rule modules with mypyc {mypy.version.__version__} (1-2 minutes)..."
        )
        proc = subprocess.run(
            [
                sys.executable,
                str(work / "setup.py"),
                paths,
                mypy_args,
                str(work / "c"),
                str(out),
                str(work / "tmp"),
            ],
            cwd=src,
            capture_output=True,
            text=True,
            env={**os.environ, ENV_SWITCH: "0"},
        )
        if proc.returncode != 0:
            output = proc.stdout + proc.stderr
            type_errors = [line for line in output.splitlines() if ": error:" in line and ".py:" in line]
            if type_errors:
                raise CompileError("mypy type errors:\n" + "\n".join(type_errors))
            tail = "\n".join(output.strip().splitlines()[-25:])
            raise CompileError(f"the C build failed:\n{tail}")
        built = {p.name.split(".")[0] for p in (out / "server" / "rules").glob("*.so")}
        if built != set(modules):
            raise CompileError(f"the build made {sorted(built)}, expected {sorted(modules)}")
        (out / "BUILD.json").write_text(
            json.dumps(
                {
                    "source_hash": digest,
                    "python": sys.implementation.cache_tag,
                    "mypy": mypy.version.__version__,
                    "modules": list(modules),
                },
                indent=1,
            )
        )
        try:
            out.rename(final)
        except OSError:  # another process finished the same build first
            if not _is_build(final, digest):
                raise
    progress(f"built: {final}")
    return final
