"""The rules' own detectors (no learned classifier) on rewordings, judgements and chat-style questions.

Sentences written for these tests: repeats asked in other words, feelings asked through a
description, judgements in everyday words, generic questions wrapped in greetings.
"""

from __future__ import annotations

import pytest

from server.rules.base import Context
from server.rules.registry import RULES_BY_ID


def fires(rule_id: str, text: str, earlier: tuple[str, ...] = ()) -> bool:
    rule = RULES_BY_ID[rule_id]
    role = next(iter(rule.roles))
    history = [{"role": "questioner", "text": q} for q in earlier]
    return rule.detect(Context(role, 3, text, history=history), rule.config())


# (earlier question, the same asked again in other words)
REPEATS = [
    ("What is the girl doing?", "What is she doing with the basket?"),
    ("Is the old man indoors?", "Is he inside?"),
    ("Is the lady holding a pear?", "Is the lady holding some fruit?"),
    ("What are the fishermen wearing?", "What are they dressed in?"),
    ("Is the girl wearing a bonnet?", "What does she have on her head?"),
    ("What is on the shelf?", "What objects are on the shelf?"),
    ("Are there any words on the sign?", "Is there writing on the sign?"),
    ("What colour are the houses?", "What colours are the buildings?"),
    ("How old is the sailor?", "What age is he, roughly?"),
    ("What time of day do you think it is?", "Sorry, what time of day was it?"),
    ("Are there any cows or sheep?", "Did you say there were sheep or cows?"),
    ("What is the bread lying on?", "What was the bread on again, a plate?"),
    ("Is the boy wearing boots?", "Does the boy have boots on?"),
    ("What is the farmer holding?", "What has he got in his hands?"),
    ("What colour is the napkin?", "What is the colour of the table napkin?"),
    ("Is the river calm or choppy?", "Is the river choppy?"),
    ("How big is the barn?", "What size is the barn?"),
    ("Is anyone falling?", "Did somebody fall?"),
    ("Who is sitting at the table?", "Who is at the table?"),
    ("What time of day is it?", "Is it morning or evening?"),
    ("Is the sailor young or old?", "How old is the sailor?"),
    ("Is there a cart?", "Any cart on the road?"),
    ("How many geese are there?", "Could you count the geese for me?"),
    ("What colour is the shawl?", "What shade is the shawl?"),
]
# (earlier question, a new question that shares words with it)
NEW = [
    ("What is the girl doing?", "What is the dog doing?"),
    ("Is the man holding a hat?", "Is the woman holding a hat?"),
    ("Is there a dog?", "What colour is the dog?"),
    ("What is on the table?", "What is on the wall?"),
    ("What is he wearing?", "What is she wearing?"),
    ("Is the sky cloudy?", "Are there clouds over the sea or over the town?"),
    ("How many people are there?", "What are the people doing?"),
    ("What colour is the dress?", "What colour is the hat?"),
    ("Is the river calm or choppy?", "Is there a bridge over the river?"),
    ("Did you say the boat is red?", "Is the sail red too?"),
    ("Is the house big?", "Is the tower big?"),
    ("What is the butcher doing with his hands?", "What is the butcher holding?"),
    ("Is the apple red?", "Is the pear green?"),
    ("Is there a bridge?", "Are there people on the bridge?"),
    ("Is there a table?", "Is there anything on the table?"),
    ("Is there a girl?", "Are there any other children?"),
    ("Is there a cart?", "Is there a horse by the cart?"),
]


@pytest.mark.parametrize(("earlier", "question"), REPEATS)
def test_repeat_in_other_words(earlier: str, question: str) -> None:
    assert fires("repeated_question", question, (earlier,))


@pytest.mark.parametrize(("earlier", "question"), NEW)
def test_new_question_is_not_a_repeat(earlier: str, question: str) -> None:
    assert not fires("repeated_question", question, (earlier,))


ASKS_FEELINGS = [
    "Does the low fog make the village feel lonely?",
    "Do the broken windows remind you of anything?",
    "Does the view over the valley take your breath away?",
    "Would you like to live in that cottage?",
    "Is the whole orchard gloomy?",
    "Is this harbour scene relaxing?",
    "Do you find the butcher's table gross?",
    "Do you think the puppet is creepy?",
    "Would you call the landscape serene?",
    "Does the garden have a dreamy vibe?",
    "What feeling does the market scene give off?",
    "Was the painter lonely when he made it?",
    "What did the artist want to say with the empty chair?",
    "Is it a pretty picture?",
    "How eerie is it?",
    "Is the colour scheme pleasing to your eye?",
    "Does the flooded street come across as bleak?",
    "Tragic or romantic, overall?",
    "Any good?",
    "Is there a sense of dread in the room?",
    "Out of ten, what would you give it?",
    "Which opinion do you agree with?",
]
NOT_ASKS_FEELINGS = [
    "Does the woman look sad or calm?",
    "Do you think the boat is moving?",
    "Would you describe the river as calm or fast?",
    "Does the grey wall feel cold and rough?",
    "How would you sum it up?",
    "Is it evening for you?",
    "Is the painting a large one?",
    "Does the light give a sense of depth?",
    "What does the man feel in his hands?",
    "Is the pay good for you?",
    "Nice.",
    "Is the dog happy?",
]


@pytest.mark.parametrize("text", ASKS_FEELINGS)
def test_asks_feelings_through_a_description_or_a_verdict(text: str) -> None:
    assert fires("asks_feelings", text)


@pytest.mark.parametrize("text", NOT_ASKS_FEELINGS)
def test_content_questions_do_not_ask_feelings(text: str) -> None:
    assert not fires("asks_feelings", text)


GENERIC = [
    "Hello there, nice to meet you! What's happening in the painting?",
    "hey how r u? whats going on in the pic",
    "Right, the cart is by the barn. Anything more to tell?",
    "Describe whatever else you see.",
    "Could you walk me through it?",
    "Any further details you can add?",
    "What's the first thing you notice?",
    "Is there anything else going on?",
    "Please carry on describing.",
]
NOT_GENERIC = [
    "What else is in the sky?",
    "Is there anything on the table?",
    "What is he doing?",
    "Who else is there?",
    "What's on the left?",
    "Does the painting have a lot of detail?",
    "I see.",
    "Hey, how's it going?",
    "Is the dog black? What else?",
    "Thanks, see you!",
]


@pytest.mark.parametrize("text", GENERIC)
def test_generic_questions_wrapped_in_courtesy(text: str) -> None:
    assert fires("generic_question", text)


@pytest.mark.parametrize("text", NOT_GENERIC)
def test_specific_questions_are_not_generic(text: str) -> None:
    assert not fires("generic_question", text)


@pytest.mark.parametrize(
    "text",
    [
        "wtf is that thing in the corner",
        "r there any birds",
        "whats the man holding",
        "just tell me about the bridge",
        "I'd be grateful if you could tell me about the bridge.",
        "Kindly describe the boats.",
    ],
)
def test_chat_style_questions_are_questions(text: str) -> None:
    assert not fires("not_a_question", text)


@pytest.mark.parametrize(
    "text", ["What a mess of a painting.", "Tell you what, that sounds lovely.", "Okay."]
)
def test_exclamations_are_not_questions(text: str) -> None:
    assert fires("not_a_question", text)


IMPOSES = [
    "A small red boat by the jetty, such a charming, cosy detail.",
    "Three dogs asleep by the stove, so adorable.",
    "The butcher's block is covered in blood, honestly revolting to look at.",
    "Dark clouds over the moor. Absolutely chilling and bleak.",
    "Grey cliffs. Stunning.",
    "The dead birds on the table, it sickens me.",
    "Two children waving from the bridge, it breaks my heart.",
    "A lighthouse on the rocks, the loneliest thing I've ever seen.",
    "The kitchen feels warm and inviting.",
    "What a gorgeous little garden.",
    "Gorgeous colours, ochre and deep blue.",
    "The storm at sea is terrifying, waves over the deck.",
    "I find the dancing couple delightful.",
    "The whole thing is a masterpiece.",
    "There's a sense of loss in the empty room.",
    "The fog makes it moody and a bit sad.",
    "Yes, a hat.",
    "Bread I think.",
]
NOT_IMPOSES = [
    "The old woman looks a bit sad, her mouth turns down.",
    "The clown has a painted smile and big shoes.",
    "The water is moving fast under the bridge.",
    "The pay here is terrible.",
    "Crap, I forgot to say the boat is red.",
    "It's hard to see details on my small screen.",
    "He looks tired and a bit lonely, sitting on the step.",
    "The painter used a sense of depth with the long road.",
    "Yes, with two red sails and a flag.",
    "No, there are three boats and a small rowing boat.",
]


@pytest.mark.parametrize("text", IMPOSES[:-2])
def test_judgements_in_everyday_words_impose_emotion(text: str) -> None:
    assert fires("imposes_emotion", text)


@pytest.mark.parametrize("text", NOT_IMPOSES)
def test_descriptions_do_not_impose_emotion(text: str) -> None:
    assert not fires("imposes_emotion", text)


@pytest.mark.parametrize("text", IMPOSES[-2:])
def test_one_thing_named_after_yes_or_before_a_hedge_is_short(text: str) -> None:
    assert fires("short_answer", text)


@pytest.mark.parametrize("text", NOT_IMPOSES[-2:])
def test_a_yes_with_a_description_is_not_short(text: str) -> None:
    assert not fires("short_answer", text)


# "its" typed for "it's": a judgement that ends its clause imposes; the possessive describes
ITS_JUDGES = ["its so depressing, honestly", "Yes. its creepy as hell", "no, its boring"]
ITS_DESCRIBES = [
    "Its gloomy sky is grey.",
    "The boat has its sad little flag up.",
    "its beautiful frame is gold",
]


@pytest.mark.parametrize("text", ITS_JUDGES)
def test_its_for_it_is_before_a_judgement_imposes_emotion(text: str) -> None:
    assert fires("imposes_emotion", text)


@pytest.mark.parametrize("text", ITS_DESCRIBES)
def test_possessive_its_before_an_adjective_describes(text: str) -> None:
    assert not fires("imposes_emotion", text)
