"""Session 11 (batch 17 as development data): the artwork misspelt as dyslexic or hurried typists write it
("the pitcure", "the paintng"), and generic asks without the auxiliary or with a sentence particle ("Eh
what you see ah?", "What else got?", as Singlish and Malaysian English ask).

Sentences written for this test; the detectors run without the classifiers.
"""

from __future__ import annotations

import pytest

from tests.rule_cases import Case, Q, assert_case, case_id, clean, hit

CASES: list[Case] = [
    hit("generic_question", Q, "what is in the pictrue"),
    hit("generic_question", Q, "Describe the paintng please."),
    hit("generic_question", Q, "what is the imgae about?"),
    hit("generic_question", Q, "So what you see lah?"),
    hit("generic_question", Q, "Wah, what else got?"),
    clean("generic_question", Q, "what is in the pitcher?"),  # a jug, spelt right
    clean("generic_question", Q, "what is in the basket ah?"),
    clean("generic_question", Q, "What you see on the boy's shirt?"),
    clean("generic_question", Q, "What else got on the table?"),
]


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_case(case: Case) -> None:
    assert_case(case)
