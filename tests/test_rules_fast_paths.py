"""The rules' fast paths (split regexes, one-pass history scans, uncached question terms) agree with
the plain computations they replace."""

from __future__ import annotations

import pytest

from server.rules import learned, offensive, overlap
from server.rules import text as T
from server.rules.base import Context
from server.rules.config import RulesConfig
from server.rules.features import copy_pair

PHRASES = [
    "how tf is that a horse",
    "pale af.",
    "boring af lol",
    "you absolute loser",
    "what a jerk",
    "what the hell is that",
    "who the heck painted it",
    "ur dick",
    "are you blind",
    "r u even stupid",
    "do you have eyes?",
    "have u got a brain",
]
STARRED = ["f***", "what the f*ck", "sh*tty answer", "b**** please", "a**hole"]
CLEAN = ["the tfl map", "a pale affair", "are you sure", "do you have time?", "wow! nice", "*important*"]


def _offensive(text: str) -> bool:
    cfg = RulesConfig().rule_config("offensive")
    return offensive.detect_offensive(Context("answerer", 1, text), cfg)


@pytest.mark.parametrize("text", PHRASES + STARRED)
def test_phrases_and_starred_swearing_of_the_split_list_still_hit(text: str) -> None:
    assert _offensive(text)


@pytest.mark.parametrize("text", PHRASES + STARRED + CLEAN)
def test_gated_phrases_search_like_the_regex(text: str) -> None:
    lower = T.normalise(text)
    assert Context("answerer", 1, text).finds(offensive._BLOCKLIST_PHRASES) == bool(
        offensive._BLOCKLIST_PHRASES.search(lower)
    )
    if offensive._STARRED_SWEARING.search(lower):  # searched only in a text with one of the symbols
        assert any(ch in lower for ch in "*#@$%")


@pytest.mark.parametrize("text", CLEAN)
def test_near_misses_of_the_split_list_stay_clean(text: str) -> None:
    lower = T.normalise(text)
    assert not offensive._BLOCKLIST.search(lower)
    assert not offensive._BLOCKLIST_PHRASES.search(lower)
    assert not offensive._STARRED_SWEARING.search(lower)


HISTORY = [
    "Is there a dog?",  # a plain string counts as an earlier question
    {"role": "questioner", "text": "What colour is the sky?"},
    {"role": "answerer", "text": "Do you mean the top part?"},
    {"role": "questioner"},  # no text: skipped, and it does not break the pair around it
    {"role": "answerer", "text": 5},
    {"role": "questioner", "text": "Is it night?"},
    {"role": "answerer", "text": "Which part do you mean?"},
    ("not", "a", "dict"),
    {"role": "questioner", "text": "Any boats?"},
    {"role": "answerer", "text": "Yes, two."},
]


def _unanswered_reference(history: list) -> list[str]:
    """The two-pass form of the questions answered with a question back (``overlap._questions_asked``)."""
    items = [h for h in history if isinstance(h, dict) and isinstance(h.get("text"), str)]
    return [
        item["text"]
        for item, reply in zip(items, items[1:], strict=False)
        if item.get("role") == "questioner"
        and reply.get("role") == "answerer"
        and overlap._asked_back(reply["text"])
    ]


@pytest.mark.parametrize("cut", range(len(HISTORY) + 1))
def test_one_pass_history_scans_match_the_generic_ones(cut: int) -> None:
    history = HISTORY[:cut]
    texts, asked_back = overlap._questions_asked(history)
    assert texts == list(overlap._texts(history, role="questioner"))
    assert asked_back == set(_unanswered_reference(history))


def test_copy_vectors_with_the_callers_words_equal_copy_pair() -> None:
    text = "Is the  Stormy SEA as dark as the opinion says, with the tiny ship?"
    opinions = [
        {"emotion": "fear", "text": "The dark stormy sea makes the tiny ship look lost."},
        "A calm harbour.",
        {"emotion": "awe", "text": None},
    ]
    expected = [
        copy_pair(text, "The dark stormy sea makes the tiny ship look lost."),
        copy_pair(text, "A calm harbour."),
    ]
    assert learned.copy_vectors(text, opinions) == expected
    assert learned.copy_vectors(text, opinions, T.words(T.normalise(text))) == expected
    assert learned.copy_vectors(text, []) == []
