"""The shapes every rule shares: its configuration, what it sees of a message, and what it reports.

Kept free of rule logic so that rule modules, the registry and the configuration model can import
it without cycles.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from server.rules import text as T
from server.rules.rule_configs import LearnedRuleConfig, RuleConfig, Severity  # noqa: F401 (re-exported)

Role = Literal["questioner", "answerer"]
Action = Literal["accept", "warn", "bounce"]
ROLES: tuple[str, ...] = ("questioner", "answerer")


@dataclass(frozen=True, slots=True)
class Hit:
    """One broken rule: its id, how it is enforced, and the explanation the worker sees."""

    id: str
    severity: Severity
    message: str

    def as_dict(self) -> dict[str, str]:
        return {"id": self.id, "severity": self.severity, "message": self.message}


@dataclass(frozen=True, slots=True)
class RuleResult:
    """The verdict on one message: ``bounce`` if any hard rule hit, ``warn`` if only soft ones."""

    action: Action
    hits: list[Hit] = field(default_factory=list)

    @property
    def rule_ids(self) -> list[str]:
        return [h.id for h in self.hits]

    def as_dict(self) -> dict[str, Any]:
        return {"action": self.action, "hits": [h.as_dict() for h in self.hits]}


class Context:
    """One message with the pieces several rules need, computed once (tokens, lower case...)."""

    __slots__ = (
        "role",
        "_round",
        "text",
        "lower",
        "words",
        "_history",
        "_opinions",
        "profanity",
        "learned",
        "_stems",
        "_wordset",
        "read_surroundings",
    )

    def __init__(
        self,
        role: str,
        round: int,
        text: str,
        history: Sequence[Mapping[str, Any]] = (),
        opinions: Sequence[Mapping[str, Any]] = (),
        profanity: float | None = None,
    ) -> None:
        self.role = role
        self._round = round
        self.text = text
        self.lower = T.normalise(text)
        self.words = T.words(self.lower)
        self._history = history or ()
        self._opinions = opinions or ()
        # Probability from the offensive-language model when computed in a batch beforehand.
        self.profanity = profanity
        # Log-odds of every text classifier (learned.TEXT_RULES order), computed on first need.
        self.learned: tuple[float, ...] | None = None
        self._stems: set[str] | None = None
        self._wordset: frozenset[str] | None = None
        # Set when a rule reads the round, history or opinions: a detector that read none of them
        # judged the text alone, so its verdict holds for every message with the same text and role.
        self.read_surroundings = False

    @property
    def round(self) -> int:
        self.read_surroundings = True
        return self._round

    @property
    def history(self) -> Sequence[Mapping[str, Any]]:
        self.read_surroundings = True
        return self._history

    def partner_last(self) -> str | None:
        """The text of the message just before this one if the partner sent it (what a reply answers)."""
        history = self.history
        if not history or history[-1].get("role") == self.role:
            return None
        return str(history[-1].get("text", ""))

    @property
    def opinions(self) -> Sequence[Mapping[str, Any]]:
        self.read_surroundings = True
        return self._opinions

    @property
    def wordset(self) -> frozenset[str]:
        """The words, plus the parts of hyphenated ones: rules test it before running a costly regex."""
        if self._wordset is None:
            self._wordset = frozenset(self.words)
            if "-" in self.lower:  # most messages have no hyphenated word to split
                self._wordset = self._wordset.union(p for w in self.words if "-" in w for p in w.split("-"))
        return self._wordset

    def finds(self, pattern: re.Pattern[str]) -> bool:
        """Whether ``pattern.search(self.lower)`` matches; each top-level alternative of the regex is
        tried only when the text holds a string that alternative needs (``text.LiteralGate``)."""
        return T.gate(pattern).search(self.lower)

    @property
    def stems(self) -> set[str]:
        """Stems of the content words (computed on first use)."""
        if self._stems is None:
            self._stems = T.content_stems(self.words)
        return self._stems


@dataclass(frozen=True, slots=True)
class Rule:
    """A rule: which roles it applies to, its explanation, its settings and its detector."""

    id: str
    roles: frozenset[str]
    explanation: str
    summary: str  # what it catches, for docs and ``avd rules list``
    config: type[RuleConfig]
    detect: Callable[[Context, Any], bool]
    # rules whose own detector, when it hits, stands this rule's classifier down: "how are you
    # today?" is small talk the greeting rule already names, not also chitchat about the day
    classifier_defers_to: frozenset[str] = frozenset()
    # a test on the message that, when true, stands this rule's classifier down (its own detector still
    # runs): "I beg your pardon, I do not follow." talks about the chat, not the worker's life
    classifier_spared_by: Callable[[Context], bool] | None = None

    @property
    def default_severity(self) -> Severity:
        return self.config.model_fields["severity"].default
