"""Runs the pure dialog machine against Redis (live state) and the database (the record).

Every event is judged against a snapshot of the dialog's state and committed by a Lua
compare-and-set: the new state is written only if the stored one is still the snapshot,
so two processes can never both accept a message for the same turn (the loser re-reads
and judges again). Accepted messages and forms go to Redis in that same atomic step, with
the deadlines the transition made and unmade, and to the database before the sender's
``ack``; a resend with the same client id repairs whatever a crash left undone.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import os
import random
import time
from collections.abc import Callable, Coroutine, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from operator import itemgetter
from typing import Any

from pydantic_core import PydanticSerializationError, to_json
from rq import Queue
from sqlalchemy import JSON, DateTime, Integer, String, Table, Text, bindparam, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from server.db.models import Dialog, Response, Stimulus, Turn
from server.dialog import protocol as p
from server.dialog.machine import (
    Acknowledge,
    DialogState,
    Event,
    Finalize,
    Finish,
    NotifyEnded,
    Outcome,
    Relay,
    Schedule,
    SendState,
    Start,
    StoreForm,
    StoreTurn,
    Warn,
    apply,
    other,
    pending_deadlines,
)
from server.qc.jobs import enqueue, qc_queue
from server.script_batch import ScriptBatch
from server.services import Services

log = logging.getLogger(__name__)

KEEP_SECONDS = 7 * 86400  # how long a finished dialog's live state stays for reconnects


def _ts(t: float) -> datetime:
    return datetime.fromtimestamp(t, UTC)


def deadline_member(dialog_id: str, eff: Schedule) -> str:
    return f"{eff.kind}|{dialog_id}|{eff.role}|{eff.at!r}"


def deadline_members(
    dialog_id: str, pending: Iterable[Schedule], known: dict[Schedule, str]
) -> dict[Schedule, str]:
    """Each deadline's sorted-set member, taken from ``known`` when it has it. A chat message
    adds two deadlines and drops the two before: making each member once (kept with the state
    until it is dropped) saves the float ``repr`` in it (~1 us each; dtoa was ~12 % of the
    per-message path's instructions with four members and two scores made a message)."""
    return {eff: known.get(eff) or deadline_member(dialog_id, eff) for eff in pending}


def finalize_member(dialog_id: str) -> str:
    """The safety-net deadline that finishes a final dialog's record if its process died."""
    return f"final|{dialog_id}|-|0"


# A stored state starts with its version tag, '{"v":"<tag>",' (a JSON field DialogState ignores):
# a tag names one write, unique across processes and restarts (a random per-process part and a
# counter), so the commit compares the tag instead of the whole state (2-4 KB, which would go to
# Redis twice a message). A state stored without a tag (by a server before tags, or one of
# those still running beside this one) is compared whole, as those servers compare it; a state
# they write after ours has no tag, so a tag we remember no longer matches it.
TAG_HEAD = '{"v":"'

# KEYS: state, log, forms, deadlines, active dialogs, meta. ARGV: the stored state's tag prefix
# (ends with ',') or, for an untagged state, the whole stored state; final (0/1), keep seconds,
# dialog id, then counted groups: log entries; form (field, value) pairs; deadlines to add
# (score, member); deadlines to drop; last, the new state (last, so that redis-py does not copy
# it again with each argument after it when packing the command).
COMMIT_LUA = """
local cur = redis.call('GET', KEYS[1])
if not cur then return 0 end
local want = ARGV[1]
if string.byte(want, -1) == 44 then
  if string.sub(cur, 1, #want) ~= want then return 0 end
elseif cur ~= want then return 0 end
redis.call('SET', KEYS[1], ARGV[#ARGV])
local i = 5
local n = tonumber(ARGV[i]); i = i + 1
for _ = 1, n do redis.call('RPUSH', KEYS[2], ARGV[i]); i = i + 1 end
n = tonumber(ARGV[i]); i = i + 1
for _ = 1, n do redis.call('HSET', KEYS[3], ARGV[i], ARGV[i + 1]); i = i + 2 end
n = tonumber(ARGV[i]); i = i + 1
for _ = 1, n do redis.call('ZADD', KEYS[4], ARGV[i], ARGV[i + 1]); i = i + 2 end
n = tonumber(ARGV[i]); i = i + 1
for _ = 1, n do redis.call('ZREM', KEYS[4], ARGV[i]); i = i + 1 end
if ARGV[2] == '1' then
  redis.call('ZREM', KEYS[5], ARGV[4])
  for _, key in ipairs({KEYS[1], KEYS[2], KEYS[3], KEYS[6]}) do redis.call('EXPIRE', key, ARGV[3]) end
end
return 1
"""


# KEYS: state, log. ARGV: how many log entries the caller already holds. The state (nil if there
# is none) and the log's tail, in one batched call (server/script_batch.py): a redis-py pipeline
# of the GET and the LRANGE costs several times the CPU
READ_LUA = """
return {redis.call('GET', KEYS[1]), redis.call('LRANGE', KEYS[2], ARGV[1], -1)}
"""


def compare_key(raw: str) -> str:
    """What :data:`COMMIT_LUA` compares a stored state by: its tag prefix, or the whole state
    when it has no tag."""
    if raw.startswith(TAG_HEAD):
        return raw[: raw.index('"', len(TAG_HEAD)) + 2]
    return raw


# the record made final (values: the columns by name; the dialog's id as ``b_id``); only a
# dialog still in progress moves, so of two runs only one sees a row changed
_dialog_t = Dialog.__table__
_FINAL_UPDATE = update(_dialog_t).where(
    _dialog_t.c.id == bindparam("b_id"), _dialog_t.c.status == "in_progress"
)

_EMPTY_HISTORY = '"history":[]'  # in a state frame's JSON whose view has no history (state_json)

# the stored messages and forms: json.dumps' own C encoder, made once instead of at each call
# (the same text as json.dumps)
_c_encoder = json.encoder.c_make_encoder  # type: ignore[attr-defined]
if _c_encoder is not None:
    _encode = _c_encoder(
        None,  # no circular-reference check: these are flat dicts
        json.JSONEncoder().default,
        json.encoder.encode_basestring_ascii,
        None,
        ": ",
        ", ",
        False,
        False,
        True,
    )

    def dumps(value: dict | list) -> str:
        """``json.dumps(value)`` for the dicts (and lists of them) of plain values the runtime stores."""
        return "".join(_encode(value, 0))
else:  # pragma: no cover (a Python without the _json accelerator)
    dumps = json.dumps


@dataclass(slots=True)
class Snapshot:
    """The stored state of a dialog as read (the commit compares ``raw``'s tag, or ``raw`` whole
    when it has none, with what is stored), with its accepted messages when the caller needs the
    history. Never changed once made (not a frozen dataclass only because that costs each message
    a slower ``__init__``: see the note above the events in server/dialog/machine.py)."""

    raw: str
    state: DialogState
    turns: list[StoreTurn] | None = None
    # the state's pending deadlines (with their members, see :func:`deadline_members`), when
    # this process computed them at its last commit
    pending: dict[Schedule, str] | None = None


@dataclass(slots=True)
class SortedEffects:
    """An outcome's effects by kind: what to store, the deadlines to schedule, whether the dialog
    record is to be made final, and the effects that send something (in order)."""

    turns: list[StoreTurn] = field(default_factory=list)
    forms: list[StoreForm] = field(default_factory=list)
    schedules: set[Schedule] = field(default_factory=set)
    frames: list[object] = field(default_factory=list)
    finalize: bool = False


def sort_effects(effects: Iterable[object]) -> SortedEffects:
    """One pass over ``effects`` by exact type (effects are final dataclasses): the commit and
    the effects step each need them split, on every chat message."""
    out = SortedEffects()
    for e in effects:
        kind = type(e)
        if kind is StoreTurn:
            out.turns.append(e)  # type: ignore[arg-type]
        elif kind is Schedule:
            out.schedules.add(e)  # type: ignore[arg-type]
        elif kind is StoreForm:
            out.forms.append(e)  # type: ignore[arg-type]
        elif kind is Finalize:
            out.finalize = True
        else:
            out.frames.append(e)
    return out


def log_json(turn: StoreTurn) -> str:
    """A message's entry in the dialog's log. pydantic's JSON encoder, ~3x faster than
    :func:`dumps` (its floats by the shortest text that reads back as the same value, as
    ``repr``; the text compact and in UTF-8, which every reader parses alike). A text that only
    :func:`dumps` encodes (a lone surrogate: the fall-back frame parse lets one through) is
    written by it."""
    try:
        return to_json(turn.__dict__).decode()
    except PydanticSerializationError:
        return dumps(turn.__dict__)


# ``state.model_dump_json()`` as bytes: the model's own serializer, without the ~2 us of Python
# that ``model_dump_json`` spends passing on its defaults (the state is written every message)
_state_json = DialogState.__pydantic_serializer__.to_json


# column types whose values SQLAlchemy hands to asyncpg as they are (JSON: as its text)
PLAIN_TYPES = (String, Text, Integer, DateTime, JSON)


@dataclass(frozen=True)
class InsertPlan:
    """An INSERT compiled for the driver, with the order of its parameters."""

    sql: str
    order: tuple[str, ...]
    as_json: frozenset[str]

    def __post_init__(self) -> None:
        get = itemgetter(*self.order)  # a row's values in order, in C
        object.__setattr__(self, "_get", get if len(self.order) > 1 else lambda v: (get(v),))
        object.__setattr__(self, "_json_at", [i for i, k in enumerate(self.order) if k in self.as_json])

    def rows(self, values: list[dict]) -> list[tuple]:
        get, json_at = self._get, self._json_at  # type: ignore[attr-defined]
        if not json_at:
            return [get(v) for v in values]
        rows = []
        for v in values:
            row = list(get(v))
            for i in json_at:
                row[i] = dumps(row[i])  # json.dumps' text, as SQLAlchemy's JSON type sends it
            rows.append(tuple(row))
        return rows


class GroupCommit:
    """Rows from concurrent events share one transaction: under load one commit carries a
    batch instead of each message paying its own connection checkout, BEGIN and COMMIT
    (and, on SQLite, its own wait for the write lock). Rows are plain Core inserts (one
    executemany per table) on a Core connection, not ORM objects in a session: nothing reads
    them back. Every caller still waits for the commit that holds its rows before it
    acknowledges anything.

    On PostgreSQL (asyncpg) each table's INSERT is compiled once and its rows go to the driver
    as tuples, JSON values serialized as SQLAlchemy serializes them: its per-row parameter
    processing (a dict of every bind parameter per row) was about a third of the commit's CPU.
    Other databases, and a table with a column type not listed in :data:`PLAIN_TYPES`, take
    SQLAlchemy's own executemany."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self._queue: list[tuple[list[tuple[Table, dict]], asyncio.Future[bool]]] = []
        self._task: asyncio.Task[None] | None = None
        self._direct = engine.dialect.driver == "asyncpg"
        self._plans: dict[tuple[Table, tuple[str, ...]], InsertPlan | None] = {}
        # what a batch holding an already stored row raises: SQLAlchemy's error, or asyncpg's own
        # from :meth:`_insert_alone`
        self._refused: tuple[type[Exception], ...] = (IntegrityError,)
        if self._direct:
            from asyncpg.exceptions import IntegrityConstraintViolationError

            self._refused += (IntegrityConstraintViolationError,)

    def _plan(self, table: Table, keys: tuple[str, ...]) -> InsertPlan | None:
        """The driver-level INSERT for rows with these keys, or None to leave them to SQLAlchemy."""
        if (table, keys) not in self._plans:
            plan = None
            if all(isinstance(table.c[k].type, PLAIN_TYPES) for k in keys):
                compiled = insert(table).compile(
                    dialect=self.engine.dialect, column_keys=list(keys), for_executemany=True
                )
                order = tuple(compiled.positiontup or ())
                if set(order) == set(keys) and not compiled.effective_returning:  # no defaults to fill
                    as_json = frozenset(k for k in keys if isinstance(table.c[k].type, JSON))
                    plan = InsertPlan(compiled.string, order, as_json)
            self._plans[(table, keys)] = plan
        return self._plans[(table, keys)]

    def _alone(self, by_table: dict[Table, list[dict]]) -> tuple[InsertPlan, list[dict]] | None:
        """The batch's plan and rows when it fills one table through a driver-level INSERT (every
        batch of chat messages): see :meth:`_insert_alone`."""
        if not self._direct or len(by_table) != 1:
            return None
        ((table, values),) = by_table.items()
        plan = self._plan(table, tuple(values[0]))
        return None if plan is None else (plan, values)

    async def _insert_alone(self, plan: InsertPlan, values: list[dict]) -> None:
        """One table's rows as one asyncpg ``executemany`` on a pooled connection, outside any
        transaction. asyncpg (since 0.22) makes an ``executemany`` atomic by itself: its rows go
        as one pipeline of binds closed by a single Sync, which PostgreSQL runs as one implicit
        transaction, committed when it answers (or refused whole: a duplicate row fails them all,
        as in a transaction). So the batch is durable at the same moment as through
        ``engine.begin()``, in one round trip instead of three (BEGIN, the insert, COMMIT) and
        without SQLAlchemy's transaction bookkeeping around them. The connection is returned
        with no transaction open, so its reset on return sends nothing."""
        async with self.engine.connect() as conn:
            raw = await conn.get_raw_connection()
            await raw.driver_connection.executemany(plan.sql, plan.rows(values))  # type: ignore[union-attr]

    async def store(self, rows: list[tuple[Table, dict]]) -> bool:
        """True once committed; False if the batch held a row already stored (retry alone)."""
        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._queue.append((rows, done))
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._drain())
        return await done

    async def _drain(self) -> None:
        while self._queue:
            batch, self._queue = self._queue, []
            by_table: dict[Table, list[dict]] = {}
            for rows, _ in batch:
                for table, values in rows:
                    by_table.setdefault(table, []).append(values)
            outcome: bool | BaseException = True
            try:
                alone = self._alone(by_table)
                if alone is not None:
                    await self._insert_alone(*alone)
                else:
                    async with self.engine.begin() as conn:
                        for table, values in by_table.items():
                            plan = self._plan(table, tuple(values[0])) if self._direct else None
                            if plan is None:
                                await conn.execute(insert(table), values)
                            else:
                                await conn.exec_driver_sql(plan.sql, plan.rows(values))
            except self._refused:  # a row already stored
                outcome = False
            except Exception as exc:  # the callers see the same error a direct commit raised
                outcome = exc
            for _, done in batch:
                if done.done():
                    continue
                if isinstance(outcome, BaseException):
                    done.set_exception(outcome)
                else:
                    done.set_result(outcome)


class DialogRuntime:
    def __init__(self, services: Services) -> None:
        self.s = services
        self._meta: dict[str, dict] = {}
        self._turns: dict[str, list[StoreTurn]] = {}  # accepted messages read so far, per dialog
        self._sent: dict[str, tuple[int, dict[str, int]]] = {}  # client ids of the first n of them
        self._latest: dict[str, Snapshot] = {}  # the last state read or written here, per dialog
        self._items: dict[str, list[str]] = {}  # the history items' JSON, per dialog (state_json)
        # the message seqs and form phases this process has seen committed to the database, per
        # dialog: when they cover the whole log, the record needs no check for rows a crash left
        self._in_db: dict[str, tuple[set[int], set[str]]] = {}
        self._writer = GroupCommit(services.engine)
        self._starts = GroupCommit(services.engine)  # dialog rows of concurrent starts
        self._stimuli: dict[str, Stimulus] = {}  # rows never change once imported
        self._qc_queue: Queue | None = None
        self._background: set[asyncio.Task[None]] = set()
        # dialogs ended here whose QC job is not queued yet (in order, each once), and the timer
        # that queues them in one job (:meth:`_queue_qc`)
        self._qc_pending: dict[str, None] = {}
        self._qc_timer: asyncio.Task[None] | None = None
        # concurrent messages' commits share a pipeline (see server/script_batch.py)
        self._commit = ScriptBatch(services.redis, services.redis.register_script(COMMIT_LUA))
        self._read = ScriptBatch(services.redis, services.redis.register_script(READ_LUA))
        self._tag_base = os.urandom(6).hex()  # this runtime's part of the version tags
        self._tag_count = itertools.count(1)

    def _stored(self, state: DialogState) -> str:
        """The state as stored: its JSON with a new version tag in front (see :data:`TAG_HEAD`)."""
        return f'{TAG_HEAD}{self._tag_base}{next(self._tag_count):x}",{_state_json(state)[1:].decode()}'

    # ------------------------------------------------------------------ start

    async def start(self, match_id: str, info: dict[str, str] | None = None) -> DialogState | None:
        """Create the dialog for a match whose handshake just completed; ``info`` is the match
        as the handshake returned it (read here when not given)."""
        s = self.s
        info = info or await s.lobby.match_info(match_id)
        if not info:
            return None
        stimulus = await self._stimulus(info["stimulus"])
        positive_first = random.random() < 0.5
        row = {
            "id": match_id,
            "study": s.settings.study,
            "stimulus_id": stimulus.id,
            "questioner_id": info["questioner"],
            "answerer_id": info["answerer"],
            "positive_first": positive_first,
            "settings": {"rounds": s.policy.rounds, "turn_seconds": s.policy.turn_seconds},
        }
        if not await self._starts.store([(Dialog.__table__, row)]):  # a batch-mate failed: alone
            async with s.sessions() as db:
                await db.execute(insert(Dialog.__table__), [row])
                await db.commit()
        opinions = [
            {"emotion": stimulus.positive_emotion, "text": stimulus.positive_text},
            {"emotion": stimulus.negative_emotion, "text": stimulus.negative_text},
        ]
        if not positive_first:
            opinions.reverse()
        meta = {"opinions": opinions, "image_key": stimulus.image_key}
        self._meta[match_id], self._turns[match_id] = meta, []  # the first views need no reads
        now = time.time()
        state = DialogState(
            id=match_id,
            stimulus_id=stimulus.id,
            workers={"questioner": info["questioner"], "answerer": info["answerer"]},
            rounds=s.policy.rounds,
            positive_first=positive_first,
        )
        out = apply(state, Start(now), s.policy)
        deadlines = {deadline_member(match_id, e): e.at for e in out.effects if isinstance(e, Schedule)}
        # the handshake deadline may have fired meanwhile (requeued both, returned the lease):
        # then the dialog must not start, or its workers would also be queued
        if not await s.lobby.seat(match_id, info, self._stored(out.state), json.dumps(meta), now, deadlines):
            await self._start_failed(match_id)
            return None
        await self._effects(out)
        return out.state

    async def _stimulus(self, stimulus_id: str) -> Stimulus:
        """The stimulus row, read once per process (imported rows are never edited)."""
        stimulus = self._stimuli.get(stimulus_id)
        if stimulus is None:
            async with self.s.sessions() as db:
                stimulus = await db.get(Stimulus, stimulus_id)
            assert stimulus is not None, "pool holds a stimulus missing from the database"
            if len(self._stimuli) > 100_000:
                self._stimuli.pop(next(iter(self._stimuli)))
            self._stimuli[stimulus_id] = stimulus
        return stimulus

    async def _start_failed(self, match_id: str) -> None:
        async with self.s.sessions() as db:
            await db.execute(
                update(Dialog)
                .where(Dialog.id == match_id, Dialog.status == "in_progress")
                .values(status="abandoned", end_reason="start_failed", ended_at=datetime.now(UTC))
            )
            await db.commit()

    # ------------------------------------------------------------------ events

    async def load(self, dialog_id: str) -> DialogState | None:
        snap = await self.snapshot(dialog_id)
        return snap.state if snap else None

    async def snapshot(self, dialog_id: str) -> Snapshot | None:
        """The stored state with its accepted messages, in one round trip (only the log's unread
        tail is fetched). The state's ``sent`` (the messages' client ids, which the stored JSON
        leaves out) comes from that log, written in the same atomic step as the state."""
        k = self.s.keys
        known = self._turns.get(dialog_id, [])
        raw, log_rows = await self._read(
            keys=[k.dialog(dialog_id), k.dialog_log(dialog_id)], args=[len(known)]
        )
        if not raw:
            return None
        turns = self._remember(dialog_id, known, log_rows)
        state = DialogState.model_validate_json(raw)
        state.sent = self._sent_of(dialog_id, turns)
        snap = Snapshot(raw, state, turns)
        self._keep(snap)
        return snap

    def _sent_of(self, dialog_id: str, turns: list[StoreTurn]) -> dict[str, int]:
        """'role:client_id' -> seq of each message in ``turns`` (a prefix of the dialog's log),
        built on from the one made for a shorter prefix. The dicts are shared, never changed
        (``apply`` changes a copy)."""
        count, sent = self._sent.get(dialog_id, (0, {}))
        if count > len(turns):
            count, sent = 0, {}
        if count < len(turns):
            sent = sent | {f"{t.role}:{t.client_id}": t.seq for t in turns[count:]}
            self._keep_sent(dialog_id, len(turns), sent)
        return sent

    def _keep_sent(self, dialog_id: str, count: int, sent: dict[str, int]) -> None:
        self._sent[dialog_id] = (count, sent)
        if len(self._sent) > 10_000:
            self._sent.pop(next(iter(self._sent)))

    def cached(self, dialog_id: str) -> Snapshot | None:
        """The state (with its messages) this process last read or wrote for the dialog.

        It may be stale (another process, or a deadline, moved the dialog on): use it only
        through :meth:`try_cached`, whose commit compares it with what is stored."""
        return self._latest.get(dialog_id)

    def _keep(self, snap: Snapshot) -> None:
        self._latest[snap.state.id] = snap
        if len(self._latest) > 10_000:
            self._latest.pop(next(iter(self._latest)))

    async def turns(self, dialog_id: str, upto: int | None = None) -> list[StoreTurn]:
        """The accepted messages of a dialog, in order (only the unread tail is fetched; nothing,
        when this process already holds message ``upto``, the state's ``seq``)."""
        known = self._turns.get(dialog_id, [])
        if upto is not None and len(known) >= upto:
            return known
        tail = await self.s.redis.lrange(self.s.keys.dialog_log(dialog_id), len(known), -1)
        return self._remember(dialog_id, known, tail)

    def _remember(self, dialog_id: str, known: list[StoreTurn], tail: list[str]) -> list[StoreTurn]:
        turns = known + [StoreTurn(**json.loads(r)) for r in tail] if tail else known
        self._turns[dialog_id] = turns
        if len(self._turns) > 10_000:
            self._turns.pop(next(iter(self._turns)))
        return turns

    async def handle(
        self, dialog_id: str, make_event: Callable[[float], Event], snap: Snapshot | None = None
    ) -> Outcome | None:
        """Apply one event atomically, then carry out its effects. None: no such dialog.

        ``snap`` is a state the caller has just read (saves a round trip); if the dialog moved
        on since, the event is judged again on a fresh read.
        """
        while True:
            if snap is None:
                snap = await self.snapshot(dialog_id)
                if snap is None:
                    return None
            out = apply(snap.state, make_event(time.time()), self.s.policy)
            if not out.changed:
                effects = None
                break
            effects = await self._store_state(snap, out)
            if effects is not None:
                break
            snap = None
        if out.duplicate:
            await self._repair(out)
        await self._effects(out, effects)
        return out

    async def try_cached(self, snap: Snapshot, event: Event) -> Outcome | None:
        """Apply ``event`` to a remembered state without reading the store first (a chat
        message then costs one Redis round trip instead of two).

        None: nothing was done, because the event changed nothing on that state (out of turn,
        a resend: perhaps only because the state is stale) or the stored state had moved on;
        the caller judges the event again on a fresh read, which decides."""
        out = apply(snap.state, event, self.s.policy)
        if not out.changed or out.duplicate:
            return None
        effects = await self._store_state(snap, out)
        if effects is None:
            return None
        await self._effects(out, effects)
        return out

    async def _store_state(self, snap: Snapshot, out: Outcome) -> SortedEffects | None:
        """The compare-and-set of :data:`COMMIT_LUA`: the outcome's effects, sorted, once the new
        state is stored, or None if someone else moved first. The result is remembered (with the
        messages, when ``snap`` had them)."""
        k, dialog_id = self.s.keys, out.state.id
        state_key = k.dialog(dialog_id)
        effects = sort_effects(out.effects)
        logs = [log_json(e) for e in effects.turns]
        forms = [(e.phase, dumps(e.__dict__)) for e in effects.forms]
        added = effects.schedules
        extra: list[tuple[float, str]] = []
        if out.state.final and effects.finalize:
            # if this process dies before the record is final, a sweeper anywhere finishes it
            extra.append((time.time() + self.s.settings.claim_seconds, finalize_member(dialog_id)))
        policy = self.s.policy
        before = snap.pending
        if before is None:
            before = deadline_members(dialog_id, pending_deadlines(snap.state, policy), {})
        after = deadline_members(dialog_id, pending_deadlines(out.state, policy), before)
        raw = self._stored(out.state)
        args: list[str | int] = [compare_key(snap.raw), int(out.state.final), KEEP_SECONDS, dialog_id]
        args += [len(logs), *logs, len(forms)]
        for field_, value in forms:
            args += [field_, value]
        args.append(len(added) + len(extra))
        for eff in added:
            member = after.get(eff) or deadline_member(dialog_id, eff)
            args += [member[member.rindex("|") + 1 :], member]  # the score: repr(eff.at), as in the member
        for at, member in extra:
            args += [repr(at), member]
        dropped = [member for eff, member in before.items() if eff not in after and eff not in added]
        args.append(len(dropped))
        args += dropped
        args.append(raw)
        keys = [
            state_key,
            k.dialog_log(dialog_id),
            k.dialog_log(dialog_id) + ":forms",
            k.deadlines,
            k.active_dialogs,
            k.dialog_meta(dialog_id),
        ]
        if not await self._commit(keys=keys, args=args):
            self._latest.pop(dialog_id, None)
            return None
        if snap.turns is None or out.state.final:
            self._latest.pop(dialog_id, None)
        else:
            turns = snap.turns + effects.turns
            self._turns[dialog_id] = turns
            if len(out.state.sent) == len(turns):  # one key a message: it has them all
                self._keep_sent(dialog_id, len(turns), out.state.sent)
            self._keep(Snapshot(raw, out.state, turns, after))
        return effects

    # ------------------------------------------------------------------ effects

    async def _effects(self, out: Outcome, effects: SortedEffects | None = None) -> None:
        """Carry out ``out``'s effects (``effects``: them sorted, when the commit sorted them)."""
        st = out.state
        if effects is None:
            effects = sort_effects(out.effects)
        turns = effects.turns
        if turns or effects.forms:
            await self._store(st.id, turns, effects.forms)
        if effects.finalize:
            await self._finalize(st)  # the record is final before anyone is told "done"
        for eff in effects.frames:
            match eff:
                case Acknowledge(role=role, client_id=cid, seq=seq):
                    await self.s.hub.send(st.workers[role], p.ack_json(cid, seq))
                case Relay(seq=seq):
                    turn = next(t for t in turns if t.seq == seq)
                    await self._relay(st, turn)
                case SendState(role=role):
                    await self.send_state(st, role)
                case Warn(role=role, seconds_left=left):
                    await self.s.send(
                        st.workers[role],
                        p.Warning_(seconds_left=left, message=f"About {round(left)} s left."),
                    )
                case NotifyEnded(role=role, salvage=salvage):
                    await self._notify_ended(st, role, salvage)
                case Finish(role=role):
                    await self._finish(st, role)

    async def _relay(self, st: DialogState, turn: StoreTurn) -> None:
        data = p.message_json(turn.seq, turn.round, turn.role, turn.text, turn.at)
        for worker in st.workers.values():
            await self.s.hub.send(worker, data)

    async def _store(self, dialog_id: str, turns: list[StoreTurn], forms: list[StoreForm]) -> None:
        """Write rows; a row that is already there (a resend after a crash) is fine."""
        turn_t, response_t = Turn.__table__, Response.__table__
        rows: list[tuple[Table, dict]] = [
            (
                turn_t,
                {
                    "dialog_id": dialog_id,
                    "seq": t.seq,
                    "round": t.round,
                    "role": t.role,
                    "text": t.text,
                    "client_id": t.client_id,
                    "sent_at": _ts(t.at),
                    "latency_ms": t.latency_ms,
                    "flags": list(t.flags),
                },
            )
            for t in turns
        ] + [
            (
                response_t,
                {
                    "dialog_id": dialog_id,
                    "role": f.role,
                    "phase": f.phase,
                    "emotion": f.emotion,
                    "explanation": f.explanation,
                    "client_id": f.client_id,
                    "submitted_at": _ts(f.at),
                    "latency_ms": f.latency_ms,
                },
            )
            for f in forms
        ]
        if not await self._writer.store(rows):
            for table, values in rows:  # one at a time, skipping those already stored
                async with self.s.sessions() as db:
                    try:
                        await db.execute(insert(table), [values])
                        await db.commit()
                    except IntegrityError:
                        await db.rollback()
        self._note_in_db(dialog_id, turns, forms)

    def _note_in_db(self, dialog_id: str, turns: list[StoreTurn], forms: list[StoreForm]) -> None:
        """Remember rows known to be committed (inserted now, or found already there)."""
        known = self._in_db.get(dialog_id)
        if known is None:
            known = self._in_db[dialog_id] = (set(), set())
            if len(self._in_db) > 10_000:
                self._in_db.pop(next(iter(self._in_db)))
        known[0].update(t.seq for t in turns)
        known[1].update(f.phase for f in forms)

    async def _all_in_db(self, st: DialogState) -> bool:
        """Whether every message and form in the dialog's log is known to be in the database,
        so that :meth:`_finalize` can skip re-reading the log and the stored rows. The log holds
        exactly messages 1..``st.seq`` (each written with the state that counts it, in one atomic
        step); its forms are read (their phases only: a handful of short fields). Messages that
        another process accepted are not known here, so a chat that spanned processes takes the
        full check."""
        known = self._in_db.get(st.id)
        if known is None:
            return False
        seqs, phases = known
        if len(seqs) < st.seq or not seqs.issuperset(range(1, st.seq + 1)):
            return False
        logged = await self.s.redis.hkeys(self.s.keys.dialog_log(st.id) + ":forms")
        return phases.issuperset(logged)

    async def _store_missing(self, dialog_id: str, turns: list[StoreTurn], forms: list[StoreForm]) -> None:
        """Store those of a dialog's logged rows that the database lacks (a crash came between
        the Redis commit and the insert). It usually holds them all: inserted anyway, they
        would fail the group commit they joined and send every batch-mate, and each of these
        rows, down the one-row-at-a-time path (a finished 10-round dialog: ~23 failed inserts)."""
        if not turns and not forms:
            return
        have_seqs: set[int] = set()
        have_phases: set[str] = set()
        async with self.s.sessions() as db:
            if turns:
                seqs = select(Turn.seq).where(Turn.dialog_id == dialog_id)
                have_seqs.update((await db.execute(seqs)).scalars())
            if forms:
                phases = select(Response.phase).where(Response.dialog_id == dialog_id)
                have_phases.update((await db.execute(phases)).scalars())
        turns = [t for t in turns if t.seq not in have_seqs]
        forms = [f for f in forms if f.phase not in have_phases]
        if turns or forms:
            await self._store(dialog_id, turns, forms)

    async def logged(self, dialog_id: str) -> tuple[list[StoreTurn], list[StoreForm]]:
        k = self.s.keys
        raw_turns = await self.s.redis.lrange(k.dialog_log(dialog_id), 0, -1)
        raw_forms = await self.s.redis.hvals(k.dialog_log(dialog_id) + ":forms")
        return (
            [StoreTurn(**json.loads(r)) for r in raw_turns],
            [StoreForm(**json.loads(r)) for r in raw_forms],
        )

    async def _repair(self, out: Outcome) -> None:
        """A resend of something already accepted: make sure it is stored and relayed."""
        ack = next(e for e in out.effects if isinstance(e, Acknowledge))
        turns, forms = await self.logged(out.state.id)
        turns = [t for t in turns if (t.role, t.client_id) == (ack.role, ack.client_id)]
        forms = [f for f in forms if (f.role, f.client_id) == (ack.role, ack.client_id)]
        await self._store_missing(out.state.id, turns, forms)
        for turn in turns:
            await self._relay(out.state, turn)

    # ------------------------------------------------------------------ views

    async def meta(self, dialog_id: str) -> dict:
        if dialog_id not in self._meta:
            raw = await self.s.redis.get(self.s.keys.dialog_meta(dialog_id))
            self._meta[dialog_id] = json.loads(raw) if raw else {"opinions": [], "image_key": ""}
            if len(self._meta) > 10_000:
                self._meta.pop(next(iter(self._meta)))
        return self._meta[dialog_id]

    async def view(self, st: DialogState, role: p.Role) -> p.DialogView:
        turns = await self.turns(st.id, upto=st.seq)
        history = [p.HistoryItem(seq=t.seq, round=t.round, role=t.role, text=t.text, at=t.at) for t in turns]
        return await self._view(st, role, history)

    async def state_json(self, st: DialogState, role: p.Role) -> str:
        """``p.State(dialog=await self.view(st, role)).model_dump_json()``, the same text, with
        the history's items serialized once a message (kept per dialog) instead of built as
        models and serialized again in every view: after its last message a dialog sends about
        five views with its whole history (the end of the chat, each form), ~0.4 ms each at 100
        messages, which was 5-7 % of the server's CPU a message with the rules off
        (docs/benchmarks.md, "Session 14"). The history goes where the view without it has its
        empty list: the only place ``"history":[]`` can stand in that JSON (a quote inside a
        string value is escaped)."""
        turns = await self.turns(st.id, upto=st.seq)
        frame = p.State(dialog=await self._view(st, role, [])).model_dump_json()
        history = ",".join(self._history_items(st.id, turns))
        return frame.replace(_EMPTY_HISTORY, f'"history":[{history}]', 1)

    def _history_items(self, dialog_id: str, turns: list[StoreTurn]) -> list[str]:
        """The JSON of each of ``turns`` (a prefix of the dialog's messages) as a history item,
        made once per message."""
        items = self._items.get(dialog_id)
        if items is None:
            items = self._items[dialog_id] = []
            if len(self._items) > 10_000:
                self._items.pop(next(iter(self._items)))
        if len(items) < len(turns):
            items.extend(
                p.history_item_json(t.seq, t.round, t.role, t.text, t.at) for t in turns[len(items) :]
            )
        return items[: len(turns)] if len(items) > len(turns) else items

    async def _view(self, st: DialogState, role: p.Role, history: list[p.HistoryItem]) -> p.DialogView:
        meta = await self.meta(st.id)
        image_url = None
        if role == "answerer" or st.revealed:
            image_url = "/img/" + self.s.signer.image_ticket(st.id, st.workers[role])
        return p.DialogView(
            dialog_id=st.id,
            role=role,
            rounds=st.rounds,
            round=st.round,
            turn=st.turn,
            deadline=st.current_deadline(role),
            partner_deadline=st.current_deadline(other(role)),
            opinions=[p.Opinion(**o) for o in meta["opinions"]],
            image_url=image_url,
            history=history,
            todo=list(st.todo[role]),
            status=st.status,
            partner_connected=st.connected[other(role)],
            salvage=st.salvage == role,
        )

    async def send_state(self, st: DialogState, role: p.Role) -> None:
        await self.s.hub.send(st.workers[role], await self.state_json(st, role))

    # ------------------------------------------------------------------ endings

    def completion_code(self, st: DialogState, role: p.Role) -> str:
        return self.s.signer.completion_code(st.id, st.workers[role])

    async def _notify_ended(self, st: DialogState, role: p.Role, salvage: bool) -> None:
        worker = st.workers[role]
        reason = st.end_reason or "ended"
        if role == st.ended_by:
            messages = {
                "turn_timeout": "Your time to reply ran out, so this dialog has ended.",
                "form_timeout": "Your time to fill in the form ran out, so this dialog has ended.",
                "disconnected": "You were away too long, so this dialog has ended.",
                "left": "You left this dialog.",
                "rule_violations": "Several of your messages broke the chat rules, so this dialog has ended.",
            }
            message = messages.get(reason, "This dialog has ended.")
            await self.s.redis.hset(self.s.keys.where(worker), "state", "ended")
            await self.s.record(
                worker, st.status, dialog_id=st.id, rounds_done=st.seq // 2, detail={"reason": reason}
            )
        elif salvage:
            message = "Your partner left. Please finish your part below; you will still be paid."
        else:
            message = "Your partner left, so the dialog has ended. You will be paid for your time."
        await self.s.send(
            worker,
            p.Ended(
                status=st.status,
                reason=reason,
                by_you=role == st.ended_by,
                message=message,
                salvage=salvage,
            ),
        )

    async def _finish(self, st: DialogState, role: p.Role) -> None:
        worker = st.workers[role]
        code = self.completion_code(st, role)
        kind = "completed" if st.ended_by is None else "partner_dropped"
        await self.s.redis.hset(self.s.keys.where(worker), mapping={"state": "done", "code": code})
        await self.s.record(
            worker,
            kind,
            dialog_id=st.id,
            rounds_done=st.seq // 2,
            completion_code=code,
            detail={"finished_forms": st.finished[role], "ended_by": st.ended_by},
        )
        await self.s.send(
            worker,
            p.Done(completion_code=code, message="Thank you! Your part of the dialog is complete."),
        )

    async def _finalize(self, st: DialogState) -> None:
        """Make the record final. Safe to run twice (the safety-net deadline may fire while a
        slow first run is still going): only the run that moves the row out of ``in_progress``
        returns the stimulus to the pool.

        Rows a crash left unstored are stored first, unless this process inserted every row of
        the log itself (:meth:`_all_in_db`): re-reading and parsing the whole log and selecting
        the stored rows through the ORM was ~8 ms of CPU a dialog, ~7 % of the relay's CPU at
        50-round dialogs (docs/benchmarks.md, "Session 15")."""
        if not await self._all_in_db(st):
            turns, forms = await self.logged(st.id)
            await self._store_missing(st.id, turns, forms)  # anything a crash left unstored
        async with self.s.engine.begin() as conn:  # a Core UPDATE: no ORM session needed
            result = await conn.execute(
                _FINAL_UPDATE,
                {
                    "b_id": st.id,
                    "status": st.status,
                    "end_reason": st.end_reason,
                    "ended_by": st.ended_by,
                    "rounds_done": st.seq // 2,
                    "ended_at": datetime.now(UTC),
                },
            )
        if result.rowcount and st.status != "complete":
            await self.s.pool.release(st.stimulus_id)
        await self.s.redis.zrem(self.s.keys.deadlines, finalize_member(st.id))
        self._meta.pop(st.id, None)
        self._turns.pop(st.id, None)
        self._sent.pop(st.id, None)
        self._items.pop(st.id, None)
        self._latest.pop(st.id, None)
        self._in_db.pop(st.id, None)
        # QC runs in the background, after the workers got their frames; a job that could not be
        # queued is not lost: `avd qc run` judges every finished dialog without a verdict
        self._queue_qc(st.id)

    async def finish_record(self, dialog_id: str) -> bool:
        """The safety net: finalize a dialog whose live state is final (its process died
        between the last step and the record); False if there was nothing to do."""
        st = await self.load(dialog_id)
        if st is None or not st.final:
            return False
        await self._finalize(st)
        return True

    def _queue_qc(self, dialog_id: str) -> None:
        """Every finished dialog gets a QC job; a QC worker (``avd qc worker``) runs it. The dialogs
        that end within ``qc_enqueue_delay_seconds`` of the first share one job: dialogs end in
        bursts (a batch of workers leaving together), and rq's enqueue, a dozen Redis commands and
        a thread hop a job, held the relay's loop for each (docs/benchmarks.md, session 17). A
        dialog finalized twice before its job is queued is queued once. If the process dies before
        the job is queued, `avd qc run` judges the dialog, as when an enqueue fails."""
        self._qc_pending[dialog_id] = None
        if self._qc_timer is None:
            self._qc_timer = self._spawn(self._queue_qc_later())

    def _spawn(self, work: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        task = asyncio.create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        return task

    async def _queue_qc_later(self) -> None:
        await asyncio.sleep(self.s.settings.qc_enqueue_delay_seconds)
        self._qc_timer = None
        await self._enqueue_pending_qc()

    async def _enqueue_pending_qc(self) -> None:
        ids, self._qc_pending = list(self._qc_pending), {}
        if ids:
            await self._enqueue_qc(ids)

    async def flush_qc(self) -> None:
        """Queue the QC of the dialogs still waiting for their job, and wait for the enqueues in
        flight (the server calls this when it stops)."""
        if self._qc_timer is not None:
            self._qc_timer.cancel()
            self._qc_timer = None
        await self._enqueue_pending_qc()
        if self._background:
            await asyncio.gather(*self._background, return_exceptions=True)

    async def _enqueue_qc(self, dialog_ids: list[str]) -> None:
        try:
            if self._qc_queue is None:
                self._qc_queue = qc_queue(self.s.settings, self.s.redis_url)
            await asyncio.to_thread(enqueue, self._qc_queue, self.s.settings.study, dialog_ids)
        except Exception:
            log.exception("could not queue QC for dialogs %s; `avd qc run` will pick them up", dialog_ids)

    async def dialog_row(self, dialog_id: str) -> Dialog | None:
        async with self.s.sessions() as db:
            return (await db.execute(select(Dialog).where(Dialog.id == dialog_id))).scalar_one_or_none()
