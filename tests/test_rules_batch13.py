"""Batch-13 fixes (session 8, batch 13 as development data), each with near misses that must stay clean.

The sentences are written for this test (not copied from the evaluation files). The detectors run
without the classifiers; the tests that stand a classifier down read the test the rule uses for it. One
table holds the detector cases: the rule, the message, whether the rule must fire (``hit``) or stay quiet
(``clean``), who speaks, and what came before.
"""

from __future__ import annotations

import pytest

from server.rules.base import Context
from server.rules.registry import RULES_BY_ID, check
from tests.rule_cases import A, Case, Q, assert_case, case_id, clean, hit

_NO_MODEL = {"classifier": False}
_EVENING = "Thanks, that's all I wanted, have a nice evening!"  # the questioner's farewell before a reply
_TOWER = "Is the tower bigger than the church?"
_KITE = "Is the kite red?"


CASES: list[Case] = [
    # --- short_answer: a word of the question echoed and asked about, "wdym", a pleasantry returned ----
    # a brief ask-back is a question, not a short answer
    clean("short_answer", A, "bigger how?", before=_TOWER),
    hit("answer_is_question", A, "bigger how?", before=_TOWER),
    clean("short_answer", A, "Faded what?", before="Are the faded walls cracked?"),
    hit("answer_is_question", A, "Faded what?", before="Are the faded walls cracked?"),
    clean("short_answer", A, "wdym??", before="describe everything for me"),
    hit("answer_is_question", A, "wdym??", before="describe everything for me"),
    # short replies that are not ask-backs stay short
    hit("short_answer", A, "A bed?", before="What is in the corner?"),  # an echo of a thing answers nothing
    hit("short_answer", A, "Blue, why?", before="What colour is the door?"),  # answered first
    hit("short_answer", A, "Yes how?", before=_TOWER),
    hit("short_answer", A, "Two, what?", before="How many boats are there?"),
    hit("short_answer", A, "Bridge how?", before=_TOWER),  # no word of the question
    # a returned pleasantry is a greeting, not a short answer
    clean("short_answer", A, "You too!", before=_EVENING),
    hit("greeting", A, "You too!", before=_EVENING),
    clean("short_answer", A, "u too", before=_EVENING),
    hit("greeting", A, "u too", before=_EVENING),
    clean("short_answer", A, "bye then", before=_EVENING),
    hit("greeting", A, "bye then", before=_EVENING),
    clean("short_answer", A, "Bye then!", before=_EVENING),
    hit("greeting", A, "Bye then!", before=_EVENING),
    # other brief replies stay short
    hit("short_answer", A, "Me too.", before="Is the kitchen dark?"),
    hit("short_answer", A, "Then no.", before="Is the kitchen dark?"),
    hit("short_answer", A, "Too dark.", before="Is the kitchen dark?"),
    #
    # --- not_a_question: questions in other languages without "?" or "¿", typed question words ----------
    # unmarked questions are questions
    clean("not_a_question", Q, "de qué color es el coche"),
    clean("not_a_question", Q, "que raza es el perro"),
    clean("not_a_question", Q, "y eso qué es"),
    clean("not_a_question", Q, "y el perro como es"),
    clean("not_a_question", Q, "qu'est-ce qu'elle tient dans la main"),
    clean("not_a_question", Q, "wie viele Kinder spielen im Garten"),
    clean("not_a_question", Q, "quanti alberi ci sono"),
    clean("not_a_question", Q, "waht is on the table"),
    clean("not_a_question", Q, "hey quick one whats the boat made of"),
    # statements stay not questions
    hit("not_a_question", Q, "el perro que corre es blanco"),  # a relative "que" in a statement
    hit("not_a_question", Q, "Qué lindo, gracias."),  # an exclamation
    hit("not_a_question", Q, "que hermoso!"),
    hit("not_a_question", Q, "la mujer tiene un vestido rojo"),
    hit("not_a_question", Q, "the waht sign is red"),
    hit("not_a_question", Q, "quick one, the sky is blue"),
    #
    # --- off_topic: the chat itself, and an apology for one's English ------------------------------------
    # (the classifier stand-downs are in SPARED below)
    # an apology for one's English is not the worker's life
    clean("off_topic", A, "Sorry, my English is slow. The man holds a red cup."),
    clean("off_topic", A, "My English isn't great, but the sky is orange."),
    # life with English is still off topic
    hit("off_topic", A, "My English teacher had a painting like this."),
    hit("off_topic", A, "Sorry, my kid is crying, back in a sec."),
    hit("off_topic", A, "I speak Portuguese at home, my English class was long ago."),
    #
    # --- asks_feelings: what a depicted person visibly shows, what kind of artwork it is ------------------
    # (the classifier stand-downs are in SPARED below)
    # a depicted person with a viewer's word still asks feelings
    hit("asks_feelings", Q, "Does the man look creepy to you?"),
    #
    # --- asks_feelings misses: the mood of a poster, a meaning felt, a calm put up for agreement ----------
    # mood questions ask feelings
    hit("asks_feelings", Q, "What is the overall mood of the print?"),
    hit("asks_feelings", Q, "Does the dark tree by the road feel like an omen?"),
    hit("asks_feelings", Q, "does the still lake at dawn feel calm"),
    hit("asks_feelings", Q, "Would you describe the empty square as bleak?"),
    hit("asks_feelings", Q, "is it nice"),
    # content questions do not ask feelings
    clean("asks_feelings", Q, "What is on the poster?"),
    clean("asks_feelings", Q, "Does the blanket feel heavy to the touch?"),
    clean("asks_feelings", Q, "Does the girl feel like dancing?"),
    clean("asks_feelings", Q, "Would you describe the man as old?"),
    clean("asks_feelings", Q, "is it a nice tree"),
    clean("asks_feelings", Q, "it is nice"),
    #
    # --- offensive misses: names called at a sentence's end, "bloody" as an intensifier, oaths -----------
    # insults and oaths are offensive
    hit("offensive", A, "calm down you old dinosaur"),
    hit("offensive", A, "Fine, you ignorant clown."),
    hit("offensive", A, "honestly worst answerer ever"),
    hit("offensive", A, "it's bloody gorgeous, the whole thing"),
    hit("offensive", A, "just speak bloody english"),
    hit("offensive", A, "for god's sake, the hat is green"),
    hit("offensive", A, "jesus i just told you, it is a horse"),
    hit("offensive", A, "are you daft or what"),
    # near misses stay polite
    clean("offensive", A, "Thank you, old friend."),
    clean("offensive", A, "See you, old man."),
    clean("offensive", A, "It is the worst storm ever painted."),
    clean("offensive", A, "The knife is bloody and the floor is bloody from the fight."),
    clean("offensive", A, "Jesus is on the cross and Mary kneels."),
    clean("offensive", A, "The old fossil lies in the rock."),
    #
    # --- imposes_emotion misses: "its" for "it's" with a chat tail, "it is nice,", a closing verdict -------
    # verdicts impose emotion
    hit("imposes_emotion", A, "its hilarious lol"),
    hit("imposes_emotion", A, "It is nice, a warm yellow with soft edges."),
    hit("imposes_emotion", A, "a man rowing a small boat past the rocks, so depressing"),
    hit("imposes_emotion", A, "Total eyesore."),
    # descriptions do not impose emotion
    clean("imposes_emotion", A, "its tail is long lol"),
    clean("imposes_emotion", A, "It is a nice day in the picture, the sun is out."),
    clean("imposes_emotion", A, "The man looks so sad."),
    clean("imposes_emotion", A, "Total of four boats."),
    # states of the depicted do not ask feelings
    clean("asks_feelings", Q, "Would you describe the sea as calm or rough?"),  # a choice of states
    clean("asks_feelings", Q, "Does she feel calm as she sews?"),  # a depicted person
    clean("asks_feelings", Q, "Does the old fisherman feel like a stranger there?"),
    #
    # --- generic_question misses: "painted on it", "what else was there again" ---------------------------
    hit("generic_question", Q, "so what is actually painted on it"),
    hit("generic_question", Q, "What's drawn on the canvas?"),
    hit("generic_question", Q, "ok what else was there again"),
    # specific questions are not generic
    clean("generic_question", Q, "What is painted on the boat?"),
    clean("generic_question", Q, "What else was there on the table?"),
    clean("generic_question", Q, "Is the door open again?"),
    #
    # --- off_topic misses: studies, tasks done, the weather said plainly ---------------------------------
    # the worker's life is off topic
    hit("off_topic", A, "I'm a first-year nursing student, so art is new to me."),
    hit("off_topic", A, "I've done six of these already."),
    hit("off_topic", A, "Hope the weather is better where you are."),
    hit("off_topic", A, "Hi! Windy here, as usual."),
    hit("off_topic", A, "It has snowed here for days."),
    # scene talk is not off topic
    clean("off_topic", A, "The boy is a student at the academy."),
    clean("off_topic", A, "The weather in the scene is stormy."),
    clean("off_topic", A, "It is sunny in the painting, the sky is grey here near the top."),
    clean("off_topic", A, "The sky is overcast here on the left."),
    #
    # --- greeting misses: thanks said formally, a farewell closing it ------------------------------------
    # formal sign-offs are greetings
    hit("greeting", Q, "I am very grateful for your help. Good day."),
    hit("greeting", Q, "Well, I thank you for your patience all the same."),
    hit("greeting", Q, "Thanks, that's all I needed."),
    hit("greeting", Q, "Many thanks. Good night to you."),
    # questions with thanks words are not greetings
    clean("greeting", Q, "Is the old man grateful for the bread?"),
    clean("greeting", Q, "Good day light falls across the field, is it morning?"),
    clean("greeting", Q, "Thank you. Is the dog big?"),
    clean("greeting", Q, "Is that all the man needed to carry?"),
    #
    # --- repeated_question: "ppl" and "human" are people (turn 3: see test_repeated_question below) -------
    #
    # --- short_answer: chat fillers around a bare yes ------------------------------------------------------
    # chat fillers around a bare reply are short
    hit("short_answer", A, "lol kinda yeah", before=_KITE),
    hit("short_answer", A, "yea sorta", before=_KITE),
    hit("short_answer", A, "haha ya maybe", before=_KITE),
    # chat fillers with detail are answers
    clean("short_answer", A, "haha yes, a red kite over the hill", before=_KITE),
    clean("short_answer", A, "ya, the kite is red and torn at the tail", before=_KITE),
    #
    # --- generic_question in Italian with the artwork named; short French answers --------------------------
    # Italian whole-artwork requests are generic; a question about a part is not
    hit("generic_question", Q, "Cosa rappresenta il quadro?"),
    hit("generic_question", Q, "Cosa rappresenta l'affresco?"),
    clean("generic_question", Q, "Cosa rappresenta la donna col cane?"),
    # short French answers are not English; English with a French word is English
    hit("non_english", A, "Plusieurs arbres."),
    hit("non_english", A, "Quelques couleurs."),
    clean("non_english", A, "The couleur of the sky is a pale blue."),
]


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_rule(case: Case) -> None:
    assert_case(case)


# --- classifier stand-downs: the test a rule uses to spare a message from its classifier ----------------
# (rule, message, whether the classifier stands down); the questioner speaks at turn 2

SPARED: list[tuple[str, str, bool]] = [
    # --- off_topic: talk about the chat stands the classifier down ---
    ("off_topic", "Did you see my last message?", True),
    ("off_topic", "Sorry, my memory is bad: what colour did you say the boat was?", True),
    ("off_topic", "Pardon me, I don't quite follow.", True),
    ("off_topic", "I'm afraid I cannot read Dutch.", True),
    ("off_topic", "Sorry, my English is poor. The boat is red.", True),
    # personal talk keeps the off_topic classifier
    ("off_topic", "My memory of my grandmother's farm is like this.", False),
    ("off_topic", "Did you see the match last night?", False),
    ("off_topic", "I don't have a dog myself.", False),
    ("off_topic", "The boat is red.", False),
    # --- asks_feelings: content questions stand the classifier down ---
    ("asks_feelings", "Would you say the girl looks cheerful as she runs?", True),
    ("asks_feelings", "Does the old sailor seem tired?", True),
    ("asks_feelings", "Do they look worried?", True),
    ("asks_feelings", "Does the dog appear excited?", True),
    ("asks_feelings", "ok, is it a photograph or a print?", True),
    ("asks_feelings", "Was it a painting?", True),
    # questions about the artwork's mood keep the asks_feelings classifier
    ("asks_feelings", "Does the painting look sad to you?", False),
    ("asks_feelings", "Would you say it is beautiful?", False),
    ("asks_feelings", "Is it a gloomy picture?", False),
    ("asks_feelings", "Is the storm breathtaking?", False),
]


def _spared(rule_id: str, text: str, role: str = "questioner") -> bool:
    spared_by = RULES_BY_ID[rule_id].classifier_spared_by
    assert spared_by is not None
    return spared_by(Context(role, 2, text))


@pytest.mark.parametrize(("rule_id", "text", "expected"), SPARED, ids=lambda v: str(v)[:30])
def test_classifier_stand_down(rule_id: str, text: str, expected: bool) -> None:
    assert _spared(rule_id, text) is expected


# --- repeated_question: "ppl" and "human" are people (at turn 3, after one question and its answer) ------


def _repeat(text: str, earlier: str) -> bool:
    history = [{"role": "questioner", "text": earlier}, {"role": "answerer", "text": "Some, yes."}]
    return "repeated_question" in {h.id for h in check("questioner", 3, text, history, config=_NO_MODEL).hits}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("how many ppl are crossing the square", True),  # chat and plain words for people repeat
        ("how many ppl are on the boat", False),  # people elsewhere do not repeat
    ],
)
def test_repeated_question(text: str, expected: bool) -> None:
    assert _repeat(text, "how many people on the square") is expected
