"""Session 15: wordings of the development batches 15-21 the detectors missed, and their near misses.

Farewells that leave the chat ("gtg", "I have to go now"), a farewell with a name ("see ya Kenji!"),
and laughter written as "hihihi" with no "ha" or "he" in the message.
"""

from __future__ import annotations

import pytest

from server.rules import RulesConfig, check

NO_CLASSIFIERS = RulesConfig(classifier=False)


def hits(role: str, text: str) -> set[str]:
    return set(check(role, 2, text, config=NO_CLASSIFIERS).rule_ids)


@pytest.mark.parametrize(
    ("role", "text"),
    [
        ("questioner", "my little brother needs the laptop gtg"),
        ("questioner", "ok gtg"),
        ("questioner", "Sorry, I have to go now."),
        ("answerer", "That was fun. I need to go now!"),
        ("answerer", "No worries, see ya Tomas!"),
        ("questioner", "Thanks for all that, bye Maria."),
        ("answerer", "Cya mate"),
    ],
)
def test_leaving_the_chat_is_a_greeting(role: str, text: str) -> None:
    assert "greeting" in hits(role, text)


@pytest.mark.parametrize(
    ("role", "text"),
    [
        ("questioner", "Does the boat have to go under the bridge?"),
        ("answerer", "The old cart has got to go up the hill."),
        ("questioner", "Why does the man need to go?"),
        ("answerer", "He is waving bye to the ship."),
        ("questioner", "What does the sign say? Bye Bye Road?"),
        ("answerer", "I can see you are curious about the dog."),
    ],
)
def test_the_same_words_about_the_artwork_are_no_greeting(role: str, text: str) -> None:
    assert "greeting" not in hits(role, text)


@pytest.mark.parametrize("text", ["hihihi so cute", "hihihi", "Yes a cat, hihihi"])
def test_hihihi_is_laughter_without_ha_or_he(text: str) -> None:
    assert "chat_language" in hits("answerer", text)


@pytest.mark.parametrize(
    "text", ["The boy is hiking up a hill.", "A chihuahua sits on the mat.", "Hi! Is it a dog?"]
)
def test_words_with_hi_are_no_laughter(text: str) -> None:
    assert "chat_language" not in hits("answerer" if "?" not in text else "questioner", text)
