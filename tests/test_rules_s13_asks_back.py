"""Session 13 (batch 19 as development data): ask-backs.

- "Define cosy?" asks the partner to explain a word of their question: answer_is_question only, not also
  short_answer (the labeling guide's brief ask-back). "Define old. Do you mean grey-haired?" is an ask-back
  too.
- "Hang on, sorry, what did you ask?": words that only hold the turn ("wait", "sorry", "hang on") before a
  question do not answer it.

Sentences written for this test; the detectors run without the classifiers.
"""

from __future__ import annotations

import pytest

from tests.rule_cases import A, Case, assert_case, case_id, clean, hit

CASES: list[Case] = [
    hit("answer_is_question", A, "Define cosy?", before="Is the cottage cosy?"),
    clean("short_answer", A, "Define cosy?", before="Is the cottage cosy?"),
    hit("answer_is_question", A, "Define old. Do you mean grey-haired, or frail?", before="Is the man old?"),
    hit("answer_is_question", A, "Hang on, sorry, what did you ask?", before="Is the river calm?"),
    hit("answer_is_question", A, "Wait, what was that again?", before="Is the river calm?"),
    clean("answer_is_question", A, "Wait, the river is calm, why do you ask?", before="Is the river calm?"),
    clean("answer_is_question", A, "Define the edges more? They are soft.", before="Are the edges sharp?"),
    clean("answer_is_question", A, "Old, with a grey beard.", before="Is the man old?"),
]


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_case(case: Case) -> None:
    assert_case(case)
