"""Session 12 (batch 18 as development data): an answer of nothing but question marks ("?", "???", "?!")
asks the partner what they meant: the shortest ask-back, `answer_is_question` and (as the labeling guide
says of brief ask-backs) not also `short_answer`.

Sentences written for this test; the detectors run without the classifiers. Each row: the rule, who
speaks, the message, whether the rule must fire, and what the partner said just before.
"""

from __future__ import annotations

import pytest

from tests.rule_cases import A, Case, assert_case, case_id, clean, hit

CASES: list[Case] = [
    hit("answer_is_question", A, "???", before="Is the gorse blooming over the qwerty?"),
    hit("answer_is_question", A, "?", before="¿De qué color es el barco?"),
    hit("answer_is_question", A, "?!", before="Is the painting secretly about my aunt?"),
    clean("short_answer", A, "???", before="Is the gorse blooming over the qwerty?"),
    clean("short_answer", A, "?", before="¿De qué color es el barco?"),
    # no question mark: no ask-back (and a bare "..." is a short answer)
    clean("answer_is_question", A, "...", before="Is there a dog?"),
    hit("short_answer", A, "...", before="Is there a dog?"),
]


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_case(case: Case) -> None:
    assert_case(case)
