"""Session 15 (speed): the two pre-checks that ``repeated_question`` runs on each new question.

``overlap._rephrase`` tries only the rephrasings whose required strings the question holds, and looks
again after a change; ``overlap._recalls`` runs its regex only when one of the strings a recall needs is
there. Both must give what the regexes alone give: for the rephrasings that is every substitution made
in order (a regex that cannot match changes nothing), for the recall cue a plain ``search``.
Sentences written for this test.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from server.rules import overlap
from server.rules.overlap import _RECALL_CUE, _RECALL_CUE_GATE, _REPHRASE, _recalls, _rephrase
from server.rules.text import normalise

LABELLED = Path(__file__).resolve().parent.parent / "tasks" / "rules-eval" / "labeled_messages.jsonl"


def every_rephrasing(lower: str) -> str:
    """The reference: each substitution made in turn, none skipped."""
    for rx, repl in _REPHRASE:
        lower = rx.sub(repl, lower)
    return lower


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # no string any rephrasing needs: the pre-check stops every regex and nothing changes
        ("what colour is the sky?", "what colour is the sky?"),
        # holds "made": tried, and rewritten
        ("what is the jar made of?", "what is the jar material?"),
        # holds " with": tried, and rewritten
        ("what are they busy with over there?", "what are they doing over there?"),
        # holds " on" (tried) but no rephrasing matches: unchanged
        ("is there a cat on the roof?", "is there a cat on the roof?"),
        # "which place" becomes "where", which only then holds what the partner's-world rephrasing needs
        ("in which place you live?", " yourworld ?"),
    ],
)
def test_rephrase_tries_only_what_can_match_and_looks_again_after_a_change(
    question: str, expected: str
) -> None:
    assert _rephrase(question) == expected
    assert every_rephrasing(question) == expected


def test_rephrase_equals_every_substitution_on_the_labelled_texts() -> None:
    lowers = [normalise(json.loads(line)["text"]) for line in LABELLED.read_text().splitlines() if line]
    assert len(lowers) > 500
    assert [t for t in lowers if _rephrase(t) != every_rephrasing(t)] == []


@pytest.mark.parametrize(
    ("question", "gate_passes", "recalls"),
    [
        ("what colour is the boat?", False, False),  # no string a recall needs: the regex is not run
        ("what colour was it again?", True, True),  # "again": run, and a recall
        ("did you say there were two dogs?", True, True),
        ("sorry, i missed it, what is he holding?", True, True),
        ("what does the sign say?", True, False),  # "say" passes the gate; the regex finds no recall
    ],
)
def test_recalls_runs_its_regex_only_past_the_gate(question: str, gate_passes: bool, recalls: bool) -> None:
    assert _RECALL_CUE_GATE.may_match(question) is gate_passes
    assert _recalls(question) is recalls
    assert (_RECALL_CUE.search(question) is not None) is recalls


def test_a_recall_still_makes_a_repeat_of_another_kind() -> None:
    # asked again on purpose, open after closed: needs the recall cue past its gate
    assert overlap.is_repeat("what's it made of again?", "is it made of stone?", 0.75)
    assert not overlap.is_repeat("what's it made of?", "is it made of stone?", 0.75)
