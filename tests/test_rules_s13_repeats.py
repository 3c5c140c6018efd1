"""Repeated questions the blind batches of session 13 missed (issue 3).

A count asked again as "the number of", or of "those" things; a question reframed as a request to
confirm, a wonder, or asked again in English; chat and Scots spellings of "what's" and of "woman".
The detector alone (its classifier is off by default). Every sentence was written for these tests
about imagined artworks, not taken from the data files.
"""

from __future__ import annotations

import pytest

from tests.test_rules_question_judgements import fires
from tests.test_rules_s10_repeated import _after_reply

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
    # everyday words for a full bin and a dead plant
    ("is the bin full", ("Is the bin overflowing and smelly?",)),
    ("The fern is dead?", ("Is the fern dying?",)),
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
    # the same word of another thing
    ("Is the bucket full?", ("Is the bin overflowing and smelly?",)),
    ("Is the fern dead?", ("Is the rose dying?",)),
]


@pytest.mark.parametrize(("text", "earlier"), REPEATS)
def test_reworded_repeats(text: str, earlier: tuple[str, ...]) -> None:
    assert fires("repeated_question", text, earlier)


@pytest.mark.parametrize(("text", "earlier"), NEW_QUESTIONS)
def test_new_questions_are_not_repeats(text: str, earlier: tuple[str, ...]) -> None:
    assert not fires("repeated_question", text, earlier)


# --- a question re-asked after an ask-back was never answered (labeling guide, session 12) --------


def test_a_question_asked_back_about_is_not_asked_yet() -> None:
    assert not _after_reply(
        "Is the kettle copper or not?", "Is the kettle copper?", "Copper compared to what?"
    )
    assert not _after_reply("I do. What colour is the shawl?", "What colour is the shawl?", "Who cares?")
    # answered, it counts as asked
    assert _after_reply("Is the kettle copper or not?", "Is the kettle copper?", "Yes, shiny copper.")


# --- an open question asked again with where to look, or with a guess after a comma ---------------

NARROWED_REPEATS = [
    ("Where is the jug on the dresser?", ("Where has the jug been put?",)),
    ("What sort of birds are on the roof?", ("What birds are there?",)),
    ("What is behind the cart, a mule?", ("What is behind the cart?",)),
    ("what toys are on rug", ("toys??",)),
]

NARROWED_NEW = [
    # a thing of the thing asked about is another question
    ("Where is the jug's handle?", ("Where is the jug?",)),
    # a guess at what one thing is, after asking where another is
    ("What is behind the cart, a mule?", ("Where is the cart?",)),
    # where to look, asked of something else
    ("What birds are on the fence?", ("What colour is the fence?",)),
    # the topic put last names who is asked about
    ("What is he holding, the porter?", ("What is the carter holding?",)),
]


@pytest.mark.parametrize(("text", "earlier"), NARROWED_REPEATS)
def test_open_questions_narrowed_are_repeats(text: str, earlier: tuple[str, ...]) -> None:
    assert fires("repeated_question", text, earlier)


@pytest.mark.parametrize(("text", "earlier"), NARROWED_NEW)
def test_other_questions_narrowed_are_new(text: str, earlier: tuple[str, ...]) -> None:
    assert not fires("repeated_question", text, earlier)
