"""The pure dialog state machine: every rule judged without Redis, a database or a clock.

``step`` wraps ``apply`` and checks on every call that the input state is left untouched,
so that property is tested by every test here, not only by the one named for it.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.dialog import machine
from server.dialog.machine import (
    FORMS,
    ROLES,
    Acknowledge,
    DeadlineFired,
    DialogState,
    Disconnected,
    Event,
    Finalize,
    Finish,
    NotifyEnded,
    Outcome,
    Policy,
    Quit,
    Reconnected,
    Relay,
    Schedule,
    SendMessage,
    SendState,
    Start,
    StoreForm,
    StoreTurn,
    SubmitForm,
    Warn,
    apply,
    other,
    pending_deadlines,
)
from server.dialog.protocol import EMOTIONS

T0 = 1_000_000.0
P = Policy(
    rounds=3,
    turn_seconds=100.0,
    warn_seconds=10.0,
    form_seconds=200.0,
    grace_seconds=30.0,
    min_message_chars=2,
    max_message_chars=50,
    min_explanation_words=3,
    max_explanation_chars=120,
    salvage=True,
)
WORDS = "the hills look calm and quiet"


def step(state: DialogState, event: Event, policy: Policy = P) -> Outcome:
    """``apply``, checking that it never modifies the state it was given."""
    before = state.model_dump()
    out = apply(state, event, policy)
    assert state.model_dump() == before, "apply() modified its input state"
    return out


def new_state(policy: Policy = P) -> DialogState:
    return DialogState(
        id="d1",
        stimulus_id="s1",
        workers={"questioner": "wq", "answerer": "wa"},
        rounds=policy.rounds,
        positive_first=True,
    )


def started(policy: Policy = P, now: float = T0) -> DialogState:
    return step(new_state(policy), Start(now), policy).state


def of(out: Outcome, kind: type) -> list[Any]:
    return [e for e in out.effects if isinstance(e, kind)]


_ids = iter(range(10**9))


def say(state: DialogState, role: str, now: float, text: str = "a question?", policy: Policy = P) -> Outcome:
    return step(state, SendMessage(role, f"c{next(_ids)}", text, now), policy)  # type: ignore[arg-type]


def chat_to_end(state: DialogState, now: float = T0, policy: Policy = P) -> tuple[DialogState, float]:
    """Play every round in order; returns the state with the chat closed and the time."""
    while state.turn is not None:
        now += 5
        out = say(state, state.turn, now, policy=policy)
        assert out.error is None, out.error
        state = out.state
    return state, now


def form(
    state: DialogState,
    role: str,
    phase: str,
    now: float,
    emotion: str = "awe",
    explanation: str = WORDS,
    cid: str | None = None,
    policy: Policy = P,
) -> Outcome:
    event = SubmitForm(role, cid or f"f{next(_ids)}", phase, emotion, explanation, now)  # type: ignore[arg-type]
    return step(state, event, policy)


def assert_refused(out: Outcome, given: DialogState, code: str) -> None:
    assert out.error is not None and out.error[0] == code, out.error
    assert out.error[1], "a refusal carries a message for the worker"
    assert out.effects == []
    assert out.state == given
    assert not out.changed


# ---------------------------------------------------------------- start and turn order


def test_start_gives_the_questioner_the_first_turn_with_a_deadline():
    out = step(new_state(), Start(T0))
    s = out.state
    assert (s.turn, s.round, s.seq, s.status) == ("questioner", 1, 0, "in_progress")
    assert s.deadline == T0 + P.turn_seconds
    assert of(out, SendState) == [SendState("questioner"), SendState("answerer")]
    assert of(out, Schedule) == [
        Schedule("turn", "questioner", T0 + 100),
        Schedule("warn", "questioner", T0 + 90),
    ]


def test_strict_alternation_for_every_round():
    s, now = started(), T0
    for rnd in range(1, P.rounds + 1):
        for role in ROLES:
            now += 7
            out = say(s, role, now, f"{role} in round {rnd}")
            assert out.error is None
            (turn,) = of(out, StoreTurn)
            assert (turn.seq, turn.round, turn.role, turn.text) == (
                out.state.seq,
                rnd,
                role,
                f"{role} in round {rnd}",
            )
            assert turn.latency_ms == 7000
            assert of(out, Acknowledge) == [Acknowledge(role, turn.client_id, turn.seq)]
            assert of(out, Relay) == [Relay(turn.seq)]
            s = out.state
            if rnd < P.rounds or role == "questioner":
                assert s.turn == other(role) and s.deadline == now + P.turn_seconds
                assert Schedule("turn", other(role), now + P.turn_seconds) in out.effects
    assert s.seq == 2 * P.rounds
    assert s.turn is None


def test_questioner_cannot_send_twice():
    s = say(started(), "questioner", T0 + 1).state
    assert_refused(say(s, "questioner", T0 + 2, "another question?"), s, "not_your_turn")


def test_answerer_cannot_send_first():
    s = started()
    assert_refused(say(s, "answerer", T0 + 1, "an answer"), s, "not_your_turn")


@pytest.mark.parametrize(
    ("text", "code"),
    [("", "too_short"), ("  \x00a\x07  ", "too_short"), ("x" * 51, "too_long")],
)
def test_messages_outside_the_length_limits_are_refused(text, code):
    s = started()
    assert_refused(say(s, "questioner", T0 + 1, text), s, code)


def test_control_characters_are_removed_before_storing():
    out = say(started(), "questioner", T0 + 1, "  What\x00 colours\x1b?\n ")
    assert of(out, StoreTurn)[0].text == "What colours?"


# ---------------------------------------------------------------- forms and the reveal


def test_chat_closes_after_the_last_answer_and_both_roles_get_their_forms():
    s, now = chat_to_end(started())
    assert s.todo == {"questioner": ["before_reveal", "after_reveal"], "answerer": ["answerer"]}
    assert s.deadline is None and not s.chatting
    assert s.form_deadline == {"questioner": now + 200, "answerer": now + 200}
    assert s.current_deadline("questioner") == now + 200
    assert_refused(say(s, "questioner", now + 1, "one more?"), s, "chat_closed")


def test_last_answer_sends_both_states_and_schedules_the_forms():
    s, now = started(), T0
    for _ in range(2 * P.rounds - 1):
        now += 5
        s = say(s, s.turn, now).state  # type: ignore[arg-type]
    assert s.turn == "answerer" and s.round == P.rounds
    out = say(s, "answerer", now + 5)
    assert of(out, SendState) == [SendState("questioner"), SendState("answerer")]
    kinds = {(e.kind, e.role) for e in of(out, Schedule)}
    assert kinds == {
        ("form", "questioner"),
        ("form", "answerer"),
        ("warn", "questioner"),
        ("warn", "answerer"),
    }


def test_reveal_happens_only_after_the_before_reveal_form():
    s, now = chat_to_end(started())
    assert not s.revealed
    out = form(s, "answerer", "answerer", now + 1)
    assert out.error is None and not out.state.revealed
    out = form(out.state, "questioner", "before_reveal", now + 2, emotion="fear")
    assert out.error is None and out.state.revealed
    assert of(out, SendState) == [SendState("questioner")]  # the new view carries the image
    assert out.state.todo["questioner"] == ["after_reveal"]
    assert out.state.form_deadline["questioner"] == now + 2 + P.form_seconds


@pytest.mark.parametrize(
    ("role", "phase", "emotion", "explanation", "code"),
    [
        ("questioner", "before_reveal", "joy", WORDS, "invalid_emotion"),
        ("questioner", "before_reveal", "", WORDS, "invalid_emotion"),
        ("answerer", "answerer", "Awe", WORDS, "invalid_emotion"),
        ("questioner", "before_reveal", "awe", "too few", "explanation_too_short"),
        ("questioner", "before_reveal", "awe", "   \x00  ", "explanation_too_short"),
        ("answerer", "answerer", "awe", "word " * 40, "explanation_too_long"),
        ("questioner", "after_reveal", "awe", WORDS, "unexpected_form"),  # wrong phase: not yet
        ("questioner", "answerer", "awe", WORDS, "unexpected_form"),  # the answerer's form
        ("answerer", "before_reveal", "awe", WORDS, "unexpected_form"),  # the questioner's form
        ("answerer", "after_reveal", "awe", WORDS, "unexpected_form"),
    ],
)
def test_bad_forms_are_refused_without_any_change(role, phase, emotion, explanation, code):
    s, now = chat_to_end(started())
    assert_refused(form(s, role, phase, now + 1, emotion, explanation), s, code)


def test_forms_during_the_chat_are_refused():
    s = started()
    for role, phase in (("questioner", "before_reveal"), ("answerer", "answerer")):
        assert_refused(form(s, role, phase, T0 + 1), s, "unexpected_form")


def test_a_form_once_done_cannot_be_sent_again_with_a_new_client_id():
    s, now = chat_to_end(started())
    s = form(s, "answerer", "answerer", now + 1).state
    assert_refused(form(s, "answerer", "answerer", now + 2), s, "unexpected_form")


def test_every_emotion_is_accepted():
    s, now = chat_to_end(started())
    for emotion in EMOTIONS:
        assert form(s, "answerer", "answerer", now + 1, emotion=emotion).error is None


def test_status_is_complete_only_once_all_forms_are_in():
    s, now = chat_to_end(started())
    out = form(s, "questioner", "before_reveal", now + 1)
    assert out.state.status == "in_progress" and not of(out, Finalize) and not of(out, Finish)
    out = form(out.state, "answerer", "answerer", now + 2)
    assert out.state.status == "in_progress" and not of(out, Finalize)
    assert of(out, Finish) == [Finish("answerer", paid=True)]
    assert out.state.out == {"questioner": False, "answerer": True}
    out = form(out.state, "questioner", "after_reveal", now + 3, emotion="sadness")
    assert out.state.status == "complete"
    assert of(out, Finish) == [Finish("questioner", paid=True)] and of(out, Finalize) == [Finalize()]
    assert out.state.final and out.state.finished == {"questioner": True, "answerer": True}
    stored = of(out, StoreForm)
    assert [(f.role, f.phase, f.emotion, f.latency_ms) for f in stored] == [
        ("questioner", "after_reveal", "sadness", 2000)
    ]


def test_questioner_finishing_first_also_completes_when_the_answerer_is_done():
    s, now = chat_to_end(started())
    s = form(s, "questioner", "before_reveal", now + 1).state
    out = form(s, "questioner", "after_reveal", now + 2)
    assert out.state.status == "in_progress" and of(out, Finish) == [Finish("questioner", paid=True)]
    out = form(out.state, "answerer", "answerer", now + 3)
    assert out.state.status == "complete" and of(out, Finalize) == [Finalize()]


# ---------------------------------------------------------------- idempotent resends


def test_a_resent_message_is_acknowledged_with_its_original_seq_and_changes_nothing():
    s = started()
    first = step(s, SendMessage("questioner", "dup-1", "colours?", T0 + 1))
    s1 = step(first.state, SendMessage("answerer", "a-1", "blue and green", T0 + 2)).state
    again = step(s1, SendMessage("questioner", "dup-1", "colours?", T0 + 3))
    assert again.duplicate and not again.changed and again.error is None
    assert again.effects == [Acknowledge("questioner", "dup-1", 1)]
    assert again.state == s1


def test_the_messages_client_ids_are_not_stored_with_the_state():
    """``sent`` grows by one entry a message: the stored JSON leaves it out (the runtime rebuilds it
    from the message log), so a state read back without it no longer spots the resend by itself."""
    s = step(started(), SendMessage("questioner", "q-1", "colours?", T0 + 1)).state
    assert s.sent == {"questioner:q-1": 1} and s.applied == {}
    stored = s.model_dump_json()
    assert "q-1" not in stored and "sent" not in stored
    back = DialogState.model_validate_json(stored)
    assert back.sent == {} and back.model_dump() == s.model_dump()
    back.sent = {"questioner:q-1": 1}  # as the runtime does, from the log
    assert back == s
    assert step(back, SendMessage("questioner", "q-1", "colours?", T0 + 2)).duplicate


def test_a_message_listed_in_applied_by_an_older_server_is_still_a_resend():
    """States stored before ``sent`` existed list their messages in ``applied``."""
    s = step(started(), SendMessage("questioner", "q-1", "colours?", T0 + 1)).state
    old = DialogState.model_validate_json(s.model_dump_json())
    old.applied["questioner:q-1"] = 1
    again = step(old, SendMessage("questioner", "q-1", "colours?", T0 + 2))
    assert again.duplicate and again.effects == [Acknowledge("questioner", "q-1", 1)]
    words = "the blue and yellow colours described by my partner feel calm and bright to me"
    reused = step(old, SubmitForm("questioner", "q-1", "before_reveal", "awe", words, T0 + 3))
    assert reused.error and reused.error[0] == "client_id_reused"


def test_a_resent_form_is_acknowledged_and_changes_nothing():
    s, now = chat_to_end(started())
    s1 = form(s, "questioner", "before_reveal", now + 1, cid="form-1").state
    again = form(s1, "questioner", "before_reveal", now + 2, cid="form-1")
    assert again.duplicate and again.effects == [Acknowledge("questioner", "form-1", None)]
    assert again.state == s1


# ---------------------------------------------------------------- deadlines


@pytest.mark.parametrize("silent", ROLES)
def test_a_turn_deadline_ends_the_dialog_and_the_partner_gets_salvage_forms(silent):
    s = started()
    if silent == "answerer":
        s = say(s, "questioner", T0 + 1).state
    at = s.deadline
    assert at is not None
    out = step(s, DeadlineFired("turn", silent, at, at + 0.2))
    partner = other(silent)
    st = out.state
    assert (st.status, st.ended_by, st.end_reason) == ("timed_out", silent, "turn_timeout")
    assert st.turn is None and st.deadline is None
    assert st.out == {silent: True, partner: False}
    assert st.todo[silent] == [] and st.todo[partner] == FORMS[partner]
    assert st.salvage == partner
    assert of(out, NotifyEnded) == [NotifyEnded(silent, salvage=False), NotifyEnded(partner, salvage=True)]
    assert of(out, SendState) == [SendState(partner)]
    assert Schedule("form", partner, at + 0.2 + P.form_seconds) in out.effects
    assert not of(out, Finish) and not of(out, Finalize)
    # the silent worker can do nothing more; the partner finishes and is paid
    assert_refused(say(st, silent, at + 1), st, "not_active")
    now = at + 1
    for phase in FORMS[partner]:
        now += 1
        out = form(out.state, partner, phase, now)
        assert out.error is None
    assert of(out, Finish) == [Finish(partner, paid=True)] and of(out, Finalize) == [Finalize()]
    assert out.state.status == "timed_out" and out.state.ended_by == silent


def test_without_salvage_the_partner_is_finished_at_once():
    policy = Policy(**{**P.__dict__, "salvage": False})
    s = say(started(policy), "questioner", T0 + 1, policy=policy).state
    at = s.deadline
    out = step(s, DeadlineFired("turn", "answerer", at, at), policy)  # type: ignore[arg-type]
    assert out.state.todo == {"questioner": [], "answerer": []}
    assert out.state.out == {"questioner": True, "answerer": True} and out.state.final
    assert of(out, NotifyEnded) == [NotifyEnded("answerer", False), NotifyEnded("questioner", False)]
    assert of(out, Finish) == [Finish("questioner", paid=True)]
    assert of(out, Finalize) == [Finalize()]
    assert out.state.status == "timed_out" and out.state.salvage is None


def test_a_stale_deadline_does_nothing():
    s = started()
    old = s.deadline
    s = say(s, "questioner", T0 + 5).state  # the questioner's step is done
    for event in (
        DeadlineFired("turn", "questioner", old, old),  # type: ignore[arg-type]
        DeadlineFired("turn", "answerer", old, old),  # type: ignore[arg-type]
        DeadlineFired("turn", "answerer", s.deadline + 1, s.deadline + 1),  # type: ignore[operator]
        DeadlineFired("form", "answerer", s.deadline, s.deadline),  # type: ignore[arg-type]
        DeadlineFired("grace", "answerer", s.deadline, s.deadline),  # type: ignore[arg-type]
    ):
        out = step(s, event)
        assert out.effects == [] and out.state == s and out.error is None


def test_a_form_deadline_after_the_form_was_sent_does_nothing():
    s, now = chat_to_end(started())
    old = s.form_deadline["answerer"]
    s = form(s, "answerer", "answerer", now + 1).state
    out = step(s, DeadlineFired("form", "answerer", old, old))
    assert out.effects == [] and out.state == s
    q_old = s.form_deadline["questioner"]
    s = form(s, "questioner", "before_reveal", now + 2).state
    out = step(s, DeadlineFired("form", "questioner", q_old, q_old))  # the after_reveal has a new one
    assert out.effects == [] and out.state == s


def test_a_form_deadline_ends_the_dialog_and_the_partner_keeps_their_forms():
    s, now = chat_to_end(started())
    s = form(s, "questioner", "before_reveal", now + 1).state
    at = s.form_deadline["questioner"]
    out = step(s, DeadlineFired("form", "questioner", at, at))
    st = out.state
    assert (st.status, st.ended_by, st.end_reason) == ("timed_out", "questioner", "form_timeout")
    assert st.todo == {"questioner": [], "answerer": ["answerer"]}
    assert st.form_deadline == {"answerer": now + P.form_seconds}  # the partner's clock is unchanged
    assert of(out, NotifyEnded) == [NotifyEnded("questioner", False), NotifyEnded("answerer", True)]
    out = form(st, "answerer", "answerer", at + 1)
    assert of(out, Finalize) == [Finalize()] and out.state.status == "timed_out"


def test_warn_fires_only_for_the_current_deadline():
    s = started()
    warn_at = s.deadline - P.warn_seconds  # type: ignore[operator]
    out = step(s, DeadlineFired("warn", "questioner", warn_at, warn_at))
    assert out.effects == [Warn("questioner", P.warn_seconds)] and out.state == s
    assert step(s, DeadlineFired("warn", "answerer", warn_at, warn_at)).effects == []
    assert step(s, DeadlineFired("warn", "questioner", warn_at - 5, warn_at)).effects == []
    s2 = say(s, "questioner", T0 + 3).state
    assert step(s2, DeadlineFired("warn", "questioner", warn_at, warn_at)).effects == []
    assert step(s2, DeadlineFired("warn", "answerer", warn_at, warn_at)).effects == []
    new_warn = s2.deadline - P.warn_seconds  # type: ignore[operator]
    assert step(s2, DeadlineFired("warn", "answerer", new_warn, new_warn + 1)).effects == [
        Warn("answerer", P.warn_seconds - 1)
    ]


def test_warn_fires_for_a_form_deadline():
    s, now = chat_to_end(started())
    at = s.form_deadline["answerer"] - P.warn_seconds
    assert step(s, DeadlineFired("warn", "answerer", at, at)).effects == [Warn("answerer", P.warn_seconds)]
    done = form(s, "answerer", "answerer", now + 1).state
    assert step(done, DeadlineFired("warn", "answerer", at, at)).effects == []


# ---------------------------------------------------------------- connections, leaving


def test_disconnect_then_grace_expiry_abandons_the_dialog():
    s = say(started(), "questioner", T0 + 1).state
    out = step(s, Disconnected("answerer", T0 + 2))
    gone = out.state
    assert gone.connected == {"questioner": True, "answerer": False}
    assert out.effects == [SendState("questioner"), Schedule("grace", "answerer", T0 + 2 + P.grace_seconds)]
    again = step(gone, Disconnected("answerer", T0 + 3))  # a second close report changes nothing
    assert again.effects == [] and again.state == gone
    out = step(gone, DeadlineFired("grace", "answerer", T0 + 32, T0 + 32))
    st = out.state
    assert (st.status, st.ended_by, st.end_reason) == ("abandoned", "answerer", "disconnected")
    assert st.salvage == "questioner" and st.todo["questioner"] == FORMS["questioner"]


def test_reconnect_before_the_grace_cancels_it():
    s = say(started(), "questioner", T0 + 1).state
    gone = step(s, Disconnected("answerer", T0 + 2)).state
    out = step(gone, Reconnected("answerer", T0 + 10))
    back = out.state
    assert back.connected["answerer"] and "answerer" not in back.disconnected_at
    assert of(out, SendState) == [SendState("answerer"), SendState("questioner")]
    late = step(back, DeadlineFired("grace", "answerer", T0 + 32, T0 + 32))
    assert late.effects == [] and late.state == back
    # a later disconnect gets its own grace; the old one stays stale
    gone2 = step(back, Disconnected("answerer", T0 + 20)).state
    assert step(gone2, DeadlineFired("grace", "answerer", T0 + 32, T0 + 32)).effects == []
    assert step(gone2, DeadlineFired("grace", "answerer", T0 + 50, T0 + 50)).state.status == "abandoned"


def test_disconnect_does_not_pause_the_turn_deadline():
    s = say(started(), "questioner", T0 + 1).state
    gone = step(s, Disconnected("answerer", T0 + 2)).state
    out = step(gone, DeadlineFired("turn", "answerer", s.deadline, s.deadline + 1))  # type: ignore[arg-type]
    assert out.state.status == "timed_out" and out.state.end_reason == "turn_timeout"


def test_quit_abandons_and_a_second_quit_is_refused():
    s = started()
    out = step(s, Quit("questioner", T0 + 4))
    st = out.state
    assert (st.status, st.ended_by, st.end_reason) == ("abandoned", "questioner", "left")
    assert st.todo["answerer"] == ["answerer"] and st.salvage == "answerer"
    assert of(out, NotifyEnded) == [NotifyEnded("questioner", False), NotifyEnded("answerer", True)]
    assert_refused(step(st, Quit("questioner", T0 + 5)), st, "not_active")


def test_partner_quitting_after_finishing_first_keeps_status_of_the_dropout():
    s, now = chat_to_end(started())
    s = form(s, "answerer", "answerer", now + 1).state
    out = step(s, Quit("questioner", now + 2))
    assert out.state.status == "abandoned" and out.state.final
    assert of(out, NotifyEnded) == [NotifyEnded("questioner", False)]  # the finished answerer hears nothing
    assert of(out, Finalize) == [Finalize()]
    assert_refused(step(out.state, Quit("answerer", now + 3)), out.state, "not_active")


def test_a_disconnect_after_finishing_changes_nothing():
    s, now = chat_to_end(started())
    s = form(s, "answerer", "answerer", now + 1).state
    out = step(s, Disconnected("answerer", now + 2))
    assert out.effects == [] and out.state == s


def test_apply_never_modifies_its_input_for_any_kind_of_event():
    s, now = chat_to_end(started())
    for event in (
        SendMessage("questioner", "m", "late?", now),
        SubmitForm("questioner", "f", "before_reveal", "awe", WORDS, now),
        DeadlineFired("form", "answerer", s.form_deadline["answerer"], now),
        DeadlineFired("warn", "answerer", s.form_deadline["answerer"] - P.warn_seconds, now),
        Disconnected("answerer", now),
        Reconnected("answerer", now),
        Quit("questioner", now),
    ):
        frozen = s.model_copy(deep=True)
        out = apply(s, event, P)
        assert s == frozen and out.state is not s


# ---------------------------------------------------------------- random sequences


@st.composite
def an_event(draw: st.DrawFn, s: DialogState, now: float, policy: Policy) -> Event:
    """Mostly plausible events (so dialogs get far), with wrong, stale and repeated ones mixed in."""
    any_role = draw(st.sampled_from(ROLES))
    kind = draw(st.sampled_from(["say"] * 8 + ["form"] * 6 + ["deadline"] * 2 + ["conn", "quit"]))
    cid = draw(st.sampled_from([f"k{i}" for i in range(4)]) | st.uuids().map(str) | st.uuids().map(str))
    if kind == "say":
        role = draw(st.sampled_from([s.turn or any_role] * 3 + [any_role]))
        text = draw(st.sampled_from(["a fair question?"] * 4 + ["x", "", "y" * 60, "  ok  "]))
        return SendMessage(role, cid, text, now)
    if kind == "form":
        owing = [r for r in ROLES if s.todo[r]] or [any_role]
        role = draw(st.sampled_from([*owing * 3, any_role]))
        phase = draw(st.sampled_from([*s.todo[role][:1] * 6, "before_reveal", "after_reveal", "answerer"]))
        emotion = draw(st.sampled_from([*EMOTIONS, "joy"]))
        explanation = draw(st.sampled_from([WORDS] * 4 + ["two words", "z " * 80]))
        return SubmitForm(role, cid, phase, emotion, explanation, now)
    if kind == "deadline":
        dkind = draw(st.sampled_from(["turn", "form", "grace", "warn"]))
        since = s.disconnected_at.get(any_role)
        candidates = [
            x
            for x in (
                s.deadline,
                s.form_deadline.get(any_role),
                since + policy.grace_seconds if since is not None else None,
                (s.current_deadline(any_role) or 0) - policy.warn_seconds,
                now - 1000,
                now - 1000,
            )
            if x is not None
        ]
        return DeadlineFired(dkind, any_role, draw(st.sampled_from(candidates)), now)  # type: ignore[arg-type]
    if kind == "conn":
        return draw(st.sampled_from([Disconnected(any_role, now), Reconnected(any_role, now)]))
    if draw(st.integers(0, 9)) == 0:
        return Quit(any_role, now)
    return Reconnected(any_role, now)


@settings(max_examples=250, deadline=None)
@given(st.data())
def test_random_event_sequences_keep_the_rules(data):
    policy = Policy(
        **{**P.__dict__, "rounds": data.draw(st.integers(1, 3)), "salvage": data.draw(st.booleans())}
    )
    s, now = started(policy), T0
    seqs: list[int] = []
    forms_in: list[tuple[str, str]] = []
    finished: list[str] = []
    finalized = 0
    scheduled: set[Schedule] = set(pending_deadlines(s, policy))
    for _ in range(data.draw(st.integers(1, 50))):
        now += data.draw(st.sampled_from([0.0, 1.0, 50.0]))
        event = data.draw(an_event(s, now, policy))
        out = step(s, event, policy)
        if out.error is not None:
            assert out.state == s and out.effects == []
        if out.duplicate:
            assert out.state == s and all(isinstance(e, Acknowledge) for e in out.effects)
        for turn in of(out, StoreTurn):
            # accepted only from the role whose turn it was, during the chat, in order
            assert isinstance(event, SendMessage) and s.chatting and s.turn == event.role
            assert turn.seq == s.seq + 1 and turn.round == s.round == (turn.seq + 1) // 2
            assert turn.role == ("questioner" if turn.seq % 2 else "answerer")
            seqs.append(turn.seq)
        for f in of(out, StoreForm):
            assert not s.final and f.phase in FORMS[f.role] and (f.role, f.phase) not in forms_in
            if f.phase == "after_reveal":
                assert ("questioner", "before_reveal") in forms_in
            forms_in.append((f.role, f.phase))
        assert len(of(out, StoreTurn)) <= 1 and len(of(out, StoreForm)) <= 1
        for fin in of(out, Finish):
            assert fin.role not in finished
            finished.append(fin.role)
        finalized += len(of(out, Finalize))
        if of(out, Finalize):
            assert out.state.final
        if s.status != "in_progress":
            assert out.state.status == s.status, "a final status never changes"
        s = out.state
        scheduled |= set(of(out, Schedule))
        # what the runtime keeps scheduled is exactly what can still fire: the rest is stale
        pending = pending_deadlines(s, policy)
        assert pending <= scheduled
        for d in scheduled:
            fired = step(s, DeadlineFired(d.kind, d.role, d.at, max(now, d.at)), policy)
            assert bool(fired.effects) == (d in pending), (d, pending)
        assert seqs == list(range(1, len(seqs) + 1)), "seq never skips or repeats"
        assert s.seq == len(seqs) <= 2 * policy.rounds
        assert not s.revealed or ("questioner", "before_reveal") in forms_in
        if s.status == "complete":
            assert sorted(forms_in) == sorted(
                [("questioner", "before_reveal"), ("questioner", "after_reveal"), ("answerer", "answerer")]
            )
            assert s.seq == 2 * policy.rounds and s.ended_by is None
    assert finalized <= 1
    if len(forms_in) == 3 and s.ended_by is None:
        assert s.status == "complete" and finalized == 1


def test_a_client_id_cannot_be_reused_across_kinds_or_stolen_from_the_partner():
    from server.dialog.machine import DialogState, Policy, SendMessage, Start, SubmitForm, apply

    policy = Policy(rounds=1)
    s = apply(
        DialogState(
            id="d",
            stimulus_id="s",
            workers={"questioner": "q", "answerer": "a"},
            rounds=1,
            positive_first=True,
        ),
        Start(0.0),
        policy,
    ).state
    s = apply(s, SendMessage("questioner", "c1", "What colours are there?", 1.0), policy).state
    # the answerer using the questioner's id is a new message of theirs, not a resend
    out = apply(s, SendMessage("answerer", "c1", "Mostly blue with some yellow.", 2.0), policy)
    assert out.changed and out.state.seq == 2
    words = "the blue and yellow colours described by my partner feel calm and bright to me"
    form = apply(out.state, SubmitForm("answerer", "c1", "answerer", "awe", words, 3.0), policy)
    assert form.error and form.error[0] == "client_id_reused"
    form = apply(out.state, SubmitForm("answerer", "f1", "answerer", "awe", words, 3.0), policy)
    assert form.changed
    again = apply(form.state, SendMessage("answerer", "f1", "text", 4.0), policy)
    assert again.error and again.error[0] == "client_id_reused"


def test_the_state_copy_shares_no_container_with_the_original():
    """``apply`` copies the state by hand: every container in it must be one the copy owns."""
    state = new_state()
    state.todo["questioner"].append("before_reveal")
    state.applied["questioner:c1"] = 1
    copy = machine._copy(state)
    assert copy.model_dump() == state.model_dump() and copy == state
    assert copy.model_fields_set == state.model_fields_set
    assert copy.model_fields_set is not state.model_fields_set
    for name, value in state.__dict__.items():
        assert type(value) in (str, int, float, bool, type(None), dict), f"{name}: copy it in _copy"
        if isinstance(value, dict):
            assert getattr(copy, name) is not value, name
            for key, inner in value.items():
                assert type(inner) in (str, int, float, bool, type(None), list), f"{name}[{key}]"
                if isinstance(inner, list):
                    assert getattr(copy, name)[key] is not inner and all(type(x) is str for x in inner)
