"""Session 13 (batch 19 as development data): short answers and courtesy replies.

- A bare reply with a reminder that it was given already is short_answer also when the reminder is
  "as stated" or the question was asked in chat spelling ("wat colour ...").
- A farewell in gamer or curt chat ("gg, cya", "Fine, whatever, bye.") answers the partner's farewell:
  greeting's, not short_answer's. Thanks with "and" between courtesies ("Thanks, and good night.") or
  "ever so much" is a greeting.

Sentences written for this test; the detectors run without the classifiers.
"""

from __future__ import annotations

import pytest

from tests.rule_cases import A, Case, Q, assert_case, case_id, clean, hit

CASES: list[Case] = [
    hit("short_answer", A, "Marble. As stated.", before="What is the bust made of?"),
    hit("short_answer", A, "Green, as I stated.", before="What colour is the door?"),
    hit("short_answer", A, "Dusk, like I said.", before="wat time of day is it"),
    clean("short_answer", A, "White marble with grey veins, as stated before.", before="What is it made of?"),
    clean("short_answer", A, "gg, cya", before="Thanks a lot, bye!"),
    clean("short_answer", A, "Fine, whatever, bye.", before="Thanks so much, goodbye."),
    hit("greeting", A, "gg, cya", before="Thanks a lot, bye!"),
    hit("greeting", Q, "Thanks, and good night.", before="Nothing else, just the two trees."),
    hit("greeting", Q, "Thank you ever so much for your help.", before="That is all I can see."),
    clean("greeting", Q, "Thanks, and is the tree an oak?", before="There are two trees."),
    clean("greeting", Q, "And what is behind the trees?", before="There are two trees."),
]


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_case(case: Case) -> None:
    assert_case(case)
