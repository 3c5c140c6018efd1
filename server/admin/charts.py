"""The analysis charts of the papers, for the dashboard (SVG) and ``avd report`` (PNG + SVG).

Data: TextBlob scores from QC, emotions from the forms, genres from the stimuli.
Plotting uses matplotlib (Agg backend, no display).
"""

from __future__ import annotations

import io
from collections import Counter, defaultdict
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from sqlalchemy import select  # noqa: E402
from sqlalchemy.ext.asyncio import async_sessionmaker  # noqa: E402

from server.db.models import Dialog, QcResult, Response, Stimulus  # noqa: E402
from server.dialog.protocol import EMOTIONS  # noqa: E402
from server.qc.inclusion import content_words  # noqa: E402

KINDS = {
    "before_reveal": "Questioner, before reveal",
    "after_reveal": "Questioner, after reveal",
    "answerer": "Answerer",
}
CHARTS = ("subjectivity", "polarity", "emotion_by_genre_questioner", "emotion_by_genre_answerer", "top_words")


async def chart_data(sessions: async_sessionmaker, study: str) -> dict[str, Any]:
    """Everything the charts show, as plain numbers (also served as JSON)."""
    async with sessions() as db:
        scores = (
            await db.execute(
                select(QcResult.scores)
                .join(Dialog, Dialog.id == QcResult.dialog_id)
                .where(Dialog.study == study)
            )
        ).scalars()
        responses = (
            await db.execute(
                select(
                    Response.dialog_id, Response.phase, Response.emotion, Response.explanation, Stimulus.genre
                )
                .join(Dialog, Dialog.id == Response.dialog_id)
                .join(Stimulus, Stimulus.id == Dialog.stimulus_id)
                .where(Dialog.study == study)
            )
        ).all()
    polarity: dict[str, list[float]] = defaultdict(list)
    subjectivity: dict[str, list[float]] = defaultdict(list)
    for per_phase in scores:
        for phase, s in (per_phase or {}).items():
            polarity[phase].append(s["polarity"])
            subjectivity[phase].append(s["subjectivity"])
    by_genre: dict[str, dict[str, Counter[str]]] = {
        "questioner": defaultdict(Counter),
        "answerer": defaultdict(Counter),
    }
    words: dict[str, Counter[str]] = defaultdict(Counter)
    emotions: dict[str, dict[str, str]] = defaultdict(dict)
    for dialog_id, phase, emotion, explanation, genre in responses:
        role = "answerer" if phase == "answerer" else "questioner"
        if phase != "before_reveal":
            by_genre[role][genre or "unknown"][emotion] += 1
        words[phase].update(content_words(explanation))
        emotions[dialog_id][phase] = emotion
    pairs = [e for e in emotions.values() if "before_reveal" in e and "after_reveal" in e]
    changed = sum(1 for e in pairs if e["before_reveal"] != e["after_reveal"])
    return {
        "polarity": dict(polarity),
        "subjectivity": dict(subjectivity),
        "emotion_by_genre": {role: {g: dict(c) for g, c in d.items()} for role, d in by_genre.items()},
        "emotion_change_after_reveal": {
            "dialogs": len(pairs),
            "changed": changed,
            "rate": round(changed / len(pairs), 3) if pairs else None,
        },
        "top_words": {phase: c.most_common(15) for phase, c in words.items()},
    }


def _histograms(values: dict[str, list[float]], title: str, bins: list[float]) -> plt.Figure:
    fig, ax = plt.subplots(figsize=(7, 3.6))
    for phase, label in KINDS.items():
        if values.get(phase):
            ax.hist(values[phase], bins=bins, alpha=0.55, label=f"{label} (n={len(values[phase])})")
    ax.set_title(title)
    ax.set_ylabel("explanations")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def _emotion_bars(counts: dict[str, dict[str, int]], title: str) -> plt.Figure:
    genres = sorted(counts)
    fig, ax = plt.subplots(figsize=(7, 3.6))
    bottom = [0.0] * len(genres)
    cmap = plt.get_cmap("tab10")
    for i, emotion in enumerate(EMOTIONS):
        totals = [sum(counts[g].values()) or 1 for g in genres]
        shares = [counts[g].get(emotion, 0) / t for g, t in zip(genres, totals, strict=True)]
        ax.bar(genres, shares, bottom=bottom, label=emotion.replace("_", " "), color=cmap(i % 10))
        bottom = [b + s for b, s in zip(bottom, shares, strict=True)]
    ax.set_title(title)
    ax.set_ylabel("share of answers")
    ax.legend(fontsize=7, ncol=3, loc="upper center", bbox_to_anchor=(0.5, -0.15))
    fig.tight_layout()
    return fig


def _top_words(top: dict[str, list[tuple[str, int]]]) -> plt.Figure:
    fig, axes = plt.subplots(1, 3, figsize=(9, 3.6))
    for ax, (phase, label) in zip(axes, KINDS.items(), strict=True):
        items = top.get(phase, [])[:10][::-1]
        ax.barh([w for w, _ in items], [n for _, n in items], color="#4a6fa5")
        ax.set_title(label, fontsize=9)
    fig.tight_layout()
    return fig


def figure(name: str, data: dict[str, Any]) -> plt.Figure:
    if name == "subjectivity":
        return _histograms(
            data["subjectivity"], "Subjectivity of explanations (TextBlob)", [i / 10 for i in range(11)]
        )
    if name == "polarity":
        return _histograms(
            data["polarity"], "Polarity of explanations (TextBlob)", [i / 5 - 1 for i in range(11)]
        )
    if name == "emotion_by_genre_questioner":
        return _emotion_bars(data["emotion_by_genre"]["questioner"], "Questioner emotion by genre")
    if name == "emotion_by_genre_answerer":
        return _emotion_bars(data["emotion_by_genre"]["answerer"], "Answerer emotion by genre")
    if name == "top_words":
        return _top_words(data["top_words"])
    raise KeyError(name)


def render(name: str, data: dict[str, Any], fmt: str = "svg") -> bytes:
    fig = figure(name, data)
    out = io.BytesIO()
    fig.savefig(out, format=fmt, dpi=120)
    plt.close(fig)
    return out.getvalue()
