"""Session 12 (batch 18 as development data): the bare "what is in the picture?" in more of the languages
workers switch into: Turkish ("Resimde ne var?"), Russian with "else" ("Что ещё есть на картине?"), the
artwork as a poster ("Was ist auf dem Plakat zu sehen?"), after Portuguese, Turkish and Hinglish openers
("Boa noite!", "Merhaba!", "Bhai"), and Tagalog with the question particle "ba". A question about one
thing in the artwork stays specific.

Sentences written for this test; the detectors run without the classifiers. Each row: the rule, who
speaks, the message, whether the rule must fire, and what the partner said just before.
"""

from __future__ import annotations

import pytest

from tests.rule_cases import Case, Q, assert_case, case_id, clean, hit

CASES: list[Case] = [
    hit("generic_question", Q, "Fotoğrafta ne var?"),
    hit("generic_question", Q, "Selam! Başka ne var?", before="Bir kedi ve bir masa."),
    hit("generic_question", Q, "Что ещё видно на картинке?", before="Две лодки."),
    hit("generic_question", Q, "Was ist auf dem Poster zu sehen?"),
    hit("generic_question", Q, "Bom dia! O que tem no cartaz?"),
    hit("generic_question", Q, "Yaar kya hai is painting mein?"),
    hit("generic_question", Q, "Ano ba pa ang makikita sa larawan?", before="May aso."),
    # one thing asked about is specific
    clean("generic_question", Q, "Resimde kaç kedi var?"),
    clean("generic_question", Q, "Wie viele Leute sind auf dem Plakat?"),
    clean("generic_question", Q, "Bhai, is painting mein kitne log hain?"),
]


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_case(case: Case) -> None:
    assert_case(case)
