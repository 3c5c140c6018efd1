"""Batch-13 fixes (session 8, batch 13 as development data), each with near misses that must stay clean.

The sentences are written for this test (not copied from the evaluation files). The detectors run
without the classifiers; the tests that stand a classifier down read the test the rule uses for it.
"""

from __future__ import annotations

import pytest

from server.rules.base import Context
from server.rules.registry import RULES_BY_ID, check

_NO_MODEL = {"classifier": False}


def _rules(text: str, role: str = "questioner", before: str | None = None) -> set[str]:
    """The rules the detectors alone fire on one message; ``before`` is the partner's message before it."""
    history = (
        []
        if before is None
        else [{"role": "answerer" if role == "questioner" else "questioner", "text": before}]
    )
    return {hit.id for hit in check(role, 2, text, history, config=_NO_MODEL).hits}


def _spared(rule_id: str, text: str, role: str = "questioner") -> bool:
    spared_by = RULES_BY_ID[rule_id].classifier_spared_by
    assert spared_by is not None
    return spared_by(Context(role, 2, text))


# --- short_answer: a word of the question echoed and asked about, "wdym", a pleasantry returned ----


@pytest.mark.parametrize(
    ("text", "before"),
    [
        ("bigger how?", "Is the tower bigger than the church?"),
        ("Faded what?", "Are the faded walls cracked?"),
        ("wdym??", "describe everything for me"),
    ],
)
def test_brief_ask_back_is_not_a_short_answer(text: str, before: str) -> None:
    hits = _rules(text, "answerer", before=before)
    assert "short_answer" not in hits
    assert "answer_is_question" in hits


@pytest.mark.parametrize(
    ("text", "before"),
    [
        ("A bed?", "What is in the corner?"),  # an echo of a thing answers nothing
        ("Blue, why?", "What colour is the door?"),  # answered first
        ("Yes how?", "Is the tower bigger than the church?"),
        ("Two, what?", "How many boats are there?"),
        ("Bridge how?", "Is the tower bigger than the church?"),  # no word of the question
    ],
)
def test_short_replies_that_are_not_ask_backs_stay_short(text: str, before: str) -> None:
    assert "short_answer" in _rules(text, "answerer", before=before)


@pytest.mark.parametrize("text", ["You too!", "u too", "bye then", "Bye then!"])
def test_returned_pleasantry_is_greeting_not_short_answer(text: str) -> None:
    hits = _rules(text, "answerer", before="Thanks, that's all I wanted, have a nice evening!")
    assert "short_answer" not in hits
    assert "greeting" in hits


@pytest.mark.parametrize("text", ["Me too.", "Then no.", "Too dark."])
def test_other_brief_replies_stay_short(text: str) -> None:
    assert "short_answer" in _rules(text, "answerer", before="Is the kitchen dark?")


# --- not_a_question: questions in other languages without "?" or "¿", typed question words ----------


@pytest.mark.parametrize(
    "text",
    [
        "de qué color es el coche",
        "que raza es el perro",
        "y eso qué es",
        "y el perro como es",
        "qu'est-ce qu'elle tient dans la main",
        "wie viele Kinder spielen im Garten",
        "quanti alberi ci sono",
        "waht is on the table",
        "hey quick one whats the boat made of",
    ],
)
def test_unmarked_questions_are_questions(text: str) -> None:
    assert "not_a_question" not in _rules(text)


@pytest.mark.parametrize(
    "text",
    [
        "el perro que corre es blanco",  # a relative "que" in a statement
        "Qué lindo, gracias.",  # an exclamation
        "que hermoso!",
        "la mujer tiene un vestido rojo",
        "the waht sign is red",
        "quick one, the sky is blue",
    ],
)
def test_statements_stay_not_questions(text: str) -> None:
    assert "not_a_question" in _rules(text)


# --- off_topic: the chat itself, and an apology for one's English ------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Did you see my last message?",
        "Sorry, my memory is bad: what colour did you say the boat was?",
        "Pardon me, I don't quite follow.",
        "I'm afraid I cannot read Dutch.",
        "Sorry, my English is poor. The boat is red.",
    ],
)
def test_talk_about_the_chat_stands_the_off_topic_classifier_down(text: str) -> None:
    assert _spared("off_topic", text)


@pytest.mark.parametrize(
    "text",
    [
        "My memory of my grandmother's farm is like this.",
        "Did you see the match last night?",
        "I don't have a dog myself.",
        "The boat is red.",
    ],
)
def test_personal_talk_keeps_the_off_topic_classifier(text: str) -> None:
    assert not _spared("off_topic", text)


def test_english_apology_is_not_the_workers_life() -> None:
    assert "off_topic" not in _rules("Sorry, my English is slow. The man holds a red cup.", "answerer")
    assert "off_topic" not in _rules("My English isn't great, but the sky is orange.", "answerer")


@pytest.mark.parametrize(
    "text",
    [
        "My English teacher had a painting like this.",
        "Sorry, my kid is crying, back in a sec.",
        "I speak Portuguese at home, my English class was long ago.",
    ],
)
def test_life_with_english_still_off_topic(text: str) -> None:
    assert "off_topic" in _rules(text, "answerer")


# --- asks_feelings: what a depicted person visibly shows, what kind of artwork it is ------------------


@pytest.mark.parametrize(
    "text",
    [
        "Would you say the girl looks cheerful as she runs?",
        "Does the old sailor seem tired?",
        "Do they look worried?",
        "Does the dog appear excited?",
        "ok, is it a photograph or a print?",
        "Was it a painting?",
    ],
)
def test_content_questions_stand_the_asks_feelings_classifier_down(text: str) -> None:
    assert _spared("asks_feelings", text)


@pytest.mark.parametrize(
    "text",
    [
        "Does the painting look sad to you?",
        "Would you say it is beautiful?",
        "Is it a gloomy picture?",
        "Is the storm breathtaking?",
    ],
)
def test_questions_about_the_artworks_mood_keep_the_asks_feelings_classifier(text: str) -> None:
    assert not _spared("asks_feelings", text)


def test_depicted_person_with_a_viewers_word_still_asks_feelings() -> None:
    assert "asks_feelings" in _rules("Does the man look creepy to you?")


# --- asks_feelings misses: the mood of a poster, a meaning felt, a calm put up for agreement ----------


@pytest.mark.parametrize(
    "text",
    [
        "What is the overall mood of the print?",
        "Does the dark tree by the road feel like an omen?",
        "does the still lake at dawn feel calm",
        "Would you describe the empty square as bleak?",
        "is it nice",
    ],
)
def test_mood_questions_ask_feelings(text: str) -> None:
    assert "asks_feelings" in _rules(text)


@pytest.mark.parametrize(
    "text",
    [
        "What is on the poster?",
        "Does the blanket feel heavy to the touch?",
        "Does the girl feel like dancing?",
        "Would you describe the man as old?",
        "is it a nice tree",
        "it is nice",
    ],
)
def test_content_questions_do_not_ask_feelings(text: str) -> None:
    assert "asks_feelings" not in _rules(text)


# --- offensive misses: names called at a sentence's end, "bloody" as an intensifier, oaths -----------


@pytest.mark.parametrize(
    "text",
    [
        "calm down you old dinosaur",
        "Fine, you ignorant clown.",
        "honestly worst answerer ever",
        "it's bloody gorgeous, the whole thing",
        "just speak bloody english",
        "for god's sake, the hat is green",
        "jesus i just told you, it is a horse",
        "are you daft or what",
    ],
)
def test_insults_and_oaths_are_offensive(text: str) -> None:
    assert "offensive" in _rules(text, "answerer")


@pytest.mark.parametrize(
    "text",
    [
        "Thank you, old friend.",
        "See you, old man.",
        "It is the worst storm ever painted.",
        "The knife is bloody and the floor is bloody from the fight.",
        "Jesus is on the cross and Mary kneels.",
        "The old fossil lies in the rock.",
    ],
)
def test_near_misses_stay_polite(text: str) -> None:
    assert "offensive" not in _rules(text, "answerer")


# --- imposes_emotion misses: "its" for "it's" with a chat tail, "it is nice,", a closing verdict -------


@pytest.mark.parametrize(
    "text",
    [
        "its hilarious lol",
        "It is nice, a warm yellow with soft edges.",
        "a man rowing a small boat past the rocks, so depressing",
        "Total eyesore.",
    ],
)
def test_verdicts_impose_emotion(text: str) -> None:
    assert "imposes_emotion" in _rules(text, "answerer")


@pytest.mark.parametrize(
    "text",
    [
        "its tail is long lol",
        "It is a nice day in the picture, the sun is out.",
        "The man looks so sad.",
        "Total of four boats.",
    ],
)
def test_descriptions_do_not_impose_emotion(text: str) -> None:
    assert "imposes_emotion" not in _rules(text, "answerer")


@pytest.mark.parametrize(
    "text",
    [
        "Would you describe the sea as calm or rough?",  # a choice of states
        "Does she feel calm as she sews?",  # a depicted person
        "Does the old fisherman feel like a stranger there?",
    ],
)
def test_states_of_the_depicted_do_not_ask_feelings(text: str) -> None:
    assert "asks_feelings" not in _rules(text)


# --- generic_question misses: "painted on it", "what else was there again" ---------------------------


@pytest.mark.parametrize(
    "text",
    ["so what is actually painted on it", "What's drawn on the canvas?", "ok what else was there again"],
)
def test_generic_questions(text: str) -> None:
    assert "generic_question" in _rules(text)


@pytest.mark.parametrize(
    "text", ["What is painted on the boat?", "What else was there on the table?", "Is the door open again?"]
)
def test_specific_questions_are_not_generic(text: str) -> None:
    assert "generic_question" not in _rules(text)


# --- off_topic misses: studies, tasks done, the weather said plainly ---------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "I'm a first-year nursing student, so art is new to me.",
        "I've done six of these already.",
        "Hope the weather is better where you are.",
        "Hi! Windy here, as usual.",
        "It has snowed here for days.",
    ],
)
def test_worker_life_is_off_topic(text: str) -> None:
    assert "off_topic" in _rules(text, "answerer")


@pytest.mark.parametrize(
    "text",
    [
        "The boy is a student at the academy.",
        "The weather in the scene is stormy.",
        "It is sunny in the painting, the sky is grey here near the top.",
        "The sky is overcast here on the left.",
    ],
)
def test_scene_talk_is_not_off_topic(text: str) -> None:
    assert "off_topic" not in _rules(text, "answerer")


# --- greeting misses: thanks said formally, a farewell closing it ------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "I am very grateful for your help. Good day.",
        "Well, I thank you for your patience all the same.",
        "Thanks, that's all I needed.",
        "Many thanks. Good night to you.",
    ],
)
def test_formal_sign_offs_are_greetings(text: str) -> None:
    assert "greeting" in _rules(text)


@pytest.mark.parametrize(
    "text",
    [
        "Is the old man grateful for the bread?",
        "Good day light falls across the field, is it morning?",
        "Thank you. Is the dog big?",
        "Is that all the man needed to carry?",
    ],
)
def test_questions_with_thanks_words_are_not_greetings(text: str) -> None:
    assert "greeting" not in _rules(text)


# --- repeated_question: "ppl" and "human" are people ---------------------------------------------------


def _repeat(text: str, earlier: str) -> bool:
    history = [{"role": "questioner", "text": earlier}, {"role": "answerer", "text": "Some, yes."}]
    return "repeated_question" in {h.id for h in check("questioner", 3, text, history, config=_NO_MODEL).hits}


def test_chat_and_plain_words_for_people_repeat() -> None:
    assert _repeat("how many ppl are crossing the square", "how many people on the square")


def test_people_elsewhere_do_not_repeat() -> None:
    assert not _repeat("how many ppl are on the boat", "how many people on the square")


# --- short_answer: chat fillers around a bare yes ------------------------------------------------------


@pytest.mark.parametrize("text", ["lol kinda yeah", "yea sorta", "haha ya maybe"])
def test_chat_fillers_around_a_bare_reply_are_short(text: str) -> None:
    assert "short_answer" in _rules(text, "answerer", before="Is the kite red?")


@pytest.mark.parametrize(
    "text", ["haha yes, a red kite over the hill", "ya, the kite is red and torn at the tail"]
)
def test_chat_fillers_with_detail_are_answers(text: str) -> None:
    assert "short_answer" not in _rules(text, "answerer", before="Is the kite red?")


# --- generic_question in Italian with the artwork named; short French answers --------------------------


@pytest.mark.parametrize("text", ["Cosa rappresenta il quadro?", "Cosa rappresenta l'affresco?"])
def test_italian_whole_artwork_requests_are_generic(text: str) -> None:
    assert "generic_question" in _rules(text)


def test_italian_question_about_a_part_is_not_generic() -> None:
    assert "generic_question" not in _rules("Cosa rappresenta la donna col cane?")


@pytest.mark.parametrize("text", ["Plusieurs arbres.", "Quelques couleurs."])
def test_short_french_answers_are_not_english(text: str) -> None:
    assert "non_english" in _rules(text, "answerer")


def test_english_with_a_french_word_is_english() -> None:
    assert "non_english" not in _rules("The couleur of the sky is a pale blue.", "answerer")
