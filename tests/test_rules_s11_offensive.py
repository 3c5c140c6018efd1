"""Session 11 (batch 17 as development data): mild swearing before a verb ("I bloody told you"), the
partner called blind or deaf without the verb ("you deaf ah?", as Singlish, Pidgin and many other
Englishes ask), Russian swearing in Latin letters; and "sick" (a viewer's disgust, "makes me sick") hidden
from the profanity model like the other words that are ordinary when talking about art.

Sentences written for this test; the detectors run without the classifiers.
"""

from __future__ import annotations

import pytest

from tests.rule_cases import A, Case, Q, assert_case, case_id, clean, hit

CASES: list[Case] = [
    hit("offensive", A, "Grey, like I bloody told you."),
    hit("offensive", A, "You bloody know it is a goat."),
    clean("offensive", A, "The butcher's apron is bloody and torn."),
    clean("offensive", Q, "Is the knife in his hand bloody?"),
    hit("offensive", A, "I said two already, you blind or what?"),
    hit("offensive", A, "No hat, you deaf ah? Only a scarf."),
    hit("offensive", Q, "u stupid? I asked about the bridge"),
    clean("offensive", A, "Thank you, the blind man is holding a cane."),
    clean("offensive", Q, "Can you see if the old man is deaf or blind?"),
    hit("offensive", Q, "Blyad, give me more about the river please."),
    # the profanity model scored these 0.91 before "sick" was hidden from it
    clean("offensive", Q, "Does that smug face make you sick?"),
    clean("offensive", A, "Honestly his smug face makes me sick."),
]


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_case(case: Case) -> None:
    assert_case(case)
