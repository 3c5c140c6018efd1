"""docs/protocol.md is generated from the frame models and stays true to the server's code."""

from __future__ import annotations

import ast
import inspect
import json
import re
import types
from typing import Any, Union, get_args, get_origin

from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from server import tokens, ws
from server.dialog import machine
from server.dialog import protocol as p
from server.dialog import protocol_doc as doc
from server.dialog.machine import (
    Acknowledge,
    DialogState,
    Finish,
    Policy,
    Relay,
    SendMessage,
    SendState,
    Start,
    StoreTurn,
    SubmitForm,
    apply,
)
from server.settings import REPO_ROOT

DOC = REPO_ROOT / "docs" / "protocol.md"
FRAMES = (*p.CLIENT_FRAMES, *p.SERVER_FRAMES)


def test_committed_doc_equals_the_generated_one():
    assert DOC.read_text() == doc.render(), (
        "docs/protocol.md is stale: run `python -m server.dialog.protocol_doc > docs/protocol.md`"
    )


def test_every_frame_class_of_the_protocol_is_listed_and_documented():
    declared = {
        obj
        for obj in vars(p).values()
        if inspect.isclass(obj) and issubclass(obj, p._Frame) and obj is not p._Frame
    }
    assert declared == set(FRAMES), "a frame model is missing from CLIENT_FRAMES / SERVER_FRAMES"
    text = DOC.read_text()
    for cls in FRAMES:
        assert f"### `{doc.frame_type(cls)}` ({cls.__name__})" in text
        assert doc.class_description(cls), f"{cls.__name__} has no description"
        assert doc._pretty(doc.EXAMPLES[cls]) in text
        for name in cls.model_fields:
            assert f"| `{name}` |" in text


def _nested_models(tp: Any) -> set[type[BaseModel]]:
    origin = get_origin(tp)
    if origin in (Union, types.UnionType, list):
        return set().union(*(_nested_models(a) for a in get_args(tp)))
    if inspect.isclass(tp) and issubclass(tp, BaseModel):
        return {tp} | set().union(*(_nested_models(f.annotation) for f in tp.model_fields.values()))
    return set()


def test_every_field_has_a_description_and_no_note_is_stale():
    nested = set().union(*(_nested_models(f.annotation) for c in FRAMES for f in c.model_fields.values()))
    assert nested <= set(doc.OBJECTS), (
        f"objects used by frames but not documented: {nested - set(doc.OBJECTS)}"
    )
    for cls in (*FRAMES, *doc.OBJECTS):
        for name in cls.model_fields:
            assert doc.description(cls, name), f"{cls.__name__}.{name} has no description"
    known = {(c.__name__, n) for c in (*FRAMES, *doc.OBJECTS) for n in c.model_fields}
    assert set(doc.FIELD_NOTES) <= known, set(doc.FIELD_NOTES) - known
    assert set(doc.CLASS_NOTES) <= {c.__name__ for c in (*FRAMES, *doc.OBJECTS)}


def test_examples_are_frames_the_other_side_accepts():
    for cls in p.CLIENT_FRAMES:
        wire = doc._compact(doc.EXAMPLES[cls])
        assert p.client_frame_adapter.validate_python(json.loads(wire)) == doc.EXAMPLES[cls]
    for cls in p.SERVER_FRAMES:
        assert cls.model_validate_json(doc._compact(doc.EXAMPLES[cls])) == doc.EXAMPLES[cls]
    for step in doc.exchange():
        if step.way == ">":
            p.client_frame_adapter.validate_python(json.loads(doc._compact(step.frame)))


# ---------------------------------------------------------------- error codes


def _codes_in(tree: ast.AST) -> set[str]:
    """Error codes the code can send: first string argument of the refusal helpers, plus
    ``("code", "message")`` pairs returned by the frame parser."""
    code_re = re.compile(r"^[a-z]+(_[a-z]+)*$")
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = getattr(node.func, "attr", None) or getattr(node.func, "id", None)
            for kw in node.keywords if name == "Error" else ():
                if kw.arg == "code" and isinstance(kw.value, ast.Constant):
                    found.add(kw.value.value)
            if name in ("_reject", "_error", "_fatal", "TokenError"):
                for arg in node.args:
                    if (
                        isinstance(arg, ast.Constant)
                        and isinstance(arg.value, str)
                        and code_re.match(arg.value)
                    ):
                        found.add(arg.value)
                        break
        elif isinstance(node, ast.Tuple) and len(node.elts) == 2:
            first, second = node.elts
            is_message = isinstance(second, ast.JoinedStr) or (
                isinstance(second, ast.Constant) and isinstance(second.value, str) and " " in second.value
            )
            if isinstance(first, ast.Constant) and isinstance(first.value, str) and is_message:
                found.add(first.value)
    return found


def test_the_error_table_lists_exactly_the_codes_the_server_sends():
    sent = _codes_in(ast.parse(inspect.getsource(ws))) | _codes_in(ast.parse(inspect.getsource(machine)))
    sent |= _codes_in(ast.parse(inspect.getsource(tokens.Signer.worker_from_token).strip()))
    documented = [code for code, _, _ in doc.ERRORS]
    assert len(documented) == len(set(documented))
    assert sent == set(documented)
    # a sanity check of the scanner itself
    assert {"not_your_turn", "second_tab", "malformed", "expired_token"} <= sent


# ---------------------------------------------------------------- the example exchange


def _view_key(view: p.DialogView) -> tuple:
    return ("state", view.turn, view.round, tuple(view.todo), view.image_url is not None, view.status)


def test_the_example_exchange_is_what_the_machine_does():
    """Replay the example's client frames through the real machine; the frames the example
    shows each worker receiving must be the ones the machine's effects produce."""
    roles = {"Q": "questioner", "A": "answerer"}
    policy = Policy(rounds=2)
    state = DialogState(
        id=doc.MATCH,
        stimulus_id="s",
        workers={"questioner": doc.Q_ID, "answerer": doc.A_ID},
        rounds=2,
        positive_first=True,
    )
    expected: dict[str, list[tuple]] = {"questioner": [], "answerer": []}
    shown: dict[str, list[tuple]] = {"questioner": [], "answerer": []}
    turns: dict[int, StoreTurn] = {}
    readies, now = 0, doc.T0

    def run(event) -> None:
        nonlocal state
        out = apply(state, event, policy)
        if out.error:
            expected[event.role].append(("error", out.error[0], event.client_id))
            return
        state = out.state
        for eff in out.effects:
            if isinstance(eff, StoreTurn):
                turns[eff.seq] = eff
            elif isinstance(eff, Acknowledge):
                expected[eff.role].append(("ack", eff.client_id, eff.seq))
            elif isinstance(eff, Relay):
                t = turns[eff.seq]
                for role in ("questioner", "answerer"):
                    expected[role].append(("message", t.seq, t.round, t.role, t.text))
            elif isinstance(eff, SendState):
                view = p.DialogView(
                    dialog_id=state.id,
                    role=eff.role,
                    rounds=state.rounds,
                    round=state.round,
                    turn=state.turn,
                    deadline=None,
                    opinions=[],
                    image_url="x" if eff.role == "answerer" or state.revealed else None,
                    history=[],
                    todo=state.todo[eff.role],
                    status=state.status,
                )
                expected[eff.role].append(_view_key(view))
            elif isinstance(eff, Finish):
                expected[eff.role].append(("done",))

    for step in doc.exchange():
        role = roles[step.who]
        f = step.frame
        now += 1
        if step.way == ">":
            if isinstance(f, p.Ready):
                readies += 1
                if readies == 2:
                    run(Start(now))
            elif isinstance(f, p.ChatMessage):
                run(SendMessage(role, f.client_id, f.text, now))  # type: ignore[arg-type]
            elif isinstance(f, p.FormSubmit):
                run(SubmitForm(role, f.client_id, f.phase, f.emotion, f.explanation, now))  # type: ignore[arg-type]
        elif isinstance(f, p.Ack):
            shown[role].append(("ack", f.client_id, f.seq))
        elif isinstance(f, p.Message):
            shown[role].append(("message", f.seq, f.round, f.role, f.text))
        elif isinstance(f, p.Error):
            shown[role].append(("error", f.code, f.client_id))
        elif isinstance(f, p.State):
            assert f.dialog.role == role
            shown[role].append(_view_key(f.dialog))
        elif isinstance(f, p.Done):
            shown[role].append(("done",))
    assert shown == expected
    assert state.status == "complete"


@settings(max_examples=300, deadline=None)
@given(
    client_id=st.text(min_size=1, max_size=64),
    seq=st.one_of(st.none(), st.integers(min_value=0, max_value=10**6)),
    text=st.text(max_size=600),
    at=st.floats(min_value=0, max_value=4e9, allow_nan=False),
    role=st.sampled_from(["questioner", "answerer"]),
)
def test_the_frames_built_by_hand_are_the_models_json(client_id, seq, text, at, role):
    """The chat path writes ``ack`` and ``message`` frames (and the state frames' history items)
    without building their models."""
    assert p.ack_json(client_id, seq) == p.Ack(client_id=client_id, seq=seq).model_dump_json()
    model = p.Message(seq=seq or 0, round=3, role=role, text=text, at=at)
    assert p.message_json(seq or 0, 3, role, text, at) == model.model_dump_json()
    item = p.HistoryItem(seq=seq or 0, round=3, role=role, text=text, at=at)
    assert p.history_item_json(seq or 0, 3, role, text, at) == item.model_dump_json()
    for time_ in (1764124865.0, 1764124865.123456, 0.1 + 0.2, 1e-7):
        model = p.Message(
            seq=1, round=1, role=role, text='a "quoted" \\ line\n\u00e9\u2028\U0001f600', at=time_
        )
        assert p.message_json(1, 1, role, model.text, time_) == model.model_dump_json()
