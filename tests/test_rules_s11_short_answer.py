"""Session 11 (batch 17 as development data): a bare reply of one or two words padded with a reminder
that it was given already ("Red, like I said.") is a short answer, as the labeling guide says; the
reminder may be worded many ways ("as mentioned", "I wrote it already", "as I flipping said"). A closing
particle of Singlish or Malaysian English ("Very big lor.") adds no word of answer.

Sentences written for this test; the detectors run without the classifiers. Each row: the rule, who
speaks, the message, whether the rule must fire, and what the partner said just before.
"""

from __future__ import annotations

import pytest

from tests.rule_cases import A, Case, assert_case, case_id, clean, hit

CASES: list[Case] = [
    # a closing particle of Singlish or Malaysian English is no word of answer
    hit("short_answer", A, "Very big lor.", before="Is the ship big?"),
    hit("short_answer", A, "Two only lah.", before="How many dogs?"),
    clean("short_answer", A, "Two brown dogs lah.", before="What animals are there?"),
    # a count, a colour, a place or a state repeated with a reminder at the end
    hit("short_answer", A, "Seven, as mentioned.", before="How many geese again?"),
    hit("short_answer", A, "Eleven or so, like I wrote.", before="How many people are on the ferry?"),
    hit("short_answer", A, "Nineteen, I typed it already.", before="How many lamps are lit?"),
    hit("short_answer", A, "Round, I said already.", before="Is the table round or square?"),
    hit("short_answer", A, "Left, I told you before.", before="Which side is the well on?"),
    hit("short_answer", A, "Purple and gold, as I said earlier.", before="What colours is the robe?"),
    hit("short_answer", A, "Oak, I wrote it in Polish.", before="What tree is it?"),
    hit("short_answer", A, "Soft, as I bloody said.", before="Is the light soft or harsh?"),
    # the reminder does not end the message, or the reply describes more
    clean(
        "short_answer",
        A,
        "Round, I said already. Please read the chat.",
        before="Is the table round or square?",
    ),
    clean("short_answer", A, "I told you, an old oak with a swing.", before="What tree is it?"),
    clean(
        "short_answer", A, "A faded purple robe with gold trim, as I said.", before="What colour is the robe?"
    ),
    clean(
        "short_answer",
        A,
        "Round, I said, with carved legs and a lace cloth.",
        before="What shape is the table?",
    ),
    # a range is an estimate; a word that corrects a yes/no question answers it (as the batches label them)
    clean("short_answer", A, "Six or seven, as I told you.", before="How many geese are there?"),
    clean("short_answer", A, "Surprised, like I said.", before="Does the boy look scared?"),
    clean("short_answer", A, "Around sixty years, like I wrote.", before="How old is the priest?"),
]


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_case(case: Case) -> None:
    assert_case(case)
