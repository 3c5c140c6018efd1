"""Rule flags over a finished dialog: every accepted message re-checked with the study's rules.

Live checking bounces hard violations before the partner sees them, so what reaches the
record is mostly soft ones; re-checking after the dialog also applies rules that changed
since it was collected.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from server.qc.record import DialogRecord
from server.rules import RulesConfig, check_dialog


@lru_cache(maxsize=8)
def _config(frozen: str) -> RulesConfig:
    return RulesConfig.model_validate(json.loads(frozen))


def rules_config(rules: dict[str, Any]) -> RulesConfig:
    """Parse a study's [rules] table once (the same table is used for every dialog)."""
    return _config(json.dumps(rules, sort_keys=True))


def flag_turns(rec: DialogRecord, rules: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """seq -> rule hits ({id, severity, message}) for the messages that broke a rule."""
    turns = [{"role": t.role, "round": t.round, "text": t.text} for t in rec.turns]
    results = check_dialog(turns, rec.opinions, rules_config(rules))
    return {
        str(turn.seq): [hit.as_dict() for hit in result.hits]
        for turn, result in zip(rec.turns, results, strict=True)
        if result.hits
    }
