"""Renders docs/protocol.md from the frame models in ``protocol.py``.

The frame reference (fields, types, constraints, examples) is read from the pydantic
models, so the document cannot drift from what the server parses and sends; the prose
around it (lifecycle, handshake, deadlines, errors...) lives here, next to the notes
that fill in fields whose models carry no description. A test keeps the committed file
equal to this output. Regenerate with::

    python -m server.dialog.protocol_doc > docs/protocol.md
"""

from __future__ import annotations

import json
import sys
import types
from dataclasses import dataclass
from typing import Any, Literal, Union, get_args, get_origin

from annotated_types import MaxLen, MinLen
from pydantic import BaseModel
from pydantic.fields import FieldInfo

from server.dialog import protocol as p
from server.settings import Settings

# ---------------------------------------------------------------- settings quoted in the prose


def _default(name: str) -> Any:
    return Settings.model_fields[name].default


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


D = {
    name: _num(_default(name))
    for name in (
        "rounds",
        "turn_seconds",
        "warn_seconds",
        "form_seconds",
        "reconnect_grace_seconds",
        "min_message_chars",
        "max_message_chars",
        "min_explanation_words",
        "max_explanation_chars",
        "max_frame_bytes",
        "lobby_max_wait_seconds",
        "handshake_seconds",
        "presence_ttl_seconds",
        "heartbeat_seconds",
    )
}
HELLO_TIMEOUT_SECONDS = 15  # server/ws.py waits this long for the first frame

# ---------------------------------------------------------------- notes for undocumented models/fields

OBJECTS: tuple[type[BaseModel], ...] = (p.DialogView, p.Opinion, p.HistoryItem)

CLASS_NOTES: dict[str, str] = {
    "Welcome": "The reply to `hello`: who you are and where you stand. What follows depends on `where`.",
    "LobbyStatus": "You are in the waiting queue. Sent after `join_lobby` and on reconnect while waiting.",
    "Matched": "A partner and an artwork were found. Reply with `ready` before `deadline` (the join "
    "handshake).",
    "Requeued": "The handshake did not complete in time; you are back in the queue at your old place.",
    "LobbyTimeout": "No partner was found within the lobby limit; you are out of the queue. The wait is "
    "recorded so it can be paid. You may send `join_lobby` again.",
    "Warning_": "Your current step (a chat turn or a form) expires soon.",
    "Done": "Your part is complete; hand the completion code in on the crowd platform.",
    "Pong": "The reply to `ping`.",
    "Opinion": "One of the two short opinions about the artwork that both roles see.",
    "HistoryItem": "One accepted chat message, exactly as it was sent in a `message` frame.",
}

_CLIENT_ID = (
    "Your id for this item: unique among your own items in the dialog (your partner's ids do not "
    "matter), 1-64 characters of `A-Z a-z 0-9 _ . : -`. "
    "Reuse it when you resend the same item (see [Idempotent resends](#idempotent-resends))."
)

FIELD_NOTES: dict[tuple[str, str], str] = {
    ("Ready", "match_id"): "The `match_id` of the `matched` frame you answer.",
    ("ChatMessage", "client_id"): _CLIENT_ID,
    ("ChatMessage", "text"): "The question or answer. Control characters are removed and the ends trimmed; "
    f"what remains must have {D['min_message_chars']}-{D['max_message_chars']} characters "
    "(`min_message_chars`, `max_message_chars`).",
    ("FormSubmit", "client_id"): _CLIENT_ID,
    ("FormSubmit", "phase"): "Which form this is; it must equal the first entry of your `todo`.",
    ("FormSubmit", "emotion"): "One of the nine emotions: " + ", ".join(f"`{e}`" for e in p.EMOTIONS) + ".",
    ("FormSubmit", "explanation"): "Why you chose that emotion: at least "
    f"{D['min_explanation_words']} words (`min_explanation_words`, counted between spaces after trimming) "
    f"and at most {D['max_explanation_chars']} characters (`max_explanation_chars`).",
    ("Welcome", "v"): "The protocol version the server speaks.",
    ("Welcome", "worker_id"): "Your pseudonymous worker id (the one POST /api/sessions returned).",
    ("Welcome", "where"): "`idle`: nothing under way, send `join_lobby`; `lobby`: waiting, a `lobby` frame "
    "follows; `matched`: a handshake is open, a `matched` frame follows; `dialog`: a `state` frame follows; "
    "`done`: your part is complete, `state` and `done` follow.",
    ("Welcome", "heartbeat_seconds"): "Send a `ping` at least this often.",
    ("Welcome", "lobby_max_wait_seconds"): "The lobby limit: the longest wait before `lobby_timeout`.",
    ("LobbyStatus", "joined_at"): "Unix time you joined the queue (kept when you are requeued).",
    ("LobbyStatus", "expires_at"): "Unix time the wait ends with `lobby_timeout` unless you are paired.",
    ("LobbyStatus", "waiting"): "Workers in the queue, you included.",
    ("Matched", "match_id"): "Echo it in your `ready`. It becomes the dialog id.",
    ("Matched", "deadline"): "Unix time by which both workers must have sent `ready`.",
    ("Requeued", "reason"): "Why, in words fit to show the worker.",
    ("LobbyTimeout", "message"): "Words fit to show the worker.",
    ("LobbyTimeout", "waited_seconds"): "How long you waited.",
    ("State", "dialog"): "Your view of the dialog; see [DialogView](#dialogview).",
    ("Message", "seq"): "Position in the dialog: 1, 2, 3... with no gaps. Order and de-duplicate by it.",
    ("Message", "round"): "The round, 1 to `rounds`.",
    ("Message", "role"): "Who wrote it.",
    ("Message", "text"): "The text as stored (control characters removed, ends trimmed).",
    ("Message", "at"): "Unix time the server accepted it. The next chat turn's deadline is "
    "`at + turn_seconds`.",
    ("Ack", "client_id"): "The `client_id` of your message or form.",
    ("Ack", "seq"): "For a message, its `seq`; for a form, null.",
    ("Warning_", "seconds_left"): "Seconds until the current step's deadline.",
    ("Warning_", "message"): "Words fit to show the worker.",
    ("Ended", "status"): "The dialog's final status: `timed_out` or `abandoned`.",
    ("Ended", "reason"): "`turn_timeout`, `form_timeout`, `disconnected` (reconnect grace ran out) or "
    "`left` (a `leave` frame).",
    ("Ended", "message"): "Words fit to show the worker.",
    ("Ended", "salvage"): "True if you may still finish your forms (a `state` with your `todo` follows); "
    "false if your part is over (a `done` follows only if you are paid for it).",
    ("Done", "completion_code"): "The code to hand in on the crowd platform.",
    ("Done", "message"): "Words fit to show the worker.",
    ("Error", "code"): "What was wrong; see [Errors](#errors).",
    ("Error", "message"): "Words fit to show the worker.",
    ("Error", "client_id"): "The `client_id` of the refused message or form, if the frame had one.",
    ("Pong", "at"): "Server time (Unix); useful to estimate the clock offset for countdowns.",
    ("Opinion", "emotion"): "The emotion the opinion's author felt (one of the nine).",
    ("Opinion", "text"): "The opinion, one or two sentences.",
    ("HistoryItem", "seq"): "As in `message`.",
    ("HistoryItem", "round"): "As in `message`.",
    ("HistoryItem", "role"): "As in `message`.",
    ("HistoryItem", "text"): "As in `message`.",
    ("HistoryItem", "at"): "As in `message`.",
    ("DialogView", "dialog_id"): "The dialog (equal to the `match_id` of the handshake).",
    ("DialogView", "role"): "Your role in this dialog.",
    ("DialogView", "rounds"): "How many question/answer rounds the chat has.",
    ("DialogView", "round"): "The current round, from 1; it stays at `rounds` once the chat is over.",
    ("DialogView", "partner_deadline"): "Unix time your partner's current step expires; null if they "
    "have none.",
    ("DialogView", "opinions"): "The two opinions (one positive, one negative emotion), in the order to "
    "show them.",
    ("DialogView", "image_url"): "Path of the artwork on this server (GET it on the same origin). Always "
    "set for the answerer; null for the questioner until the reveal.",
    ("DialogView", "history"): "Every accepted chat message so far, in `seq` order.",
    ("DialogView", "status"): "`in_progress`, `complete`, `abandoned` or `timed_out`.",
    ("DialogView", "partner_connected"): "False while your partner's connection is lost (within the "
    "reconnect grace).",
}

# ---------------------------------------------------------------- examples (validated models)

T0 = 1718000000.0
Q_ID, A_ID = "w3f9c1a2b7e5d4c6a8b01", "w8d2e4f6a1c3b5d7e9f02"
Q_TOKEN = "eyJ3IjoidzNmOWMxYTJiN2U1ZDRjNmE4YjAxIn0.ZmdGAA.kq3u2Yc1m0b9Zp7o0yN4vXlQeTs"
A_TOKEN = "eyJ3IjoidzhkMmU0ZjZhMWMzYjVkN2U5ZjAyIn0.ZmdGAw.V0s4Wn2mRbq1x8LkPz6eJd3HcYa"
MATCH = "5b0e6c1d9a8f4e2b8c7d6a5f4e3d2c1b"
OPINIONS = [
    p.Opinion(emotion="contentment", text="The soft greens make the whole valley feel restful."),
    p.Opinion(emotion="sadness", text="The lone figure on the path looks forgotten and far from home."),
]
IMAGE_Q = "/img/eyJkIjoiNWIwZTZjMWQ5YThmIiwidyI6InczZjljMWEyYjdlNSJ9.ZmdGRg.f1Lq8Zr0Wm3Ya"
IMAGE_A = "/img/eyJkIjoiNWIwZTZjMWQ5YThmIiwidyI6Inc4ZDJlNGY2YTFjMyJ9.ZmdGDw.Hq0v9m2Lx7Pc"
EXPLANATION_Q1 = "My partner described calm green hills and soft light, which sounds peaceful and gentle."
EXPLANATION_Q2 = "Seeing it, the small walker looks more lonely than I imagined, though the hills stay calm."
EXPLANATION_A = "The wide open valley and the warm evening colours give the painting a quiet restful mood."

EXAMPLES: dict[type[BaseModel], BaseModel] = {
    p.Hello: p.Hello(type="hello", v=p.PROTOCOL_VERSION, token=Q_TOKEN, tab="tab-6f2c9e"),
    p.JoinLobby: p.JoinLobby(type="join_lobby"),
    p.Ready: p.Ready(type="ready", match_id=MATCH),
    p.ChatMessage: p.ChatMessage(type="message", client_id="q-7c1e-1", text="What colours dominate?"),
    p.FormSubmit: p.FormSubmit(
        type="form",
        client_id="q-7c1e-f1",
        phase="before_reveal",
        emotion="contentment",
        explanation=EXPLANATION_Q1,
    ),
    p.Leave: p.Leave(type="leave"),
    p.Ping: p.Ping(type="ping"),
    p.Welcome: p.Welcome(worker_id=Q_ID, where="idle", heartbeat_seconds=5, lobby_max_wait_seconds=180),
    p.LobbyStatus: p.LobbyStatus(joined_at=T0 + 1, expires_at=T0 + 181, waiting=1),
    p.Matched: p.Matched(match_id=MATCH, deadline=T0 + 19.2),
    p.Requeued: p.Requeued(reason="Your partner did not join in time; back in the queue."),
    p.LobbyTimeout: p.LobbyTimeout(
        message="No partner could be found in time. Your wait is recorded.", waited_seconds=180.0
    ),
    p.State: p.State(
        dialog=p.DialogView(
            dialog_id=MATCH,
            role="questioner",
            rounds=10,
            round=1,
            turn="questioner",
            deadline=T0 + 185,
            partner_deadline=None,
            opinions=OPINIONS,
            image_url=None,
            history=[],
            todo=[],
            status="in_progress",
        )
    ),
    p.Message: p.Message(seq=1, round=1, role="questioner", text="What colours dominate?", at=T0 + 9),
    p.Ack: p.Ack(client_id="q-7c1e-1", seq=1),
    p.Warning_: p.Warning_(seconds_left=30.0, message="About 30 s left."),
    p.Ended: p.Ended(
        status="timed_out",
        reason="turn_timeout",
        by_you=False,
        salvage=True,
        message="Your partner left. Please finish your part below; you will still be paid.",
    ),
    p.Done: p.Done(completion_code="7F3A91C0D2E4", message="Thank you! Your part of the dialog is complete."),
    p.Error: p.Error(
        code="not_your_turn",
        message="Please wait: it is your partner's turn (an answer).",
        client_id="q-7c1e-2",
    ),
    p.RuleWarning: p.RuleWarning(
        client_id="q-r2-3b81",
        rules=["generic_question"],
        message="Ask about something specific in the picture rather than a general question.",
    ),
    p.Pong: p.Pong(at=T0 + 12.5),
}

# ---------------------------------------------------------------- the example exchange


@dataclass(frozen=True)
class Step:
    """One frame of the example exchange: ``who`` sends (``>``) or receives (``<``) it."""

    who: Literal["Q", "A"]
    way: Literal[">", "<"]
    frame: BaseModel
    note: str = ""


def _view(role: p.Role, **kw: Any) -> p.State:
    base: dict[str, Any] = {
        "dialog_id": MATCH,
        "role": role,
        "rounds": 2,
        "round": 1,
        "turn": "questioner",
        "deadline": None,
        "partner_deadline": None,
        "opinions": OPINIONS,
        "image_url": IMAGE_A if role == "answerer" else None,
        "history": [],
        "todo": [],
        "status": "in_progress",
    }
    base.update(kw)
    return p.State(dialog=p.DialogView(**base))


def _msg(seq: int, text: str, at: float) -> p.Message:
    role: p.Role = "questioner" if seq % 2 else "answerer"
    return p.Message(seq=seq, round=(seq + 1) // 2, role=role, text=text, at=at)


CHAT = [
    "What colours dominate the painting?",
    "Mostly soft greens and yellows, with a pale blue sky over rolling hills.",
    "Is anyone in the scene, and what are they doing?",
    "One small figure walks along a dirt path toward a distant farmhouse.",
]
_HIST = [
    p.HistoryItem(
        seq=i + 1,
        round=i // 2 + 1,
        role="questioner" if i % 2 == 0 else "answerer",
        text=t,
        at=T0 + 30 + 20 * i,
    )
    for i, t in enumerate(CHAT)
]
_CHAT_END = T0 + 90  # the last answer's time; forms are due form_seconds later


def exchange() -> list[Step]:
    """A whole two-round dialog (``rounds=2``), as both workers see it, in order."""
    fs = float(_default("form_seconds"))
    ts = float(_default("turn_seconds"))
    steps = [
        Step("Q", ">", p.Hello(type="hello", v=1, token=Q_TOKEN, tab="tab-6f2c9e")),
        Step(
            "Q", "<", p.Welcome(worker_id=Q_ID, where="idle", heartbeat_seconds=5, lobby_max_wait_seconds=180)
        ),
        Step("Q", ">", p.JoinLobby(type="join_lobby")),
        Step("Q", "<", p.LobbyStatus(joined_at=T0 + 1, expires_at=T0 + 181, waiting=1)),
        Step("A", ">", p.Hello(type="hello", v=1, token=A_TOKEN, tab="tab-90ab1d")),
        Step(
            "A", "<", p.Welcome(worker_id=A_ID, where="idle", heartbeat_seconds=5, lobby_max_wait_seconds=180)
        ),
        Step("A", ">", p.JoinLobby(type="join_lobby")),
        Step("A", "<", p.LobbyStatus(joined_at=T0 + 4, expires_at=T0 + 184, waiting=2)),
        Step("Q", "<", p.Matched(match_id=MATCH, deadline=T0 + 19), "both get the same match"),
        Step("A", "<", p.Matched(match_id=MATCH, deadline=T0 + 19)),
        Step("A", ">", p.Ready(type="ready", match_id=MATCH)),
        Step("Q", ">", p.Ready(type="ready", match_id=MATCH), "the second ready starts the dialog"),
        Step("Q", "<", _view("questioner", deadline=T0 + 10 + ts)),
        Step("A", "<", _view("answerer", partner_deadline=T0 + 10 + ts)),
        Step("Q", ">", p.ChatMessage(type="message", client_id="q1", text=CHAT[0])),
        Step("Q", "<", p.Ack(client_id="q1", seq=1)),
        Step("Q", "<", _msg(1, CHAT[0], T0 + 30)),
        Step("A", "<", _msg(1, CHAT[0], T0 + 30), "now the answerer's turn"),
        Step("Q", ">", p.ChatMessage(type="message", client_id="q2", text="Any people?"), "too early"),
        Step(
            "Q",
            "<",
            p.Error(
                code="not_your_turn",
                client_id="q2",
                message="Please wait: it is your partner's turn (an answer).",
            ),
        ),
        Step("A", ">", p.ChatMessage(type="message", client_id="a1", text=CHAT[1])),
        Step("A", "<", p.Ack(client_id="a1", seq=2)),
        Step("Q", "<", _msg(2, CHAT[1], T0 + 50), "round 2: questioner's turn again"),
        Step("A", "<", _msg(2, CHAT[1], T0 + 50)),
        Step("Q", ">", p.Ping(type="ping")),
        Step("Q", "<", p.Pong(at=T0 + 52)),
        Step("Q", ">", p.ChatMessage(type="message", client_id="q3", text=CHAT[2])),
        Step("Q", "<", p.Ack(client_id="q3", seq=3)),
        Step("Q", "<", _msg(3, CHAT[2], T0 + 70)),
        Step("A", "<", _msg(3, CHAT[2], T0 + 70)),
        Step("A", ">", p.ChatMessage(type="message", client_id="a2", text=CHAT[3]), "the last answer"),
        Step("A", "<", p.Ack(client_id="a2", seq=4)),
        Step("Q", "<", _msg(4, CHAT[3], _CHAT_END)),
        Step("A", "<", _msg(4, CHAT[3], _CHAT_END)),
        Step(
            "Q",
            "<",
            _view(
                "questioner",
                round=2,
                turn=None,
                deadline=_CHAT_END + fs,
                partner_deadline=_CHAT_END + fs,
                history=_HIST,
                todo=["before_reveal", "after_reveal"],
            ),
            "chat closed: forms",
        ),
        Step(
            "A",
            "<",
            _view(
                "answerer",
                round=2,
                turn=None,
                deadline=_CHAT_END + fs,
                partner_deadline=_CHAT_END + fs,
                history=_HIST,
                todo=["answerer"],
            ),
        ),
        Step(
            "Q",
            ">",
            p.FormSubmit(
                type="form",
                client_id="qf1",
                phase="before_reveal",
                emotion="contentment",
                explanation=EXPLANATION_Q1,
            ),
        ),
        Step("Q", "<", p.Ack(client_id="qf1", seq=None)),
        Step(
            "Q",
            "<",
            _view(
                "questioner",
                round=2,
                turn=None,
                deadline=T0 + 150 + fs,
                partner_deadline=_CHAT_END + fs,
                history=_HIST,
                image_url=IMAGE_Q,
                todo=["after_reveal"],
            ),
            "the reveal: image_url is set",
        ),
        Step(
            "A",
            ">",
            p.FormSubmit(
                type="form",
                client_id="af1",
                phase="answerer",
                emotion="contentment",
                explanation=EXPLANATION_A,
            ),
        ),
        Step("A", "<", p.Ack(client_id="af1", seq=None)),
        Step(
            "A",
            "<",
            _view(
                "answerer",
                round=2,
                turn=None,
                deadline=None,
                partner_deadline=T0 + 150 + fs,
                history=_HIST,
                todo=[],
            ),
        ),
        Step(
            "A",
            "<",
            p.Done(completion_code="C41D07E9AB35", message="Thank you! Your part of the dialog is complete."),
        ),
        Step(
            "Q",
            ">",
            p.FormSubmit(
                type="form",
                client_id="qf2",
                phase="after_reveal",
                emotion="sadness",
                explanation=EXPLANATION_Q2,
            ),
        ),
        Step("Q", "<", p.Ack(client_id="qf2", seq=None)),
        Step(
            "Q",
            "<",
            _view(
                "questioner",
                round=2,
                turn=None,
                deadline=None,
                history=_HIST,
                image_url=IMAGE_Q,
                status="complete",
                todo=[],
            ),
        ),
        Step(
            "Q",
            "<",
            p.Done(completion_code="7F3A91C0D2E4", message="Thank you! Your part of the dialog is complete."),
        ),
    ]
    return steps


# ---------------------------------------------------------------- errors

ERRORS: list[tuple[str, str, str]] = [
    # code, when, what happens
    ("malformed", "The frame is not valid JSON, not a JSON object with a `type`, or binary.", "refused"),
    ("unknown_type", "`type` names no client frame.", "refused"),
    (
        "invalid",
        "A field is missing, has the wrong type, breaks a limit, or is unexpected. The message "
        "names the field.",
        "refused",
    ),
    (
        "too_large",
        f"The frame is longer than `max_frame_bytes` ({D['max_frame_bytes']}) bytes of UTF-8.",
        "refused",
    ),
    ("no_hello", f"The first frame is not `hello`, or none came within {HELLO_TIMEOUT_SECONDS} s.", "fatal"),
    ("bad_version", "`hello.v` is not the version this server speaks.", "fatal"),
    ("bad_token", "The token is forged, damaged or from another study.", "fatal"),
    ("expired_token", "The token is older than `token_max_age_seconds`; open a new session.", "fatal"),
    ("not_allowed", "The worker is unknown or blocked.", "fatal"),
    ("second_tab", "Another tab or window of the same worker holds the connection.", "fatal (4409)"),
    ("already_hello", "A second `hello` on a connection that already said it.", "refused"),
    ("busy", "`join_lobby` while matched or in a dialog.", "refused"),
    ("paused", "`join_lobby` while the study has paused new dialogs.", "refused"),
    ("match_gone", "`ready` for a handshake that expired or already started.", "refused"),
    ("forbidden", "`ready` for a match that is not yours.", "refused"),
    (
        "no_dialog",
        "`message` or `form` while not in a dialog (or the dialog's live state is gone).",
        "refused",
    ),
    ("not_active", "`message` after your part of the dialog is over.", "refused"),
    (
        "rule_violation",
        "The message broke a hard chat rule (greeting, offensive, chat language, not a question, ...). "
        "`rules` lists the rule ids and `message` says what to change. The partner never sees it; the turn "
        "stays yours; after `max_hard_violations` of them the dialog ends for you (`ended`, reason "
        "`rule_violations`).",
        "refused",
    ),
    (
        "client_id_reused",
        "A `client_id` already used by this worker for a different kind of frame (a message id on a "
        "form or the reverse). Resending the same frame with its id is fine.",
        "refused",
    ),
    ("chat_closed", "`message` after the last answer (the forms are under way).", "refused"),
    (
        "not_your_turn",
        "`message` out of turn: the questioner asked and waits for the answer, or the "
        "answerer writes before the question.",
        "refused",
    ),
    (
        "too_short",
        f"The cleaned message has fewer than `min_message_chars` ({D['min_message_chars']}) characters.",
        "refused",
    ),
    (
        "too_long",
        f"The cleaned message has more than `max_message_chars` ({D['max_message_chars']}) characters.",
        "refused",
    ),
    (
        "unexpected_form",
        "A `form` when none is due from you, or for another phase than `todo[0]` (this "
        "covers the wrong role's form).",
        "refused",
    ),
    ("invalid_emotion", "`emotion` is not one of the nine.", "refused"),
    (
        "explanation_too_short",
        f"Fewer than `min_explanation_words` ({D['min_explanation_words']}) words.",
        "refused",
    ),
    (
        "explanation_too_long",
        f"More than `max_explanation_chars` ({D['max_explanation_chars']}) characters.",
        "refused",
    ),
]

# ---------------------------------------------------------------- rendering helpers


def _type(tp: Any) -> str:
    """A JSON-ish name for a Python annotation, readable inside a Markdown table."""
    origin = get_origin(tp)
    if tp is type(None):
        return "null"
    if origin is Literal:
        return " or ".join(json.dumps(a) for a in get_args(tp))
    if origin in (Union, types.UnionType):
        return " or ".join(_type(a) for a in get_args(tp))
    if origin is list:
        (item,) = get_args(tp)
        inner = _type(item)
        return f"array of ({inner})" if " or " in inner else f"array of {inner}"
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return f"[{tp.__name__}](#{tp.__name__.lower()})"
    return {str: "string", int: "integer", float: "number", bool: "boolean"}.get(tp, str(tp))


def _limits(field: FieldInfo) -> str:
    parts = []
    for meta in field.metadata:
        if isinstance(meta, MinLen):
            parts.append(f"min length {meta.min_length}")
        elif isinstance(meta, MaxLen):
            parts.append(f"max length {meta.max_length}")
        elif getattr(meta, "pattern", None):
            parts.append(f"pattern `{meta.pattern}`")
    return "; ".join(parts)


def description(cls: type[BaseModel], name: str) -> str:
    """The field's own description, or the note kept here; empty if neither exists."""
    field = cls.model_fields[name]
    if name == "type" and get_origin(field.annotation) is Literal:
        return f"Always `{json.dumps(get_args(field.annotation)[0])}`."
    return field.description or FIELD_NOTES.get((cls.__name__, name), "")


def class_description(cls: type[BaseModel]) -> str:
    own = (cls.__doc__ or "").strip()
    if own and not own.startswith(("Usage docs", "A base class")):
        return " ".join(own.split()).replace("``", "`")
    return CLASS_NOTES.get(cls.__name__, "")


def frame_type(cls: type[BaseModel]) -> str | None:
    ann = cls.model_fields.get("type")
    return get_args(ann.annotation)[0] if ann is not None else None


def _anchor(cls: type[BaseModel], direction: str) -> str:
    return f"{direction}-{frame_type(cls)}".replace("_", "-")


def _pretty(model: BaseModel) -> str:
    return json.dumps(model.model_dump(mode="json"), indent=2, ensure_ascii=False)


def _compact(model: BaseModel) -> str:
    return json.dumps(model.model_dump(mode="json"), separators=(",", ":"), ensure_ascii=False)


def _fields_table(cls: type[BaseModel], client: bool) -> list[str]:
    head = "| Field | Type | Required | Description |" if client else "| Field | Type | Description |"
    lines = [head, "|---|---|---|---|" if client else "|---|---|---|"]
    for name, field in cls.model_fields.items():
        typ = _type(field.annotation)
        limits = _limits(field)
        if limits:
            typ += f" ({limits})"
        desc = description(cls, name).replace("|", "\\|")
        if client:
            req = "yes" if field.is_required() else f"no (default `{json.dumps(field.default)}`)"
            lines.append(f"| `{name}` | {typ} | {req} | {desc} |")
        else:
            lines.append(f"| `{name}` | {typ} | {desc} |")
    return lines


def _frame_section(cls: type[BaseModel], direction: str) -> list[str]:
    client = direction == "client"
    tag = frame_type(cls)
    lines = [
        f'<a id="{_anchor(cls, direction)}"></a>',
        f"### `{tag}` ({cls.__name__})",
        "",
        class_description(cls),
        "",
        *_fields_table(cls, client),
        "",
        "```json",
        _pretty(EXAMPLES[cls]),
        "```",
        "",
    ]
    return lines


def _object_section(cls: type[BaseModel]) -> list[str]:
    return [f"### {cls.__name__}", "", class_description(cls), "", *_fields_table(cls, False), ""]


def _frame_index() -> list[str]:
    lines = ["| Direction | `type` | Model | Purpose |", "|---|---|---|---|"]
    for direction, frames in (("client", p.CLIENT_FRAMES), ("server", p.SERVER_FRAMES)):
        arrow = "client → server" if direction == "client" else "server → client"
        for cls in frames:
            first = class_description(cls).split(". ")[0].rstrip(".")
            lines.append(
                f"| {arrow} | [`{frame_type(cls)}`](#{_anchor(cls, direction)}) | {cls.__name__} | {first}. |"
            )
    return lines


def _errors_table() -> list[str]:
    lines = ["| Code | When | Effect |", "|---|---|---|"]
    lines += [f"| `{code}` | {when} | {effect} |" for code, when, effect in ERRORS]
    return lines


def _exchange_block() -> list[str]:
    lines = ["```text"]
    for step in exchange():
        arrow = "->" if step.way == ">" else "<-"
        note = f"   # {step.note}" if step.note else ""
        lines.append(f"{step.who} {arrow} {_compact(step.frame)}{note}")
    lines.append("```")
    return lines


# ---------------------------------------------------------------- the prose

INTRO = f"""\
# The worker websocket protocol (version {p.PROTOCOL_VERSION})

<!-- Generated by `python -m server.dialog.protocol_doc > docs/protocol.md` from
server/dialog/protocol.py and server/dialog/protocol_doc.py. Edit those, not this file. -->

This is everything a client needs to take part in a dialog: the worker page in
`frontend/` and the bots in `server/bots.py` both speak exactly this. The server is the
authority on every rule (who may speak, when a step expires, who sees the image); a
client only shows what the server says and sends what the worker does.

Numbers below are the defaults of `server/settings.py`; a study may change them.
`GET /api/config` returns the values in force (`rounds`, `turn_seconds`, `form_seconds`,
`lobby_max_wait_seconds`, `max_message_chars`, `min_explanation_words`, the emotions).

## Contents

- [Before the socket](#before-the-socket)
- [Frames on the wire](#frames-on-the-wire)
- [Connection lifecycle](#connection-lifecycle)
- [The join handshake](#the-join-handshake)
- [Turn order](#turn-order)
- [Forms and the reveal](#forms-and-the-reveal)
- [Deadlines](#deadlines)
- [Reconnect and resume](#reconnect-and-resume)
- [Salvage after a partner leaves](#salvage-after-a-partner-leaves)
- [Idempotent resends](#idempotent-resends)
- [Errors](#errors)
- [Frame reference](#frame-reference)
- [Shared objects](#shared-objects)
- [Example exchange](#example-exchange)
"""

PROSE = f"""\
## Before the socket

1. `POST /api/sessions` with JSON `{{"worker": "<platform id or null>", "consent": true,
   "provider": "local"}}` (providers: `local`, `mturk`, `mturk-sandbox`, `mephisto`).
   Without `consent: true` the reply is 400 (403 for a blocked worker). The reply is `{{"token": "...",
   "worker_id": "w..."}}`; the token is signed and valid for `token_max_age_seconds`
   (12 hours). The same platform id always gives the same `worker_id`.
2. Open a websocket to `/ws` on the same host (`ws://` or `wss://`).

## Frames on the wire

- Every frame is one websocket **text** message holding one JSON object with a `type`
  field. Frames are at most `max_frame_bytes` ({D["max_frame_bytes"]}) bytes of UTF-8.
  Binary messages are refused as `malformed`.
- Client frames are strict: unknown fields are refused (`invalid`).
- Server frames always carry every field listed below (a field may be `null`); a client
  should ignore fields it does not know, so later versions can add some.
- Times are Unix seconds (floats) on the server's clock.
- Frames from the server to one connection arrive in the order the server produced them.

## Connection lifecycle

1. **hello.** The first frame must be `hello` with `v` = {p.PROTOCOL_VERSION}, the token, and
   a `tab` id: a random string the page keeps for the life of its browser tab (for example in
   `sessionStorage`) and reuses when it reconnects. If the first frame is missing (for
   {HELLO_TIMEOUT_SECONDS} s), not `hello`, or refused, the server sends one `error` and
   closes the socket (close code 4400, or 4409 for `second_tab`). These errors are fatal;
   all later ones are not: the connection stays open and nothing changes on the server.
2. **One tab per worker.** While a connection of the worker with another `tab` id is
   open, a new `hello` is refused with `second_tab`. The same `tab` id is always let in (a
   reconnect of the same tab).
3. **welcome.** The server answers with `welcome`; `where` says what comes next (see
   [Welcome](#server-welcome)).
4. **Heartbeat.** Send `ping` every `heartbeat_seconds` (from `welcome`); the server
   answers `pong` (with its clock, to show countdowns right). Presence is the server's
   business: it is kept alive while the socket is open, and only workers with an open
   socket are paired.
5. **Lobby.** `join_lobby` puts the worker in a first-come, first-served queue and
   answers with `lobby`; sending it again keeps the place. `leave` while waiting takes
   the worker out of the queue (no reply). After `lobby_max_wait_seconds`
   ({D["lobby_max_wait_seconds"]} s) without a partner the server sends `lobby_timeout`
   and the worker is out of the queue; the wait is recorded for payment.
6. **Pairing.** The server pairs waiting workers who have not been paired recently and
   an artwork neither has seen, assigns the roles (balancing each worker's past roles), and
   sends `matched` to both: see [the join handshake](#the-join-handshake).
7. **Dialog.** Both receive `state`; then the chat, the forms and `done`. See below.
8. **After `done`** the worker may close the socket, or send `join_lobby` for another
   dialog (a new artwork, a new partner).

## The join handshake

Pairing and starting are two steps, so that a dialog only starts with two live tabs:

1. Both workers receive `matched` with the same `match_id` and a `deadline`
   (`handshake_seconds`, {D["handshake_seconds"]} s, after pairing).
2. Each client replies `ready` with that `match_id` at once (the page needs no input
   from the worker for this).
3. When the second `ready` arrives the dialog starts: both receive `state` (the dialog
   id equals the `match_id`).
4. If both have not answered by the deadline, the match is dropped, the artwork goes back
   to the pool and each worker still waiting on it receives `requeued`: they are back in
   the queue with their original join time, so they are first in line.

A `ready` for an expired or already started match gets `match_gone`; a `ready` for
someone else's match gets `forbidden`. A client that reconnects while a handshake is
open receives `matched` again and should answer `ready` again.

## Turn order

- The dialog has `rounds` rounds ({D["rounds"]}). Each round is one question from the
  questioner, then one answer from the answerer, strictly alternating; the questioner
  writes first.
- Send `message` with a fresh `client_id`. When it is accepted the sender receives
  `ack` (with the message's `seq`), then **both** workers receive the `message` frame
  (the sender too: draw the message from it, not from the local input).
- `seq` counts accepted messages from 1 without gaps; `round` = `(seq + 1) / 2` rounded
  down. A `message` with `role` questioner hands the turn to the answerer; one with role
  answerer hands it to the questioner for round `round + 1`, except after the last
  round, when the chat closes and both receive a fresh `state` with `turn: null` and
  their forms in `todo`. No `state` is sent between turns: a client tracks whose turn it
  is from the `message` frames (and the `state` it got last).
- Out-of-turn messages are refused (`not_your_turn`), as are messages after the chat
  (`chat_closed`), empty or short ones (`too_short`) and long ones (`too_long`).
- A refused frame gets an `error` with the frame's `client_id`; nothing is stored and
  the partner hears nothing of it.

## Forms and the reveal

After the last answer each worker fills in forms, one at a time, in the order of `todo`:

| Role | `todo` after the chat | What the worker sees |
|---|---|---|
| questioner | `before_reveal`, `after_reveal` | dialog and opinions; the image once `before_reveal` is in |
| answerer | `answerer` | the image, the opinions and the dialog |

A `form` names the `phase` (it must be `todo[0]`), one of the nine `emotion`s and an
`explanation` of at least `min_explanation_words` ({D["min_explanation_words"]}) words.
When it is accepted the worker receives `ack` (with `seq: null`), then either a `state`
with the rest of `todo` and a new deadline, or, after the last form, a `state` with an
empty `todo` followed by `done` with the completion code. Each worker gets `done` as
soon as their own forms are in; they do not wait for the partner.

**Reveal.** The questioner's view has `image_url: null` until the `before_reveal` form
is accepted; the `state` that follows that `ack` carries the `image_url`. The image
address is a ticket for this worker and dialog; the server answers 404 to the questioner
before the reveal, whatever the client does. The answerer's `image_url` is set from the
start. Fetch it from the same origin as the socket.

## Deadlines

Every step has a deadline kept by the server; client countdowns are only a display.

| Step | Length | Whose |
|---|---|---|
| a chat turn | `turn_seconds` ({D["turn_seconds"]} s) from the previous message or the start | its writer |
| each form | `form_seconds` ({D["form_seconds"]} s) from the chat's end or the previous form | its writer |
| a lost connection | `reconnect_grace_seconds` ({D["reconnect_grace_seconds"]} s) | the one away |

- `state.dialog.deadline` is your current step's deadline (null when you have none, e.g.
  while the partner types); `partner_deadline` is theirs. After a `message` the next turn's
  deadline is `message.at + turn_seconds`.
- `warning` comes `warn_seconds` ({D["warn_seconds"]} s) before your current deadline.
- When a deadline passes, the worker who owed the step is out: the dialog ends with
  status `timed_out` (reasons `turn_timeout`, `form_timeout`) or `abandoned` (reason
  `disconnected` after the grace). That worker receives `ended` with `by_you: true` and
  no completion code; the partner is handled as in [salvage](#salvage-after-a-partner-leaves).
- A lost connection does not pause the turn or form deadline.

## Reconnect and resume

The server keeps the whole dialog in Redis and the socket handler holds no state, so a
client may reconnect to any server process of the study:

1. When a connection closes while in a dialog, the partner receives a `state` with
   `partner_connected: false`, and the grace period starts.
2. Reconnect with a new socket, the same token and the same `tab` id, and send `hello`.
   `welcome` has `where: "dialog"`, and both workers receive a fresh `state`
   (`partner_connected` is true again for the partner). A worker whose part is done gets
   `where: "done"`, a `state` and the `done` frame again.
3. Rebuild the screen from that `state`: `history` holds every accepted message, `turn`,
   `todo`, `deadline` and `image_url` say where the dialog stands. Frames sent while the
   socket was closed are not replayed; the `state` replaces them.
4. If the grace passes first, the dialog ends (`abandoned`, reason `disconnected`).

A worker whose own timeout or `leave` ended the dialog gets `where: "idle"` and a
`state` of the ended dialog; they may join the lobby again.

## Salvage after a partner leaves

When one worker drops out (timeout, grace expiry or `leave`):

- the dropout receives `ended` (`by_you: true`, `salvage: false`); the dialog's status
  becomes `timed_out` or `abandoned` and stays so;
- if the chat was still going and the study allows salvage (`salvage`, on by default),
  the partner receives `ended` with `salvage: true` and a `state` whose `todo` holds their
  forms (the questioner: `before_reveal` then `after_reveal`, with the reveal as usual;
  the answerer: `answerer`) and whose `salvage` is true. Once those are in they receive
  `done` with a completion code, as usual;
- if the chat was over, the partner keeps whatever forms they still owe
  (`ended` with `salvage: true`, then `state`);
- if salvage is off, the partner receives `ended` with `salvage: false` and `done`
  straight away;
- a partner who had already finished hears nothing more.

`leave` during a dialog is how a worker gives up on purpose; once their part is over
it changes nothing.

## Idempotent resends

Every `message` and `form` carries a `client_id` chosen by the client (a UUID is fine).
Until its `ack` arrives, an item may have been stored or not: a connection can drop
between the two. Resend it **with the same `client_id`** (after reconnecting, if need
be; check the `history` of the fresh `state` first). If the server already has it, it
does not store it again: it answers `ack` with the original `seq` (`null` for forms) and
sends the `message` frame to both workers once more. This check comes before every other
rule, so a resend is acknowledged even though the turn has moved on. Clients must
therefore drop `message` frames whose `seq` they already show. A `client_id` must never
be reused for a different item of yours in the same dialog; your partner's ids are
separate (you may both number your items 1, 2, 3...).

## Errors

Every refusal is an `error` frame with a `code` from this table and a `message` fit to
show the worker. *Fatal* errors close the socket (close code 4400, or 4409); after a
*refused* frame the connection stays open and nothing has changed on the server.

"""

# ---------------------------------------------------------------- assembling the document


def render() -> str:
    lines: list[str] = [INTRO, PROSE]
    lines += _errors_table()
    lines += [
        "",
        "## Frame reference",
        "",
        *_frame_index(),
        "",
        "## Client → server",
        "",
        "Every client frame has a `type`; a frame must be one of these, exactly.",
        "",
    ]
    for cls in p.CLIENT_FRAMES:
        lines += _frame_section(cls, "client")
    lines += ["## Server → client", ""]
    for cls in p.SERVER_FRAMES:
        lines += _frame_section(cls, "server")
    lines += ["## Shared objects", ""]
    for cls in OBJECTS:
        lines += _object_section(cls)
    lines += [
        "## Example exchange",
        "",
        "A whole dialog of a study with `rounds = 2`, as the questioner (Q) and the answerer "
        "(A) see it; `->` is a frame the worker's client sends, `<-` one it receives, in order. "
        "It includes one refused message and a heartbeat.",
        "",
        *_exchange_block(),
        "",
    ]
    text = "\n".join(lines)
    while "\n\n\n" in text:
        text = text.replace("\n\n\n", "\n\n")
    return text.rstrip("\n") + "\n"


def main() -> None:
    sys.stdout.buffer.write(render().encode())


if __name__ == "__main__":
    main()
