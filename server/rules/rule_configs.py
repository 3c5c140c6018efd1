"""The per-study settings of every rule (``[rules.<rule_id>]`` tables), as pydantic models.

Kept apart from the rule modules so that those can be compiled with mypyc (``avd rules compile``,
see ``server/rules/compiled.py``): mypyc cannot compile pydantic models, and this module always
stays interpreted. Each rule module re-exports its own models, so ``from server.rules.answers import
ShortAnswerConfig`` still works.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Severity = Literal["hard", "soft"]


class RuleConfig(BaseModel):
    """Per-study settings of one rule (a ``[rules.<rule_id>]`` table); unknown keys are errors."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    enabled: bool = True
    severity: Severity = "hard"
    message: str | None = Field(
        None, description="Replaces the explanation shown to the worker (e.g. a study's own wording)."
    )


class LearnedRuleConfig(RuleConfig):
    """Settings of a rule that also has a learned classifier (see ``server/rules/learned.py``)."""

    classifier: bool = Field(
        True, description="Also flag what the rule's learned classifier finds (rule hit OR classifier)."
    )
    classifier_threshold: float | None = Field(
        None, gt=0, lt=1, description="Classifier probability that counts as a hit (default: the tuned one)."
    )
    classifier_bounces: bool = Field(
        False,
        description=(
            "Let a hit that only the classifier found bounce a hard rule's message. By default it"
            " warns instead: on blind batches the classifiers' false alarms were ordinary answers"
            " ('Very thick, lumpy on the nose.' as offensive), and a bounce tells an honest worker"
            " off; the message is still flagged for QC."
        ),
    )


class ShortAnswerConfig(RuleConfig):
    severity: Severity = "hard"
    min_words: int = Field(3, ge=1, description="Answers with fewer words are too short.")


class ImposesEmotionConfig(LearnedRuleConfig):
    severity: Severity = "soft"


class AnswerIsQuestionConfig(RuleConfig):
    severity: Severity = "hard"


class ChatLanguageConfig(RuleConfig):
    severity: Severity = "hard"
    extra_tokens: list[str] = Field(default_factory=list, description="More IM spellings to reject.")
    check_repeats: bool = Field(True, description="Reject letters repeated 3+ times and '!!!' / '???'.")
    check_emoticons: bool = Field(True, description="Reject emoticons and emoji.")


class NonEnglishConfig(RuleConfig):
    severity: Severity = "hard"
    min_words: int = Field(4, ge=1, description="Messages shorter than this are only checked for script.")
    min_english_ratio: float = Field(
        0.5, ge=0, le=1, description="Share of words that must be common English words."
    )
    max_non_ascii_ratio: float = Field(0.3, ge=0, le=1, description="Share of letters allowed outside ASCII.")


class OffensiveConfig(LearnedRuleConfig):
    severity: Severity = "hard"
    use_model: bool = Field(True, description="Also ask the profanity model (besides the word list).")
    model_threshold: float = Field(0.9, gt=0, le=1, description="Model probability that counts as offensive.")
    extra_words: list[str] = Field(default_factory=list, description="More words or phrases to block.")


class CopiesOpinionConfig(LearnedRuleConfig):
    severity: Severity = "soft"
    min_overlap: float = Field(
        0.8, ge=0, le=1, description="Share of the question's content words taken from one opinion."
    )
    min_shared_words: int = Field(3, ge=1, description="At least this many content words in common.")


class RepeatedQuestionConfig(LearnedRuleConfig):
    severity: Severity = "soft"
    min_overlap: float = Field(
        0.75, ge=0, le=1, description="Jaccard overlap of content words with an earlier question."
    )


class AsksFeelingsConfig(LearnedRuleConfig):
    severity: Severity = "hard"


class GenericQuestionConfig(LearnedRuleConfig):
    severity: Severity = "soft"


class NotAQuestionConfig(LearnedRuleConfig):
    severity: Severity = "hard"


class GreetingConfig(RuleConfig):
    severity: Severity = "hard"


class OffTopicConfig(LearnedRuleConfig):
    severity: Severity = "soft"
