"""The labeling guide's conventions, rule by rule: what must hit and what must stay quiet.

Written after batch 4 was opened as development data; every case is a general form (a salutation
in chat or another language, a sign-off, a full-width question mark), not a batch-4 sentence.
"""

from __future__ import annotations

import pytest

from server.rules import check
from server.rules.features import _personal


def hits(role: str, text: str, **kw) -> set[str]:
    return set(check(role, kw.pop("round", 2), text, **kw).rule_ids)


POSITIVE = [
    # greeting: salutations of chat and other languages at the start, even before a real question
    ("questioner", "heyy, is the boat red?", "greeting"),
    ("questioner", "hii what colour is the sky?", "greeting"),
    ("questioner", "hey hey, any people in it?", "greeting"),
    ("questioner", "Hola! Is there a dog?", "greeting"),
    ("questioner", "Bonjour, is the sea calm?", "greeting"),
    ("answerer", "Buongiorno! A tall tower stands on the rocks.", "greeting"),
    ("questioner", "Yo, how many horses are there?", "greeting"),
    ("questioner", "Wassup, is it night?", "greeting"),
    ("questioner", "Guten Tag, is the woman old?", "greeting"),
    # greeting: sign-offs made of thanks and closing words only
    ("questioner", "Great, that was my last question, thanks a lot.", "greeting"),
    ("questioner", "Ok thank you, I have no more questions!", "greeting"),
    ("answerer", "Thanks, it was nice chatting with you.", "greeting"),
    ("questioner", "That's all from me, thank you for your help.", "greeting"),
    # asks_feelings: the artist's intent and message
    ("questioner", "What was the painter hoping to express?", "asks_feelings"),
    ("questioner", "Is there a deeper meaning in it?", "asks_feelings"),
    ("questioner", "What is the message behind the picture?", "asks_feelings"),
    # generic_question: "pls" is politeness
    ("questioner", "Tell me what you see pls.", "generic_question"),
    # chat_language: "sup" and its spellings
    ("questioner", "sup, is the dog big?", "chat_language"),
]
NEGATIVE = [
    # a brief thanks before a real question or answer is not a greeting
    ("questioner", "Thank you! Is the bridge made of stone?", "greeting"),
    ("questioner", "ok thx, wat is on the table?", "greeting"),
    ("answerer", "Thanks for waiting! The boy holds a kite.", "greeting"),
    ("questioner", "That is all the boats there are, thanks?", "greeting"),
    # words that begin like a salutation
    ("answerer", "A golden halo circles the saint's head.", "greeting"),
    ("answerer", "Olive trees line the road.", "greeting"),
    ("answerer", "Saluting soldiers stand in a row.", "greeting"),
    ("answerer", "Hollow trees stand by the river.", "greeting"),
    ("answerer", "Holy water fills a stone basin.", "greeting"),
    ("questioner", "Is the woman waving hello to the sailors?", "greeting"),
    ("questioner", "Is there soup on the table?", "chat_language"),
    # the artist as a fact, a message inside the painting
    ("questioner", "What is the painter's name?", "asks_feelings"),
    ("questioner", "Did the artist sign the canvas?", "asks_feelings"),
    ("questioner", "What is the message written on the sign?", "asks_feelings"),
    ("questioner", "Did the painter use thick paint or thin?", "asks_feelings"),
    ("questioner", "Describe the boat pls.", "generic_question"),
    # a sign-off is not a generic question
    ("questioner", "Ok thanks, no more questions.", "generic_question"),
    # a question in another script still asks
    ("questioner", "\u753b\u91cc\u6709\u72d7\u5417\uff1f", "not_a_question"),
    ("questioner", "\u0647\u0644 \u0647\u0646\u0627\u0643 \u0643\u0644\u0628\u061f", "not_a_question"),
]


@pytest.mark.parametrize(("role", "text", "rule"), POSITIVE)
def test_convention_hits(role: str, text: str, rule: str) -> None:
    assert rule in hits(role, text)


@pytest.mark.parametrize(("role", "text", "rule"), NEGATIVE)
def test_convention_stays_quiet(role: str, text: str, rule: str) -> None:
    assert rule not in hits(role, text)


def test_personal_features_mark_the_workers_life_only() -> None:
    """The classifiers see "my uncle" / "I grew up" as an aside, "her son" as content."""
    assert _personal(["my", "uncle", "was", "a", "sailor"]) == ["P:own"]
    assert _personal(["i", "grew", "up", "near", "the", "sea"]) == ["P:past"]
    assert _personal(["her", "son", "was", "a", "sailor"]) == []
    assert _personal(["i", "think", "it", "is", "red"]) == []


def test_bare_request_is_a_question() -> None:
    """An imperative request asks: "Describe it." is generic, not a missing question."""
    assert hits("questioner", "Describe it.") >= {"generic_question"}
    assert "not_a_question" not in hits("questioner", "Describe it.")
    assert "not_a_question" not in hits("questioner", "Tell me about her dress.")
    assert "not_a_question" in hits("questioner", "The dress is probably blue.")


def _repeat(question: str, *earlier: str) -> bool:
    history = [{"role": "questioner", "text": t} for t in earlier]
    return "repeated_question" in hits("questioner", question, history=history)


@pytest.mark.parametrize(
    ("earlier", "question"),
    [
        ("What is the fisherman wearing?", "What clothes does the man have on?"),  # general word
        ("How many cows are in the field?", "How many animals are there?"),  # counted one level up
        ("How many sailors can you see?", "Roughly how many men are on the deck?"),
        ("Are there any ships on the sea?", "Can you see boats on the water?"),  # synonym
        ("Where does the smoke come from?", "What is the source of the smoke?"),  # rephrased
        ("Is the road wet?", "Is the road wet and shiny?"),  # one detail added
        ("Is the painting realistic or abstract?", "Is it abstract, or does it show real things?"),
    ],
)
def test_reworded_repeats(earlier: str, question: str) -> None:
    assert _repeat(question, earlier)


@pytest.mark.parametrize(
    ("earlier", "question"),
    [
        ("What is the man wearing?", "What is the woman wearing?"),  # siblings, not a general word
        ("How many girls are dancing?", "How many girls are sitting?"),  # another group counted
        ("How many soldiers are there?", "How many horses are there?"),
        ("Is there a dog?", "What is the dog eating?"),  # a deeper follow-up
        ("Is the road wet?", "Is the road long, wide and straight?"),
        ("Are there boats?", "What colour are the sails of the boats?"),
    ],
)
def test_follow_ups_are_not_repeats(earlier: str, question: str) -> None:
    assert not _repeat(question, earlier)


@pytest.mark.parametrize(
    ("role", "text", "rule", "expected"),
    [
        ("answerer", "Red and blue.", "short_answer", True),  # two words joined by "and"
        ("answerer", "Two boats and a dog.", "short_answer", False),
        ("questioner", "Are you deaf or something?", "offensive", True),
        ("questioner", "Do you even have eyes?", "offensive", True),
        ("questioner", "Is the old man deaf?", "offensive", False),
        ("questioner", "Can you read the sign?", "offensive", False),
        ("questioner", "Do you have eyes for detail?", "offensive", False),
        ("questioner", "My son plays the flute too, is the boy playing one?", "off_topic", True),
        ("answerer", "Our dog looks just like that one.", "off_topic", True),
        ("answerer", "The farmer's son feeds the dog.", "off_topic", False),
        ("questioner", "Is the mother holding her baby?", "off_topic", False),
    ],
)
def test_cheap_fixes(role: str, text: str, rule: str, expected: bool) -> None:
    assert (rule in hits(role, text)) is expected
