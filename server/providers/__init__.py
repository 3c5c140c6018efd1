"""Crowd platforms: where workers come from and how they are paid (docs/mturk.md, docs/payments.md)."""

from __future__ import annotations

from server.providers.base import PROVIDERS, Provider
from server.settings import Settings


def get_provider(settings: Settings, name: str) -> Provider:
    """The provider called ``name``, configured from the settings."""
    if name == "local":
        from server.providers.local import LocalProvider

        return LocalProvider()
    if name in ("mturk", "mturk-sandbox"):
        from server.providers.mturk import MTurkProvider

        return MTurkProvider(settings, sandbox=name == "mturk-sandbox")
    if name == "mephisto":
        from server.providers.mephisto import MephistoProvider

        return MephistoProvider()
    raise ValueError(f"unknown provider {name!r}; choose one of {', '.join(PROVIDERS)}")
