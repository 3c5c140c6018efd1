"""Session 12 (batch 18 as development data): two chat spellings. "fr" ("for real") written as a token
in lower case ("wait fr?"), not the title "Fr." or a capitalised "FR"; and Korean consonants or vowels
standing alone and doubled ("ㅋㅋ" laughter, "ㅎㅎ", "ㅠㅠ"), which Korean prose never writes.

Sentences written for this test; the detectors run without the classifiers. Each row: the rule, who
speaks, the message, whether the rule must fire, and what the partner said just before.
"""

from __future__ import annotations

import pytest

from tests.rule_cases import A, Case, Q, assert_case, case_id, clean, hit

CASES: list[Case] = [
    hit("chat_language", Q, "no way fr, is the bridge made of glass?", before="The bridge is see-through."),
    hit("chat_language", A, "fr there are like nine cats on the roof.", before="Any animals?"),
    hit("chat_language", Q, "That is funny ㅋㅋ What is the dog holding?", before="The dog wears a hat."),
    hit("chat_language", A, "Sad ending ㅠㅠ The boat is sinking.", before="What happens to the boat?"),
    # a priest's title, French, and Korean written in syllables
    clean("chat_language", A, "Fr. Anselm is reading at a wooden desk.", before="Who is the man?"),
    clean("chat_language", A, "The label says FR and a date.", before="What does the label say?"),
    clean("chat_language", A, "간판에 빵집이라고 쓰여 있어요.", before="What does the sign say?"),
]


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_case(case: Case) -> None:
    assert_case(case)
