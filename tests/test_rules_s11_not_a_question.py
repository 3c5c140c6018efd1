"""Session 11 (batch 17 as development data): Greek asks with ";" (the Greek question mark, which Unicode
folds into the semicolon), and a question after a stretched or non-British lead-in ("sooo is it big",
"eh is the boat red", "wah is it raining") is still a question.

Sentences written for this test; the detectors run without the classifiers.
"""

from __future__ import annotations

import pytest

from tests.rule_cases import Case, Q, assert_case, case_id, clean, hit

CASES: list[Case] = [
    clean("not_a_question", Q, "Τι χρώμα έχει η βάρκα;"),
    clean("not_a_question", Q, "Καλημέρα! Πόσοι άνθρωποι είναι στην εικόνα;"),
    clean("not_a_question", Q, "Τι κρατάει ο ψαράς\u037e"),
    hit("not_a_question", Q, "Η βάρκα είναι κόκκινη."),
    hit("not_a_question", Q, "The boat is red; the sea is calm;"),
    clean("not_a_question", Q, "sooo is the bridge made of stone"),
    clean("not_a_question", Q, "ohhh what is the girl holding"),
    clean("not_a_question", Q, "eh the lanterns are red or not"),
    clean("not_a_question", Q, "wah is it raining in the street"),
    hit("not_a_question", Q, "sooo the bridge is stone"),
    hit("not_a_question", Q, "eh nice colours"),
]


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_case(case: Case) -> None:
    assert_case(case)
