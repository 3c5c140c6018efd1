"""Session 12: a question that shares most of its words with an opinion copies it only when it keeps
what the opinion says of its subject. One that names the subject alone ("Is there a red boat tied to
the jetty?" after "The red boat tied to the jetty looks abandoned.") checks what is in the artwork
(docs/labeling-guide.md, conventions of sessions 9 and 12). Opinions without a verb that splits them
keep the word-overlap test.

Opinions and questions written for this test; the detector runs without the classifiers.
"""

from __future__ import annotations

import pytest

from server.rules.registry import check

OPINIONS = [
    {"emotion": "sadness", "text": "The red rowing boat tied to the old jetty looks abandoned and forlorn."},
    {
        "emotion": "contentment",
        "text": "Sunlight on the stone cottage and its climbing roses feels so homely.",
    },
]


def fires(question: str, opinions: list[dict[str, str]] = OPINIONS) -> bool:
    result = check("questioner", 4, question, [], opinions=opinions, config={"classifier": False})
    return "copies_opinion" in result.rule_ids


@pytest.mark.parametrize(
    "question",
    [
        "Is there a red rowing boat tied to the old jetty?",
        "Is the red rowing boat tied to an old jetty?",
        "Are there roses on the stone cottage in the sunlight?",
    ],
)
def test_subject_alone_is_no_copy(question: str) -> None:
    assert not fires(question)


@pytest.mark.parametrize(
    "question",
    [
        "Does the red rowing boat at the old jetty look abandoned?",
        "Is the boat tied to the jetty forlorn and abandoned?",
        "Does the sunlight on the stone cottage with its roses feel homely?",
    ],
)
def test_subject_with_its_judgement_is_a_copy(question: str) -> None:
    assert fires(question)


def test_an_opinion_without_a_split_keeps_the_overlap_test() -> None:
    unsplit = [{"emotion": "fear", "text": "Crows circling a burning windmill at midnight."}]
    assert fires("Crows circling a burning windmill at midnight?", unsplit)
