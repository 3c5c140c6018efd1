"""Session 17: ``copies_opinion`` for a person the dialog has just brought up, named by a pronoun.

"Does she look forlorn?" right after the answerer described the old woman of "The old woman alone on
the bench looks forlorn." restates that opinion (labeling guide, session 12: the subject may be a
pronoun once the dialog has brought it up). Near misses keep their verdict: the pronoun with no recent
mention of the opinion's subject, a question with a word the opinion's judgement lacks, and "it" (the
whole picture). Sentences written for this test.
"""

from __future__ import annotations

import pytest

from server.rules import RulesConfig, check

NO_CLASSIFIERS = RulesConfig(classifier=False)

OPINIONS = [
    {
        "emotion": "sadness",
        "text": "The fisherman mending nets alone on the jetty looks weary and forgotten.",
    },
    {"emotion": "contentment", "text": "The gulls circling over the calm water feel soothing."},
]
HISTORY = [
    {"role": "questioner", "text": "Who is on the jetty?"},
    {"role": "answerer", "text": "An old fisherman sits there mending his nets, nobody else around."},
]
UNRELATED = [
    {"role": "questioner", "text": "What colour is the sky?"},
    {"role": "answerer", "text": "Pale grey with a few pink streaks near the horizon."},
]


def hits(text: str, history: list[dict[str, str]]) -> set[str]:
    return set(
        check("questioner", 3, text, history=history, opinions=OPINIONS, config=NO_CLASSIFIERS).rule_ids
    )


@pytest.mark.parametrize(
    "text",
    [
        "Does he look weary and forgotten?",
        "Does he seem forgotten?",
        "ok so does he look weary?",
        "do they look forgotten",
    ],
)
def test_pronoun_for_the_opinions_subject_copies_it(text: str) -> None:
    assert "copies_opinion" in hits(text, HISTORY)


@pytest.mark.parametrize(
    "text",
    [
        "Does he look weary and forgotten?",  # nothing recent says who "he" is
        "Does he seem forgotten?",
    ],
)
def test_pronoun_without_a_recent_mention_is_not_a_copy(text: str) -> None:
    assert "copies_opinion" not in hits(text, UNRELATED)


@pytest.mark.parametrize(
    "text",
    [
        "Does he look weary from the cold wind?",  # asks more than the judgement
        "Does he look happy?",  # a judgement the opinion does not make
        "Does it look forgotten?",  # "it": the whole picture, not the fisherman
        "Is he mending the nets alone?",  # checks a detail of the subject
    ],
)
def test_near_misses_keep_their_verdict(text: str) -> None:
    assert "copies_opinion" not in hits(text, HISTORY)
