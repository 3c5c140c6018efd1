"""The rules' own detectors (no classifier) on wordings from session 6: generic asks wrapped in
courtesy or complaints, requests without a question word, judgements asked through a description,
answerer verdicts in everyday words, short answers and ask-backs, repeats reworded.

Every sentence here was written for these tests (imagined paintings, not lines of the data files).
"""

from __future__ import annotations

import pytest

from tests.test_rules_question_judgements import fires

GENERIC = [
    "Heyy whats the painting about",
    "Good day to you! What is in the picture?",
    "Sorry. What's in the image?",
    "fine thank you. So what is in the painting",
    "what is this one even about tho",
    "Is that all?",
    "whatever you can see",
    "anything you like",
    "Your replies are far too brief, tell me more",
    "Come on, give me some real details.",
    "No, I only want to know what the picture looks like.",
    "hmm describe more",
    "Hiya! What is the main thing in the painting?",
]
NOT_GENERIC = [
    "and the barn, what is inside it",
    "Is the horse brown? What else?",
    "Tell me more about the girl with the kite.",
    "Good evening, how has your day been?",
    "What is the main colour of the boat?",
    "Whatever the woman holds, is it heavy?",
    "The sky is grey, is there any rain?",
]


@pytest.mark.parametrize("text", GENERIC)
def test_generic_asks_in_courtesy_and_complaints(text: str) -> None:
    assert fires("generic_question", text)


@pytest.mark.parametrize("text", NOT_GENERIC)
def test_specific_asks_are_not_generic(text: str) -> None:
    assert not fires("generic_question", text)


QUESTIONS_WITHOUT_MARK = [
    "ok thanks. So who is holding the lantern",
    "Heyyy what's on the wall",
    "sorry mate, busy day. any cats",
    "Not really, I just want to know how tall the tower is.",
    "hmm describe the bridge",
    "wtf is the monkey doing",
    "anyone on the balcony",
]
NOT_QUESTIONS = [
    "wtf giant snails",
    "What the heck, it's only a drawing, relax.",
    "The ladder looks wobbly.",
    "Nice, the goats are white.",
]


@pytest.mark.parametrize("text", QUESTIONS_WITHOUT_MARK)
def test_questions_without_a_question_mark(text: str) -> None:
    assert not fires("not_a_question", text)


@pytest.mark.parametrize("text", NOT_QUESTIONS)
def test_statements_and_exclamations_are_not_questions(text: str) -> None:
    assert fires("not_a_question", text)


FEELINGS = [
    "Does the steep cliff edge make your stomach churn?",
    "the wolves circling the sledge, are they frightening?",
    "is the blue glow over the pond soothing?",
    "Is the burning barn a dreadful sight?",
    "The hunters dragging the deer through the snow, horrifying?",
    "The boy kicking the goat is just mean, right?",
    "Looks spooky, isn't it?",
    "Is it silly or tasteless?",
    "Does the rain on the windows feel like a sleepy Sunday?",
    "Does the ballroom feel alive with all that dancing?",
    "Does the rotting fish look revolting?",
    "The landlord shouting at the widow makes you livid?",
    "What's the atmosphere of the picture?",
    "What is the picture's mood?",
    "Is it mostly a gloomy painting?",
    "Does the painting want to tell us that war is pointless?",
    "So does it feel menacing?",
]
NOT_FEELINGS = [
    "Is the man relaxing in the garden?",
    "Is the nurse calming the child?",
    "Is the dog happy, right?",
    "Does the woman look sad?",
    "Is the girl sick in bed?",
    "What does the word on the sign mean?",
    "Does the fabric feel like silk?",
    "Is the barn a big building?",
    "Is the fire burning the barn?",
    "What is the atmosphere like outside, is it raining in the scene?",
]


@pytest.mark.parametrize("text", FEELINGS)
def test_feelings_asked_through_a_description(text: str) -> None:
    assert fires("asks_feelings", text)


@pytest.mark.parametrize("text", NOT_FEELINGS)
def test_states_and_content_are_not_feelings(text: str) -> None:
    assert not fires("asks_feelings", text)


@pytest.mark.parametrize("text", ["Which one?", "What boat?", "Who exactly?"])
def test_ask_backs_with_a_question_word_are_not_short_answers(text: str) -> None:
    assert fires("answer_is_question", text)
    assert not fires("short_answer", text)


# "Pardon?" and "Sorry, what?" left this list in session 7: the labeling guide makes a brief ask-back
# answer_is_question only (tests/test_rules_s7.py).
@pytest.mark.parametrize("text", ["A cart?", "I can't read it.", "Nope, I told u."])
def test_bare_replies_are_short_answers(text: str) -> None:
    assert fires("short_answer", text)


VERDICTS = [
    "Honestly one of the loveliest paintings in this whole set.",
    "It's a really nice painting, the greens are soft.",
    "This one has so much energy, the horses gallop across.",
    "The lake is flat and brown. Revolting, like old soup.",
    "I laughed, the goat is eating the hat.",
    "Looking at the waves I feel like diving in.",
]
NOT_VERDICTS = [
    "It is one of the tallest towers in the town, with a clock.",
    "There is a small painting hanging above the fireplace.",
    "The man has a lot of energy, he is jumping over the fence.",
    "The girl laughs while the goat eats her hat.",
    "I feel like the river is flowing to the left.",
]


@pytest.mark.parametrize("text", VERDICTS)
def test_answerer_verdicts_in_everyday_words(text: str) -> None:
    assert fires("imposes_emotion", text)


@pytest.mark.parametrize("text", NOT_VERDICTS)
def test_descriptions_are_not_verdicts(text: str) -> None:
    assert not fires("imposes_emotion", text)
