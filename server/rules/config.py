"""``RulesConfig``: the ``[rules]`` table of a study's settings file, validated strictly.

Example::

    [rules]
    disabled = ["off_topic"]          # or: enabled = ["greeting", "offensive", ...] (only these)

    [rules.short_answer]
    min_words = 4

    [rules.imposes_emotion]
    severity = "hard"
    classifier_threshold = 0.8        # rules with a learned classifier; classifier = false turns it off

Every key is checked: a misspelt rule id or option fails with an error naming it.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, field_validator

from server.rules.answers import AnswerIsQuestionConfig, ImposesEmotionConfig, ShortAnswerConfig
from server.rules.base import LearnedRuleConfig, RuleConfig
from server.rules.language import ChatLanguageConfig, NonEnglishConfig
from server.rules.offensive import OffensiveConfig
from server.rules.overlap import CopiesOpinionConfig, RepeatedQuestionConfig
from server.rules.questions import AsksFeelingsConfig, GenericQuestionConfig, NotAQuestionConfig
from server.rules.smalltalk import GreetingConfig, OffTopicConfig
from server.rules.tuned import DEFAULT_THRESHOLDS

if TYPE_CHECKING:
    from server.rules.base import Rule

RULE_IDS = (
    "greeting",
    "off_topic",
    "offensive",
    "chat_language",
    "non_english",
    "asks_feelings",
    "generic_question",
    "copies_opinion",
    "repeated_question",
    "short_answer",
    "imposes_emotion",
    "not_a_question",
    "answer_is_question",
)


def _logit(p: float | None) -> float | None:
    """A probability threshold as log-odds, which the classifiers compare without a sigmoid."""
    return None if p is None else math.log(p / (1 - p))


class RulesConfig(BaseModel):
    """Which rules run, how severe each is, and their thresholds."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    enabled: list[str] | None = Field(None, description="If given, only these rules run.")
    disabled: list[str] = Field(default_factory=list, description="Rules that do not run.")
    classifier: bool = Field(
        True, description="Use the learned classifiers at all (each rule also has its own switch)."
    )

    greeting: GreetingConfig = Field(default_factory=GreetingConfig)
    off_topic: OffTopicConfig = Field(default_factory=OffTopicConfig)
    offensive: OffensiveConfig = Field(default_factory=OffensiveConfig)
    chat_language: ChatLanguageConfig = Field(default_factory=ChatLanguageConfig)
    non_english: NonEnglishConfig = Field(default_factory=NonEnglishConfig)
    asks_feelings: AsksFeelingsConfig = Field(default_factory=AsksFeelingsConfig)
    generic_question: GenericQuestionConfig = Field(default_factory=GenericQuestionConfig)
    copies_opinion: CopiesOpinionConfig = Field(default_factory=CopiesOpinionConfig)
    repeated_question: RepeatedQuestionConfig = Field(default_factory=RepeatedQuestionConfig)
    short_answer: ShortAnswerConfig = Field(default_factory=ShortAnswerConfig)
    imposes_emotion: ImposesEmotionConfig = Field(default_factory=ImposesEmotionConfig)
    not_a_question: NotAQuestionConfig = Field(default_factory=NotAQuestionConfig)
    answer_is_question: AnswerIsQuestionConfig = Field(default_factory=AnswerIsQuestionConfig)

    # set once (the model is frozen): per role, (rule, settings, classifier log-odds threshold or None)
    _active_cache: dict[str, list[tuple[Rule, RuleConfig, float | None]]] | None = PrivateAttr(None)
    _thresholds: dict[str, float] = PrivateAttr(default_factory=dict)

    @field_validator("enabled", "disabled")
    @classmethod
    def _known_ids(cls, value: list[str] | None) -> list[str] | None:
        for rule_id in value or ():
            if rule_id not in RULE_IDS:
                raise ValueError(f"unknown rule id {rule_id!r}; known: {', '.join(RULE_IDS)}")
        return value

    def rule_config(self, rule_id: str) -> Any:
        return getattr(self, rule_id)

    def is_enabled(self, rule_id: str) -> bool:
        if rule_id in self.disabled or (self.enabled is not None and rule_id not in self.enabled):
            return False
        return self.rule_config(rule_id).enabled

    def model_post_init(self, context: Any, /) -> None:
        from server.rules.registry import RULES

        thresholds = {}
        for rule_id in RULE_IDS:
            cfg = self.rule_config(rule_id)
            if not isinstance(cfg, LearnedRuleConfig) or not (self.classifier and cfg.classifier):
                continue
            threshold = cfg.classifier_threshold or DEFAULT_THRESHOLDS.get(rule_id)
            if threshold is not None and self.is_enabled(rule_id):
                thresholds[rule_id] = threshold
        self._thresholds = thresholds
        self._active_cache = {
            role: [
                (rule, self.rule_config(rule.id), _logit(thresholds.get(rule.id)))
                for rule in RULES
                if role in rule.roles and self.is_enabled(rule.id)
            ]
            for role in ("questioner", "answerer")
        }

    # Read through ``__pydantic_private__`` (a plain attribute): going through the model's
    # ``__getattr__`` for a private attribute costs microseconds, on every message.
    def classifier_threshold(self, rule_id: str) -> float | None:
        """The probability at which the rule's classifier flags, or None when it does not run."""
        return self.__pydantic_private__["_thresholds"].get(rule_id)

    def uses_classifiers(self) -> bool:
        return bool(self.__pydantic_private__["_thresholds"])

    def active(self, role: str) -> list[tuple[Rule, RuleConfig, float | None]]:
        """(rule, settings, classifier threshold as log-odds or None) for the enabled rules of ``role``."""
        cache = self.__pydantic_private__["_active_cache"]
        return cache.get(role, []) if cache else []
