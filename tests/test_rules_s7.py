"""Session-7 additions to the rules, each with near misses that must stay clean.

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


# --- generic_question: the sheet or print the artwork is on names the whole artwork -----------------


@pytest.mark.parametrize(
    "text",
    [
        "What else does the sheet show?",
        "What does the etching depict?",
        "What else does the drawing show?",
        "What is in the watercolour?",
        "What else is shown in the print?",
    ],
)
def test_generic_request_about_the_whole_sheet(text: str) -> None:
    assert "generic_question" in _rules(text)


@pytest.mark.parametrize(
    "text",
    [
        # a part of the scene narrows the request (guide: generic asks for nothing specific)
        "What else is there in the background?",
        "What else lies on the table besides the bread?",
        "What is written on the sheet of paper she holds?",
        "What colour is the sheet on the bed?",
        "What else does the woman hold?",
    ],
)
def test_requests_about_a_part_stay_specific(text: str) -> None:
    assert "generic_question" not in _rules(text)


# --- non_english: short replies of colour and degree words -----------------------------------------


@pytest.mark.parametrize(
    "text",
    ["Gris, presque bleu.", "Blanc et gris.", "Quase preto.", "Schwarz, ziemlich dunkel.", "Nera e bianca."],
)
def test_short_foreign_colour_replies(text: str) -> None:
    assert "non_english" in _rules(text, "answerer")


@pytest.mark.parametrize(
    "text", ["Dark grey, almost blue.", "Maroon and black.", "Grey, nearly black.", "Beige with a red trim."]
)
def test_short_english_colour_replies(text: str) -> None:
    assert "non_english" not in _rules(text, "answerer")


# --- greeting: longer sign-offs; thanks after real content is not one ------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Alright, I think I get the picture now, thanks po.",
        "Great, I have a clear idea of it now. Thank you!",
        "Okay, I can imagine the scene now, thanks a lot.",
        "Thanks, that helps a lot.",
        "I understand it much better now, thank you so much.",
    ],
)
def test_sign_offs_saying_the_picture_is_clear(text: str) -> None:
    assert "greeting" in _rules(text)


@pytest.mark.parametrize(
    "text",
    [
        "Thanks, I think I get why the boy is crying. Is his mother nearby?",
        "I think I understand the layout now. Is the door open?",
        "I can picture the river now, what colour is the bridge?",
        "I understand the painting has a river. Is the water calm?",
    ],
)
def test_understanding_before_a_question_is_not_a_sign_off(text: str) -> None:
    assert "greeting" not in _rules(text)


@pytest.mark.parametrize(
    "text",
    [
        "The fox is orange with a white tail, thanks.",
        "It is a stone bridge with three arches. Thank you!",
        "She holds a small brass lamp, thanks for asking.",
    ],
)
def test_thanks_after_a_good_answer_is_not_a_greeting(text: str) -> None:
    assert _rules(text, "answerer") == set()


# --- replies to greetings: greeting, not short_answer (nor answer_is_question) ---------------------


@pytest.mark.parametrize(
    ("before", "text"),
    [
        ("Hi partner!", "Hey."),
        ("Good evening!", "Evening!"),
        ("Thanks a lot!", "You're welcome."),
        ("Thank you for the help.", "Welcome!"),
        ("Bye now!", "Bye!"),
        ("Nice to meet you.", "Likewise."),
        ("Hello, how are you?", "Fine, and you?"),
        ("How's it going?", "Great, how about yourself?"),
    ],
)
def test_reply_to_a_pleasantry_is_greeting_only(before: str, text: str) -> None:
    assert _rules(text, "answerer", before) == {"greeting"}


@pytest.mark.parametrize(
    ("before", "text"),
    [
        ("Is the sea calm?", "Calm."),
        ("Is the dog happy?", "Yes, thanks."),
        ("What does the sign say?", "Welcome home?"),
        ("How does the old man look?", "Fine."),
        ("Is the painting good?", "Good."),
    ],
)
def test_short_answers_to_real_questions_stay_short(before: str, text: str) -> None:
    assert "short_answer" in _rules(text, "answerer", before)


# --- offensive: mild swearing of chat and British English --------------------------------------------


@pytest.mark.parametrize(
    ("role", "text"),
    [
        ("questioner", "the sky is gloomy af"),
        ("answerer", "how tf should i know that"),
        ("questioner", "Are those bloody tourists blocking the view?"),
        ("questioner", "My bloody train was late again, anyway is the bridge wooden?"),
        ("answerer", "The old man slipped and busted his ass on the steps."),
        ("answerer", "It's some weird ass bird on the branch."),
        ("answerer", "That damned dog is chewing a shoe."),
        ("questioner", "The requester is a real cheapskate. Is the vase blue?"),
    ],
)
def test_mild_swearing(role: str, text: str) -> None:
    assert "offensive" in _rules(text, role)


@pytest.mark.parametrize(
    ("role", "text"),
    [
        ("answerer", "The badge reads AF in gold letters."),
        ("answerer", "A TF sign hangs over the door."),
        ("answerer", "His bloody hands are wrapped in a cloth."),
        ("answerer", "The damned tumble into the pit on the right."),
        ("answerer", "Joseph leads an ass carrying Mary."),
        ("answerer", "The damned souls cry out below the angels."),
    ],
)
def test_art_words_that_look_like_swearing(role: str, text: str) -> None:
    assert "offensive" not in _rules(text, role)


# --- off_topic: the worker's family, body, hobbies and tally of HITs --------------------------------


@pytest.mark.parametrize(
    ("role", "text"),
    [
        ("questioner", "My own dear father kept a boat like that. Is it moored?"),
        ("answerer", "She is maybe ten, about the age of my granddaughter."),
        ("questioner", "My lolo also had a carabao like this. Is it pulling a cart?"),
        ("answerer", "Our pastor would love the stained glass, I think."),
        ("answerer", "Sorry, my eyes hurt, the lamp is on the left."),
        ("questioner", "i have basketball practice soon so quick, is the door open?"),
        ("questioner", "i wanna go play video games, what colour is the car"),
        ("questioner", "this is the 3rd hit i did today, is the lake frozen?"),
    ],
)
def test_the_workers_life(role: str, text: str) -> None:
    assert "off_topic" in _rules(text, role)


@pytest.mark.parametrize(
    ("role", "text"),
    [
        ("answerer", "The grandmother holds her granddaughter on her lap."),
        ("answerer", "The boys play football in the square."),
        ("answerer", "The choir has practice in the church."),
        ("answerer", "The old man's eyes look tired and his back is bent."),
        ("questioner", "Is the pastor holding a bible?"),
        ("questioner", "Is this the third boat from the left?"),
    ],
)
def test_life_words_inside_the_scene(role: str, text: str) -> None:
    assert "off_topic" not in _rules(text, role)


# --- generic_question: the bare request in other languages, and a bare 'And?' ------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Hola, ¿qué hay en el cuadro?",
        "Cosa si vede nel dipinto?",
        "O que você vê na imagem?",
        "Qu'y a-t-il dans le tableau?",
        "Was gibt es noch auf dem Bild?",
        "Ano ang makikita sa larawan po?",
        "Picture mein kya hai?",
        "And?",
    ],
)
def test_generic_requests_in_other_languages(text: str) -> None:
    assert "generic_question" in _rules(text)


@pytest.mark.parametrize(
    "text",
    [
        "¿Qué hay en la mesa?",
        "Cosa tiene in mano il ragazzo?",
        "O que tem no chão?",
        "Was hält der Mann in der Hand?",
        "Ano ang kulay ng bahay?",
        "And the dog?",
    ],
)
def test_specific_requests_in_other_languages(text: str) -> None:
    assert "generic_question" not in _rules(text)


# --- asks_feelings: chat spellings and other languages -------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "whats the atmosphere of the painting for u",
        "whats the vibe of the pic",
        "do you think its creepy",
        "do u think the flowers look lovely",
        "would u wanna live there",
        "Be honest, you like the painting?",
        "¿Te gusta la pintura?",
        "Es hermoso el cuadro?",
        "Gefällt dir das Bild?",
        "Gusto mo ba ang painting?",
    ],
)
def test_taste_asked_in_chat_and_other_languages(text: str) -> None:
    assert "asks_feelings" in _rules(text)


@pytest.mark.parametrize(
    "text",
    [
        "do you think its snowing",
        "do u think the flowers are roses",
        "Do you think the boy looks sad?",
        "would u wanna know the date on the letter?",
        "Es grande la casa?",
        "What is the mood of the man at the table?",
    ],
)
def test_content_questions_stay_clean(text: str) -> None:
    assert "asks_feelings" not in _rules(text)


# --- imposes_emotion: chat and foreign verdicts, breath taken away -------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "yes its so pretty",
        "Three boats in the harbour, honestly a cool pic.",
        "Es muy hermoso, me encanta.",
        "C'est très beau.",
        "Sobrang ganda po.",
        "The snow on the roofs honestly takes my breath away.",
        "The lanterns glow in the fog and they're gorgeous.",
        "No, too gloomy.",
        "The overall effect is almost calming.",
    ],
)
def test_verdicts_imposed(text: str) -> None:
    assert "imposes_emotion" in _rules(text, "answerer")


@pytest.mark.parametrize(
    "text",
    [
        "The girl is pretty, with a blue ribbon.",
        "It's pretty dark in the corner.",
        "No, too dark to see the face.",
        "They're grey and quite small.",
        "The woman holds her breath as she dives.",
    ],
)
def test_descriptions_stay_clean(text: str) -> None:
    assert "imposes_emotion" not in _rules(text, "answerer")


# --- chat openers before a question word; short answers padded with 'po' or 'tbh' -------------------


@pytest.mark.parametrize(
    "text",
    [
        "wait where is the ladder again",
        "omg is that a fox",
        "ok last question is the moon out",
        "lol how many cats are there",
        "bro what is he holding",
    ],
)
def test_chat_openers_before_a_question(text: str) -> None:
    assert "not_a_question" not in _rules(text)


@pytest.mark.parametrize("text", ["wait the ladder is long", "omg the fox is cute", "lol nice one"])
def test_chat_openers_before_a_statement(text: str) -> None:
    assert "not_a_question" in _rules(text)


@pytest.mark.parametrize(
    ("before", "text"),
    [
        ("Where is the cat?", "Sa ilalim po."),
        ("Is it a full figure?", "Head only po."),
        ("How is the sky?", "very grey tbh"),
        ("Anything else?", "nah thats everything"),
        ("Is he smiling?", "uhh not rly"),
    ],
)
def test_short_answers_padded(before: str, text: str) -> None:
    assert "short_answer" in _rules(text, "answerer", before)


@pytest.mark.parametrize(
    ("before", "text"),
    [
        ("Where is the cat?", "Under the table po, next to a basket."),
        ("How is the sky?", "very grey with pink streaks tbh"),
    ],
)
def test_padded_answers_with_detail(before: str, text: str) -> None:
    assert "short_answer" not in _rules(text, "answerer", before)


# --- chat_language: 'af' after an adjective, 'tf' after a question word --------------------------------


@pytest.mark.parametrize(
    ("role", "text"), [("answerer", "the sky is dark af"), ("questioner", "why tf is he running")]
)
def test_af_and_tf(role: str, text: str) -> None:
    assert "chat_language" in _rules(text, role)


@pytest.mark.parametrize("text", ["The jet has AF painted on its tail.", "A big AF logo sits on the crate."])
def test_af_on_a_sign(text: str) -> None:
    assert "chat_language" not in _rules(text, "answerer")


# --- more verdicts and foreign asks ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "It brings tears to my eyes, the mother and child.",
        "my little sister could paint this",
        "It is the most calming, gentle picture.",
        "yeah its so aesthetic",
    ],
)
def test_more_verdicts(text: str) -> None:
    assert "imposes_emotion" in _rules(text, "answerer")


@pytest.mark.parametrize(
    "text",
    [
        "The woman has tears in her eyes.",
        "My sister could name the flowers: tulips.",
        "The aesthetic is plain.",
    ],
)
def test_more_descriptions(text: str) -> None:
    assert "imposes_emotion" not in _rules(text, "answerer")


@pytest.mark.parametrize("text", ["Was wollte der Maler sagen?", "¿Qué quiere decir el pintor?"])
def test_artist_intent_in_other_languages(text: str) -> None:
    assert "asks_feelings" in _rules(text)


@pytest.mark.parametrize("text", ["Was hält der Maler in der Hand?", "¿Qué lleva el pintor?"])
def test_artist_content_in_other_languages(text: str) -> None:
    assert "asks_feelings" not in _rules(text)


# --- chat spellings of Indian and Filipino English; sign-offs and tastes that are no chitchat -----------


@pytest.mark.parametrize("text", ["what is on d table", "is d man old?", "wats that on the wall"])
def test_chat_spellings_of_the(text: str) -> None:
    assert "chat_language" in _rules(text)


@pytest.mark.parametrize(
    "text",
    [
        "Is the bottle labelled vitamin D?",
        "My lolo was a farmer too. Is the field green?",
        "Plan D is on the map?",
    ],
)
def test_letters_and_kin_words_are_not_chat(text: str) -> None:
    assert "chat_language" not in _rules(text)


@pytest.mark.parametrize(
    "text", ["cat is which colour", "boats r there or not", "bridge is how many metres long"]
)
def test_question_words_mid_sentence(text: str) -> None:
    assert "not_a_question" not in _rules(text)


@pytest.mark.parametrize("text", ["That is where the boat sits.", "This is what I imagined."])
def test_statements_with_a_question_word_inside(text: str) -> None:
    assert "not_a_question" in _rules(text)


def test_thats_all_closes_the_dialog_and_asks_nothing() -> None:
    assert "generic_question" not in _rules("Ok thanks po, that's all.")
    assert "generic_question" in _rules("That's all?")


@pytest.mark.parametrize(
    ("role", "text"),
    [
        ("questioner", "Would you put this in your bedroom?"),
        ("answerer", "Thanks, enjoy the rest of your day."),
    ],
)
def test_taste_and_farewells_are_not_chitchat(role: str, text: str) -> None:
    assert "off_topic" not in _rules(text, role)


# --- short_answer: a brief ask-back is answer_is_question only (labeling guide) ----------------------


@pytest.mark.parametrize(
    "text",
    ["Huh?", "Sorry, come again?", "What, you mean?", "Eh, why?", "Like which?", "Why, can you?", "Qué?"],
)
def test_brief_ask_backs_are_not_short_answers(text: str) -> None:
    rules = _rules(text, "answerer", before="Is the fence wooden?")
    assert "answer_is_question" in rules
    assert "short_answer" not in rules


@pytest.mark.parametrize("text", ["A fence?", "The gate?", "Nah.", "Maybe so."])
def test_echoes_and_bare_replies_stay_short_answers(text: str) -> None:
    assert "short_answer" in _rules(text, "answerer", before="Is the fence wooden?")


# --- greeting: regional English and other languages; a farewell-only reply is not a short answer -----


@pytest.mark.parametrize(
    "text",
    [
        "Howzit! Is there a river?",
        "Howya, what is on the table?",
        "Alright mate? What's in the picture?",
        "Ok ta, tara!",
        "Lovely, cheers, catch ya later!",
        "Thanks a million, slán go fóill!",
        "Dankie, totsiens!",
        "Have a good arvo!",
        "Tudo bom, e vc?",
    ],
)
def test_regional_and_foreign_greetings(text: str) -> None:
    assert "greeting" in _rules(text, "questioner", before="Thanks for the chat.")


@pytest.mark.parametrize(
    ("text", "before"),
    [
        ("Cheerio!", "Thanks, bye!"),
        ("Grand, doei!", "Cheers for that."),
        ("مع السلامة", "Thank you, goodbye."),
        ("🙂", "Cheers, that's all from me."),
    ],
)
def test_farewell_only_replies_are_greeting_not_short_answers(text: str, before: str) -> None:
    rules = _rules(text, "answerer", before=before)
    assert "greeting" in rules
    assert "short_answer" not in rules


@pytest.mark.parametrize(
    ("role", "text", "before"),
    [
        ("questioner", "Alright, what's on the left?", None),
        ("answerer", "A boat with a flag that says cheerio in red letters.", "What is on the water?"),
        ("answerer", "🙂", "Is the child happy?"),
    ],
)
def test_greeting_look_alikes_stay_clean(role: str, text: str, before: str | None) -> None:
    assert "greeting" not in _rules(text, role, before=before)


# --- off_topic: grumbling about the task, the pay and the worker's surroundings; their weather --------


@pytest.mark.parametrize(
    ("role", "text", "before"),
    [
        ("questioner", "Honestly this one pays like 15 cents. Is there a boat?", None),
        ("answerer", "A bridge. The pay is a total joke though.", "What is it?"),
        ("questioner", "Three more of these and I can sleep. Any people?", None),
        ("answerer", "Ugh, I've been doing these for hours. It's a red barn.", "What is it?"),
        ("questioner", "This is taking ages. Is it indoors?", None),
        ("questioner", "My coffee's gone cold. What colour is the door?", None),
        ("answerer", "Sorry, the internet has been patchy. Two horses.", "How many horses?"),
        ("answerer", "It's baltic out here, snow everywhere.", "How's the weather over there?"),
        ("answerer", "Texas, all my life. And you?", "where r u from"),
    ],
)
def test_task_grumbles_and_local_weather_are_off_topic(role: str, text: str, before: str | None) -> None:
    assert "off_topic" in _rules(text, role, before=before)


@pytest.mark.parametrize(
    ("role", "text", "before"),
    [
        ("answerer", "It pays tribute to the sailors, there is a plaque.", "What is on the wall?"),
        ("answerer", "Two more horses behind the cart.", "Anything else?"),
        ("answerer", "The coffee in the cup has gone cold-looking, grey.", "What is in the cup?"),
        ("answerer", "Stormy, rain lashing the boats.", "What's the weather like in the painting?"),
        ("answerer", "A farm in Texas?", "where r u from"),
        ("questioner", "Is the dog barking at the postman?", None),
    ],
)
def test_artwork_lines_with_grumble_words_stay_on_topic(role: str, text: str, before: str | None) -> None:
    assert "off_topic" not in _rules(text, role, before=before)


# --- imposes_emotion: slang verdicts, verdicts after yes/no, art in general, foreign verdicts ----------


@pytest.mark.parametrize(
    "text",
    [
        "Yeah, so gorgeous, the sea is green and gold.",
        "Nah, dead boring, just grey squares.",
        "Abstract art is pointless, it's three lines.",
        "It's cheap garbage, a logo on a wall.",
        "Proper eyesore, orange and purple stripes.",
        "Wow, that's heartbreaking, the dog waits by the door.",
        "Nicest building in the whole town, I'd say.",
        "Peaceful as anything, a lake and a boat.",
        "The neon colours burn my eyes.",
        "Molto bello.",
        "Ja, sehr schön.",
        "Mooi!",
    ],
)
def test_slang_and_foreign_verdicts_impose(text: str) -> None:
    assert "imposes_emotion" in _rules(text, "answerer", before="Tell me about it.")


@pytest.mark.parametrize(
    "text",
    [
        "Yes, a bit sad, his head hangs low.",
        "No, a boat and two men.",
        "The art teacher is holding a brush.",
        "It's a rubbish bin next to a bench.",
        "My eyes hurt, I need a break. A red house.",
        "Best seats in the theatre are in the front row, where the king sits.",
        "Bello is the name written on the boat.",
    ],
)
def test_descriptions_with_verdict_words_stay_clean(text: str) -> None:
    assert "imposes_emotion" not in _rules(text, "answerer", before="Tell me about it.")


# --- non_english: Afrikaans and Dutch lines are not chat spelling; Portuguese small talk ---------------


@pytest.mark.parametrize(
    "text",
    ["Wat sien jy op die prent?", "Hoe groot is die boot?", "Is die kleure mooi?", "Oi, tudo bem com você?"],
)
def test_afrikaans_dutch_and_portuguese_are_non_english(text: str) -> None:
    rules = _rules(text)
    assert "non_english" in rules
    assert "chat_language" not in rules
    assert "offensive" not in rules


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("wat is the man holding", "chat_language"),
        ("Is die cast of the statue bronze?", None),
        ("The farmer holds a hoe in his right hand.", None),
    ],
)
def test_english_with_look_alike_words_stays_english(text: str, rule: str | None) -> None:
    rules = _rules(text, "answerer" if text.startswith("The farmer") else "questioner")
    assert "non_english" not in rules
    if rule:
        assert rule in rules


@pytest.mark.parametrize(
    ("role", "text", "before"),
    [
        ("questioner", "This pays about 30p. Any trees?", None),
        ("answerer", "Ohio, lived here forever. You?", "haha ok. where u from"),
    ],
)
def test_pay_amounts_and_replies_to_where_from(role: str, text: str, before: str | None) -> None:
    assert "off_topic" in _rules(text, role, before=before)


def test_pay_as_a_verb_of_the_scene_stays_on_topic() -> None:
    assert "off_topic" not in _rules("The man pays 3 coins to the baker.", "answerer", before="What happens?")
