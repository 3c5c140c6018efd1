"""Session 13 (batch 19 as development data): one-word and short messages in other languages.

- A one-word reply in another language ("Vielleicht.", "Chiuso.", "Nee.") is non_english (the labeling
  guide: the message is wholly in another language), and short_answer as before.
- Farewells and thanks the phrase book lacked ("Dobranoc!", "Hwyl fawr!", "Khodahafez", Greek thanks with
  "πολύ") are greeting and non_english, and not short_answer (a reply to a farewell is no answer).
- A verdict in another language ("Sì, è orribile.", "Bahut mast hai!", "Sangat bagus!", "とても綺麗です")
  is imposes_emotion (the guide's "Bellissimo."); a word that is also English ("Mast.") is not one alone.
  A foreign "yes" before it ("Sì, è orribile.", "Oui, très triste.") makes a bare reply, short_answer like
  "Yes, very creepy.".

Sentences written for this test; the detectors run without the classifiers.
"""

from __future__ import annotations

import pytest

from tests.rule_cases import A, Case, Q, assert_case, case_id, clean, hit

CASES: list[Case] = [
    hit("non_english", A, "Vielleicht.", before="Is the gate locked?"),
    hit("non_english", A, "Chiuso.", before="Is the window open?"),
    hit("non_english", A, "Neen.", before="Is there a horse?"),
    hit("non_english", A, "Dobranoc!", before="Thanks, good night!"),
    hit("non_english", A, "Hwyl fawr!", before="Thanks, bye!"),
    hit("non_english", Q, "Merci, khodahafez!", before="The sea is calm."),
    clean("non_english", A, "Open.", before="Is the window open?"),
    clean("non_english", A, "Maybe.", before="Is the gate locked?"),
    clean("non_english", A, "Fresco.", before="What technique is it?"),
    hit("greeting", A, "Dobranoc!", before="Thanks, good night!"),
    hit("greeting", Q, "Ευχαριστώ πολύ!", before="The sea is calm."),
    clean("short_answer", A, "Dobranoc!", before="Thanks, good night!"),
    hit("short_answer", A, "Vielleicht.", before="Is the gate locked?"),
    # verdicts in other languages
    hit("imposes_emotion", A, "Sì, è orribile.", before="Is the scene horrible?"),
    hit("imposes_emotion", A, "Bahut mast hai!", before="Do you like it?"),
    hit("imposes_emotion", A, "Ya, sangat bagus!", before="Is it nice?"),
    hit("imposes_emotion", A, "Bardzo piękne.", before="Is it pretty?"),
    hit("imposes_emotion", A, "C'est dégoûtant.", before="Is the food gross?"),
    hit("imposes_emotion", A, "とても綺麗です。", before="Is it beautiful?"),
    # a foreign yes before a verdict is a bare reply too, like "Yes, very creepy."
    hit("short_answer", A, "Sì, è orribile.", before="Is the scene horrible?"),
    hit("non_english", A, "Sì, è orribile.", before="Is the scene horrible?"),
    hit("short_answer", A, "Oui, très triste.", before="Is it a sad painting?"),
    clean("short_answer", A, "Oui, le bateau est rouge avec deux hommes.", before="Is the boat red?"),
    clean("imposes_emotion", A, "Mast.", before="What is on the boat?"),
    clean("imposes_emotion", A, "A tall mast with two sails.", before="What is on the boat?"),
    clean("imposes_emotion", A, "Sì, è rosso.", before="Is the boat red?"),
]


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_case(case: Case) -> None:
    assert_case(case)
