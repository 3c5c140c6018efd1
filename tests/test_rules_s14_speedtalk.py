"""Session 14: the cheap tests in front of the greeting, off_topic, chat_language and asks_feelings regexes.

Each pre-check only skips a regex that cannot match; these examples (ours) pin the verdicts on both
sides of every pre-check: the messages that pass it still hit, the ones it skips still miss.
"""

from __future__ import annotations

import pytest

from server.rules import language, questions, smalltalk
from server.rules.base import Context

_PARTNER = {"questioner": "answerer", "answerer": "questioner"}


def _ctx(text: str, partner: str | None = None, role: str = "answerer") -> Context:
    history = [] if partner is None else [{"role": _PARTNER[role], "text": partner}]
    return Context(role, 2, text, history)


def _rule(rule_id: str):
    rules = smalltalk.RULES + language.RULES + questions.RULES
    rule = next(r for r in rules if r.id == rule_id)
    return lambda ctx: bool(rule.detect(ctx, rule.config()))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("In Porto we cook it with lots of garlic.", True),  # a capitalised place after "in"
        ("I'm in Lagos this week.", True),
        ("It is scorching, 38 degrees here in Accra.", True),
        ("in porto we cook it with lots of garlic.", False),  # no capital after the first letter
        ("The boat sits in the harbour near the Tower.", False),  # a capital, but no place aside
    ],
)
def test_place_asides(text: str, expected: bool) -> None:
    assert _rule("off_topic")(_ctx(text)) is expected


@pytest.mark.parametrize(
    ("partner", "expected"),
    [
        ("Before we start, where are you from?", True),
        ("what country are you in right now", True),
        ("What colour is the barn in the middle?", False),  # no personal question asked
    ],
)
def test_short_answer_to_a_personal_question(partner: str, expected: bool) -> None:
    assert _rule("off_topic")(_ctx("Ohio, born and bred.", partner)) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Hej! Hur mår du idag?", True),
        ("Ciao, come stai?", True),
        ("The lady holds a candle, come closer to see it.", False),
        ("Is the stall in the market selling fish?", False),
    ],
)
def test_how_are_you_in_other_languages(text: str, expected: bool) -> None:
    assert _rule("greeting")(_ctx(text, role="questioner")) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("hahaha the dog is wearing a hat", True),
        ("lolol what a face", True),
        ("hihihi he looks grumpy", True),  # "he" beside the laugh
        ("hihihi so grumpy", True),  # a laugh of "hi" alone is read since session 15
        ("The hat has a feather.", False),
        ("Look at the duck :)", True),
        (":) nice one", True),
        ("xD the cat", True),
        ("There are 8 boats; 3 are red.", False),  # eyes, but no emoticon
        ("Panel 8 shows a hill.", False),
        ("The sign says <3 on the wall.", True),
    ],
)
def test_chat_language_laughs_and_emoticons(text: str, expected: bool) -> None:
    assert _rule("chat_language")(_ctx(text)) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The painting is gorgeous, don't you think?", True),
        ("That picture is depressing, right?", True),
        ("The painting is gorgeous at the top.", False),  # no question mark: no agreement asked
        ("What is the woman looking at?", False),
    ],
)
def test_verdicts_put_up_for_agreement(text: str, expected: bool) -> None:
    assert _rule("asks_feelings")(_ctx(text, role="questioner")) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Sorry, I was making tea for the kids.", True),
        ("We visited Spain next summer, I think.", True),
        ("What is next to the door?", False),  # the group's word, none of its phrases
        ("The rough wall is next to the red door.", False),
    ],
)
def test_life_asides(text: str, expected: bool) -> None:
    assert _rule("off_topic")(_ctx(text)) is expected
