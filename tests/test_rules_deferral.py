"""A classifier stands down when a rule it defers to already named the message (registry._judge)."""

from __future__ import annotations

from server.rules import check
from server.rules.registry import RULES_BY_ID

WELL_BEING = ["Hi, how are you doing today?", "how are you today?"]


# a low threshold, so that the off_topic classifier surely judges these lines chitchat on its own
EAGER = {"off_topic": {"classifier_threshold": 0.2}}


def test_well_being_small_talk_is_a_greeting_not_also_off_topic() -> None:
    assert RULES_BY_ID["off_topic"].classifier_defers_to == {"greeting"}
    for text in WELL_BEING:
        assert check("questioner", 1, text).rule_ids == ["greeting"]
        assert check("questioner", 1, text, config=EAGER).rule_ids == ["greeting"]


def test_without_the_greeting_rule_the_off_topic_classifier_still_sees_small_talk() -> None:
    # a study that does not run the greeting rule still hears about chitchat
    for text in WELL_BEING:
        assert check("questioner", 1, text, config={**EAGER, "disabled": ["greeting"]}).rule_ids == [
            "off_topic"
        ]


def test_off_topic_own_detector_is_not_stood_down_by_a_greeting() -> None:
    assert check("questioner", 1, "hi! how is the weather where you live?").rule_ids == [
        "greeting",
        "off_topic",
    ]
