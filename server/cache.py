"""Where derived data is kept: trained rule classifiers, compiled rules, embeddings' caches.

A module of its own, importing nothing of the project, so that ``server.rules`` can find its
compiled build before any rule module is imported (``server/rules/compiled.py``).
"""

from __future__ import annotations

import os
from pathlib import Path


def cache_dir() -> Path:
    """``AVD_CACHE_DIR``, else the user's cache folder."""
    if os.environ.get("AVD_CACHE_DIR"):
        return Path(os.environ["AVD_CACHE_DIR"])
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "avd"
