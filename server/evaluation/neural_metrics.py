"""Model-based text metrics: BERTScore and BARTScore, from local checkpoints only.

BERTScore (Zhang et al., 2020) as implemented here: contextual token embeddings from one
layer of an encoder (default: its last layer), special tokens dropped, greedy matching by
cosine similarity; precision averages over candidate tokens, recall over reference tokens,
F1 is their harmonic mean. No idf weighting and no baseline rescaling, so values are not
comparable with rescaled figures in papers; record the checkpoint and layer with them
(``results.json`` does). The papers' usual checkpoint is roberta-large (layer 17).

BARTScore (Yuan et al., 2021): the mean per-token log-likelihood of a target given a source
under a seq2seq model. We report both directions against the human reference:
``precision`` = log p(generated | reference), ``recall`` = log p(reference | generated),
and ``f`` = their arithmetic mean (higher is better; values are negative). The papers'
checkpoint is facebook/bart-large-cnn; any local BART/T5 directory works.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np


def bertscore(
    candidates: Sequence[str],
    references: Sequence[str],
    model_path: str,
    layer: int | None = None,
    device: str | None = None,
    batch_size: int = 32,
) -> dict[str, Any]:
    """Per-pair precision/recall/F1 lists plus the checkpoint and layer used."""
    import torch
    from transformers import AutoModel, AutoTokenizer

    from server.evaluation.models import pick_device, resolve_path

    if len(candidates) != len(references):
        raise ValueError("candidates and references differ in length")
    path = resolve_path(model_path)
    device = pick_device(device)
    tok = AutoTokenizer.from_pretrained(path, local_files_only=True)
    model = AutoModel.from_pretrained(path, local_files_only=True).to(device).eval()
    n_layers = model.config.num_hidden_layers
    layer = n_layers if layer is None else layer

    def embed(texts: Sequence[str]) -> list[torch.Tensor]:
        out: list[torch.Tensor] = [torch.zeros((0, 1)) for _ in texts]  # empty text: no tokens
        todo = [i for i, t in enumerate(texts) if t.strip()]
        for start in range(0, len(todo), batch_size):
            chunk = todo[start : start + batch_size]
            enc = tok(
                [texts[i] for i in chunk],
                return_tensors="pt",
                padding=True,
                truncation=True,
                max_length=256,
                return_special_tokens_mask=True,
            )
            special = enc.pop("special_tokens_mask").bool()
            keep = enc["attention_mask"].bool() & ~special
            with torch.no_grad():
                hidden = model(**enc.to(device), output_hidden_states=True).hidden_states[layer].cpu()
            for row, i in enumerate(chunk):
                out[i] = torch.nn.functional.normalize(hidden[row][keep[row]].float(), dim=-1)
        return out

    cand, ref = embed(candidates), embed(references)
    precision, recall, f1 = [], [], []
    for c, r in zip(cand, ref, strict=True):
        if len(c) == 0 or len(r) == 0:
            precision.append(0.0), recall.append(0.0), f1.append(0.0)
            continue
        sim = c @ r.T
        p, rc = float(sim.max(dim=1).values.mean()), float(sim.max(dim=0).values.mean())
        precision.append(p)
        recall.append(rc)
        f1.append(2 * p * rc / (p + rc) if p + rc > 0 else 0.0)
    return {
        "precision": precision,
        "recall": recall,
        "f1": f1,
        "checkpoint": str(path),
        "layer": layer,
        "idf": False,
        "rescaled": False,
    }


def bartscore(
    hypotheses: Sequence[str], references: Sequence[str], model_path: str, device: str | None = None
) -> dict[str, Any]:
    """Per-pair BARTScore in both directions (see the module docstring)."""
    from server.evaluation.models import load_model

    model = load_model(model_path, device=device)
    if model.kind != "seq2seq":
        raise ValueError(f"BARTScore needs a seq2seq checkpoint (BART/T5); {model_path} is {model.kind}")
    precision = [model.loglik(r, [h], reduce="mean")[0] for h, r in zip(hypotheses, references, strict=True)]
    recall = [model.loglik(h, [r], reduce="mean")[0] for h, r in zip(hypotheses, references, strict=True)]
    f = [(p + r) / 2 for p, r in zip(precision, recall, strict=True)]
    return {
        "precision": precision,
        "recall": recall,
        "f": f,
        "checkpoint": str(model.path),
        "direction": "precision=log p(hyp|ref), recall=log p(ref|hyp), f=mean",
    }


def mean(values: Sequence[float]) -> float | None:
    return float(np.mean(values)) if len(values) else None
