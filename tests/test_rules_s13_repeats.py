"""Repeated questions the blind batches of session 13 missed (issue 3).

A count asked again as "the number of", or of "those" things; a question reframed as a request to
confirm, a wonder, or asked again in English; chat and Scots spellings of "what's" and of "woman".
The detector alone (its classifier is off by default). Every sentence was written for these tests
about imagined artworks, not taken from the data files.
"""

from __future__ import annotations

import pytest

from tests.test_rules_question_judgements import fires

REPEATS = [
    # "the number of" counts as "how many" does, even with nothing else of the first question
    ("And the number of kites was?", ("How many kites are over the dunes?",)),
    ("So the number of lanterns in the porch was?", ("How many lanterns hang in the porch?",)),
    # "how many of those" counts the same thing
    ("I wonder how many of those barrels there are?", ("Could you say how many barrels there are?",)),
    # a request to confirm frames the question; it is no term of what is asked
    ("To confirm: how many masts, exactly?", ("How many masts does the schooner have?",)),
    # asked again in English after an answer in another language
    ("Sorry, in English please: is the goat lying down?", ("Is the goat lying down by the fence?",)),
    # chat and Scots spellings of "what's", and Scots words for a woman
    ("hold on, wat's the miner carrying?", ("What's the miner carrying, a lamp?",)),
    ("So whit's the wifie selling?", ("What is the woman selling?",)),
]

NEW_QUESTIONS = [
    # another thing counted, even by "the number of"
    ("And the number of donkeys?", ("How many kites are over the dunes?",)),
    # counting something else of the same place
    ("How many of those carts are loaded?", ("How many horses pull the carts?",)),
    # "in English" does not make another question the same one
    ("In English: is the goat black?", ("Is the goat lying down by the fence?",)),
    # confirming a different detail is a new question
    ("To confirm, is the lamp lit?", ("What is the miner carrying?",)),
    # a man is not the woman asked about
    ("So whit's the mannie selling?", ("What is the woman selling?",)),
]


@pytest.mark.parametrize(("text", "earlier"), REPEATS)
def test_reworded_repeats(text: str, earlier: tuple[str, ...]) -> None:
    assert fires("repeated_question", text, earlier)


@pytest.mark.parametrize(("text", "earlier"), NEW_QUESTIONS)
def test_new_questions_are_not_repeats(text: str, earlier: tuple[str, ...]) -> None:
    assert not fires("repeated_question", text, earlier)
