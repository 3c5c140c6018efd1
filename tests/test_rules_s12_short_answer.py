"""Session 12 (batch 18 as development data): a reply of one or two words closed by an oath, an
exasperated "obviously" or a jibe at the partner ("Yellow, for fuck's sake.", "A lance, obviously,
genius.") is still a short answer: the tail adds no word of answer (the labeling guide's "a tiny answer
padded with filler").

Sentences written for this test; the detectors run without the classifiers. Each row: the rule, who
speaks, the message, whether the rule must fire, and what the partner said just before.
"""

from __future__ import annotations

import pytest

from tests.rule_cases import A, Case, assert_case, case_id, clean, hit

CASES: list[Case] = [
    hit("short_answer", A, "Green, for god's sake.", before="What colour is the door?"),
    hit("short_answer", A, "A goat, obviously.", before="What animal is on the roof?"),
    hit("short_answer", A, "Nine, genius.", before="How many candles are there?"),
    hit("short_answer", A, "The baker, clearly, you muppet.", before="Who is holding the bread?"),
    hit("short_answer", A, "Wood, dammit.", before="What is the table made of?"),
    # a real answer before the tail, or no tail at all
    clean(
        "short_answer", A, "A brown goat on a mossy roof, obviously.", before="What animal is on the roof?"
    ),
    clean(
        "short_answer", A, "Nine thin candles on a silver stand, for god's sake.", before="How many candles?"
    ),
    clean(
        "short_answer", A, "The baker in the white apron is holding it.", before="Who is holding the bread?"
    ),
]


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_case(case: Case) -> None:
    assert_case(case)


# A farewell or thanks in another language with the Filipino "po" or Hindi "ji" after it ("Paalam po!")
# answers a pleasantry: greeting's, not short_answer's (the labeling guide's convention for replies to a
# greeting or farewell). A bare "Po?" or a short answer with "po" is no courtesy.
COURTESY_CASES: list[Case] = [
    clean("short_answer", A, "Paalam po!", before="Okay, goodbye."),
    clean("short_answer", A, "Dhanyavaad ji.", before="Thank you so much!"),
    hit("short_answer", A, "Yes po.", before="Is the jeepney red?"),
    hit("short_answer", A, "Two po.", before="How many carabaos?"),
]


@pytest.mark.parametrize("case", COURTESY_CASES, ids=case_id)
def test_courtesy_case(case: Case) -> None:
    assert_case(case)
