"""``prefix.PrefixGate`` (a start-of-text regex tried only when the text opens as it can) agrees with
``pattern.match`` on every rule regex and the labelled texts, and on hand-made edge cases."""

from __future__ import annotations

import re

import pytest

from server.rules import prefix, smalltalk
from tests.test_rules_literal_gate import _patterns, _texts


def test_gate_agrees_with_every_rule_regex_on_the_labeled_texts() -> None:
    texts = _texts()
    patterns = _patterns()
    assert len(patterns) > 100 and len(texts) > 3000
    gating = 0
    for name, rx in patterns:
        gate = prefix.PrefixGate(rx, k=3)
        gating += gate.gates
        for text in texts:
            found = rx.match(text) is not None
            assert gate.match(text) is found, (name, text)
            assert gate.may_match(text) or not found, (name, text)
    assert gating > 50  # most rule regexes open with a listable set of strings


def test_the_courtesy_gates_cut_most_questions_about_the_artwork() -> None:
    """The gates in use rule the common openings of content messages out, and keep courtesy."""
    gates = (smalltalk._COURTESY_MESSAGE_GATE, smalltalk._GREETING_START_GATE, smalltalk._COURTESY_ONLY_GATE)
    for gate in gates:
        assert gate.gates
        assert not gate.may_match("what colour is the sky on the left?")
        assert not gate.may_match("it is green and sits near the house.")
        assert not gate.may_match("is the sky blue?")
    assert smalltalk._COURTESY_MESSAGE_GATE.match("thanks, bye!")
    assert smalltalk._COURTESY_MESSAGE_GATE.match("ok thank you so much")
    assert smalltalk._GREETING_START_GATE.match("hi there")
    assert smalltalk._COURTESY_ONLY_GATE.match("ty")


@pytest.mark.parametrize(
    ("pattern", "texts"),
    [
        (r"ab|c[de]f?", ("ab", "abc", "c", "cd", "ce!", "cef", "x", "", "a")),
        (r"ha+h?", ("ha", "haaaaah", "h", "hah", "hb")),
        (r"ok|okay", ("ok", "ok\n", "okay", "o", "okey")),
        (r"(?:hi|hey)\s+there", ("hi there", "hey\tthere", "hithere", "hey  there", "he")),
        (r"^(?=x)xy|z$", ("xy", "xz", "z", "z\n", "zz")),
        (r"(?:a|b){2,3}c", ("abc", "aaac", "ac", "abab", "bbc")),
        (r"x*y", ("y", "xxxxxy", "xxxx", "")),
        (r"\w+ing", ("sing", "ing", "s")),
    ],
)
def test_gate_on_small_regexes(pattern: str, texts: tuple[str, ...]) -> None:
    rx = re.compile(pattern)
    for k in (1, 2, 3, 4):
        gate = prefix.PrefixGate(rx, k)
        for text in texts:
            assert gate.match(text) is (rx.match(text) is not None), (pattern, k, text)


@pytest.mark.parametrize(
    "pattern",
    [
        r"(?i)hello",  # case-insensitive: no list of openings
        r"(a)b\1",  # a back reference
        r"\s*hi",  # may open with any whitespace, then "hi": opens with anything
        r"x?",  # may match the empty string
        r".ello",
    ],
)
def test_regexes_without_a_gate_always_pass(pattern: str) -> None:
    gate = prefix.PrefixGate(re.compile(pattern))
    assert not gate.gates
    assert gate.may_match("zzz") and gate.may_match("")


def test_a_class_of_many_characters_ends_the_opening() -> None:
    """``\\w`` after "x" means "x, then anything": texts opening with "x" pass, others do not."""
    gate = prefix.PrefixGate(re.compile(r"x\w+|yes"))
    assert gate.gates
    assert gate.may_match("xq") and gate.may_match("x!") and gate.may_match("yes")
    assert not gate.may_match("no")
    assert not gate.may_match("ye")
    assert not gate.may_match("ye!")


def test_build_all_lists_every_gate_once() -> None:
    gate = prefix.PrefixGate(re.compile(r"thanks|bye"))
    prefix.build_all()
    assert gate._built and gate.gates
    assert gate.may_match("bye now") and not gate.may_match("what")
