"""A cheap test that rules a ``pattern.match`` out by the text's first few characters.

A regex anchored at the start of the message (``re.match``) with a large alternation (the courtesy
phrases of many languages) costs its full alternation at position 0 on every message, even when the
message opens with a word none of the alternatives can begin with ("What colour is ..."). The first
``k`` characters of every string the regex can match form a finite set of openings; looking the
message's first characters up in that set decides in a few dictionary look-ups that the regex cannot
match, and the regex runs only otherwise.

The openings can only be too many, never too few, so the gate never changes a verdict: zero-width
items (anchors, lookarounds) are read as matching anything; a class that stands for many characters
(``\\s``, ``\\w``, ``.``, a negated class) ends an opening there ("anything may follow"); a regex that
is case-insensitive or has a back reference gets no gate (it always passes).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from re import _constants as C  # type: ignore[attr-defined]
from re import _parser  # type: ignore[attr-defined]

_MAX_CLASS = 64  # characters a class may stand for before it counts as "anything"
_MAX_SET = 50_000  # openings kept before giving the gate up


# ends an opening whose next character can be almost anything: the text need only start with the rest
_ANY = "\U0010ffff"


class _Unbounded(Exception):
    """The regex can open with too many different strings to list."""


def _class_chars(items: list) -> set[str]:
    """The characters of a ``[...]`` class (only literal characters and small ranges)."""
    chars: set[str] = set()
    for op, av in items:
        if op is C.LITERAL:
            chars.add(chr(av))
        elif op is C.RANGE and av[1] - av[0] < _MAX_CLASS:
            chars.update(chr(c) for c in range(av[0], av[1] + 1))
        else:  # NEGATE, CATEGORY (\w, \s, ...), a wide range
            return {_ANY}
    return chars


class _Openings:
    """The openings (first ``k`` characters) of the strings a parsed regex matches.

    A string shorter than ``k`` in a result means "the item ended after consuming exactly this"; one
    ending in ``_ANY`` means "this, then (almost) anything".
    """

    def __init__(self, k: int) -> None:
        self.k = k
        self._memo: dict[tuple[int, int, int], frozenset[str]] = {}

    def sequence(self, items: Sequence[tuple], budget: int, start: int = 0) -> frozenset[str]:
        """Openings of ``items[start:]`` within ``budget`` characters (``items`` is a node of the parsed
        tree, alive for the whole computation, so its id names it in the memo)."""
        if start == len(items) or budget == 0:
            return frozenset({""})
        key = (id(items), start, budget)
        known = self._memo.get(key)
        if known is not None:
            return known
        out: set[str] = set()
        for head in self.item(items[start], budget):
            if len(head) == budget or head.endswith(_ANY):
                out.add(head)
            else:
                out.update(head + tail for tail in self.sequence(items, budget - len(head), start + 1))
        if len(out) > _MAX_SET:
            raise _Unbounded
        result = self._memo[key] = frozenset(out)
        return result

    def item(self, node: tuple, budget: int) -> frozenset[str]:
        op, av = node
        if op is C.LITERAL:
            return frozenset({chr(av)})
        if op is C.IN:
            return frozenset(_class_chars(av))
        if op is C.BRANCH:
            return frozenset().union(*(self.sequence(alt, budget) for alt in av[1]))
        if op is C.SUBPATTERN:
            _group, add_flags, _del_flags, sub = av
            if add_flags & re.IGNORECASE:
                raise _Unbounded
            return self.sequence(sub, budget)
        if op is C.ATOMIC_GROUP:  # an atomic group matches a subset of what the plain group does
            return self.sequence(av, budget)
        if op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
            return self._repeat(av[0], av[1], av[2], budget)
        if op in (C.AT, C.ASSERT, C.ASSERT_NOT):  # zero width: read as "anything may follow"
            return frozenset({""})
        if op in (C.ANY, C.NOT_LITERAL, C.CATEGORY):
            return frozenset({_ANY})
        raise _Unbounded  # GROUPREF, GROUPREF_EXISTS, ...

    def _repeat(self, low: int, high: int, sub: Sequence[tuple], budget: int) -> frozenset[str]:
        """``sub`` repeated ``low`` to ``high`` times: repeat until the openings stop changing."""
        reached: frozenset[str] = frozenset({""})
        out: set[str] = set()
        count = 0
        while True:
            if count >= low:
                out |= reached
            if count == high:
                break
            grown: set[str] = set()
            for head in reached:
                if len(head) == budget or head.endswith(_ANY):
                    grown.add(head)
                else:
                    grown.update(head + tail for tail in self.sequence(sub, budget - len(head)))
            if len(grown) > _MAX_SET:
                raise _Unbounded
            if grown == reached:  # every further repetition gives the same openings
                out |= reached
                break
            reached = frozenset(grown)
            count += 1
        return frozenset(out)


class PrefixGate:
    """``match(text)`` is ``pattern.match(text) is not None``, skipping the regex when the text's
    first ``k`` characters rule a match out (more characters cut more texts but list more openings).

    The openings are listed at the first use (a large regex takes a few tenths of a second);
    ``build_all`` lists those of every gate at start-up instead (``registry.prepare``).
    """

    __slots__ = ("pattern", "k", "_by_length", "_built", "_seen")

    def __init__(self, pattern: re.Pattern[str], k: int = 4) -> None:
        self.pattern = pattern
        self.k = k
        # per length n <= k: the first n characters of a text that the regex may match; None: no gate
        self._by_length: tuple[tuple[int, frozenset[str]], ...] | None = None
        self._built = False
        # a text's first k characters -> whether they open a possible match: the answer for every text
        # that opens so (one slice and one look-up instead of one per length)
        self._seen: dict[str, bool] = {}
        _GATES.append(self)

    def build(self) -> None:
        """List the openings (once)."""
        if not self._built:
            self._by_length = _openings_by_length(self.pattern, self.k)
            self._built = True

    @property
    def gates(self) -> bool:
        """Whether the gate can rule anything out (False: it always passes)."""
        self.build()
        return self._by_length is not None

    def may_match(self, text: str) -> bool:
        """False only when ``pattern.match(text)`` cannot match."""
        if not self._built:
            self.build()
        by_length = self._by_length
        if by_length is None:
            return True
        head = text[: self.k]
        known = self._seen.get(head)
        if known is None:
            known = self._opens(head, by_length)
        return known

    def _opens(self, head: str, by_length: tuple[tuple[int, frozenset[str]], ...]) -> bool:
        """Whether a text opening with ``head`` (its first k characters) may match; kept per ``head``."""
        if len(self._seen) >= 8192:
            self._seen.clear()
        known = self._seen[head] = any(head[:n] in heads for n, heads in by_length)
        return known

    def match(self, text: str) -> bool:
        """Whether ``pattern.match(text)`` matches."""
        return self.may_match(text) and self.pattern.match(text) is not None


def _openings_by_length(pattern: re.Pattern[str], k: int) -> tuple[tuple[int, frozenset[str]], ...] | None:
    """The regex's openings grouped by length (None: the regex may open with anything)."""
    if pattern.flags & re.IGNORECASE or _ANY in pattern.pattern:
        return None
    try:
        openings = _Openings(k).sequence(_parser.parse(pattern.pattern, pattern.flags), k)
    except _Unbounded:
        return None
    heads = {s.removesuffix(_ANY) for s in openings}
    if "" in heads:
        return None
    lengths = sorted({len(s) for s in heads})
    return tuple((n, frozenset(s for s in heads if len(s) == n)) for n in lengths)


def _reversed(items: Sequence[tuple]) -> list[tuple]:
    """The parsed regex read backwards: sequences reversed at every level; a lookaround (zero width,
    read as "anything" either way) becomes an anchor."""
    out: list[tuple] = []
    for op, av in list(items)[::-1]:  # not reversed(list(...)): mypyc 2.4 crashes on that loop
        if op is C.BRANCH:
            out.append((op, (av[0], [_reversed(alt) for alt in av[1]])))
        elif op is C.SUBPATTERN:
            out.append((op, (*av[:-1], _reversed(av[-1]))))
        elif op is C.ATOMIC_GROUP:
            out.append((op, _reversed(av)))
        elif op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
            out.append((op, (av[0], av[1], _reversed(av[2]))))
        elif op in (C.ASSERT, C.ASSERT_NOT):
            out.append((C.AT, C.AT_BOUNDARY))
        else:
            out.append((op, av))
    return out


def endings_by_length(items: Sequence[tuple], k: int) -> tuple[tuple[int, frozenset[str]], ...] | None:
    """The last ``k`` characters (reversed) of every string the parsed ``items`` match, grouped by
    length as ``_openings_by_length`` groups openings (None: they may end with anything). The caller
    rules out case-insensitive regexes."""
    try:
        endings = _Openings(k).sequence(_reversed(items), k)
    except _Unbounded:
        return None
    tails = {s.removesuffix(_ANY) for s in endings}
    if "" in tails:
        return None
    lengths = sorted({len(s) for s in tails})
    return tuple((n, frozenset(s for s in tails if len(s) == n)) for n in lengths)


_GATES: list[PrefixGate] = []


def build_all() -> None:
    """List the openings of every gate made so far, so that no message waits for them."""
    for gate in _GATES:
        gate.build()
