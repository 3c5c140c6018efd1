"""Session 17: questions in chat spelling and greetings with small talk (development batches 7-23).

``not_a_question``: Scots "whit" for "what", a question after a text emoticon ("hey :) hows it look"),
"ya"/"yeah" before the question word, and a guess ended with "or what". ``off_topic``: "how is your
day going?" and "hows your day" are small talk, a greeting (every labelled line says so), and "my
brother"/"my sister" right after "good morning", "hello" or "hi" is a word of address, not family.
Each has near misses that must keep their verdict. Sentences written for this test.
"""

from __future__ import annotations

import pytest

from server.rules import RulesConfig, check

NO_CLASSIFIERS = RulesConfig(classifier=False)


def hits(role: str, text: str) -> set[str]:
    return set(check(role, 2, text, config=NO_CLASSIFIERS).rule_ids)


@pytest.mark.parametrize(
    "text",
    [
        "whit's the wee dog doing",
        "aye ok. whit colour is the boat",
        "hey :) hows the sky look",
        "nice :D is there a cat",
        "ya what about the river",
        "yeah where is the sun",
        "The man by the door is a thief or what lol",
    ],
)
def test_questions_in_chat_spelling_are_questions(text: str) -> None:
    assert "not_a_question" not in hits("questioner", text)


@pytest.mark.parametrize(
    "text",
    [
        "not a whit of colour in it",
        "ok :) the cat is cute",
        "ya the river is nice",
        "yeah I like the sun",
        "I don't know what",
    ],
)
def test_statements_stay_statements(text: str) -> None:
    assert "not_a_question" in hits("questioner", text)


def test_whit_else_is_a_generic_question() -> None:
    assert "generic_question" in hits("questioner", "whit else is in it")
    assert "generic_question" not in hits("questioner", "whit colour is the boat")


@pytest.mark.parametrize(
    "text",
    [
        "Good morning, how is your day going?",
        "hows your day going",
        "Hello my sister, how are you?",
        "Good evening my brother. What is in the picture?",
        "Hi my friend, is it a painting?",
    ],
)
def test_greetings_with_small_talk_are_not_off_topic(text: str) -> None:
    found = hits("questioner", text)
    assert "off_topic" not in found


@pytest.mark.parametrize(
    "text",
    [
        "This morning my brother fell off his bike.",
        "My sister paints too, she would love this.",
        "Hello! My brother lives in Lisbon.",
        "What did you do this weekend?",
    ],
)
def test_the_partners_life_is_still_off_topic(text: str) -> None:
    assert "off_topic" in hits("questioner", text)
