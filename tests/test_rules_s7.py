"""Session-7 additions to the rules, each with near misses that must stay clean.

The sentences are written for this test (not copied from the evaluation files). The detectors run
without the classifiers, so a test reads the rule's own code.
"""

from __future__ import annotations

import pytest

from server.rules.registry import check

_NO_MODEL = {"classifier": False}


def _rules(text: str, role: str = "questioner", before: str | None = None) -> set[str]:
    """The rules the detectors alone fire on one message; ``before`` is the partner's message before it."""
    history = (
        []
        if before is None
        else [{"role": "answerer" if role == "questioner" else "questioner", "text": before}]
    )
    return {hit.id for hit in check(role, 2, text, history, config=_NO_MODEL).hits}


# --- generic_question: the sheet or print the artwork is on names the whole artwork -----------------


@pytest.mark.parametrize(
    "text",
    [
        "What else does the sheet show?",
        "What does the etching depict?",
        "What else does the drawing show?",
        "What is in the watercolour?",
        "What else is shown in the print?",
    ],
)
def test_generic_request_about_the_whole_sheet(text: str) -> None:
    assert "generic_question" in _rules(text)


@pytest.mark.parametrize(
    "text",
    [
        # a part of the scene narrows the request (guide: generic asks for nothing specific)
        "What else is there in the background?",
        "What else lies on the table besides the bread?",
        "What is written on the sheet of paper she holds?",
        "What colour is the sheet on the bed?",
        "What else does the woman hold?",
    ],
)
def test_requests_about_a_part_stay_specific(text: str) -> None:
    assert "generic_question" not in _rules(text)


# --- non_english: short replies of colour and degree words -----------------------------------------


@pytest.mark.parametrize(
    "text",
    ["Gris, presque bleu.", "Blanc et gris.", "Quase preto.", "Schwarz, ziemlich dunkel.", "Nera e bianca."],
)
def test_short_foreign_colour_replies(text: str) -> None:
    assert "non_english" in _rules(text, "answerer")


@pytest.mark.parametrize(
    "text", ["Dark grey, almost blue.", "Maroon and black.", "Grey, nearly black.", "Beige with a red trim."]
)
def test_short_english_colour_replies(text: str) -> None:
    assert "non_english" not in _rules(text, "answerer")


# --- greeting: longer sign-offs; thanks after real content is not one ------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Alright, I think I get the picture now, thanks po.",
        "Great, I have a clear idea of it now. Thank you!",
        "Okay, I can imagine the scene now, thanks a lot.",
        "Thanks, that helps a lot.",
        "I understand it much better now, thank you so much.",
    ],
)
def test_sign_offs_saying_the_picture_is_clear(text: str) -> None:
    assert "greeting" in _rules(text)


@pytest.mark.parametrize(
    "text",
    [
        "Thanks, I think I get why the boy is crying. Is his mother nearby?",
        "I think I understand the layout now. Is the door open?",
        "I can picture the river now, what colour is the bridge?",
        "I understand the painting has a river. Is the water calm?",
    ],
)
def test_understanding_before_a_question_is_not_a_sign_off(text: str) -> None:
    assert "greeting" not in _rules(text)


@pytest.mark.parametrize(
    "text",
    [
        "The fox is orange with a white tail, thanks.",
        "It is a stone bridge with three arches. Thank you!",
        "She holds a small brass lamp, thanks for asking.",
    ],
)
def test_thanks_after_a_good_answer_is_not_a_greeting(text: str) -> None:
    assert _rules(text, "answerer") == set()


# --- replies to greetings: greeting, not short_answer (nor answer_is_question) ---------------------


@pytest.mark.parametrize(
    ("before", "text"),
    [
        ("Hi partner!", "Hey."),
        ("Good evening!", "Evening!"),
        ("Thanks a lot!", "You're welcome."),
        ("Thank you for the help.", "Welcome!"),
        ("Bye now!", "Bye!"),
        ("Nice to meet you.", "Likewise."),
        ("Hello, how are you?", "Fine, and you?"),
        ("How's it going?", "Great, how about yourself?"),
    ],
)
def test_reply_to_a_pleasantry_is_greeting_only(before: str, text: str) -> None:
    assert _rules(text, "answerer", before) == {"greeting"}


@pytest.mark.parametrize(
    ("before", "text"),
    [
        ("Is the sea calm?", "Calm."),
        ("Is the dog happy?", "Yes, thanks."),
        ("What does the sign say?", "Welcome home?"),
        ("How does the old man look?", "Fine."),
        ("Is the painting good?", "Good."),
    ],
)
def test_short_answers_to_real_questions_stay_short(before: str, text: str) -> None:
    assert "short_answer" in _rules(text, "answerer", before)
