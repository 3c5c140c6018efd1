"""Session-9 false alarms and misses of five rules (chat_language, short_answer, answer_is_question,
not_a_question, generic_question), fixed by class.

The sentences are written for this test (not copied from the evaluation files); the detectors run without
the classifiers. Each row: the rule, who speaks, the message, whether the rule must fire (``hit``) or stay
quiet (``clean``), and what the partner said just before.
"""

from __future__ import annotations

import pytest

from tests.rule_cases import A, Case, Q, assert_case, case_id, clean, hit

CASES: list[Case] = [
    # --- chat_language: spoken and dialect spellings, initials, shape letters, Dutch "wat" -------------
    clean("chat_language", A, "Dunno, pal. The boat is green with a white stripe."),
    clean("chat_language", A, "Dunno."),
    clean("chat_language", A, "I'm only here cos the rain stopped play."),
    clean("chat_language", Q, "Wha dat? Yuh mean the goat?"),
    clean("chat_language", A, "It is signed in the corner with J.P. in black ink."),
    clean("chat_language", A, "The initials 'T. R.' and a date, 1902."),
    clean("chat_language", A, "The path makes a U shape around the pond."),
    clean("chat_language", A, "The river takes a U-turn behind the mill."),
    clean("chat_language", Q, "Wat is de kleur van de boot?"),
    # real texting stays chat language
    hit("chat_language", A, "dunno lol"),
    hit("chat_language", Q, "r the cows brown?"),
    hit("chat_language", Q, "Do U like the ducks?"),
    hit("chat_language", A, "u see a U shape there"),  # the first "u" is "you"
    hit("chat_language", Q, "wat colour is the door"),
    hit("chat_language", Q, "cuz the sky is red?"),
    #
    # --- answer_is_question: well-being returned, "how are you?" said back to a hello -------------------
    clean("answer_is_question", A, "Not bad mate, you?", before="Hiya, how's it going?"),
    clean("answer_is_question", A, "Hello, all good here, and you?", before="Hey, how are you?"),
    clean("answer_is_question", A, "Not too bad thanks, and yours?", before="Hello, how is your day?"),
    clean("answer_is_question", A, "Hey, how r u?", before="hiii"),
    # asking instead of answering stays an ask-back
    hit("answer_is_question", A, "Blue, and you?", before="What colour is the car?"),
    hit("answer_is_question", A, "How are you today?"),  # no hello to return: it opens the chat
    hit("answer_is_question", A, "Which one, the tall man?", before="What is he holding?"),
    #
    # --- short_answer: farewell replies are greeting's; a repeated bare count is short ----------------
    clean("short_answer", A, "Yeah. Bye.", before="Thanks so much, goodbye!"),
    clean("short_answer", A, "Alright, later.", before="ok that's all, cheers"),
    clean("short_answer", A, "See ya.", before="done, thank you"),
    clean("short_answer", A, "No worries.", before="Sorry, my phone rang."),
    clean("short_answer", A, "Okay, ta-ra!", before="Thank you, I have to go now."),
    clean("short_answer", A, "Night!", before="Thanks, good night."),
    hit("short_answer", A, "Night.", before="Is it day or night?"),  # an answer, not a farewell
    hit("short_answer", A, "Thirty, I said.", before="How old is the sailor?"),
    hit("short_answer", A, "Nine boats, as I said.", before="How many boats are there?"),
    hit("short_answer", A, "About fifty, like I said before.", before="How many birds?"),
    hit("short_answer", A, "Three, same as before.", before="Number of cows again?"),
    hit("short_answer", A, "Yeah.", before="Is the dog asleep?"),
    clean("short_answer", A, "Anything else?", before="Ok."),  # an ask-back: answer_is_question only
    hit("answer_is_question", A, "Anything else?", before="Ok."),
    hit("short_answer", A, "Nothing else.", before="Anything else in the sky?"),
    # a longer answer with a reminder still describes
    clean(
        "short_answer",
        A,
        "Three, like I said, two brown and one white with black spots.",
        before="How many cows are there?",
    ),
    clean("short_answer", A, "Yes, three cows, as I said.", before="Are there cows in the field?"),
    #
    # --- not_a_question: laughter or filler "like" before the question word; a foreign "please" ---------
    clean("not_a_question", Q, "lmao is that a goat", before="A goat stands on the roof."),
    clean("not_a_question", Q, "hahaha are they dancing", before="Two men hold hands."),
    clean("not_a_question", Q, "ok but like is the water cold", before="A lake."),
    clean("not_a_question", Q, "Describe the boats, por favor."),
    clean("not_a_question", Q, "Parlami del cielo, per favore."),
    hit("not_a_question", Q, "lmao that poor goat"),
    hit("not_a_question", Q, "Haha like my uncle's farm."),
    hit("not_a_question", Q, "I like the colours."),
    hit("not_a_question", Q, "Gracias, amigo."),
    #
    # --- generic_question: the main scene asked; a question about a named place is specific -----------
    hit("generic_question", Q, "What is the main scene of the mural?"),
    hit("generic_question", Q, "Sorry, what is the main scene again?"),
    hit("generic_question", Q, "What is the main thing in the picture?"),
    clean("generic_question", Q, "And behind the cart, what's happening?", before="A cart with two horses."),
    clean("generic_question", Q, "On the left, what is going on?"),
    clean("generic_question", Q, "In the corner, what's happening?"),
    hit("generic_question", Q, "Thanks a lot, what is happening?", before="It is a market."),
]


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_case(case: Case) -> None:
    assert_case(case)
