"""Build a study from an evaluation run (``results.json`` + ``samples.jsonl``) and its export.

What each kind reads from the run's samples (one JSON object per line, as the runner writes):

- reasonableness: a ``retrieval`` run (``meta.dialog_id``, ``meta.round``, ``inputs.candidates``,
  ``target`` = index of the human answer, ``output`` = one score per candidate; the model's
  answer is the top-scored candidate) or any run whose ``output`` is the answer text itself.
  Each chosen round becomes two items, the human's answer and the model's, sharing a pair key.
- turing: a ``generation`` run (``meta.dialog_id``, ``meta.phase``, ``target.text``, ``output``):
  the human explanation and the generated one, as two items sharing a pair key.
- preference: a ``generation`` run: one item per sample with the human and the generated
  reaction (explanation part) for the human's emotion; the per-sample ``scores`` are kept
  so the results can compare each automatic metric with the human choice.
- multichoice: rows with ``inputs.choices`` (list of texts), ``inputs.question`` (or
  ``inputs.prompt``), optional ``inputs.context``, ``target`` = index of the right choice
  (or ``{"index": i}``), and ``output`` = the model's index or one score per choice. This is
  the format this module defines for the multiple-choice task until that task exists.

Attention checks come from the kind's task file, set inside real contexts of the export.
Images are copied into the media store under content-hash keys at build time, so the
server needs neither the export nor the run directory.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import re
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from server.db.study_models import Study, StudyItem
from server.evaluation.data import Dialog, ExportData
from server.settings import Settings
from server.studies.kinds import KINDS, load_kind

PHASE_WRITER = {
    "questioner_before": "the person who asked the questions, before seeing the artwork",
    "questioner_after": "the person who asked the questions, after seeing the artwork",
    "answerer": "the person who could see the artwork and answered the questions",
}
_FEEL_RE = re.compile(r"^\s*i\s+feel\s+.*?\s+because\s+(.*)$", re.IGNORECASE | re.DOTALL)


@dataclass
class RunData:
    run_id: str
    task: str
    model: str
    out_dir: Path
    results: dict[str, Any]
    samples: list[dict[str, Any]]

    @property
    def data_path(self) -> str | None:
        return (self.results.get("data") or {}).get("path")


def find_run(ref: str, roots: list[Path]) -> Path:
    """A run directory: ``ref`` itself, or the run under ``roots`` whose id starts with ``ref``."""
    path = Path(ref)
    if (path / "results.json").exists():
        return path
    matches = []
    for root in roots:
        for results in sorted(root.glob("*/results.json")):
            try:
                run_id = json.loads(results.read_text()).get("run_id", "")
            except (OSError, json.JSONDecodeError):
                continue
            if str(run_id).startswith(ref) or results.parent.name == ref:
                matches.append(results.parent)
    if len(matches) > 1:
        raise KeyError(f"run id {ref!r} is ambiguous: {', '.join(str(m) for m in matches)}")
    if not matches:
        looked = ", ".join(map(str, roots))
        raise KeyError(f"no evaluation run {ref!r} with a results.json (looked in {looked})")
    return matches[0]


def load_run(run_dir: Path) -> RunData:
    results = json.loads((run_dir / "results.json").read_text())
    lines = (run_dir / "samples.jsonl").read_text().splitlines()
    samples = [json.loads(line) for line in lines if line.strip()]
    return RunData(
        run_id=str(results.get("run_id", run_dir.name)),
        task=str(results.get("task", "")),
        model=str(results.get("model", "model")),
        out_dir=run_dir,
        results=results,
        samples=samples,
    )


def explanation_part(text: str) -> str:
    """ "I feel awe because the sky is vast" -> "the sky is vast" (else the text unchanged)."""
    match = _FEEL_RE.match(text or "")
    return match.group(1).strip() if match else (text or "").strip()


def _argmax(scores: list[float]) -> int:
    best, index = -math.inf, 0
    for i, s in enumerate(scores):
        if s is not None and not (isinstance(s, float) and math.isnan(s)) and s > best:
            best, index = s, i
    return index


def _choice_index(value: Any, choices: list[str]) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, list):
        return _argmax(value)
    if isinstance(value, dict):
        for key in ("index", "answer_index", "choice"):
            if isinstance(value.get(key), int):
                return value[key]
        value = value.get("answer") or value.get("text")
    if isinstance(value, str):
        if value.strip().isdigit():
            return int(value.strip())
        if value in choices:
            return choices.index(value)
    return None


def _opinions(d: Dialog) -> list[dict[str, str]]:
    return [{"polarity": o.polarity, "emotion": o.emotion, "text": o.text} for o in d.opinions]


def _rounds(d: Dialog, upto: int | None = None) -> list[dict[str, str]]:
    chosen = d.rounds if upto is None else d.rounds[:upto]
    return [{"question": q, "answer": a} for q, a in chosen]


class ImageStore:
    """Copies stimulus images into the media store once, keyed by content hash."""

    def __init__(self, settings: Settings, stimulus_keys: dict[str, str] | None = None) -> None:
        from server.media import media_store

        self.media = media_store(settings)
        self.stimulus_keys = stimulus_keys or {}
        self._cache: dict[str, str | None] = {}
        self.missing = 0

    def key_for(self, d: Dialog) -> str | None:
        if d.id in self._cache:
            return self._cache[d.id]
        key = None
        if d.image is not None and d.image.is_file():
            data = d.image.read_bytes()
            key = "study-" + hashlib.sha256(data).hexdigest()[:40]
            if not self.media.exists(key):
                self.media.put(key, data, "image/jpeg")
        elif d.stimulus_id in self.stimulus_keys:
            key = self.stimulus_keys[d.stimulus_id]
        if key is None:
            self.missing += 1
        self._cache[d.id] = key
        return key


@dataclass
class BuildOptions:
    kind: str
    items: int = 100
    raters: int = 5
    items_per_rater: int = 20
    attention_every: int = 5
    checks: int | None = None
    rounds: list[int] | None = None  # reasonableness: rounds to sample (default: the last four)
    image: bool = True  # turing / multichoice: show the artwork
    caption: bool = False  # preference: the caption in place of the opinions
    seed: int = 0
    min_seconds: float | None = None
    lease_seconds: float | None = None
    name: str | None = None


@dataclass
class BuiltStudy:
    study: Study
    items: list[StudyItem]
    warnings: list[str]


def build_items(
    run: RunData, data: ExportData, opts: BuildOptions, images: ImageStore
) -> tuple[list[StudyItem], list[str]]:
    """Regular items and attention checks (ids and study id are filled in by :func:`build_study`)."""
    if opts.kind not in KINDS:
        raise KeyError(f"unknown study kind {opts.kind!r}; choose one of {', '.join(KINDS)}")
    rng = random.Random(opts.seed)
    builder = {
        "reasonableness": _reasonableness,
        "turing": _turing,
        "preference": _preference,
        "multichoice": _multichoice,
    }[opts.kind]
    items, warnings = builder(run, data, opts, images, rng)
    if not items:
        raise ValueError(f"the run {run.run_id} has no samples a {opts.kind} study can use")
    n_checks = opts.checks
    if n_checks is None:
        n_checks = max(2, math.ceil(opts.items_per_rater / max(opts.attention_every, 1)) + 1)
    if opts.attention_every > 1:
        items += _checks(opts, data, n_checks, images, rng, [i for i in items])
    if images.missing:
        warnings.append(f"{images.missing} dialogs have no image in the export or the database")
    return items, warnings


def _model_source(run: RunData) -> str:
    return run.model


def _pick(rng: random.Random, rows: list[Any], n: int) -> list[Any]:
    return rng.sample(rows, min(n, len(rows)))


def _reasonableness(run, data, opts, images, rng):
    usable = []
    for s in run.samples:
        meta, d = s.get("meta", {}), data.dialogs.get(str(s.get("meta", {}).get("dialog_id")))
        if d is None or "round" not in meta:
            continue
        k = int(meta["round"])
        wanted = opts.rounds or list(range(max(1, len(d.rounds) - 3), len(d.rounds) + 1))
        if k in wanted and k <= len(d.rounds):
            usable.append((s, d, k))
    chosen = _pick(rng, usable, math.ceil(opts.items / 2))
    items = []
    for s, d, k in chosen:
        cands = s.get("inputs", {}).get("candidates") or []
        output = s.get("output")
        model_answer = output if isinstance(output, str) else (cands[_argmax(output)] if cands else None)
        human = d.rounds[k - 1][1]
        if isinstance(s.get("target"), int) and cands:
            human = cands[s["target"]]
        if model_answer is None:
            continue
        key = images.key_for(d)
        for source, answer in (("human", human), (_model_source(run), model_answer)):
            rounds = _rounds(d, k)
            rounds[-1] = {"question": rounds[-1]["question"], "answer": answer}
            items.append(
                StudyItem(
                    pair_key=f"{d.id}:{k}",
                    source=source,
                    image_key=key,
                    payload={"opinions": _opinions(d), "rounds": rounds, "highlight": k, "image": True},
                    truth={
                        "sample_id": s.get("id"),
                        "dialog_id": d.id,
                        "round": k,
                        "source": source,
                        "same_as_human": answer == human,
                    },
                )
            )
    return items, []


def _turing(run, data, opts, images, rng):
    usable = []
    for s in run.samples:
        meta = s.get("meta", {})
        d = data.dialogs.get(str(meta.get("dialog_id")))
        target = s.get("target")
        if d is None or not isinstance(s.get("output"), str) or not isinstance(target, dict):
            continue
        usable.append((s, d, meta.get("phase")))
    chosen = _pick(rng, usable, math.ceil(opts.items / 2))
    items = []
    for s, d, phase in chosen:
        key = images.key_for(d) if opts.image else None
        for source, text in (("human", s["target"].get("text", "")), (_model_source(run), s["output"])):
            items.append(
                StudyItem(
                    pair_key=f"{d.id}:{phase}",
                    source=source,
                    image_key=key,
                    payload={
                        "opinions": _opinions(d),
                        "rounds": _rounds(d),
                        "explanation": text.strip(),
                        "writer": PHASE_WRITER.get(str(phase), "one of the people in the conversation"),
                        "image": opts.image,
                    },
                    truth={"sample_id": s.get("id"), "dialog_id": d.id, "phase": phase, "source": source},
                )
            )
    return items, []


def _preference(run, data, opts, images, rng):
    usable = []
    for s in run.samples:
        meta = s.get("meta", {})
        d = data.dialogs.get(str(meta.get("dialog_id")))
        target = s.get("target")
        if d is None or not isinstance(s.get("output"), str) or not isinstance(target, dict):
            continue
        usable.append((s, d))
    items = []
    for s, d in _pick(rng, usable, opts.items):
        human = explanation_part(s["target"].get("text", ""))
        machine = explanation_part(s["output"])
        sources = {"a": "human", "b": "machine"} if rng.random() < 0.5 else {"a": "machine", "b": "human"}
        texts = {"human": human, "machine": machine}
        payload: dict[str, Any] = {
            "emotion": s["target"].get("emotion"),
            "reactions": {k: texts[v] for k, v in sources.items()},
            "image": True,
        }
        if opts.caption:
            payload["caption"] = d.caption
        else:
            payload["opinions"] = _opinions(d)
        items.append(
            StudyItem(
                pair_key=None,
                source=_model_source(run),
                image_key=images.key_for(d),
                payload=payload,
                truth={
                    "sample_id": s.get("id"),
                    "dialog_id": d.id,
                    "phase": s.get("meta", {}).get("phase"),
                    "sources": sources,
                    "scores": s.get("scores") or {},
                },
            )
        )
    return items, []


def _multichoice(run, data, opts, images, rng):
    usable = []
    for s in run.samples:
        inputs = s.get("inputs", {})
        choices = inputs.get("choices")
        if not isinstance(choices, list) or len(choices) < 2:
            continue
        correct = _choice_index(s.get("target"), choices)
        if correct is None:
            continue
        usable.append((s, [str(c) for c in choices], correct))
    items, warnings = [], []
    if len(usable) < len(run.samples):
        warnings.append(f"{len(run.samples) - len(usable)} samples lack choices or a target and were skipped")
    for s, choices, correct in _pick(rng, usable, opts.items):
        inputs = s["inputs"]
        d = data.dialogs.get(str(s.get("meta", {}).get("dialog_id"))) if data else None
        model_choice = _choice_index(s.get("output"), choices)
        items.append(
            StudyItem(
                pair_key=None,
                source=_model_source(run),
                image_key=images.key_for(d) if (d is not None and opts.image) else None,
                payload={
                    "context": inputs.get("context"),
                    "question": inputs.get("question") or inputs.get("prompt") or "",
                    "choices": choices,
                    "image": opts.image,
                },
                truth={
                    "sample_id": s.get("id"),
                    "correct": str(correct),
                    "model_choice": None if model_choice is None else str(model_choice),
                    "meta": s.get("meta", {}),
                },
            )
        )
    return items, warnings


def _checks(opts, data, n, images, rng, regular) -> list[StudyItem]:
    """Attention checks from the kind's templates, set in contexts of real items."""
    templates = load_kind(opts.kind).attention
    dialogs = [d for d in data.dialogs.values() if d.rounds] if data else []
    out = []
    for i in range(n):
        t = templates[i % len(templates)]
        d = rng.choice(dialogs) if dialogs else None
        payload: dict[str, Any]
        if opts.kind == "reasonableness" and d is not None:
            k = rng.randint(max(1, len(d.rounds) - 3), len(d.rounds))
            rounds = _rounds(d, k)
            rounds[-1] = {"question": t.get("question", rounds[-1]["question"]), "answer": t["answer"]}
            payload = {"opinions": _opinions(d), "rounds": rounds, "highlight": k, "image": True}
        elif opts.kind == "turing" and d is not None:
            payload = {
                "opinions": _opinions(d),
                "rounds": _rounds(d),
                "explanation": t["explanation"],
                "writer": PHASE_WRITER[rng.choice(list(PHASE_WRITER))],
                "image": opts.image,
            }
        elif opts.kind == "preference" and d is not None:
            feelings = list(d.feelings.values())
            payload = {
                "emotion": feelings[0].emotion if feelings else d.opinions[0].emotion,
                "reactions": {"a": t["first"], "b": t["second"]},
                "image": True,
            }
            payload.update({"caption": d.caption} if opts.caption else {"opinions": _opinions(d)})
        elif opts.kind == "multichoice":
            payload = {"question": t["question"], "choices": list(t["choices"]), "image": False}
            d = None
        else:
            continue
        out.append(
            StudyItem(
                pair_key=None,
                source="attention",
                is_attention=True,
                known_answer=str(t["known"]),
                image_key=images.key_for(d) if d is not None and payload.get("image") else None,
                payload=payload,
                truth={"template": i % len(templates), "sources": {"a": "check", "b": "check"}},
            )
        )
    return out


async def build_study(
    sessions, settings: Settings, run_dir: Path, opts: BuildOptions, export: Path | None = None
) -> BuiltStudy:
    """Read the run and its export, make the items and store the study as a draft."""
    from sqlalchemy import select

    from server.db.models import Stimulus

    run = load_run(run_dir)
    export_path = export or (Path(run.data_path) if run.data_path else None)
    if export_path is None:
        raise ValueError("the run names no export; pass --data EXPORT_DIR")
    data = ExportData.load(export_path)
    async with sessions() as db:
        query = select(Stimulus.id, Stimulus.image_key).where(Stimulus.study == settings.study)
        rows = (await db.execute(query)).all()
    images = ImageStore(settings, {r.id: r.image_key for r in rows})
    items, warnings = build_items(run, data, opts, images)
    rng = random.Random(opts.seed + 1)
    rng.shuffle(items)
    study_id = uuid.uuid4().hex[:16]
    study = Study(
        id=study_id,
        study=settings.study,
        kind=opts.kind,
        name=opts.name or f"{opts.kind} of {Path(run.model).name} ({run.run_id[:8]})",
        status="draft",
        raters_per_item=opts.raters,
        items_per_rater=opts.items_per_rater,
        attention_every=opts.attention_every,
        min_seconds=opts.min_seconds,
        config={
            "run_id": run.run_id,
            "run_dir": str(run.out_dir.resolve()),
            "task": run.task,
            "model": run.model,
            "export": str(Path(export_path).resolve()),
            "seed": opts.seed,
            "rounds": opts.rounds,
            "image": opts.image,
            "caption": opts.caption,
            **({"lease_seconds": opts.lease_seconds} if opts.lease_seconds else {}),
        },
    )
    for n, item in enumerate(items):
        item.id = f"{study_id}-{n:05d}"
        item.study_id = study_id
        item.position = n
    async with sessions() as db:
        db.add(study)
        await db.flush()
        db.add_all(items)
        await db.commit()
    return BuiltStudy(study, items, warnings)
