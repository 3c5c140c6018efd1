"""Vision-language models: the exported image and the text prompt go in, text comes out.

Any checkpoint that ``AutoModelForImageTextToText`` + ``AutoProcessor`` can load (LLaVA,
Qwen2-VL, Idefics, PaliGemma...) is used through one interface: the same ``generate`` and
``loglik`` as the text LMs, with one optional image per prompt. Without an image the prompt
goes in as text only (no image placeholder, no pixels), which is the ``image=false`` ablation.

Prompts go through the processor's chat template when it has one (one user turn holding the
image and the text, then the generation prompt), so an instruction-tuned checkpoint sees the
format it was trained on; a processor without a template gets the image placeholder on the
line before the text.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from server.evaluation.models import HFModel, LanguageModel


def load_image(path: Path) -> Any:
    """The image as RGB; a clear error when the export was written without its images."""
    from PIL import Image

    if not path.is_file():
        hint = ""
        if (path.parent.parent / "images.jsonl").exists():
            hint = " (this export lists its images in images.jsonl; export again with --images copy)"
        raise FileNotFoundError(f"image {path} not found{hint}")
    with Image.open(path) as img:
        return img.convert("RGB")


class VisionLanguageModel(LanguageModel):
    """Image + text to text. Log-likelihoods reuse the text LM's shared-context scoring."""

    def __init__(self, path: Path, device: str, max_length: int = 4096) -> None:
        import torch
        from transformers import AutoModelForImageTextToText, AutoProcessor

        HFModel.__init__(self, path, device)
        self.kind = "vlm"
        self.torch = torch
        self.processor = AutoProcessor.from_pretrained(path, local_files_only=True)
        self.tokenizer = self.processor.tokenizer
        self.model = (
            AutoModelForImageTextToText.from_pretrained(path, local_files_only=True).to(device).eval()
        )
        if self.tokenizer.pad_token_id is None:
            self.tokenizer.pad_token = self.tokenizer.eos_token
        text_config = self.model.config.get_text_config()
        limit = getattr(text_config, "max_position_embeddings", None)
        self.max_length = min(max_length, limit or max_length)
        self.image_token = getattr(self.processor, "image_token", None) or "<image>"

    # ------------------------------------------------------------------ inputs

    def render(self, prompt: str, with_image: bool) -> str:
        """The prompt text as the checkpoint expects it, with the image placeholder when needed."""
        if getattr(self.processor, "chat_template", None):
            content: list[dict[str, str]] = [{"type": "image"}] if with_image else []
            content.append({"type": "text", "text": prompt})
            return self.processor.apply_chat_template(
                [{"role": "user", "content": content}], add_generation_prompt=True, tokenize=False
            )
        return f"{self.image_token}\n{prompt}" if with_image else prompt

    def encode(self, prompts: Sequence[str], images: Sequence[Path | None]) -> Any:
        """The processor's batch (token ids, mask, and pixel values when there are images).

        All prompts of one call must agree on having an image; ``generate`` groups them.
        """
        with_image = [img is not None for img in images]
        if any(with_image) and not all(with_image):
            raise ValueError("encode one batch either all with images or all without")
        texts = [self.render(p, bool(with_image and with_image[0])) for p in prompts]
        kwargs: dict[str, Any] = {"text": texts, "return_tensors": "pt", "padding": True}
        if with_image and with_image[0]:
            kwargs["images"] = [load_image(Path(p)) for p in images]  # type: ignore[arg-type]
        return self.processor(**kwargs)

    def _on_device(self, enc: Any) -> Any:
        """Move a batch to the model; pixels take the weights' dtype (a half-precision
        checkpoint on a GPU would otherwise get float32 pixels)."""
        enc = enc.to(self.device)
        if "pixel_values" in enc and enc["pixel_values"].is_floating_point():
            enc["pixel_values"] = enc["pixel_values"].to(self.model.dtype)
        return enc

    # ------------------------------------------------------------------ generation

    def generate(
        self,
        prompts: Sequence[str],
        max_new_tokens: int = 60,
        batch_size: int = 8,
        images: Sequence[Path | None] | None = None,
    ) -> list[str]:
        """Greedy decoding of each prompt (with its image, if any); returns only the new text."""
        torch = self.torch
        images = list(images) if images is not None else [None] * len(prompts)
        out: dict[int, str] = {}
        self.tokenizer.padding_side = "left"
        for has_image in (True, False):
            idx = [i for i, img in enumerate(images) if (img is not None) == has_image]
            for start in range(0, len(idx), batch_size):
                chunk = idx[start : start + batch_size]
                enc = self._on_device(self.encode([prompts[i] for i in chunk], [images[i] for i in chunk]))
                with torch.no_grad():
                    gen = self.model.generate(
                        **enc,
                        max_new_tokens=max_new_tokens,
                        do_sample=False,
                        pad_token_id=self.tokenizer.pad_token_id,
                    )
                texts = self.tokenizer.batch_decode(
                    gen[:, enc["input_ids"].shape[1] :], skip_special_tokens=True
                )
                out.update(zip(chunk, (t.strip() for t in texts), strict=True))
        return [out[i] for i in range(len(prompts))]

    # ------------------------------------------------------------------ likelihood

    def _context_state(self, context: str, longest: int, image: Path | None = None) -> dict[str, Any]:
        """Run the prompt (and image) once; its cache then serves every continuation."""
        torch = self.torch
        if getattr(self.model.config, "is_encoder_decoder", False):
            raise NotImplementedError(
                f"{self.name}: likelihood scoring supports decoder-only vision-language models"
            )
        budget = max(1, self.max_length - longest)
        enc = self.encode([context], [image])
        overflow = enc["input_ids"].shape[1] - budget
        if overflow > 0:  # drop the start of the text; image placeholders must stay whole
            ids = self._ids(context)
            enc = self.encode([self.tokenizer.decode(ids[min(len(ids), overflow) :])], [image])
        enc = self._on_device(enc)
        res = self.model(**enc, use_cache=True)
        first = torch.log_softmax(res.logits[0, -1].float(), dim=-1)
        return {"cache": res.past_key_values, "length": enc["input_ids"].shape[1], "first": first}
