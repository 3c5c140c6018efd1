"""The rules' fast paths (split regexes, one-pass history scans, uncached question terms) agree with
the plain computations they replace."""

from __future__ import annotations

import pytest

from server.rules import overlap

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
    """The two-pass form ``overlap._unanswered`` replaces."""
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
    assert overlap._questioner_texts(history) == list(overlap._texts(history, role="questioner"))
    assert list(overlap._unanswered(history)) == _unanswered_reference(history)
