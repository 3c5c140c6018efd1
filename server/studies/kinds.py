"""Study kinds, defined as task files in ``tasks/studies/<kind>.toml``.

A task file holds what raters read (title, instructions), the answer options and the
attention-check templates. This module reads them and knows, per kind, how a rater's
on-screen answer becomes the stored answer (a preference's "first better" becomes
"human" or "machine" according to the order that rater saw) and what the page is sent.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from server.db.study_models import Judgment, StudyItem
from server.settings import REPO_ROOT

TASKS_DIR = REPO_ROOT / "tasks" / "studies"
KINDS = ("reasonableness", "turing", "preference", "multichoice")
# Stored answers of a preference judgment.
PREFERENCE_ANSWERS = ("machine", "human", "both_good", "both_bad")


@dataclass(frozen=True)
class Option:
    value: str
    label: str
    key: str | None = None


@dataclass(frozen=True)
class KindDef:
    kind: str
    title: str
    instructions: str
    options: tuple[Option, ...]
    attention: tuple[dict[str, Any], ...] = field(default_factory=tuple)

    def public(self) -> dict[str, Any]:
        """What the rater page may know about the kind."""
        return {
            "kind": self.kind,
            "title": self.title,
            "instructions": self.instructions.strip(),
            "options": [o.__dict__ for o in self.options],
        }


@cache
def load_kind(kind: str, folder: Path = TASKS_DIR) -> KindDef:
    if kind not in KINDS:
        raise KeyError(f"unknown study kind {kind!r}; choose one of {', '.join(KINDS)}")
    doc = tomllib.loads((folder / f"{kind}.toml").read_text(encoding="utf-8"))
    if doc.get("kind") != kind:
        raise ValueError(f"{folder / kind}.toml declares kind {doc.get('kind')!r}")
    options = tuple(Option(o["value"], o["label"], o.get("key")) for o in doc.get("options", []))
    attention = tuple(doc.get("attention", []))
    for check in attention:
        if "known" not in check:
            raise ValueError(f"{kind}: every attention check needs a known answer")
    return KindDef(kind, doc["title"], doc["instructions"], options, attention)


def allowed_answers(kind: str, item: StudyItem) -> set[str]:
    if kind == "multichoice":
        return {str(i) for i in range(len(item.payload.get("choices", [])))}
    return {o.value for o in load_kind(kind).options}


def stored_answer(kind: str, raw: str, item: StudyItem, judgment: Judgment) -> str:
    """The answer as the analysis reads it; raises ValueError for an answer the item does not offer."""
    if raw not in allowed_answers(kind, item):
        raise ValueError(f"{raw!r} is not an answer to this item")
    if kind == "preference" and raw in ("first", "second"):
        order = (judgment.shown or {}).get("order") or ["a", "b"]
        key = order[0] if raw == "first" else order[1]
        return str(item.truth.get("sources", {}).get(key, key))
    return raw


def client_view(kind: str, item: StudyItem, judgment: Judgment, image_url: str | None) -> dict[str, Any]:
    """The item as the rater page renders it: never the source, the truth or the image key."""
    payload = dict(item.payload)
    if kind == "preference":
        reactions = payload.pop("reactions", {})
        order = (judgment.shown or {}).get("order") or ["a", "b"]
        payload["reactions"] = [reactions.get(k, "") for k in order]
    view: dict[str, Any] = {"id": item.id, "kind": kind, **payload, "image_url": image_url}
    if kind == "multichoice":
        view["options"] = [
            {"value": str(i), "label": text, "key": str(i + 1) if i < 9 else None}
            for i, text in enumerate(payload.get("choices", []))
        ]
    return view
