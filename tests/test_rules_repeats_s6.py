"""Repeats asked another way and answerer ask-backs about emotions (session 6).

The detectors alone (no classifier). Every sentence was written for these tests about imagined
paintings, not taken from the data files.
"""

from __future__ import annotations

import pytest

from server.rules.base import Context
from server.rules.registry import RULES_BY_ID
from tests.test_rules_question_judgements import fires

REPEATS = [
    # the state of one thing, asked open and then closed (or the other way round)
    ("What is the lake like?", ("Is the lake frozen?",)),
    ("Is her hair curly?", ("Describe her hair.",)),
    # one of the answers an either/or question offered, about the same thing
    ("Is the road muddy, with puddles?", ("Is the road dry or muddy?",)),
    ("Where do they fish, in a lake?", ("Where are people fishing, a river or a lake?",)),
    # asking who is doing something asks whether anyone is
    ("Who is sweeping the yard?", ("Is anyone sweeping?",)),
    # synonyms of feelings, roles named by a general person word
    ("Does the boy seem frightened?", ("Is the boy afraid?",)),
    ("How old is the woman in bed?", ("How old is the patient?",)),
    ("How many people are swimming?", ("How many swimmers?",)),
    # swearing is no part of what is asked
    ("Is there a well or not?", ("Damn it, is there a well at all?",)),
    # a quality asked again of "it", and a bare request to ask again
    ("Is it foggy?", ("Is the foggy valley deep?",)),
    ("come on, just tell me again", ("What colour is the roof?",)),
    # a person put first as the topic, then named by a pronoun
    ("The old fisherman, what is he doing?", ("What is the fisherman doing?",)),
    ("The baker, what is his action?", ("What is the baker doing?",)),
    # other ways to ask where, who, how many, what someone does or wears
    ("On which side is the moon?", ("Where is the moon?",)),
    ("Which people ride the horses?", ("Who is riding the horses?",)),
    ("Number of geese, roughly?", ("How many geese are there?",)),
    ("What's the farmer up to?", ("What is the farmer doing?",)),
    ("what's the porter got on?", ("what is the porter wearing?",)),
    ("Is the knight by himself?", ("Is the knight alone?",)),
    ("Is rain falling?", ("Is it raining?",)),
    ("Is the old man sleeping?", ("Is the man awake?",)),
    ("Is the jacket green?", ("Is the coat green?",)),
    # asked again on purpose, in other words
    ("Sorry, once more: is there a cat or not?", ("Is there a cat?",)),
    ("is the mill working? sorry if i asked already", ("is the mill working or idle?",)),
    # one of several questions in a message asked before
    ("What colour is the cart, is it red?", ("Is the cart red?",)),
    ("what's the shepherd got on? is that a cloak?", ("What is the shepherd wearing?",)),
    ("Any pet or animal in the kitchen?", ("Is there an animal?",)),
    ("What colour is the roof, and how many chimneys are there?", ("How many chimneys are there?",)),
    # a topic put last, a possessive "'s" on the asked word, busy with, blossom
    ("what's she got on, the nun?", ("what is the nun wearing?",)),
    ("what colour's his beard?", ("What colour is his beard?",)),
    ("what's the baker busy with?", ("What is the baker doing?",)),
    ("do the bushes have flowers on them?", ("are the bushes in bloom?",)),
    # where something hangs or sits is where it is; when it takes place, what time it is
    ("Where has the mirror been hung?", ("Where is the mirror?",)),
    ("Does the scene take place after dark?", ("Is it night?",)),
    ("Is it set in the morning, towards noon, or in the evening?", ("What time of day is it?",)),
    ("What breed is the horse?", ("What kind of horse is it?",)),
    # an oath is no part of the question, but blood in the scene is
    ("Bloody hell, is there a cart or not?", ("Is there a cart?",)),
    ("Are the knives bloody?", ("Are the bloody knives and the broken plate upsetting?",)),
    # the generic ask for more, twice
    ("What else is there?", ("Anything else?",)),
    ("Is there anything else in the picture?", ("What else?",)),
]

NEW_QUESTIONS = [
    # another quality of the same thing
    ("How big is the barn?", ("What colour is the barn?",)),
    # an action, not one quality, after an open question
    ("Is the fisherman smiling?", ("Describe the fisherman.",)),
    # what something looks like after one of its qualities: more than that quality
    ("What does the cat look like?", ("Is the cat small?",)),
    # whether it is there at all, then what it is like
    ("What is the pond like?", ("Is there a pond?",)),
    # a guess at the answer of a wh-question (the labels of the training set call it new)
    ("Is the boy wearing a cap?", ("What is the boy wearing?",)),
    # the other alternative's thing, not the one asked about
    ("Is the bridge dry?", ("Is the road dry or muddy?",)),
    # who, after whether something else is there
    ("Who is holding the lamp?", ("Is there a lamp?",)),
    ("Is it old?", ("What colour is the vase?",)),
    # a part of what was asked about
    ("What is the woman wearing on her head?", ("What is the woman wearing?",)),
    # two questions in one, each new
    ("Is the fallen girl hurt, is she crying?", ("Is anyone falling over?",)),
    ("Tell me about the girl: what is she wearing and doing?", ("What are they doing?",)),
    # a statement before the question is not itself a question
    ("All those boats in the bay, is that a storm coming?", ("Are all those boats in the bay?",)),
    # who is afraid, after what is frightening
    ("Are they scared?", ("Is there a cliff below them? sounds scary, is it?",)),
    ("Is any person flying in the sky?", ("Is there a woman?",)),
    ("Who else is there?", ("Anything else?",)),
    # after a topic, the pronoun of the question is the topic's, not someone asked about before
    ("The little girl, what is she holding?", ("What is the woman holding?",)),
    ("Do the men look tired, or are they working hard?", ("Are the men working?",)),
    ("Is there anything else on the shelf?", ("What else?",)),
    ("Where is the mirror's frame?", ("Where is the mirror?",)),
]


@pytest.mark.parametrize(("text", "earlier"), REPEATS)
def test_repeats_asked_another_way(text: str, earlier: tuple[str, ...]) -> None:
    assert fires("repeated_question", text, earlier)


@pytest.mark.parametrize(("text", "earlier"), NEW_QUESTIONS)
def test_follow_ups_are_not_repeats(text: str, earlier: tuple[str, ...]) -> None:
    assert not fires("repeated_question", text, earlier)


ASK_BACKS = [
    "Why do you think the harbour looks lonely?",
    "What makes the storm frightening to you?",
    "Why would a still life be joyful? Do you mean the flowers?",
]
JUDGEMENTS = [
    "It is a gloomy painting. Why do you ask?",
    "The whole scene is terrifying, isn't it?",
]


@pytest.mark.parametrize("text", ASK_BACKS)
def test_ask_backs_about_emotions_impose_nothing(text: str) -> None:
    assert not fires("imposes_emotion", text)
    assert fires("answer_is_question", text)


@pytest.mark.parametrize("text", JUDGEMENTS)
def test_judgement_beside_a_question_still_imposes(text: str) -> None:
    assert fires("imposes_emotion", text)


def _after_reply(text: str, earlier: str, reply: str) -> bool:
    rule = RULES_BY_ID["repeated_question"]
    history = [{"role": "questioner", "text": earlier}, {"role": "answerer", "text": reply}]
    return rule.detect(Context("questioner", 2, text, history=history), rule.config())


def test_question_the_partner_asked_back_about_asked_again() -> None:
    earlier = "What is the moon doing, is it still rising?"
    # asked back, it was never answered: no repeat (labeling guide, session 12)
    assert not _after_reply("Is the moon rising?", earlier, "Do you mean whether it is night?")
    # answered, the same words in another question are a follow-up
    assert not _after_reply("Is the moon rising?", earlier, "It hangs low over the hills, still rising.")
    # the questioner's reply to the partner's question back is no question
    assert not _after_reply("the moon", earlier, "Which one?")
