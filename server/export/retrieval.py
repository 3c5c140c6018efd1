"""Answer-retrieval files in the Visual Dialog (VisDial v1.0) layout, one per split.

For every answered round the file lists 100 candidate answers: the true one plus 99 drawn
with the seed from the answers of *other* dialogs in the same split (a split's candidates
never come from another split), and ``gt_index``, the true answer's position. As in
VisDial, questions and answers are stored once in de-duplicated pools and rounds refer to
them by index; identical texts share one pool entry, so a candidate list never holds the
same text twice and never holds any answer that occurs in the dialog itself.

While the export streams by, rounds go to a temporary SQLite file; the pools (in order of
first appearance) and the index lookups are then built inside SQLite, and candidates are
drawn and written with NumPy a chunk at a time. Memory therefore does not grow with the
number of dialogs, and no Python object is made per candidate.
"""

from __future__ import annotations

import queue
import sqlite3
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

import numpy as np

from server.export.schema import SCHEMA_VERSION, SPLITS, dump_line

NUM_CANDIDATES = 100
_CHUNK = 500  # dialogs sampled together
_BATCH = 500  # dialogs buffered before they go to the temporary database


@dataclass
class SplitCounts:
    dialogs: int = 0
    rounds: int = 0
    answers: int = 0  # distinct answer texts in the split's pool
    questions: int = 0
    short_rounds: int = 0  # rounds that got fewer than NUM_CANDIDATES (pool too small)


_dumps = dump_line


class RetrievalBuilder:
    """Feed it every exported record (``add``), then ``write`` the per-split files."""

    def __init__(self, workdir: Path, seed: int, candidates: int = NUM_CANDIDATES) -> None:
        self.seed = seed
        self.candidates = candidates
        self.path = workdir / "retrieval-rounds.sqlite"
        # used by the pooling thread while records come in, then by the thread that writes
        self.db = sqlite3.connect(self.path, check_same_thread=False)
        self.db.executescript(
            """
            PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA cache_size=-8000;
            CREATE TABLE dialog (
                ord INTEGER PRIMARY KEY, split TEXT, dialog_id TEXT, stimulus_id TEXT, image TEXT
            );
            CREATE TABLE stage (split TEXT, ord INTEGER, round INTEGER, question TEXT, answer TEXT);
            CREATE TABLE round (split TEXT, ord INTEGER, round INTEGER, q INTEGER, a INTEGER);
            """
        )
        for split in SPLITS:
            for kind in ("q", "a"):
                self.db.execute(
                    f"CREATE TABLE pool_{kind}_{split} (idx INTEGER PRIMARY KEY, text TEXT UNIQUE)"
                )
        self.ordinal = 0
        self.dialogs: list[tuple] = []
        self.rounds: list[tuple] = []
        # SQLite does the pooling without holding the GIL, so it runs on its own thread and
        # overlaps with building the next records; the small queue bounds the memory
        self.batches: queue.Queue[tuple[list, list] | None] = queue.Queue(maxsize=4)
        self.failure: BaseException | None = None
        self.worker = threading.Thread(target=self._pool_batches, name="retrieval-pools", daemon=True)
        self.worker.start()

    def add(self, record: dict[str, Any]) -> None:
        rounds = [r for r in record["rounds"] if r["answer"] is not None]
        if not rounds:
            return
        self.ordinal += 1
        split, stimulus = record["split"], record["stimulus"]
        self.dialogs.append((self.ordinal, split, record["dialog_id"], stimulus["id"], stimulus["image"]))
        self.rounds += [(split, self.ordinal, r["round"], r["question"], r["answer"]) for r in rounds]
        if len(self.dialogs) >= _BATCH:
            self._hand_over()

    def _hand_over(self) -> None:
        if self.failure:
            raise self.failure
        self.batches.put((self.dialogs, self.rounds))
        self.dialogs, self.rounds = [], []

    def _pool_batches(self) -> None:
        while (batch := self.batches.get()) is not None:
            try:
                self._flush(*batch)
            except BaseException as exc:  # reported to the feeding thread by _hand_over / write
                self.failure = exc

    def close(self) -> None:
        """Stop the pooling thread (``write`` does this; call it when giving up early)."""
        if self.worker.is_alive():
            self.batches.put(None)
            self.worker.join()

    def _flush(self, dialogs: list[tuple], rounds: list[tuple]) -> None:
        """Move buffered rounds into the pools (first appearance gives the index), inside SQLite."""
        self.db.executemany("INSERT INTO dialog VALUES (?, ?, ?, ?, ?)", dialogs)
        self.db.executemany("INSERT INTO stage VALUES (?, ?, ?, ?, ?)", rounds)
        for split in SPLITS:
            self.db.executescript(
                f"""
                INSERT OR IGNORE INTO pool_q_{split} (text)
                    SELECT question FROM stage WHERE split = '{split}' ORDER BY ord, round;
                INSERT OR IGNORE INTO pool_a_{split} (text)
                    SELECT answer FROM stage WHERE split = '{split}' ORDER BY ord, round;
                INSERT INTO round SELECT s.split, s.ord, s.round, q.idx - 1, a.idx - 1 FROM stage s
                    JOIN pool_q_{split} q ON q.text = s.question JOIN pool_a_{split} a ON a.text = s.answer
                    WHERE s.split = '{split}';
                """
            )
        self.db.execute("DELETE FROM stage")

    def write(self, out_dir: Path) -> dict[str, SplitCounts]:
        if self.dialogs:
            self._hand_over()
        self.close()
        if self.failure:
            raise self.failure
        out_dir.mkdir(parents=True, exist_ok=True)
        self.db.execute("CREATE INDEX round_by_dialog ON round (split, ord, round)")
        counts = {}
        for number, split in enumerate(SPLITS):
            rng = np.random.default_rng([self.seed, number])
            counts[split] = self._write_split(out_dir / f"{split}.json", split, rng)
        self.db.close()
        self.path.unlink(missing_ok=True)
        return counts

    def _write_split(self, path: Path, split: str, rng: np.random.Generator) -> SplitCounts:
        counts = SplitCounts()
        counts.questions = self.db.execute(f"SELECT count(*) FROM pool_q_{split}").fetchone()[0]
        counts.answers = self.db.execute(f"SELECT count(*) FROM pool_a_{split}").fetchone()[0]
        labels = index_labels(counts.answers)
        with path.open("w", encoding="utf-8") as fh:
            fh.write('{"data":{"answers":[')
            _write_texts(fh, self.db.execute(f"SELECT text FROM pool_a_{split} ORDER BY idx"))
            fh.write('],"dialogs":[')
            first = True
            for chunk in self._chunks(split):
                for line in self._sample_chunk(chunk, labels, rng, counts):
                    fh.write(("\n" if first else ",\n") + line)
                    first = False
            fh.write('\n],"questions":[')
            _write_texts(fh, self.db.execute(f"SELECT text FROM pool_q_{split} ORDER BY idx"))
            header = {
                "num_candidates": self.candidates,
                "schema_version": SCHEMA_VERSION,
                "seed": self.seed,
                "split": split,
            }
            fh.write("]}," + _dumps(header)[1:] + "\n")
        return counts

    def _chunks(self, split: str) -> Iterator[list[tuple[tuple, list[tuple[int, int, int]]]]]:
        """Chunks of (dialog row, [(round, question idx, answer idx), ...]) in export order."""
        dialogs = self.db.cursor().execute(
            "SELECT ord, dialog_id, stimulus_id, image FROM dialog WHERE split = ? ORDER BY ord", (split,)
        )
        reader = self.db.cursor()
        while batch := dialogs.fetchmany(_CHUNK):
            rounds: dict[int, list[tuple[int, int, int]]] = {row[0]: [] for row in batch}
            for ordinal, number, q, a in reader.execute(
                "SELECT ord, round, q, a FROM round"
                " WHERE split = ? AND ord BETWEEN ? AND ? ORDER BY ord, round",
                (split, batch[0][0], batch[-1][0]),
            ):
                rounds[ordinal].append((number, q, a))
            yield [(row, rounds[row[0]]) for row in batch]

    def _sample_chunk(
        self,
        chunk: list[tuple[tuple, list[tuple[int, int, int]]]],
        labels: np.ndarray,
        rng: np.random.Generator,
        counts: SplitCounts,
    ) -> Iterator[str]:
        gts, owns = [], []
        for _, rounds in chunk:
            own = sorted({a for _, _, a in rounds})
            for _, _, a in rounds:
                gts.append(a)
                owns.append(own)
        options, positions = sample_candidates(rng, labels, gts, owns, self.candidates - 1)
        at = 0
        for row, rounds in chunk:
            entries = []
            for number, q, a in rounds:
                text, size = options[at]
                counts.short_rounds += size < self.candidates
                entries.append(
                    f'{{"answer":{a},"answer_options":{text},"gt_index":{positions[at]},'
                    f'"question":{q},"round":{number}}}'
                )
                at += 1
            counts.dialogs += 1
            counts.rounds += len(rounds)
            ids = f'"dialog_id":{_dumps(row[1])},"image":{_dumps(row[3])},"image_id":{_dumps(row[2])}'
            yield '{"dialog":[' + ",".join(entries) + "]," + ids + "}"


def _write_texts(fh: TextIO, rows: Iterator[tuple[str]]) -> None:
    first = True
    for (text,) in rows:
        fh.write(("\n" if first else ",\n") + _dumps(text))
        first = False
    if not first:
        fh.write("\n")


def index_labels(count: int) -> np.ndarray:
    """Row i holds the ASCII digits of i followed by a comma, padded with zero bytes."""
    width = len(str(max(count - 1, 0)))
    values = np.arange(count, dtype=np.int64)
    digits = np.ones(count, dtype=np.int64)
    for k in range(1, width):
        digits += values >= 10**k
    table = np.zeros((count, width + 1), dtype=np.uint8)
    for j in range(width):
        power = digits - 1 - j  # the j-th digit from the left, where the number has one
        digit = values // np.power(10, np.maximum(power, 0)) % 10 + ord("0")
        table[:, j] = np.where(power >= 0, digit, 0)
    table[np.arange(count), digits] = ord(",")
    return table


def int_rows_as_json(matrix: np.ndarray, labels: np.ndarray) -> list[str]:
    """Each row of indices as JSON array text, e.g. ``[3,17,0]``, using ``index_labels``.

    Works on bytes in bulk: turning ~100 million candidate indices into Python ints and
    through json.dumps would take longer than the whole rest of the export.
    """
    if matrix.shape[0] == 0:
        return []
    cells = labels[matrix]  # (rows, cols, width + 1)
    lengths = (cells != 0).sum(axis=(1, 2))
    flat = cells.ravel()
    text = flat[flat != 0].tobytes().decode("ascii")
    ends = np.cumsum(lengths)
    starts = ends - lengths
    return ["[" + text[a : b - 1] + "]" for a, b in zip(starts.tolist(), ends.tolist(), strict=True)]


def _distinct_draws(
    rng: np.random.Generator, pool_size: int, taken: set[int], count: int, start: list[int]
) -> list[int]:
    """Extend ``start`` with values of range(pool_size) not yet taken until it holds ``count``.

    Keeping each new value and skipping repeats is sampling without replacement, so
    the result is a uniformly random ordered sample of the allowed values.
    """
    chosen: list[int] = []
    for value in start:
        if value not in taken:
            taken.add(value)
            chosen.append(value)
    while len(chosen) < count:
        for value in rng.integers(0, pool_size, size=2 * (count - len(chosen))).tolist():
            if value not in taken:
                taken.add(value)
                chosen.append(value)
                if len(chosen) == count:
                    break
    return chosen[:count]


def sample_candidates(
    rng: np.random.Generator, labels: np.ndarray, gts: list[int], owns: list[list[int]], negatives: int
) -> tuple[list[tuple[str, int]], list[int]]:
    """For each round: (candidate list as JSON text, its length) and the true answer's position.

    ``labels`` is ``index_labels(pool size)``. Negatives are distinct pool indices outside
    ``owns[i]`` (the dialog's own answers), in random order; the true answer goes to a
    uniformly drawn position. With a large pool one vectorised draw serves every round: a
    round whose draw holds a repeat or one of its own answers keeps its first allowed
    values and draws the rest one at a time. Small pools draw exactly from the allowed set,
    and a pool with fewer than ``negatives`` allowed answers gives a shorter list.
    """
    rows, pool_size = len(gts), len(labels)
    if rows == 0:
        return [], []
    width = max(1, max(len(o) for o in owns))
    own = np.full((rows, width), -1, dtype=np.int32)
    for i, values in enumerate(owns):
        own[i, : len(values)] = values
    large = pool_size >= 20 * (negatives + width)
    if large:
        picks = rng.integers(0, pool_size, size=(rows, negatives), dtype=np.int32)
        clash = (picks[:, :, None] == own[:, None, :]).any(axis=(1, 2))
        ordered = np.sort(picks, axis=1)
        fix = clash | (ordered[:, 1:] == ordered[:, :-1]).any(axis=1)
    else:
        picks = np.zeros((rows, negatives), dtype=np.int32)
        fix = np.ones(rows, dtype=bool)
    short: dict[int, list[int]] = {}
    for i in np.flatnonzero(fix).tolist():
        if large:
            picks[i] = _distinct_draws(rng, pool_size, set(owns[i]), negatives, picks[i].tolist())
            continue
        allowed = np.setdiff1d(np.arange(pool_size), owns[i])
        if len(allowed) >= negatives:
            picks[i] = rng.choice(allowed, size=negatives, replace=False)
        else:
            short[i] = rng.permutation(allowed).tolist()
    positions = rng.integers(0, negatives + 1, size=rows)
    columns = np.arange(negatives + 1)[None, :]
    source = np.clip(columns - (columns > positions[:, None]), 0, negatives - 1)
    lists = np.take_along_axis(picks, source, axis=1)
    lists[np.arange(rows), positions] = np.asarray(gts, dtype=np.int32)
    full = np.array([i not in short for i in range(rows)], dtype=bool)
    texts = iter(int_rows_as_json(lists[full], labels))
    out: list[tuple[str, int]] = []
    position_list = positions.tolist()
    for i in range(rows):
        if i in short:
            position_list[i] = int(rng.integers(0, len(short[i]) + 1))
            values = short[i]
            values.insert(position_list[i], gts[i])
            out.append((_dumps(values), len(values)))
        else:
            out.append((next(texts), negatives + 1))
    return out, position_list
