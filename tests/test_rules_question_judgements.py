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
]


@pytest.mark.parametrize(("earlier", "question"), REPEATS)
def test_repeat_in_other_words(earlier: str, question: str) -> None:
    assert fires("repeated_question", question, (earlier,))


@pytest.mark.parametrize(("earlier", "question"), NEW)
def test_new_question_is_not_a_repeat(earlier: str, question: str) -> None:
    assert not fires("repeated_question", question, (earlier,))
