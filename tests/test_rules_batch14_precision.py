"""Batch-14 false alarms fixed by general means, each with near misses that must still fire.

The sentences are written for this test (not copied from the evaluation files). The detectors run
without the classifiers unless a case says otherwise, so a test reads the rule's own code. One table holds
every case: the rule, the message, whether the rule must fire (``hit``) or stay quiet (``clean``), who
speaks, and what the partner said just before.
"""

from __future__ import annotations

import pytest

from tests.rule_cases import A, Case, Q, assert_case, case_id, clean, hit

_SIGN_OFF = "Thanks, that is all from me."


CASES: list[Case] = [
    # --- answer_is_question: an answer clause before a comma-joined taunt or rhetorical question -------
    clean("answer_is_question", A, "The red one, are you blind?"),
    clean("answer_is_question", A, "Squares, as I said before, do you even read?"),
    clean(
        "answer_is_question",
        A,
        "A hammer in one hand and nails in the other, what else would a builder hold?",
    ),
    clean("answer_is_question", A, "Three boats, one flag, a grey sea, happy now?"),
    clean("answer_is_question", A, "A green coat and boots, can't you read?"),
    # ask-backs stay ask-backs: nothing answered before the comma, or asked before it
    hit("answer_is_question", A, "Which boat, the small one?"),
    hit("answer_is_question", A, "Sorry, can you say that again?"),
    hit("answer_is_question", A, "Some do, why does it matter?"),
    hit("answer_is_question", A, "Hmm, why do you want to know?"),
    hit("answer_is_question", A, "Painted where, on the wall?"),
    hit("answer_is_question", A, "Are you even reading, fool?"),
    hit("answer_is_question", A, "What do you mean, I already said it?"),
    #
    # --- short_answer: ask-backs, courtesy replies and hushing are not short answers ------------------
    clean("short_answer", A, "About what?", before="Tell me more."),
    clean("short_answer", A, "For whom?", before="Describe it."),
    clean("short_answer", A, "Any question?", before="Nice."),
    clean("short_answer", A, "Next question?", before="Cool."),
    clean("short_answer", A, "Ano?", before="Jak wygląda niebo?"),
    clean("short_answer", A, "Amen. Bye.", before="God bless you."),
    clean("short_answer", A, "hehe shh 🤫", before="my boss is watching me do this lol"),
    clean("short_answer", A, "Arrivederci!", before=_SIGN_OFF),  # a foreign farewell the greeting rule names
    # a bare or too short answer is still one
    hit("short_answer", A, "About two.", before="How many dogs?"),
    hit("short_answer", A, "Any colour.", before="What colour is it?"),
    hit("short_answer", A, "lol ok", before="sorry I was busy"),
    hit("short_answer", A, "Amen.", before="Is the monk praying?"),
    hit("short_answer", A, "Shh yes.", before="Is the baby asleep?"),
    hit("short_answer", A, "Rojo.", before="What colour is the car?"),  # foreign, but no courtesy
    #
    # --- not_a_question: the question word last, a polite address before a request, "pls" ending -------
    clean("not_a_question", Q, "the woman in green dress how old"),
    clean("not_a_question", Q, "the boat on the left what colour"),
    clean("not_a_question", Q, "Madam please revert with the name of the river."),
    clean("not_a_question", Q, "ok, more about the sky pls"),
    # statements stay statements
    hit("not_a_question", Q, "I don't know how old."),
    hit("not_a_question", Q, "Sir, the dog is cute."),
    hit("not_a_question", Q, "english plz"),
    hit("not_a_question", Q, "I like the colour."),
    #
    # --- imposes_emotion: a reaction to the partner's remark; a depicted being's look -----------------
    clean("imposes_emotion", A, "How lovely, my nephew paints too.", before="My son draws horses all day."),
    clean(
        "imposes_emotion",
        A,
        "Its tail is down and it lies alone by the door, so quite sad, yes.",
        before="Does the dog look sad?",
        model=True,
    ),
    # the artwork judged stays imposing, whatever came before
    hit("imposes_emotion", A, "That's sweet, the painting is so beautiful.", before="My son draws horses."),
    hit("imposes_emotion", A, "How lovely.", before="Is there a garden?"),
    hit(
        "imposes_emotion",
        A,
        "Yes, the dog looks sad and the whole painting is depressing.",
        before="Does the dog look sad?",
    ),
    hit("imposes_emotion", A, "honestly he is so creepy", before="Does the man look scary?"),
]


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_rule(case: Case) -> None:
    assert_case(case)
