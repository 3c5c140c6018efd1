"""Greetings, generic questions and foreign text of the kinds batches 9 and 10 revealed.

Filipino and Indian English ("po", "ji", "kindly"), chat spellings ("wat", "pic"), Tagalog and
romanised Hindi. The cases are written for this test, not copied from the evaluation files; each
group of positives has near misses beside it that must stay clean.
"""

from __future__ import annotations

import pytest

from server.rules.registry import check

_NO_MODEL = {"classifier": False}


def _rules(text: str, role: str = "questioner") -> set[str]:
    """The rules the detectors alone fire on one message (no classifier, so the test reads the code)."""
    return {hit.id for hit in check(role, 2, text, [], config=_NO_MODEL).hits}


@pytest.mark.parametrize(
    "text",
    [
        "yo whats in the pic",
        "hello what is this even meant to be",
        "wut is it",
        "hi, what am i seeing here",
        "Kindly tell about the artwork.",
        "Good day! Kindly describe the image.",
        "What all is there apart from the fountain?",
        "What else is there besides the two dogs?",
        "What else is in the picture po?",
        "Anything else in the image ji?",
        "okay wat else po",
        "so whats the freaking pic",
        "What else is there in the composition?",
    ],
)
def test_generic_requests_in_chat_and_regional_english(text: str) -> None:
    assert "generic_question" in _rules(text)


@pytest.mark.parametrize(
    "text",
    [
        "what is the pic on the wall behind her?",
        "what is this creature supposed to be holding?",
        "What is the fountain made of, po?",
        "Kindly tell about the woman's hat.",
        "what else is in the background?",
        "what is the man looking at?",
        "wat colour is the boat",
        "What is the banana next to?",
    ],
)
def test_specific_questions_stay_clean(text: str) -> None:
    assert "generic_question" not in _rules(text)


@pytest.mark.parametrize(
    ("text", "role"),
    [
        ("Farewell, God bless you!", "answerer"),
        ("Good evening po! Is the bridge made of stone?", "questioner"),
        ("My pleasure, enjoy your evening.", "answerer"),
        ("Right, thank you, that's plenty.", "questioner"),
        ("Okay maraming salamat po, that's all.", "questioner"),
        ("Vielen Dank. Tschüss!", "questioner"),
        ("hows it going", "questioner"),
        ("hows ur day going?", "questioner"),
        ("Gracias, hasta luego.", "answerer"),
        ("Thanks, same to you!", "answerer"),
        ("Most welcome!", "answerer"),
        ("Fine, thank you for the details.", "questioner"),
    ],
)
def test_courtesy_and_farewells(text: str, role: str) -> None:
    assert "greeting" in _rules(text, role)


@pytest.mark.parametrize(
    ("text", "role"),
    [
        ("The old man is waving farewell to the ship.", "answerer"),
        ("Is the priest saying god bless over the child?", "questioner"),
        ("Do the children enjoy the game in the snow?", "questioner"),
        ("Right, is the lamp lit?", "questioner"),
        ("Thanks! How many chairs are at the table?", "questioner"),
        ("Good morning light comes through the window on the left.", "answerer"),
        ("How is the dog sitting?", "questioner"),
        ("The woman is welcoming her guests at the door.", "answerer"),
    ],
)
def test_content_with_the_same_words_passes(text: str, role: str) -> None:
    assert "greeting" not in _rules(text, role)


@pytest.mark.parametrize(
    ("text", "role"),
    [
        ("May pusa po sa ibabaw ng mesa, at may bulaklak sa tabi niya.", "answerer"),
        ("Ano ang hawak ng babae?", "questioner"),
        ("May bangka ba sa ilog?", "questioner"),
        ("Sa gitna po.", "answerer"),
        ("Hindi po.", "answerer"),
        ("Aasmaan ka rang kya hai?", "questioner"),
        ("Ladki ke haath mein kya hai?", "questioner"),
        ("Peeche ek ghoda hai aur ek aadmi bhi hai.", "answerer"),
    ],
)
def test_tagalog_and_hinglish(text: str, role: str) -> None:
    assert "non_english" in _rules(text, role)


@pytest.mark.parametrize(
    ("text", "role"),
    [
        ("What else is in the picture po?", "questioner"),
        ("Yes po, the boat is red.", "answerer"),
        ("The SE corner has a small hut.", "answerer"),
        ("Is the sign in the corner saying KO?", "questioner"),
        ("May I ask what colour the sky is?", "questioner"),
        ("The man at the table may be a sailor.", "answerer"),
        ("Na, it is a goat, not a sheep.", "answerer"),
        ("Pa is holding a rake in the field.", "answerer"),
    ],
)
def test_english_with_the_same_short_words_passes(text: str, role: str) -> None:
    assert "non_english" not in _rules(text, role)
