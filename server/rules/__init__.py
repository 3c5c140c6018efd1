"""Live chat rules: every message is checked before the partner sees it (see docs/qc.md).

Public API::

    check(role, round, text, history=(), opinions=(), config=None) -> RuleResult
    check_many(messages, config=None) -> list[RuleResult]
    prepare(config=None)  # train the learned classifiers now rather than at the first check
    check_dialog(turns, opinions=(), config=None) -> list[RuleResult]
    RulesConfig.model_validate(settings.rules)

Names are imported on first use, so that ``import server.rules.cli`` (every ``avd`` start) does
not load the profanity model and scikit-learn.

With ``AVD_COMPILED_RULES=1`` the hot rule modules come from a mypyc build of the current sources
(``avd rules compile``), if there is one: see ``server/rules/compiled.py``.
"""

from __future__ import annotations

import os
from importlib import import_module
from typing import TYPE_CHECKING, Any

if os.environ.get("AVD_COMPILED_RULES", "").strip().lower() in ("1", "true", "yes", "on"):
    from server.rules import compiled as _compiled

    _compiled.activate(__path__)

if TYPE_CHECKING:
    from server.rules.base import Hit, RuleResult
    from server.rules.config import RULE_IDS, RulesConfig
    from server.rules.registry import RULES, RULES_BY_ID, check, check_dialog, check_many, prepare

_HOME = {
    "Hit": "server.rules.base",
    "RuleResult": "server.rules.base",
    "RULE_IDS": "server.rules.config",
    "RulesConfig": "server.rules.config",
    "RULES": "server.rules.registry",
    "RULES_BY_ID": "server.rules.registry",
    "check": "server.rules.registry",
    "check_dialog": "server.rules.registry",
    "check_many": "server.rules.registry",
    "prepare": "server.rules.registry",
}


def __getattr__(name: str) -> Any:
    if name in _HOME:
        return getattr(import_module(_HOME[name]), name)
    raise AttributeError(f"module 'server.rules' has no attribute {name!r}")


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
    "prepare",
]
