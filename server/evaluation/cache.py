"""Model outputs keyed by (model fingerprint, task, sample hash), so re-runs compute only what changed.

A SQLite file (WAL) so that parallel runs on one machine can share it safely. A streamed
run looks outputs up a window at a time; :meth:`OutputCache.mark` and the ``before`` flag of
:meth:`OutputCache.lookup` tell an output stored before the run started (reused) from one
this run computed in an earlier window (a repeated sample), without a set of hashes.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from pathlib import Path
from typing import Any


class OutputCache:
    def __init__(self, directory: str | Path) -> None:
        path = Path(directory)
        path.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(path / "outputs.sqlite", timeout=60)
        self.db.execute("PRAGMA journal_mode=WAL")
        # no fsync per batch: WAL stays consistent, and a power cut loses only recomputable outputs
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute(
            "CREATE TABLE IF NOT EXISTS outputs (model TEXT, task TEXT, hash TEXT, output TEXT,"
            " PRIMARY KEY (model, task, hash))"
        )

    def get_many(self, model: str, task: str, hashes: Iterable[str]) -> dict[str, Any]:
        return {h: output for h, (output, _) in self.lookup(model, task, hashes).items()}

    def mark(self) -> int:
        """A position in the table: rows written after it have a larger rowid (a REPLACE too)."""
        return self.db.execute("SELECT COALESCE(MAX(rowid), 0) FROM outputs").fetchone()[0]

    def lookup(
        self, model: str, task: str, hashes: Iterable[str], mark: int | None = None
    ) -> dict[str, tuple[Any, bool]]:
        """Stored outputs by hash, each with whether it was stored at or before ``mark``."""
        found: dict[str, tuple[Any, bool]] = {}
        wanted = list(dict.fromkeys(hashes))
        for start in range(0, len(wanted), 500):
            chunk = wanted[start : start + 500]
            marks = ",".join("?" * len(chunk))
            rows = self.db.execute(
                f"SELECT hash, output, rowid FROM outputs WHERE model=? AND task=? AND hash IN ({marks})",
                [model, task, *chunk],
            )
            found.update((h, (json.loads(o), mark is None or r <= mark)) for h, o, r in rows)
        return found

    def put_many(self, model: str, task: str, items: dict[str, Any]) -> None:
        with self.db:
            self.db.executemany(
                "INSERT OR REPLACE INTO outputs VALUES (?, ?, ?, ?)",
                [(model, task, h, json.dumps(o)) for h, o in items.items()],
            )

    def close(self) -> None:
        self.db.close()
