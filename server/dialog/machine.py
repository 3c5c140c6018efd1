"""The life of one dialog as a pure function: ``apply(state, event, policy) -> Outcome``.

No I/O happens here, so every rule (turn order, deadlines, reveal, dropouts, salvage)
is tested without Redis or a database. The runtime stores the new state atomically
and carries out the effects (store rows, send frames, schedule deadlines).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal, get_args, get_origin

from pydantic import BaseModel, Field

from server.dialog.protocol import EMOTIONS, Phase, Role

Status = Literal["in_progress", "complete", "abandoned", "timed_out"]
ROLES: tuple[Role, Role] = ("questioner", "answerer")
FORMS: dict[Role, list[Phase]] = {
    "questioner": ["before_reveal", "after_reveal"],
    "answerer": ["answerer"],
}
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def other(role: Role) -> Role:
    return "answerer" if role == "questioner" else "questioner"


@dataclass(frozen=True)
class Policy:
    """The settings the machine needs; built from ``Settings``."""

    rounds: int = 10
    turn_seconds: float = 180.0
    warn_seconds: float = 30.0
    form_seconds: float = 300.0
    grace_seconds: float = 60.0
    min_message_chars: int = 2
    max_message_chars: int = 500
    min_explanation_words: int = 10
    max_explanation_chars: int = 2000
    salvage: bool = True


class DialogState(BaseModel):
    """Everything the server must know to judge the next event; kept in Redis as JSON."""

    id: str
    stimulus_id: str
    workers: dict[Role, str]
    rounds: int
    positive_first: bool
    status: Status = "in_progress"
    round: int = 1
    turn: Role | None = "questioner"
    seq: int = 0
    turn_started: float = 0.0
    deadline: float | None = None
    todo: dict[Role, list[Phase]] = Field(default_factory=lambda: {"questioner": [], "answerer": []})
    form_started: dict[Role, float] = Field(default_factory=dict)
    form_deadline: dict[Role, float] = Field(default_factory=dict)
    revealed: bool = False
    out: dict[Role, bool] = Field(
        default_factory=lambda: {"questioner": False, "answerer": False},
        description="True once a worker has nothing more to do (finished or dropped).",
    )
    finished: dict[Role, bool] = Field(default_factory=lambda: {"questioner": False, "answerer": False})
    connected: dict[Role, bool] = Field(default_factory=lambda: {"questioner": True, "answerer": True})
    disconnected_at: dict[Role, float] = Field(default_factory=dict)
    ended_by: Role | None = None
    end_reason: str | None = None
    salvage: Role | None = None
    applied: dict[str, int] = Field(
        default_factory=dict,
        description="'role:client_id' -> 0 for an accepted form, to spot resends (in a state stored "
        "before ``sent`` existed, also -> seq for its messages).",
    )
    sent: dict[str, int] = Field(
        default_factory=dict,
        exclude=True,
        description="'role:client_id' -> seq of each accepted message, to spot resends. Not stored "
        "with the state (it would grow its JSON by an entry a message, written at every commit): "
        "the runtime rebuilds it from the dialog's message log, which is committed with the state.",
    )

    def accepted(self, key: str) -> int | None:
        """What 'role:client_id' was accepted as: the message's seq, 0 for a form, None if never."""
        seq = self.sent.get(key)
        return seq if seq is not None else self.applied.get(key)

    def role_of(self, worker_id: str) -> Role | None:
        for role, wid in self.workers.items():
            if wid == worker_id:
                return role
        return None

    @property
    def chatting(self) -> bool:
        return self.status == "in_progress" and self.turn is not None

    @property
    def final(self) -> bool:
        return self.out["questioner"] and self.out["answerer"]

    def current_deadline(self, role: Role) -> float | None:
        if self.out[role]:
            return None
        if self.turn == role and self.chatting:
            return self.deadline
        return self.form_deadline.get(role) if self.todo[role] else None


# ---------------------------------------------------------------- events

# Events and effects are values, never changed once made; they are not frozen dataclasses all
# the same: a frozen dataclass's __init__ sets each field through object.__setattr__, several
# times the cost of a plain one (StoreTurn: ~3.8 against ~0.6 us), and a chat message makes
# about eight of them. ``Schedule`` is hashed (the runtime keeps sets of pending deadlines).


@dataclass(slots=True)
class Start:
    now: float


@dataclass(slots=True)
class SendMessage:
    role: Role
    client_id: str
    text: str
    now: float
    flags: tuple[dict, ...] = ()  # soft rule hits the message was accepted with


@dataclass(slots=True)
class SubmitForm:
    role: Role
    client_id: str
    phase: str
    emotion: str
    explanation: str
    now: float


@dataclass(slots=True)
class DeadlineFired:
    kind: Literal["turn", "form", "grace", "warn"]
    role: Role
    at: float
    now: float


@dataclass(slots=True)
class Disconnected:
    role: Role
    now: float


@dataclass(slots=True)
class Reconnected:
    role: Role
    now: float


@dataclass(slots=True)
class Quit:
    role: Role
    now: float


@dataclass(slots=True)
class Expel:
    """The worker broke the chat rules too often (``max_hard_violations``)."""

    role: Role
    now: float


Event = Start | SendMessage | SubmitForm | DeadlineFired | Disconnected | Reconnected | Quit | Expel


# ---------------------------------------------------------------- effects


@dataclass
class StoreTurn:
    seq: int
    round: int
    role: Role
    text: str
    client_id: str
    at: float
    latency_ms: int
    flags: tuple[dict, ...] | list[dict] = ()


@dataclass
class StoreForm:
    role: Role
    phase: Phase
    emotion: str
    explanation: str
    client_id: str
    at: float
    latency_ms: int


@dataclass(slots=True)
class Relay:
    """Send chat message ``seq`` to both sides."""

    seq: int


@dataclass(slots=True)
class Acknowledge:
    role: Role
    client_id: str
    seq: int | None


@dataclass(slots=True)
class SendState:
    role: Role


@dataclass(slots=True)
class Warn:
    role: Role
    seconds_left: float


@dataclass(slots=True)
class NotifyEnded:
    """Tell ``role`` the dialog ended early; ``salvage`` says they may finish their side."""

    role: Role
    salvage: bool


@dataclass(slots=True)
class Finish:
    """``role`` has nothing more to do: show the completion page (or the end notice)."""

    role: Role
    paid: bool


@dataclass(slots=True, unsafe_hash=True)
class Schedule:
    kind: Literal["turn", "form", "grace", "warn"]
    role: Role
    at: float


@dataclass(slots=True)
class Finalize:
    """Both workers are out: record the final status and free the stimulus if unused."""


Effect = (
    StoreTurn
    | StoreForm
    | Relay
    | Acknowledge
    | SendState
    | Warn
    | NotifyEnded
    | Finish
    | Schedule
    | Finalize
)


@dataclass
class Outcome:
    """A new state and what to do about it, or an error for the sender with no change."""

    state: DialogState
    effects: list[Effect] = field(default_factory=list)
    error: tuple[str, str] | None = None
    duplicate: bool = False

    @property
    def changed(self) -> bool:
        return self.error is None and not self.duplicate


def _reject(state: DialogState, code: str, message: str) -> Outcome:
    return Outcome(state=state, error=(code, message))


def _reused(state: DialogState) -> Outcome:
    return _reject(state, "client_id_reused", "That client_id was already used for something else.")


# ---------------------------------------------------------------- the machine


def _containers() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The state's dict fields: those of scalars, and those of lists (``todo``), read from the
    annotations so that a new dict field is copied without anyone remembering to list it."""
    flat, nested = [], []
    for name, info in DialogState.model_fields.items():
        if get_origin(info.annotation) is dict:
            (nested if get_origin(get_args(info.annotation)[1]) is list else flat).append(name)
    return tuple(flat), tuple(nested)


_FLAT_DICTS, _LIST_DICTS = _containers()
_new, _set = object.__new__, object.__setattr__


def _copy(state: DialogState) -> DialogState:
    """A copy the event may change freely. The state holds scalars, dicts of scalars and one
    dict of lists (``todo``), so copying those containers is a deep copy, at a fraction of
    ``model_copy(deep=True)``'s cost (which walks every value through ``copy.deepcopy``).
    The dicts are copied in C (``sent`` holds up to a hundred entries; the others one per role
    or a few forms), and the model is rebuilt from its copied ``__dict__`` as pydantic's own
    ``__copy__`` and ``model_construct`` do, without their generic steps (``copy.copy`` of each
    part): ~3.8 against ~7.3 us a message."""
    values = state.__dict__.copy()
    for name in _FLAT_DICTS:
        values[name] = values[name].copy()
    for name in _LIST_DICTS:
        values[name] = {k: list(v) for k, v in values[name].items()}
    fresh = _new(DialogState)
    _set(fresh, "__dict__", values)
    _set(fresh, "__pydantic_fields_set__", state.__pydantic_fields_set__.copy())
    _set(fresh, "__pydantic_extra__", None)
    _set(fresh, "__pydantic_private__", None)
    return fresh


def apply(state: DialogState, event: Event, policy: Policy) -> Outcome:
    """Judge one event. The input state is never modified."""
    s = _copy(state)
    match event:
        case Start(now=now):
            return _start(s, now, policy)
        case SendMessage():
            return _message(s, event, policy)
        case SubmitForm():
            return _form(s, event, policy)
        case DeadlineFired():
            return _deadline(s, event, policy)
        case Disconnected(role=role, now=now):
            if s.out[role] or not s.connected[role]:
                return Outcome(state=s)
            s.connected[role] = False
            s.disconnected_at[role] = now
            at = now + policy.grace_seconds
            return Outcome(state=s, effects=[SendState(other(role)), Schedule("grace", role, at)])
        case Reconnected(role=role):
            s.connected[role] = True
            s.disconnected_at.pop(role, None)
            return Outcome(state=s, effects=[SendState(role), SendState(other(role))])
        case Quit(role=role, now=now):
            if s.out[role]:
                return _reject(s, "not_active", "You have nothing left to do in this dialog.")
            return _drop(s, role, "abandoned", "left", now, policy)
        case Expel(role=role, now=now):
            if s.out[role]:
                return Outcome(state=s)
            return _drop(s, role, "abandoned", "rule_violations", now, policy)
    raise TypeError(f"unknown event {event!r}")


def _start(s: DialogState, now: float, policy: Policy) -> Outcome:
    s.turn_started = now
    s.deadline = now + policy.turn_seconds
    return Outcome(
        state=s,
        effects=[SendState("questioner"), SendState("answerer"), *_turn_schedule(s, policy)],
    )


def _turn_schedule(s: DialogState, policy: Policy) -> list[Effect]:
    assert s.turn is not None and s.deadline is not None
    effects: list[Effect] = [Schedule("turn", s.turn, s.deadline)]
    if policy.warn_seconds and policy.warn_seconds < policy.turn_seconds:
        effects.append(Schedule("warn", s.turn, s.deadline - policy.warn_seconds))
    return effects


def _form_schedule(s: DialogState, role: Role, now: float, policy: Policy) -> list[Effect]:
    s.form_started[role] = now
    s.form_deadline[role] = now + policy.form_seconds
    return list(_form_deadlines(role, s.form_deadline[role], policy))


def _form_deadlines(role: Role, deadline: float, policy: Policy) -> tuple[Schedule, ...]:
    if policy.warn_seconds and policy.warn_seconds < policy.form_seconds:
        return Schedule("form", role, deadline), Schedule("warn", role, deadline - policy.warn_seconds)
    return (Schedule("form", role, deadline),)


def pending_deadlines(s: DialogState, policy: Policy) -> set[Schedule]:
    """The deadlines that can still matter in state ``s`` (each as it was scheduled).

    The runtime unschedules what a transition made obsolete, so a turn taken in time does
    not leave its timeout and warning behind to fire, stale, minutes later.
    """
    pending: set[Schedule] = set()
    if s.chatting and s.deadline is not None:
        pending.update(_turn_schedule(s, policy))  # type: ignore[arg-type]
    for role in ROLES:
        if s.out[role]:
            continue
        if s.todo[role] and role in s.form_deadline:
            pending.update(_form_deadlines(role, s.form_deadline[role], policy))
        since = s.disconnected_at.get(role)
        if since is not None:
            pending.add(Schedule("grace", role, since + policy.grace_seconds))
    return pending


def clean_text(text: str) -> str:
    return _CONTROL.sub("", text).strip()


def _message(s: DialogState, e: SendMessage, policy: Policy) -> Outcome:
    key = f"{e.role}:{e.client_id}"
    done = s.accepted(key)
    if done is not None:
        if done == 0:
            return _reused(s)
        return Outcome(state=s, duplicate=True, effects=[Acknowledge(e.role, e.client_id, done)])
    if s.out[e.role]:
        return _reject(s, "not_active", "This dialog is over for you.")
    if not s.chatting:
        return _reject(s, "chat_closed", "The chat part of this dialog is over.")
    if s.turn != e.role:
        wanted = "an answer" if s.turn == "answerer" else "the next question"
        return _reject(s, "not_your_turn", f"Please wait: it is your partner's turn ({wanted}).")
    text = clean_text(e.text)
    if len(text) < policy.min_message_chars:
        return _reject(s, "too_short", "That message is empty or too short.")
    if len(text) > policy.max_message_chars:
        return _reject(s, "too_long", f"Messages are limited to {policy.max_message_chars} characters.")
    s.seq += 1
    s.sent[key] = s.seq
    latency = max(0, round((e.now - s.turn_started) * 1000))
    effects: list[Effect] = [
        StoreTurn(s.seq, s.round, e.role, text, e.client_id, e.now, latency, e.flags),
        Acknowledge(e.role, e.client_id, s.seq),
        Relay(s.seq),
    ]
    s.turn_started = e.now
    if e.role == "questioner":
        s.turn = "answerer"
    elif s.round < s.rounds:
        s.round += 1
        s.turn = "questioner"
    else:
        s.turn = None
        s.deadline = None
        for role in ROLES:
            s.todo[role] = list(FORMS[role])
            effects += _form_schedule(s, role, e.now, policy)
        effects += [SendState("questioner"), SendState("answerer")]
        return Outcome(state=s, effects=effects)
    s.deadline = e.now + policy.turn_seconds
    effects += _turn_schedule(s, policy)
    return Outcome(state=s, effects=effects)


def _form(s: DialogState, e: SubmitForm, policy: Policy) -> Outcome:
    key = f"{e.role}:{e.client_id}"
    done = s.accepted(key)
    if done is not None:
        if done != 0:
            return _reused(s)
        return Outcome(state=s, duplicate=True, effects=[Acknowledge(e.role, e.client_id, None)])
    todo = s.todo[e.role]
    if s.out[e.role] or not todo:
        return _reject(s, "unexpected_form", "No form is expected from you now.")
    if e.phase != todo[0]:
        return _reject(s, "unexpected_form", f"The form expected now is '{todo[0]}'.")
    if e.emotion not in EMOTIONS:
        return _reject(s, "invalid_emotion", "Pick one of the nine emotions offered.")
    explanation = clean_text(e.explanation)
    words = len(explanation.split())
    if words < policy.min_explanation_words:
        return _reject(
            s,
            "explanation_too_short",
            f"Please explain in at least {policy.min_explanation_words} words (you wrote {words}).",
        )
    if len(explanation) > policy.max_explanation_chars:
        return _reject(
            s, "explanation_too_long", f"Please keep it under {policy.max_explanation_chars} characters."
        )
    s.applied[key] = 0
    latency = max(0, round((e.now - s.form_started.get(e.role, e.now)) * 1000))
    todo.pop(0)
    effects: list[Effect] = [
        StoreForm(e.role, e.phase, e.emotion, explanation, e.client_id, e.now, latency),  # type: ignore[arg-type]
        Acknowledge(e.role, e.client_id, None),
    ]
    if e.phase == "before_reveal":
        s.revealed = True
    if todo:
        effects += _form_schedule(s, e.role, e.now, policy)
        effects.append(SendState(e.role))
        return Outcome(state=s, effects=effects)
    s.form_deadline.pop(e.role, None)
    s.out[e.role] = True
    s.finished[e.role] = True
    effects += [SendState(e.role), Finish(e.role, paid=True)]
    if s.final:
        if s.status == "in_progress":
            s.status = "complete"
        effects.append(Finalize())
    return Outcome(state=s, effects=effects)


def _deadline(s: DialogState, e: DeadlineFired, policy: Policy) -> Outcome:
    """Deadlines are identified by their time; a stale one (step already done) does nothing."""
    current: float | None
    if e.kind == "turn":
        current = s.deadline if s.chatting and s.turn == e.role else None
    elif e.kind == "form":
        current = s.form_deadline.get(e.role) if s.todo[e.role] and not s.out[e.role] else None
    elif e.kind == "grace":
        since = s.disconnected_at.get(e.role)
        current = since + policy.grace_seconds if since is not None and not s.out[e.role] else None
    else:  # warn: fires ahead of the role's current deadline
        deadline = s.current_deadline(e.role)
        if deadline is None or abs(deadline - policy.warn_seconds - e.at) > 1e-3:
            return Outcome(state=s)
        return Outcome(state=s, effects=[Warn(e.role, round(deadline - e.now, 1))])
    if current is None or abs(current - e.at) > 1e-3:
        return Outcome(state=s)
    reason = {"turn": "turn_timeout", "form": "form_timeout", "grace": "disconnected"}[e.kind]
    status: Status = "abandoned" if e.kind == "grace" else "timed_out"
    return _drop(s, e.role, status, reason, e.now, policy)


def _drop(s: DialogState, role: Role, status: Status, reason: str, now: float, policy: Policy) -> Outcome:
    """``role`` is out before finishing; the partner may finish their side (salvage)."""
    partner = other(role)
    effects: list[Effect] = []
    if s.status == "in_progress":
        s.status = status
        s.ended_by = role
        s.end_reason = reason
    was_chatting = s.turn is not None
    s.turn = None
    s.deadline = None
    s.out[role] = True
    s.todo[role] = []
    s.form_deadline.pop(role, None)
    effects.append(NotifyEnded(role, salvage=False))
    if not s.out[partner]:
        if was_chatting and policy.salvage:
            s.todo[partner] = list(FORMS[partner])
            effects += _form_schedule(s, partner, now, policy)
        if s.todo[partner]:
            s.salvage = partner
            effects += [NotifyEnded(partner, salvage=True), SendState(partner)]
        else:
            s.out[partner] = True
            effects += [NotifyEnded(partner, salvage=False), Finish(partner, paid=True)]
    if s.final:
        effects.append(Finalize())
    return Outcome(state=s, effects=effects)
