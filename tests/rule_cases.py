"""Table-driven rule tests: one row per message, whether a rule must fire on it, and its context.

Shared by the per-session rule test files so that each holds only its table. The detectors run without
the classifiers unless a row says ``model=True``, so a row reads the rule's own code.
"""

from __future__ import annotations

from typing import NamedTuple

from server.rules.registry import check

Q, A = "questioner", "answerer"
_NO_MODEL = {"classifier": False}


class Case(NamedTuple):
    rule: str
    role: str  # who sends ``text``
    text: str
    expected: bool  # True: the rule fires on ``text``; False: it stays quiet
    before: str | None = None  # the partner's message just before ``text``
    asked: str | None = None  # a question the questioner asked (and had answered) earlier in the chat
    model: bool = False  # run the shipped classifiers too


def hit(rule: str, role: str, text: str, **context: object) -> Case:
    return Case(rule, role, text, True, **context)  # type: ignore[arg-type]


def clean(rule: str, role: str, text: str, **context: object) -> Case:
    return Case(rule, role, text, False, **context)  # type: ignore[arg-type]


def history(case: Case) -> list[dict[str, str]]:
    """The messages before ``case.text``: the earlier question and its answer, or the partner's message."""
    if case.asked is not None:
        return [{"role": Q, "text": case.asked}, {"role": A, "text": "Some answer."}]
    if case.before is not None:
        partner = A if case.role == Q else Q
        return [{"role": partner, "text": case.before}]
    return []


def case_id(case: Case) -> str:
    return f"{case.rule}-{'hit' if case.expected else 'clean'}-{case.text[:30]}"


def assert_case(case: Case) -> None:
    turn = 5 if case.asked is not None else 2  # a repeat needs an earlier exchange
    config = None if case.model else _NO_MODEL
    fired = {result.id for result in check(case.role, turn, case.text, history(case), config=config).hits}
    assert (case.rule in fired) is case.expected, f"{case.rule} {'missed' if case.expected else 'fired'}"
