"""Every websocket frame as a pydantic model: the single source of truth for docs/protocol.md.

Frames are JSON objects with a ``type`` field. The client's first frame is ``hello``;
everything after depends on where the worker is (lobby, handshake, dialog, done).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter
from pydantic_core import to_json


def _json(value: object) -> str:
    return to_json(value).decode()


PROTOCOL_VERSION = 1

Role = Literal["questioner", "answerer"]
Phase = Literal["before_reveal", "after_reveal", "answerer"]

POSITIVE_EMOTIONS = ("amusement", "awe", "contentment", "excitement")
NEGATIVE_EMOTIONS = ("anger", "disgust", "fear", "sadness")
EMOTIONS = (*POSITIVE_EMOTIONS, *NEGATIVE_EMOTIONS, "something_else")
Emotion = Literal[
    "amusement",
    "awe",
    "contentment",
    "excitement",
    "anger",
    "disgust",
    "fear",
    "sadness",
    "something_else",
]

ClientId = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.:-]+$")]


class _Frame(BaseModel):
    model_config = ConfigDict(extra="forbid")


# ---------------------------------------------------------------- client -> server


class Hello(_Frame):
    """First frame on every connection: proves who the worker is; ``tab`` names the tab."""

    type: Literal["hello"]
    v: int = Field(description="Protocol version the client speaks.")
    token: str = Field(max_length=2048, description="Worker token from POST /api/sessions.")
    tab: str = Field(min_length=1, max_length=64, description="Random id kept per browser tab.")


class JoinLobby(_Frame):
    """Ask to be paired."""

    type: Literal["join_lobby"]


class Ready(_Frame):
    """Answer to ``matched``: this tab is alive and takes part (the join handshake)."""

    type: Literal["ready"]
    match_id: str = Field(max_length=64)


class ChatMessage(_Frame):
    """A question (questioner) or an answer (answerer) for the current round."""

    type: Literal["message"]
    client_id: ClientId
    text: str


class FormSubmit(_Frame):
    """An emotion with its explanation for one phase."""

    type: Literal["form"]
    client_id: ClientId
    phase: Phase
    emotion: str
    explanation: str


class Leave(_Frame):
    """The worker gives up (lobby or dialog)."""

    type: Literal["leave"]


class Ping(_Frame):
    """Keeps the connection open through proxies and measures the clock offset (``pong``)."""

    type: Literal["ping"]


ClientFrame = Annotated[
    Hello | JoinLobby | Ready | ChatMessage | FormSubmit | Leave | Ping,
    Field(discriminator="type"),
]
client_frame_adapter: TypeAdapter[Any] = TypeAdapter(ClientFrame)


# ---------------------------------------------------------------- server -> client


class Opinion(BaseModel):
    emotion: str
    text: str


class HistoryItem(BaseModel):
    seq: int
    round: int
    role: Role
    text: str
    at: float


class DialogView(BaseModel):
    """What one role may know of a dialog. The questioner's never has an image before reveal."""

    dialog_id: str
    role: Role
    rounds: int
    round: int
    turn: Role | None = Field(description="Whose chat turn it is; null once the chat is over.")
    deadline: float | None = Field(description="Unix time your current step expires.")
    partner_deadline: float | None = None
    opinions: list[Opinion]
    image_url: str | None
    history: list[HistoryItem]
    todo: list[Phase] = Field(description="Forms this worker still has to submit, in order.")
    status: str
    partner_connected: bool = True
    salvage: bool = Field(False, description="Partner left; finish your side to be paid.")


class Welcome(_Frame):
    type: Literal["welcome"] = "welcome"
    v: int = PROTOCOL_VERSION
    worker_id: str
    where: Literal["idle", "lobby", "matched", "dialog", "done"]
    heartbeat_seconds: float
    lobby_max_wait_seconds: float


class LobbyStatus(_Frame):
    type: Literal["lobby"] = "lobby"
    joined_at: float
    expires_at: float
    waiting: int


class Matched(_Frame):
    type: Literal["matched"] = "matched"
    match_id: str
    deadline: float


class Requeued(_Frame):
    type: Literal["requeued"] = "requeued"
    reason: str


class LobbyTimeout(_Frame):
    type: Literal["lobby_timeout"] = "lobby_timeout"
    message: str
    waited_seconds: float


class State(_Frame):
    """The whole view of the dialog; sent on start, reconnect and every stage change."""

    type: Literal["state"] = "state"
    dialog: DialogView


class Message(_Frame):
    """A chat message accepted by the server (sent to both sides)."""

    type: Literal["message"] = "message"
    seq: int
    round: int
    role: Role
    text: str
    at: float


class Ack(_Frame):
    """The server stored the sender's message or form; it is safe from here on."""

    type: Literal["ack"] = "ack"
    client_id: str
    seq: int | None = None


def ack_json(client_id: str, seq: int | None) -> str:
    """``Ack(client_id=..., seq=...).model_dump_json()``, without building the model: two of the
    three frames out per chat message are this and :func:`message_json` (the same text, through
    the same JSON serializer; tests/test_protocol_doc.py checks them against the models)."""
    return f'{{"type":"ack","client_id":{_json(client_id)},"seq":{"null" if seq is None else int(seq)}}}'


def message_json(seq: int, round: int, role: Role, text: str, at: float) -> str:
    """``Message(seq=..., round=..., role=..., text=..., at=...).model_dump_json()`` (see
    :func:`ack_json`)."""
    return (
        f'{{"type":"message","seq":{int(seq)},"round":{int(round)},"role":{_json(role)},'
        f'"text":{_json(text)},"at":{_json(float(at))}}}'
    )


_MESSAGE_HEAD = '{"type":"message",'


def history_item_json(seq: int, round: int, role: Role, text: str, at: float) -> str:
    """``HistoryItem(seq=..., round=..., role=..., text=..., at=...).model_dump_json()``: the
    :func:`message_json` text without its type (the same fields, through the same serializer)."""
    return "{" + message_json(seq, round, role, text, at)[len(_MESSAGE_HEAD) :]


class Warning_(_Frame):
    type: Literal["warning"] = "warning"
    seconds_left: float
    message: str


class Ended(_Frame):
    """The dialog ended early; ``salvage`` says whether you may finish your side."""

    type: Literal["ended"] = "ended"
    status: str
    reason: str
    by_you: bool = Field(description="True if your own timeout or departure ended it.")
    message: str
    salvage: bool


class Done(_Frame):
    type: Literal["done"] = "done"
    completion_code: str
    message: str


class Error(_Frame):
    """Something the client sent was refused; nothing changed on the server."""

    type: Literal["error"] = "error"
    code: str
    message: str
    client_id: str | None = None
    rules: list[str] | None = Field(
        None, description="For code rule_violation: the ids of the chat rules the message broke."
    )


class RuleWarning(_Frame):
    """Your message was accepted and relayed, but it bends a chat rule; please avoid it."""

    type: Literal["rule_warning"] = "rule_warning"
    client_id: str = Field(description="The accepted message this is about.")
    rules: list[str] = Field(description="Ids of the soft rules the message hit.")
    message: str = Field(description="What to do differently, for the worker.")


class Pong(_Frame):
    type: Literal["pong"] = "pong"
    at: float


SERVER_FRAMES: tuple[type[BaseModel], ...] = (
    Welcome,
    LobbyStatus,
    Matched,
    Requeued,
    LobbyTimeout,
    State,
    Message,
    Ack,
    Warning_,
    Ended,
    Done,
    Error,
    RuleWarning,
    Pong,
)
CLIENT_FRAMES: tuple[type[BaseModel], ...] = (
    Hello,
    JoinLobby,
    Ready,
    ChatMessage,
    FormSubmit,
    Leave,
    Ping,
)
