"""Session 12 (batch 18 as development data): more ways of saying hello and goodbye.

A wish for the partner's day with any warm adjective ("have a pleasant day", "have a blessed
evening"), the Muslim salute said in English ("Peace be upon you"), an Arabic good night ("تصبح على
خير"), and a hello after the Scots and Northern "aye" ("Aye, hiya.").

Sentences written for this test; the detectors run without the classifiers. Each row: the rule, who
speaks, the message, whether the rule must fire, and what the partner said just before.
"""

from __future__ import annotations

import pytest

from tests.rule_cases import A, Case, Q, assert_case, case_id, clean, hit

CASES: list[Case] = [
    # a wish for the partner's day, whatever warm word it uses
    hit("greeting", Q, "That is all from me, have a pleasant evening.", before="The boat is red."),
    hit("greeting", A, "You are welcome, have a blessed day!", before="Thanks for the answers."),
    hit("greeting", A, "Have a really fantastic weekend.", before="That was my last question."),
    hit("greeting", Q, "Many thanks, and have a splendid rest of your day.", before="Two swans."),
    # a pleasant day in the artwork is no wish
    clean(
        "greeting",
        A,
        "It looks like a pleasant day at the beach, with three kids in the sand.",
        before="Is it sunny?",
    ),
    clean("greeting", Q, "Do the people have a pleasant spot in the shade?", before="There is a picnic."),
    # the Muslim salute in English words, and Arabic good night
    hit("greeting", Q, "Peace be upon you, sister."),
    hit("greeting", A, "Peace be with you. Ask away.", before="Hello there."),
    hit("greeting", A, "شكرا لك، تصبح على خير", before="Thanks, that is all."),
    clean("greeting", A, "The dove stands for peace in the painting.", before="Why is there a dove?"),
    # a hello after "aye"
    hit("greeting", A, "Aye, hello. Go ahead.", before="Ready?"),
    hit("greeting", Q, "Och, hiya! What is on the table?"),
    clean("greeting", A, "Aye, the hills are green and the sky is grey.", before="Is it a landscape?"),
]


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_case(case: Case) -> None:
    assert_case(case)
