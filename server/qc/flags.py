"""Rule flags over a finished dialog: every accepted message re-checked with the study's rules."""

from __future__ import annotations

from typing import Any

from server.qc.record import DialogRecord


def flag_turns(rec: DialogRecord, rules: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """seq -> rule hits ({id, severity}) for the messages that broke a rule."""
    return {}
