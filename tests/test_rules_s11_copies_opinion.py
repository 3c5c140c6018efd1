"""Session 11 (batch 17 as development data): a short yes/no question that restates an opinion's subject
with its judgement ("Is the charge thrilling?" after "The galloping horses and the flags make the charge
thrilling.") copies the opinion even when it shares fewer than three words with it; the opinion is split
into what it is about and what it says of that (``server/rules/opinions.py``).

Opinions and questions written for this test; the detector runs without the classifiers.
"""

from __future__ import annotations

import pytest

from server.rules import text as T
from server.rules.opinions import opinion_parts
from server.rules.registry import check

OPINIONS = [
    {"emotion": "awe", "text": "The lanterns floating over the lake make the whole night feel magical."},
    {"emotion": "sadness", "text": "The old ferryman rowing alone looks so weary."},
    {"emotion": "excitement", "text": "The fireworks and the drums make the festival electrifying."},
]


def fires(question: str) -> bool:
    result = check("questioner", 3, question, [], opinions=OPINIONS, config={"classifier": False})
    return "copies_opinion" in result.rule_ids


@pytest.mark.parametrize(
    "question",
    [
        "Does the night feel magical?",
        "Is the festival electrifying?",
        "So is the night over the lake magical?",
    ],
)
def test_subject_with_judgement_is_a_copy(question: str) -> None:
    assert fires(question)


@pytest.mark.parametrize(
    "question",
    [
        "How many lanterns are on the lake?",  # asks for a count, not the judgement
        "Is the ferryman tired?",  # what a depicted person shows
        "Is it magical?",  # no word of the subject
        "Is the festival magical for the children dancing near the boats?",  # mostly new words
        "Are there drums at the festival?",  # a detail of the subject, no judgement
    ],
)
def test_other_questions_are_not(question: str) -> None:
    assert not fires(question)


def test_opinion_split() -> None:
    parts = opinion_parts("The fireworks and the drums make the festival electrifying.")
    assert (
        parts is not None
        and parts.judgement == {T.stem("electrifying")}
        and T.stem("festival") in parts.subject
    )
    parts = opinion_parts("The old ferryman rowing alone looks so weary.")
    assert parts is not None and parts.judgement == {T.stem("weary")} and T.stem("ferryman") in parts.subject
    assert opinion_parts("A quiet corner of a garden.") is None
