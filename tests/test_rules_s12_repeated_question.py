"""Session 12 (batch 18 as development data): a polite frame around a question ("May I ask what...",
"I'd like to know how many...", "Could I enquire whether...") names nothing the question asks about, so a
question asked again inside one, or asked first inside one and again plainly, is still a repeat.

Sentences written for this test; the detectors run without the classifiers. Each row: the rule, who
speaks, the message, whether the rule must fire, and the question asked (and answered) earlier.
"""

from __future__ import annotations

import pytest

from tests.rule_cases import Case, Q, assert_case, case_id, clean, hit

CASES: list[Case] = [
    # the polite frame first time, the plain question again (and the other way round)
    hit(
        "repeated_question",
        Q,
        "Could you describe the sky in the picture?",
        asked="May I ask what the sky is like?",
    ),
    hit(
        "repeated_question",
        Q,
        "Noted. Can I ask how many horses there are?",
        asked="How many horses are there?",
    ),
    hit(
        "repeated_question",
        Q,
        "How many lanterns are lit?",
        asked="I'd like to know how many lanterns are lit.",
    ),
    hit("repeated_question", Q, "What is the boy holding?", asked="Might I enquire what the boy is holding?"),
    # the frame around a new question asks nothing old
    clean("repeated_question", Q, "May I ask what the boy is wearing?", asked="What is the boy holding?"),
    clean(
        "repeated_question",
        Q,
        "I'd like to know how many boats there are.",
        asked="How many horses are there?",
    ),
    # "ask" and "know" said of the scene stay terms of the question
    clean("repeated_question", Q, "Is the beggar asking for bread?", asked="Is the beggar sitting down?"),
]


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_case(case: Case) -> None:
    assert_case(case)
