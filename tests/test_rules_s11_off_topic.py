"""Session 11 (batch 17 as development data): "I'll leave the mood to you" hands the partner a judgement;
it is not the worker announcing that they leave.

Sentences written for this test; the detectors run without the classifiers.
"""

from __future__ import annotations

import pytest

from tests.rule_cases import A, Case, Q, assert_case, case_id, clean, hit

CASES: list[Case] = [
    clean("off_topic", A, "I'll leave the feeling up to you. The sky is pale green."),
    clean("off_topic", A, "I will leave that to you, but the boat is sinking."),
    hit("off_topic", A, "I'll leave in five minutes, my bus is coming."),
    hit("off_topic", Q, "We need to leave soon, can you answer faster?"),
]


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_case(case: Case) -> None:
    assert_case(case)
