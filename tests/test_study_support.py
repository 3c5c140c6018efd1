"""Shared pieces of the study tests (no tests here): an export with images, real runs, oracles."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

from server.evaluation.runner import RunSpec, run
from server.evaluation.synthetic import write_synthetic_export

_TOPIC = re.compile(r"What do the (\w+) look like")


def export_with_images(folder: Path, n_dialogs: int = 20, seed: int = 3) -> Path:
    """The synthetic export plus a small drawn image per stimulus under images/."""
    out = write_synthetic_export(folder, n_dialogs=n_dialogs, seed=seed)
    images = out / "images"
    images.mkdir(exist_ok=True)
    for k in range(max(1, n_dialogs // 2)):
        img = Image.new("RGB", (80, 60), (30 * k % 255, 120, 200))
        ImageDraw.Draw(img).rectangle((10, 10, 50, 40), fill=(250, 200 - k, 20))
        img.save(images / f"s{k:03d}.png")
    return out


def real_run(task: str, export: Path, out: Path, model: str = "random:3", split: str = "all") -> Path:
    """A real evaluation run (the runner the backends start) with the seeded random model."""
    spec = RunSpec(
        run_id=f"{task}{out.name}", task=task, model=model, data=str(export), split=split, out=str(out)
    )
    spec.progress = False
    run(spec)
    return out


def reasonable_oracle(item: dict[str, Any]) -> str:
    """The planted truth of the synthetic data: an answer is reasonable iff it names the question's topic."""
    last = (item.get("rounds") or [{}])[-1]
    topic = _TOPIC.search(last.get("question", ""))
    if topic and topic.group(1).lower() in last.get("answer", "").lower().split():
        return "reasonable"
    return "not_reasonable"
