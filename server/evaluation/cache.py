"""Model outputs keyed by (model fingerprint, task, sample hash), so re-runs compute only what changed.

A SQLite file (WAL) so that parallel runs on one machine can share it safely.
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
        self.db.execute(
            "CREATE TABLE IF NOT EXISTS outputs (model TEXT, task TEXT, hash TEXT, output TEXT,"
            " PRIMARY KEY (model, task, hash))"
        )

    def get_many(self, model: str, task: str, hashes: Iterable[str]) -> dict[str, Any]:
        found: dict[str, Any] = {}
        wanted = list(dict.fromkeys(hashes))
        for start in range(0, len(wanted), 500):
            chunk = wanted[start : start + 500]
            marks = ",".join("?" * len(chunk))
            rows = self.db.execute(
                f"SELECT hash, output FROM outputs WHERE model=? AND task=? AND hash IN ({marks})",
                [model, task, *chunk],
            )
            found.update((h, json.loads(o)) for h, o in rows)
        return found

    def put_many(self, model: str, task: str, items: dict[str, Any]) -> None:
        with self.db:
            self.db.executemany(
                "INSERT OR REPLACE INTO outputs VALUES (?, ?, ?, ?)",
                [(model, task, h, json.dumps(o)) for h, o in items.items()],
            )

    def close(self) -> None:
        self.db.close()
