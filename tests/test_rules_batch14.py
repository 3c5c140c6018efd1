"""Batch-14 additions to the rules (ESL workers from India, Nigeria, Kenya, the Philippines, Poland and
Russia), each with near misses that must stay clean.

The sentences are written for this test (not copied from the evaluation files). The detectors run
without the classifiers, so a test reads the rule's own code. One table holds every case: the rule, the
message, whether the rule must fire (``hit``) or stay quiet (``clean``), who speaks, and what came before.
"""

from __future__ import annotations

import pytest

from tests.rule_cases import A, Case, Q, assert_case, case_id, clean, hit

_THANKS = "Thanks a lot, have a good evening."  # the partner's farewell that a courtesy answers


CASES: list[Case] = [
    # --- greeting: salutes with honorifics, the partner's family, thanks and farewells in more languages --
    hit("greeting", Q, "Good evening madam. Is the boat red?"),
    hit("greeting", Q, "Good morning sir/madam. What is the man holding?"),
    hit("greeting", Q, "Boss good afternoon o. Is the dog asleep?"),
    hit("greeting", Q, "E kaasan! Is the lamp lit?"),
    hit("greeting", Q, "Добрый день! What is on the table?"),
    hit("greeting", Q, "Hello ma. How are your kids?"),
    hit("greeting", A, "We are fine, thank you. The boat is red.", before="How is your family?"),
    hit("greeting", A, "Asante sana!", before=_THANKS),
    hit("greeting", A, "Ok, dziękuję bardzo.", before=_THANKS),
    hit("greeting", A, "Большое спасибо!", before=_THANKS),
    hit("greeting", A, "ok tnx", before=_THANKS),
    hit("greeting", A, "Karibu sana!", before=_THANKS),
    hit("greeting", A, "Nie ma za co.", before=_THANKS),
    hit("greeting", A, "Wzajemnie!", before=_THANKS),
    hit("greeting", A, "Dzięki, do widzenia!", before=_THANKS),
    hit("greeting", A, "Sawa. Tutaonana.", before=_THANKS),
    hit("greeting", A, "O ṣeun, ó dàbọ̀!", before=_THANKS),
    hit("greeting", Q, "Thanks for all the answers, wishing you all the best."),
    hit("greeting", A, "Many blessings to you too.", before=_THANKS),
    hit("greeting", Q, "Как дела? Is the cat black?"),
    hit("greeting", Q, "Aap kaise ho? What is in the corner?"),
    # a salute-like word inside content, a family in the picture, a well-being word without the question
    clean("greeting", Q, "Good morning light falls on the hill, is it dawn?"),
    clean("greeting", Q, "Is the madam in the portrait smiling?"),
    clean("greeting", Q, "How is the family in the picture dressed?"),
    clean("greeting", A, "They are fine horses, brown and tall.", before="What are the horses like?"),
    clean("greeting", A, "The priest gives blessings to the crowd."),
    clean("greeting", A, "A sign says asante on the door of the shop.", before="What does the sign say?"),
    clean("greeting", A, "Two boats sail do widzenia bay.", before="What is in the bay?"),
    clean("greeting", Q, "Is the lamp by the door lit?"),
    # foreign courtesy alone is not English; beside English words it is
    hit("non_english", A, "Karibu!", before=_THANKS),
    hit("non_english", A, "Asante, kwaheri.", before=_THANKS),
    hit("non_english", A, "Nawzajem!", before=_THANKS),
    clean("non_english", A, "Asante, thank you!", before=_THANKS),
    hit("greeting", A, "Asante, thank you!", before=_THANKS),
    clean("non_english", A, "Sana, the dog is black.", before="What colour is the dog?"),
    # a courtesy reply is greeting, not a short answer
    clean("short_answer", A, "Karibu!", before=_THANKS),
    clean("short_answer", A, "Ó dàbọ̀!", before=_THANKS),
    hit("short_answer", A, "Two.", before="How many boats?"),
    #
    # --- repeated_question: the earlier question was one sentence of a longer message -------------------
    hit(
        "repeated_question",
        Q,
        "What animal is it?",
        asked="Hello! I am Ravi from Pune, new to this work, please bear with me. What animal is it?",
    ),
    hit(
        "repeated_question",
        Q,
        "Sorry, my net is slow. What colour is the car?",
        asked="What colour is the car?",
    ),
    hit(
        "repeated_question",
        Q,
        "How many cows are in the field?",
        asked="How many cows are there and are they eating?",
    ),
    # a different question after the same introduction, or a generic "else" after a remark, is no repeat
    clean(
        "repeated_question",
        Q,
        "What is the animal eating?",
        asked="Hello! I am Ravi from Pune, new to this work, please bear with me. What animal is it?",
    ),
    clean("repeated_question", Q, "Is the car parked?", asked="Okay. What colour is the car?"),
    clean("repeated_question", Q, "Fine. Anything else?", asked="What else is there?"),
    clean(
        "repeated_question", Q, "Are the cows black?", asked="How many cows are there and are they eating?"
    ),
    #
    # --- generic_question: the bare request in Russian, Polish, Swahili, Tagalog, Hindi; Indian English --
    hit("generic_question", Q, "Что нарисовано на картинке?"),
    hit("generic_question", Q, "Dzień dobry! Co jest na obrazie?"),
    hit("generic_question", Q, "Jambo! Kuna nini kwenye picha?"),
    hit("generic_question", Q, "Ano pa ang makikita sa larawan?"),
    hit("generic_question", Q, "Aur kuch hai?"),
    hit("generic_question", Q, "Good evening madam. Kindly tell what is drawn on the painting?"),
    hit("generic_question", Q, "Damn, the last partner quit. What's in this one?"),
    # the same languages asking about a part, and a pronoun pointing back, stay specific
    clean("generic_question", Q, "Какого цвета кошка на картине?"),
    clean("generic_question", Q, "Co trzyma kobieta?"),
    clean("generic_question", Q, "Mbwa ana rangi gani?"),
    clean("generic_question", Q, "Kindly tell what is painted on the boat?"),
    clean("generic_question", Q, "Ok, the red house. What's on it?"),
    clean("generic_question", Q, "What is on the far wall?"),
]


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_rule(case: Case) -> None:
    assert_case(case)
