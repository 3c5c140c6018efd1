"""Session-6 additions to the social rules: greetings, chitchat, rudeness, chat style and foreign text.

Each case is written here for the test (not taken from the evaluation files); every positive has a
near miss beside it that must stay clean.
"""

from __future__ import annotations

import pytest

from server.rules.registry import check

_NO_MODEL = {"classifier": False}


def _rules(text: str, role: str = "questioner", history: list[dict[str, str]] | None = None) -> set[str]:
    """The rules the detectors alone fire on one message (no classifier, so the test reads the code)."""
    result = check(role, 2, text, history or [], config=_NO_MODEL)
    return {hit.id for hit in result.hits}


@pytest.mark.parametrize(
    "text",
    [
        "Dzien dobry! Is the cart full of hay?",
        "Magandang umaga po, what is the old woman holding?",
        "Selamat pagi. How many boats are there?",
        "Habari yako, is the mountain covered in snow?",
        "Evening! Which way is the road turning?",
        "Good and you?",
        "not bad, yourself?",
        "Fine, thank you. Is the bridge made of stone?",
        "i'm doing well thanks, what colour is the gate",
        "You too!",
        "thanks, you too",
        "bye then",
        "Goodbye, and the boat on the right is blue, I forgot that.",
        "oh wow thx for all the detail",
    ],
)
def test_greetings_in_other_words_fire(text: str) -> None:
    assert "greeting" in _rules(text)


@pytest.mark.parametrize(
    "text",
    [
        "Morning light falls across the fields.",
        "Good. The cart is full of hay.",
        "Great, thanks! Is the cart pulled by a horse?",
        "Fine lines cover the old woman's hands.",
        "Not bad detail on the boats, they have ropes and nets.",
        "Is the girl waving bye to the sailors?",
        "You too can see the church from the hill.",
        "Are you too far away to read the sign?",
    ],
)
def test_greeting_near_misses_pass(text: str) -> None:
    assert "greeting" not in _rules(text)


def test_well_being_reply_needs_the_question_before_it() -> None:
    asked = [{"role": "questioner", "text": "Hello there, how are you?"}]
    assert "greeting" in _rules("Good, thanks. A farmer walks behind two oxen.", "answerer", asked)
    assert "greeting" in _rules("Great. The sky is pink.", "answerer", asked)
    plain = [{"role": "questioner", "text": "Is the farmer old?"}]
    assert "greeting" not in _rules("Good question. He has a white beard.", "answerer", plain)
    assert "greeting" not in _rules("Good, thanks. A farmer walks behind two oxen.", "answerer", plain)


@pytest.mark.parametrize(
    "text",
    [
        "It is 35 degrees here in Lagos right now.",
        "I wish it were this calm here in Glasgow.",
        "Here too it's freezing. The lake is frozen as well.",
        "Rainy here today. Are there clouds in the sky?",
        "Sorry to hear that.",
        "so sorry for your loss",
        "We saw a bear like that at our local park once.",
        "sorry im juggling four hits right now",
        "I just finished a double shift, sorry if I'm slow.",
        "typing on my phone so excuse the mistakes",
        "power went out twice tonight, the electricity cut again",
        "My granddad kept pigeons. Are there birds on the roof?",
        "soz was grabbing a coffee. What is the man carrying?",
        "I've got a toddler screaming next to me, what colour is the barn?",
        "We have three goats at home.",
    ],
)
def test_personal_asides_are_off_topic(text: str) -> None:
    assert "off_topic" in _rules(text)


@pytest.mark.parametrize(
    "text",
    [
        "Is it raining here in the painting, near the bridge?",
        "Here in the corner a dog sleeps.",
        "The miners work in long shifts, their faces are black with soot.",
        "Is the clerk typing on a machine?",
        "The baby is crying in its cradle.",
        "To our left there is a tall windmill.",
        "Would you want it in your house?",
        "Sorry, I was making a mistake: the coat is green.",
        "Hello my friend, what is on the table?",
    ],
)
def test_off_topic_near_misses_pass(text: str) -> None:
    assert "off_topic" not in _rules(text)


@pytest.mark.parametrize(
    "text",
    [
        "just tell me the colours ffs",
        "He looks like a right prat in that wig.",
        "is the old bugger asleep?",
        "The king is a complete b*stard.",
        "mierda, I lost my place",
        "The steward is a greasy pig of a man.",
        "Is the fat cow gossiping with the baker?",
        "who asked about the weather, just answer",
        "miserable sodding rain in this one",
        "Is the little sod stealing apples?",
        "shut your mouth and describe the boat",
    ],
)
def test_rudeness_in_new_words_is_offensive(text: str) -> None:
    assert "offensive" in _rules(text)


@pytest.mark.parametrize(
    "text",
    [
        "Her eyes are shut tight and her mouth hangs open.",
        "The dentist holds bloody pliers over the patient.",
        "An old cow is lying in the straw.",
        "A little pig is wearing a bonnet in the children's book picture.",
        "A piece of sod is cut from the field.",
        "Who cares for the sick boy in the bed?",
        "The sign on the wall has an asterisk: 5*.",
    ],
)
def test_offensive_near_misses_pass(text: str) -> None:
    assert "offensive" not in _rules(text)


@pytest.mark.parametrize(
    "text",
    [
        "what colour is the kite??",
        "hehe the goat is chewing his hat",
        "hahaha ok. Is the kite red?",
        "wdym the sky",
        "lmk if you see a bird",
        "wot is on the shelf",
    ],
)
def test_chat_style_fires(text: str) -> None:
    assert "chat_language" in _rules(text)


@pytest.mark.parametrize(
    "text",
    ["Ha, yes, the goat has the hat.", "Is the kite red?!", "He is laughing: his head is thrown back."],
)
def test_chat_style_near_misses_pass(text: str) -> None:
    assert "chat_language" not in _rules(text)


@pytest.mark.parametrize(
    "text",
    [
        "Watoto wanacheza?",
        "Ilang bangka?",
        "Czy pies jest czarny?",
        "qwerty uiop",
        "Hay una iglesia?",
        "Kya woh baitha hai?",
    ],
)
def test_short_foreign_messages_fire(text: str) -> None:
    assert "non_english" in _rules(text)


@pytest.mark.parametrize(
    "text",
    ["Cypresses, aqueducts.", "Lapis lazuli.", "Gondolas?", "Terracotta rooftops?", "Very Vermeer?"],
)
def test_short_english_with_rare_words_passes(text: str) -> None:
    assert "non_english" not in _rules(text)
