"""Session-8 additions to the rules, each with near misses that must stay clean.

The sentences are written for this test (not copied from the evaluation files). The detectors run
without the classifiers, so a test reads the rule's own code.
"""

from __future__ import annotations

import pytest

from server.rules.registry import check

_NO_MODEL = {"classifier": False}


def _rules(text: str, role: str = "questioner", before: str | None = None) -> set[str]:
    """The rules the detectors alone fire on one message; ``before`` is the partner's message before it."""
    history = (
        []
        if before is None
        else [{"role": "answerer" if role == "questioner" else "questioner", "text": before}]
    )
    return {hit.id for hit in check(role, 2, text, history, config=_NO_MODEL).hits}


# --- non_english: a message made only of foreign greetings, thanks and farewells --------------------


@pytest.mark.parametrize(
    "text",
    ["Ciao ciao!", "Xin chào!", "Slán abhaile!", "Merci beaucoup!", "Au revoir!", "Tschüss, danke schön!"],
)
def test_foreign_courtesy_alone_is_not_english(text: str) -> None:
    assert "non_english" in _rules(text, "answerer", before="Thanks, that is all from me.")


@pytest.mark.parametrize(
    "text",
    [
        "Cheers, totsiens!",  # an English word beside the foreign one
        "Hola, is the fox asleep under the table?",
        "Go on then.",  # courtesy words that are English too
        "Hoi!",
        "Thanks, bye!",
    ],
)
def test_courtesy_with_english_or_english_only_stays_english(text: str) -> None:
    assert "non_english" not in _rules(text, "answerer", before="Thanks, that is all from me.")


# --- generic_question: "what is in the picture" in Afrikaans/Dutch, German, Irish, Vietnamese, CJK ----


@pytest.mark.parametrize(
    "text",
    [
        "Wat is op die skildery?",
        "Goeiedag! Wat sien jy?",
        "Was ist in dem Gemälde zu sehen?",
        "Cad atá ar an bpictiúr?",
        "Bức tranh này có gì?",
        "この写真には何が写っていますか？",
        "这张照片上有什么？",
    ],
)
def test_generic_request_in_more_languages(text: str) -> None:
    assert {"generic_question", "non_english"} <= _rules(text)


@pytest.mark.parametrize(
    "text",
    [
        "Wat is die kleur van die perd?",  # asks about a part
        "Was ist auf dem Tisch?",
        "Cad atá ina láimh aici?",
        "この絵の犬は何色ですか？",
        "这幅画里的狗是什么颜色？",
        "What is the colour of the photo frame?",
    ],
)
def test_foreign_questions_about_a_part_stay_specific(text: str) -> None:
    assert "generic_question" not in _rules(text)


def test_irish_question_is_not_english() -> None:
    assert "non_english" in _rules("Conas atá an spéir?")
    assert "non_english" in _rules("Cad atá ar an bpictiúr, a chara?")
    assert "non_english" not in _rules("Is the cad in the picture holding a cane?")
    assert "non_english" not in _rules("Is the man on the left an Irish farmer, with a cap on?")


# --- generic_question: spoken forms of regional English, the sculpture as the artwork ----------------


@pytest.mark.parametrize(
    "text",
    [
        "What's goin on in this one?",
        "Howdy folks! What's happenin in the picture?",
        "Hey y'all, whatcha got?",
        "What does the sculpture look like?",
        "What's the painting look like?",
    ],
)
def test_generic_request_in_spoken_forms(text: str) -> None:
    assert "generic_question" in _rules(text)


@pytest.mark.parametrize(
    "text",
    [
        "Where is the man goin with the cart?",
        "Whatcha see in the top corner?",
        "What does the dog look like?",
        "What is the sculpture made of?",
        "Hey y'all! Is the dog asleep?",
    ],
)
def test_spoken_forms_about_a_part_stay_specific(text: str) -> None:
    assert "generic_question" not in _rules(text)


# --- offensive: regional name-calling, "bloody" opening a sentence, foreign swearing -----------------


@pytest.mark.parametrize(
    "text",
    [
        "Two boats, as I wrote. Keep up, you utter plank.",
        "Read it again, dipstick.",
        "It's a horse, you eejit.",
        "Some muppet's left the gate open in the corner.",
        "For feck's sake, it is the same tree.",
        "Green. Bloody pointless question.",
        "Four bloody ducks on the pond, like I said.",
        "Azul, caralho, I said it already.",
        "hell knows what that thing is",
    ],
)
def test_regional_and_foreign_insults(text: str) -> None:
    assert "offensive" in _rules(text, "answerer")


@pytest.mark.parametrize(
    "text",
    [
        "A plank of wood lies across the stream.",
        "The carpenter holds a tool in his right hand.",
        "A donkey stands by the well.",
        "The soldier fell. Bloody bandages lie beside him.",
        "Three bloody soldiers lie in the snow.",
        "Hell, fire and demons fill the right panel.",
        "Heaven knows why the man is running.",
    ],
)
def test_literal_words_stay_polite(text: str) -> None:
    assert "offensive" not in _rules(text, "answerer")


# --- imposes_emotion: the artwork called names ----------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "The mural is junk, a toddler could do better.",
        "A monkey could have done this.",
        "Honestly, a complete waste of canvas.",
        "This picture is rubbish, just three stripes.",
    ],
)
def test_verdicts_made_of_insults(text: str) -> None:
    assert "imposes_emotion" in _rules(text, "answerer")


@pytest.mark.parametrize(
    "text",
    [
        "The picture is trash bags piled by the road.",
        "A baby could be sleeping in the cradle, it is hard to see.",
        "The monkey could reach the bananas if it stretched.",
        "The painter wasted no paint on the sky, it is bare canvas.",
    ],
)
def test_descriptions_with_the_same_words_impose_nothing(text: str) -> None:
    assert "imposes_emotion" not in _rules(text, "answerer")


# --- repeated_question: asked again on purpose, chat lead-ins and spellings, statements -----------


def _repeats(text: str, *earlier: str) -> bool:
    history = []
    for question in earlier:
        history += [{"role": "questioner", "text": question}, {"role": "answerer", "text": "Some answer."}]
    return "repeated_question" in {
        hit.id for hit in check("questioner", 5, text, history, config=_NO_MODEL).hits
    }


@pytest.mark.parametrize(
    ("text", "earlier"),
    [
        ("What is the bowl made of again?", "Is the bowl made of clay?"),  # open after closed, "again"
        ("How tall was the tower again?", "Is the tower high?"),
        ("ugh. how many cups?", "How many cups are there?"),
        ("hang on how many cups was it", "ugh. how many cups?"),
        ("whats on the far wall", "What is on the far wall?"),
        ("wtf is that dog", "What is the dog?"),
        ("kk last one, is the bucket full", "Is the bucket full of water?"),
        ("What is he holding?", "What is the hiker holding?"),
        ("Who is standing on the right side?", "Who is on the right?"),  # "side" frames the place
    ],
)
def test_reworded_repeats(text: str, earlier: str) -> None:
    assert _repeats(text, earlier)


@pytest.mark.parametrize(
    ("text", "earlier"),
    [
        ("What colour is the bowl?", "Is the bowl made of clay?"),  # another quality, no "again"
        ("Why is the tower so tall?", "Is the tower high?"),
        ("ugh. how many dogs?", "How many cups are there?"),
        ("Ok so the bowl is clay and the cup is tin.", "Is the bowl made of clay and the cup of tin?"),
        ("What is she holding?", "What is the old man holding?"),
        ("Who is standing on the right side?", "Who is on the left?"),
    ],
)
def test_new_questions_are_not_repeats(text: str, earlier: str) -> None:
    assert not _repeats(text, earlier)


# --- not_a_question: chat openers and an emoji before the question --------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "soz 😅 is there a bench",
        "lol 😂 r they dancing",
        "hang on how many boats was it",
        "sorry what colour was her hat",
    ],
)
def test_chat_openers_before_a_question(text: str) -> None:
    assert "not_a_question" not in _rules(text)


@pytest.mark.parametrize("text", ["The dog is cute 😂 lol", "Ugh, the dog is ugly.", "Sorry, I was away."])
def test_chat_statements_stay_statements(text: str) -> None:
    assert "not_a_question" in _rules(text)


# --- greeting: chat acknowledgements before thanks, Portuguese hellos; IM tokens are no mashing ------


@pytest.mark.parametrize(
    ("text", "role"),
    [
        ("kk thx", "questioner"),
        ("Ha, thanks for all the detail anyway.", "questioner"),
        ("oii tudo bem?", "questioner"),
        ("Tudo e você?", "answerer"),
    ],
)
def test_chat_courtesy_is_a_greeting(text: str, role: str) -> None:
    assert "greeting" in _rules(text, role)


@pytest.mark.parametrize(
    ("text", "role"),
    [
        ("Ha, the goat is chewing a hat.", "answerer"),
        ("Anyway, what is the dog doing?", "questioner"),
        ("The oil lamp is lit.", "answerer"),
        ("K, is the dog black?", "questioner"),
    ],
)
def test_content_after_the_same_words_is_no_greeting(text: str, role: str) -> None:
    assert "greeting" not in _rules(text, role)


def test_vowelless_chat_words_are_english() -> None:
    assert "non_english" not in _rules("thx")
    assert "non_english" not in _rules("nvm")
    assert "non_english" in _rules("jjjjj kkkkl")
    assert "chat_language" in _rules("Tudo e vc?", "answerer")
