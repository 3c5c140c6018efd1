"""Session 17: ``short_answer`` for a bare reply repeated with a reminder and a telling-off.

"Four, like I said, you muppet." after "How many cows?" is the guide's "Red, like I said." with an
insult added: the insult, "are you blind?" or "scroll up" adds no word of answer. Near misses keep their
verdict: a real description before the reminder, a telling-off with no reminder, and a correction
after a yes/no question. Sentences written for this test.
"""

from __future__ import annotations

import pytest

from server.rules import RulesConfig, check

NO_CLASSIFIERS = RulesConfig(classifier=False)


def hits(question: str, answer: str) -> set[str]:
    history = [{"role": "questioner", "text": question}]
    return set(check("answerer", 3, answer, history=history, config=NO_CLASSIFIERS).rule_ids)


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("How many cows are there?", "Four, like I said, you muppet."),
        ("How many cows are there?", "Four, as I told you, mate."),
        ("What colour is the barn?", "Red, same as before, are you blind?"),
        ("What colour is the barn?", "Red, you moron, scroll up."),
        ("What colour is the barn?", "Dull red, I have said it."),
        ("What is the farmer holding?", "A rake, god damn it."),
    ],
)
def test_bare_reply_with_reminder_and_insult_is_short(question: str, answer: str) -> None:
    assert "short_answer" in hits(question, answer)


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        # a described answer before the reminder
        ("How many cows are there?", "Four brown cows by the gate, like I said, mate."),
        # a telling-off with no reminder and no bare reply
        ("What colour is the barn?", "It is painted a deep red with white trim, you muppet."),
        # a correction after a yes/no question, as the batches label it
        ("Is the farmer smiling?", "Frowning, like I said, mate."),
        # no reminder at all: the insult alone is not a reply repeated
        ("How many cows are there?", "Four of them are lying down, are you blind?"),
    ],
)
def test_near_misses_keep_their_verdict(question: str, answer: str) -> None:
    assert "short_answer" not in hits(question, answer)
