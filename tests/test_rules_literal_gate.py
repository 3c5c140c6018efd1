"""``text.LiteralGate`` (a regex tried only when the text holds a string it needs) agrees with the regex."""

from __future__ import annotations

import json
import re

import pytest

from server.rules import answers, language, offensive, overlap, questions, smalltalk
from server.rules import text as T
from server.rules.learned import DATA_DIR

FILES = ("labeled_messages.jsonl", "train_messages.jsonl", "train_more_a.jsonl", "heldout_batch9.jsonl")


def _patterns() -> list[tuple[str, re.Pattern[str]]]:
    found = []
    for mod in (answers, language, offensive, overlap, questions, smalltalk):
        for name, value in vars(mod).items():
            items = value if isinstance(value, (list, tuple)) else (value,)
            for k, item in enumerate(items):
                for rx in item if isinstance(item, tuple) else (item,):
                    if isinstance(rx, re.Pattern) and isinstance(rx.pattern, str):
                        found.append((f"{mod.__name__}.{name}[{k}]", rx))
    return found


def _texts() -> list[str]:
    texts = []
    for name in FILES:
        for line in (DATA_DIR / name).read_text(encoding="utf-8").splitlines():
            if line.strip():
                record = json.loads(line)
                texts.append(T.normalise(record["text"]))
                texts.extend(T.normalise(h.get("text", "")) for h in record.get("history") or ())
    return sorted(set(texts))


def test_gate_agrees_with_every_rule_regex_on_the_labeled_texts() -> None:
    texts = _texts()
    patterns = _patterns()
    assert len(patterns) > 100 and len(texts) > 3000
    for name, rx in patterns:
        gate = T.gate(rx)
        for text in texts:
            found = rx.search(text) is not None
            assert gate.search(text) is found, (name, text)
            assert gate.may_match(text) or not found, (name, text)


@pytest.mark.parametrize(
    ("pattern", "needs"),
    [
        (r"\bup to\b", ("up to",)),
        (r"\b(?:have|has) on\b|\bdressed in\b", (" on", "dressed in")),
        # a repeated letter joins its neighbours: every match holds "fu" (and "uc", "ck")
        (r"f+u+c+k+", ("fu",)),
        (r"\b(?:f\*+k)\b", ("f*",)),
        (r"sala+ma", ("sala",)),
        (r"a+", ("a",)),
        (r"(?i)bloody hell", None),  # case-insensitive: no literal check
        (r"(a)b\1", None),  # a back-reference: the regex is always run
        (r"x?", None),
    ],
)
def test_required_strings(pattern: str, needs: tuple[str, ...] | None) -> None:
    gate = T.LiteralGate(re.compile(pattern))
    if needs is None:
        assert gate.needs is None or all(len(s) == 1 for s in gate.needs)
    else:
        assert gate.needs == tuple(sorted(needs))


def test_repeated_letters_gate_agrees_with_search() -> None:
    texts = [*"fuck ffuuuccckkk beautiful f*k f***k fk ok salaaama salama".split(), "sala ma", ""]
    for pattern in (r"f+u+c+k+", r"\b(?:f+u+c+k+\w*)\b|\b(?:f\*+k)\b|\bok\b", r"sala+ma", r"x*a+b+?c"):
        rx = re.compile(pattern)
        gate = T.LiteralGate(rx)
        for text in (*texts, "xaabc", "abbc", "ac"):
            assert gate.search(text) is (rx.search(text) is not None), (pattern, text)


def test_gate_splits_only_plain_alternations() -> None:
    assert T.LiteralGate(re.compile(r"ab|cd|ef")).branches is not None
    assert T.LiteralGate(re.compile(r"(a)|b\1")).branches is None  # a back-reference: kept whole
    assert T.LiteralGate(re.compile(r"x(?:ab|cd)")).branches is None  # no top-level alternation
    for text in ("xab", "cd", "b", "", "ef!"):
        for source in (r"ab|cd|ef", r"(a)|b\1", r"x(?:ab|cd)", r"[|]|q", r"\||z"):
            rx = re.compile(source)
            assert T.LiteralGate(rx).search(text) is (rx.search(text) is not None)


@pytest.mark.parametrize(
    ("pattern", "texts"),
    [
        # the farewell of the greeting rule: an unbounded "a+" inside, a trailing run of "!" and spaces
        (
            smalltalk._SMALLTALK.pattern,
            (
                "ok bye!",
                "ok bye! ",
                "ok bye\n",
                "ok bye.\n\n",
                "it is green. ma salaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaama",
                "it is green. ma salaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaama!!",
                "the sky is blue, bye for now",
                "maybe. bye for now?",
                "goodbye my friend",
                "abye",
                "ciao ciao",
                "pa !!!",
                "pa",
                "",
            ),
        ),
        (r"\bbye[!. ]*$", ("bye", "goodbye", "a bye!!  ", "bye.x", "x" * 50 + " bye . !")),
        (r"(?<=x)yz\s*$", ("xyz", "ayz", "xyz \n", "yz")),
        (r"^ab$|(?<!q)c+d\s*$", ("ab", "xab", "ccccccd", "qcd", "qccd ", "d")),
        (r"(?:ab|b\.)[.]*$", ("ab", "b.", "b...", "xb.", "b", "a.")),
        (r"\w+ end$", ("the end", " end", "end")),  # unbounded: searched whole
    ],
)
def test_end_anchored_alternatives_agree_with_the_regex(pattern: str, texts: tuple[str, ...]) -> None:
    """An alternative that must end the text is searched only near the end (``end_window``): the answer
    is the regex's on texts that probe each of its bounds (\\b and look-behinds before the start, a run
    of the repeated character, trailing characters the alternative itself ends with)."""
    rx = re.compile(pattern)
    gate = T.LiteralGate(rx)
    for text in texts:
        for variant in (text, "hello there, " * 5 + text, text + "\n"):
            assert gate.search(variant) is (rx.search(variant) is not None), (pattern, variant)


def test_the_farewell_alternative_is_searched_only_near_the_end() -> None:
    farewell = [s for s in T.gate(smalltalk._SMALLTALK)._sources if s.endswith(r"\s*[!.！。]*$")]
    window = T.end_window(farewell[0], smalltalk._SMALLTALK.flags)
    assert window is not None and window.endings is not None and window.runs == ("a",)
    assert T.end_start("what colour is the horse near the door?", window) is None
    assert T.end_start("it is green, bye!", window) == 0
    text = "x" * 100 + " see you later!"
    # the text without its "!", less the widest farewell and the one "a" the farewell's "a+" may hold
    assert T.end_start(text, window) == len(text) - 1 - window.width - 1
    assert T.end_window(r"\w+ end$", 0) is None


def test_end_gate_agrees_with_every_end_anchored_rule_regex_on_the_labeled_texts() -> None:
    """``EndGate`` (``_foreign_close`` uses it) answers as ``pattern.search`` on whole texts and on the
    last words ``_foreign_close`` searches, for every rule regex it can read."""
    texts = _texts()
    gates = [(name, T.EndGate(rx)) for name, rx in _patterns()]
    gates = [(name, gate) for name, gate in gates if gate.window is not None]
    assert any(gate.pattern is smalltalk._FOREIGN_CLOSE for _, gate in gates) and len(gates) >= 5
    for name, gate in gates:
        for text in texts:
            for variant in (text, text[-40:], text + " ok bye!"):
                assert gate.search(variant) is (gate.pattern.search(variant) is not None), (name, variant)
