"""Session 13 (batch 19 as development data): personal questions to the partner in the word order of
other Englishes, without "do" or "are" ("You have pets? How many?", "You speak Spanish? Where you
learned?", "you also from KL? Which area you stay?"), questions about the partner's family ("How old is
your daughter?"), remarks on the partner's haste ("You seem busy today.") and the pay named as a noun
("Terrible pay", "the pay's a joke") are off_topic; "it's shit pay" judges no artwork (not
imposes_emotion). The same words about the people in the artwork are not off_topic.

Sentences written for this test; the detectors run without the classifiers.
"""

from __future__ import annotations

import pytest

from tests.rule_cases import A, Case, Q, assert_case, case_id, clean, hit

CASES: list[Case] = [
    hit("off_topic", Q, "You have pets? What kind?", before="There is a cat on the sofa."),
    hit("off_topic", Q, "You speak Spanish? Where you learned?", before="The sign is in Spanish."),
    hit("off_topic", Q, "you also from KL? Which area you stay?", before="Ok lah."),
    hit("off_topic", A, "How old is your daughter?", before="my daughter would love this picture"),
    hit("off_topic", Q, "You seem busy today.", before="A bridge."),
    hit("off_topic", Q, "Where did you study?", before="I studied art for two years."),
    hit("off_topic", A, "Terrible pay, so I keep it short.", before="Is the boat red?"),
    hit("off_topic", Q, "The pay's a joke. Is the lamp lit?", before="A lamp."),
    clean("imposes_emotion", A, "It's shit pay, honestly.", before="Are you enjoying the task?"),
    clean("imposes_emotion", A, "It's crap pay and you ask a lot.", before="Are you enjoying the task?"),
    clean("off_topic", Q, "Would you pay money for it?", before="A vase."),
    clean("off_topic", A, "The man hands his wages to the clerk.", before="What is happening?"),
    clean("off_topic", Q, "Do the figures have children with them?", before="A family at the beach."),
    clean("off_topic", Q, "Is the soldier from France?", before="A soldier in blue."),
    clean("off_topic", Q, "Does the woman seem busy?", before="A woman in a kitchen."),
    clean("off_topic", Q, "How old is the son in the painting?", before="A father and his son."),
    clean("off_topic", Q, "Which area of the painting is darkest?", before="It is a night scene."),
]


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_case(case: Case) -> None:
    assert_case(case)
