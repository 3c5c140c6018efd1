"""Live chat rules: every message is checked before the partner sees it (see docs/qc.md).

Public API::

    check(role, round, text, history=(), opinions=(), config=None) -> RuleResult
    check_many(messages, config=None) -> list[RuleResult]
    check_dialog(turns, opinions=(), config=None) -> list[RuleResult]
    RulesConfig.model_validate(settings.rules)
"""

from server.rules.base import Hit, RuleResult
from server.rules.config import RULE_IDS, RulesConfig
from server.rules.registry import RULES, RULES_BY_ID, check, check_dialog, check_many

__all__ = [
    "RULES",
    "RULES_BY_ID",
    "RULE_IDS",
    "Hit",
    "RuleResult",
    "RulesConfig",
    "check",
    "check_dialog",
    "check_many",
]
