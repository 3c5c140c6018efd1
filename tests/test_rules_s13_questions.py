"""Session 13 (batch 19 as development data): questions without a question mark.

- A few words offering a choice ("Sails up or down.", "hot or cold overall") ask which one holds: every
  such questioner line of the labelled batches is a question, so not_a_question stays quiet. A choice the
  questioner states about themselves ("I'd go for red or blue.") or a longer remark is still no question.
- A request opening with "estimate", "compare", "identify" or "specify" asks about the artwork like
  "describe" does (the labeling guide's polite imperative requests).
- "wat's" is "what's" in chat spelling: it opens a question, and it is chat language.

Sentences written for this test; the detectors run without the classifiers.
"""

from __future__ import annotations

import pytest

from tests.rule_cases import A, Case, Q, assert_case, case_id, clean, hit

CASES: list[Case] = [
    clean("not_a_question", Q, "Sails up or down.", before="There is a small boat near the pier."),
    clean("not_a_question", Q, "hot or cold overall", before="The colours are orange and teal."),
    clean("not_a_question", Q, "Day or night", before="There is a lamp in the window."),
    clean("not_a_question", Q, "Estimate how far the boat is from the shore.", before="One boat."),
    clean("not_a_question", Q, "Compare the two faces for me.", before="Two women sit on a bench."),
    clean("not_a_question", Q, "hmm wat's the man holding then", before="A man stands by the gate."),
    # statements stay statements
    hit("not_a_question", Q, "I'd go for red or blue myself.", before="The coat is hard to make out."),
    hit("not_a_question", Q, "Nice. Sails up or down.", before="A boat."),
    hit("not_a_question", Q, "The boat is red or orange, I think.", before="A boat."),
    hit("not_a_question", Q, "Okay, that is clear now.", before="The boat is red."),
    # chat spellings of "what's" and "sorry", "w/" for "with"
    hit("chat_language", Q, "wat's behind the curtain", before="A curtain hangs on the left."),
    hit("chat_language", Q, "sry, is the lamp lit?", before="There is a lamp."),
    hit("chat_language", A, "a girl w/ a red umbrella on the bridge", before="Who is on the bridge?"),
    hit("chat_language", A, "a plate w/o any food on it", before="What is on the table?"),
    clean("chat_language", A, "The banner reads W/ LOVE in gold.", before="What does it say?"),
    clean("chat_language", A, "It is about 3/4 full, with a date 12/05 on the label.", before="The jar?"),
    clean("chat_language", Q, "What's behind the curtain?", before="A curtain hangs on the left."),
]


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_case(case: Case) -> None:
    assert_case(case)
