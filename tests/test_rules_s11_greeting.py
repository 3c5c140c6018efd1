"""Session 11 (batch 17 as development data): a message that only says the chat may start ("ok, ask me
anything", "let's begin") or only signs off ("that's all I need, thank you", "I do appreciate your
patience") is small talk, greeting's; the same words before a real question or with chitchat are not.

Sentences written for this test; the detectors run without the classifiers.
"""

from __future__ import annotations

import pytest

from tests.rule_cases import A, Case, Q, assert_case, case_id, clean, hit

CASES: list[Case] = [
    hit("greeting", A, "Sure, let's start, ask me anything.", before="Salaam! Ready?"),
    hit("greeting", A, "ok. ask your first question", before="hey u there"),
    hit("greeting", A, "Go ahead, I'm ready.", before="Shall we start?"),
    hit("greeting", Q, "alright thats all i need, thank you"),
    hit("greeting", Q, "Lovely. I really appreciate your help."),
    hit("greeting", Q, "Very good, thank you for your patience."),
    clean("greeting", Q, "Let's start: what is in the foreground?"),
    clean("greeting", A, "Ask away, I have four more of these tasks tonight."),
    clean("greeting", A, "Go ahead and look at the boat: it is red."),
    clean("greeting", Q, "Is the old man ready to ask the girl a question?"),
]


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_case(case: Case) -> None:
    assert_case(case)
