"""Session 12 (batch 18 as development data): "Mhm." and "Pfff." are English interjections, not keyboard
mashing; only vowelless runs that are no interjection ("jjjkkk") count as no English at all.

Sentences written for this test; the detectors run without the classifiers. Each row: the rule, who
speaks, the message, whether the rule must fire, and what the partner said just before.
"""

from __future__ import annotations

import pytest

from tests.rule_cases import A, Case, Q, assert_case, case_id, clean, hit

CASES: list[Case] = [
    clean("non_english", A, "Mhm.", before="The sky looks stormy then."),
    clean("non_english", A, "Mhmm, mhm.", before="So there are three boats?"),
    clean("non_english", Q, "Pfff. Is the horse brown?"),
    clean("non_english", A, "Hmm.", before="Is that all?"),
    # mashing stays no English
    hit("non_english", A, "jjjkkk hhh", before="What colour is the dress?"),
    hit("non_english", A, "sdfg mhkl", before="How many birds?"),
]


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_case(case: Case) -> None:
    assert_case(case)
