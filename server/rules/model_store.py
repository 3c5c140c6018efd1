"""Fitted classifier weights kept on disk, so that a process loads in a fraction of a second what it
would otherwise train for two to four seconds: every server process at start-up, every test process,
every ``avd rules`` call.

A file's name is a hash of everything the fit depends on: the training lines (``learned.digest``),
the source of the rules package (the detectors' hits are features, so changing a detector changes
the fit) and the versions of the libraries that fit or feed it. Whatever changes gives a new name,
so a stale file is never read. Files are written whole and renamed into place, so processes that
start together never read half a file. ``AVD_MODEL_CACHE=0`` turns the store off; deleting the
folder clears it.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from typing import Any

from server.cache import cache_dir
from server.rules.learned import Model, digest

RULES_DIR = Path(__file__).resolve().parent
LIBRARIES = ("scikit-learn", "scipy", "numpy", "alt-profanity-check", "textblob")
FORMAT = 1  # raise when the file layout changes
KEEP = 12  # model files kept (the full model and the five cross-validation folds, twice)


def enabled() -> bool:
    return os.environ.get("AVD_MODEL_CACHE", "1").strip().lower() not in ("0", "false", "no", "off")


@lru_cache(maxsize=1)
def _code_fingerprint() -> str:
    """The rules' source and the fitting libraries' versions (read once per process)."""
    h = hashlib.sha256(f"format {FORMAT}".encode())
    for path in sorted(RULES_DIR.glob("*.py")):
        h.update(path.name.encode() + b"\0" + path.read_bytes())
    for name in LIBRARIES:
        try:
            version = metadata.version(name)
        except metadata.PackageNotFoundError:
            version = "-"
        h.update(f"{name}={version}".encode())
    return h.hexdigest()


def path_for(key: str) -> Path:
    name = hashlib.sha256(f"{key} {_code_fingerprint()}".encode()).hexdigest()[:24]
    return cache_dir() / "rule-classifiers" / f"{name}.json"


def files_key(paths: Sequence[Path]) -> str:
    """A key for a model trained on whole files: their bytes (no need to parse them on a hit)."""
    h = hashlib.sha256()
    for path in paths:
        h.update(path.name.encode() + b"\0" + path.read_bytes())
    return "files " + h.hexdigest()


def records_key(records: Sequence[Mapping[str, Any]]) -> str:
    return "records " + digest(records)


def dump(model: Model) -> dict[str, Any]:
    """The fitted numbers as JSON (floats are written exactly: a loaded model scores bit for bit alike)."""
    features = sorted(model.index, key=model.index.__getitem__)
    return {
        "format": FORMAT,
        "digest": model.digest,
        "features": features,
        "rows": [list(row) for row in model.rows],
        "bias": list(model.bias),
        "pair_weights": {rule: list(w) for rule, w in model.pair_weights.items()},
    }


def load(data: Mapping[str, Any]) -> Model:
    if data.get("format") != FORMAT:
        raise ValueError(f"model file format {data.get('format')!r}, expected {FORMAT}")
    rows = [tuple(row) for row in data["rows"]]
    if len(rows) != len(data["features"]):
        raise ValueError("model file: features and rows differ in number")
    return Model(
        index={f: i for i, f in enumerate(data["features"])},
        rows=rows,
        bias=tuple(data["bias"]),
        pair_weights={rule: tuple(w) for rule, w in data["pair_weights"].items()},
        digest=data["digest"],
    )


def cached_train(key: str, fit: Callable[[], Model]) -> Model:
    """``fit()``, or the model a previous process fitted under the same ``key`` and rules code.

    A file that cannot be read (truncated, another format) is ignored and replaced.
    """
    if not enabled():
        return fit()
    path = path_for(key)
    try:
        return load(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError):
        pass
    model = fit()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(dump(model)), encoding="utf-8")
        tmp.replace(path)
        _prune(path.parent)
    except OSError:  # a read-only or full disk costs the next process a training, nothing else
        pass
    return model


def _prune(folder: Path, keep: int = KEEP) -> None:
    """Keep the newest files only: each edit of a rule or of the training lines makes a new one."""
    files = sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True)
    for old in files[keep:]:
        old.unlink(missing_ok=True)
