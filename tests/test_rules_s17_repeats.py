"""Session 17: ``repeated_question`` on re-asks in other words (development batches 19-23).

A second open "more" ask ("Anything more?", "Tell me more.", "What else is worth mentioning?", "Anything
else besides the boat?") after an earlier "what else" ask is the guide's "second open-ended ask in
other words"; a question asked again with "still", "inside the ..." or "behind her" (the background)
for the earlier wording, or with a pier called a dock, a bust a statue, a party a feast, guests counted
as people, or "what else is on the shelf?" asked as "anything else on the shelf?". Each has a near
miss that must stay clean. Sentences written for this test.
"""

from __future__ import annotations

import pytest

from server.rules import RulesConfig, check

NO_CLASSIFIERS = RulesConfig(classifier=False)


def repeats(earlier: str, question: str) -> bool:
    history = [
        {"role": "questioner", "text": earlier},
        {"role": "answerer", "text": "A few things, a chair and a lamp mostly."},
    ]
    result = check("questioner", 2, question, history=history, config=NO_CLASSIFIERS)
    return "repeated_question" in result.rule_ids


@pytest.mark.parametrize(
    ("earlier", "question"),
    [
        # a second open "more"/"else" ask, in other words
        ("What else can you see?", "Anything more?"),
        ("Tell me more.", "What else is there?"),
        ("What more is there to see?", "Anything else you can tell me?"),
        ("Is there anything else?", "What is in the picture more?"),
        ("What else?", "Is there anything else worth noting?"),
        ("Anything else?", "What else do you notice?"),
        ("What else is there?", "Anything else besides the chair and the lamp?"),
        # the same question with "still", "inside the", "behind her" for the background
        ("Is it snowing in the painting?", "Is it still snowing?"),
        ("Is there anybody in the cabin?", "Is somebody inside the cabin?"),
        ("What is in the background?", "What is behind him?"),
        ("What tree is in the back?", "Which tree is behind them?"),
        # a landing place by another name, guests counted as people
        ("Are there boats at the jetty?", "Are there any boats by the pier?"),
        ("How many diners are at the long table?", "How many people are at the long table?"),
        # a statue by another name, a feast called a party; "what else is on X" asked as "anything else"
        ("What is the statue made of?", "What material is the bust?"),
        ("Is the feast held outdoors?", "Is the party outside?"),
        ("What else is on the shelf?", "Anything else on the shelf?"),
    ],
)
def test_asked_again_in_other_words(earlier: str, question: str) -> None:
    assert repeats(earlier, question)


@pytest.mark.parametrize(
    ("earlier", "question"),
    [
        # "more" of something named, or a first open ask after a specific one
        ("What else can you see?", "Are there more birds?"),
        ("Tell me more.", "Anything else about the dog?"),
        ("What colour is the lamp?", "Anything more?"),
        ("What else is there?", "Are there more dogs apart from the big one?"),
        # "still" as a word of its own, "behind" something named, "inside" alone
        ("Is there water?", "Is the water still?"),
        ("Is there a dog?", "Is the dog behind him?"),
        ("What is in the background?", "What is behind the tree?"),
        # a pier is not a boat; diners are not dogs
        ("Are there boats at the jetty?", "Is the pier made of wood?"),
        ("How many dogs are at the long table?", "How many people are at the long table?"),
        # another thing of the same kind, another place
        ("What is the statue made of?", "What is the frame made of?"),
        ("Is the feast held outdoors?", "Is the dog outside?"),
        ("What else is on the shelf?", "Anything else on the table?"),
        ("What else is on the shelf?", "Is there a cup on the shelf?"),
    ],
)
def test_near_misses_are_new_questions(earlier: str, question: str) -> None:
    assert not repeats(earlier, question)
