"""Bar charts of study results (matplotlib, Agg), written as PNG + SVG like ``avd report``.

One chart per table a study produces; error bars are the bootstrap 95% intervals.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from server.studies.kinds import PREFERENCE_ANSWERS  # noqa: E402

LABELS = {
    "machine": "machine better",
    "human": "human better",
    "both_good": "both good",
    "both_bad": "both bad",
}


def _short(name: str, width: int = 28) -> str:
    name = name.rsplit("/", 1)[-1]
    return name if len(name) <= width else name[: width - 1] + "…"


def _share_bars(ax, rows: dict[str, dict], title: str, ylabel: str) -> None:
    names = list(rows)
    shares = [rows[n]["share"] or 0.0 for n in names]
    low = [
        max(0.0, s - (rows[n]["ci95"][0] if rows[n]["ci95"][0] is not None else s))
        for n, s in zip(names, shares, strict=True)
    ]
    high = [
        max(0.0, (rows[n]["ci95"][1] if rows[n]["ci95"][1] is not None else s) - s)
        for n, s in zip(names, shares, strict=True)
    ]
    ax.bar([_short(n) for n in names], shares, yerr=[low, high], capsize=4, color="#2557c8")
    ax.set_ylim(0, 1)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    for i, s in enumerate(shares):
        ax.text(i, min(s + 0.03, 0.95), f"{s:.0%}", ha="center", fontsize=9)


def figures(results: dict[str, Any]) -> dict[str, Any]:
    """name -> matplotlib figure for the study's kind."""
    kind = results["study"]["kind"]
    figs: dict[str, Any] = {}
    if kind == "reasonableness" and results.get("by_source"):
        fig, ax = plt.subplots(figsize=(6, 4))
        _share_bars(ax, results["by_source"], "Answers judged reasonable", "share of judgments")
        figs["reasonable_by_source"] = fig
        by_round = results.get("by_source_round") or {}
        if by_round:
            fig, ax = plt.subplots(figsize=(7, 4))
            rounds = sorted({int(r) for rows in by_round.values() for r in rows})
            width = 0.8 / max(1, len(by_round))
            for k, (src, rows) in enumerate(by_round.items()):
                xs = [r + (k - (len(by_round) - 1) / 2) * width for r in rounds]
                ax.bar(
                    xs, [(rows.get(str(r)) or {}).get("share") or 0 for r in rounds], width, label=_short(src)
                )
            ax.set_xticks(rounds)
            ax.set_xlabel("round")
            ax.set_ylim(0, 1)
            ax.set_ylabel("share reasonable")
            ax.set_title("Reasonable answers by round")
            ax.legend(fontsize=8)
            figs["reasonable_by_round"] = fig
    elif kind == "turing" and results.get("by_source"):
        fig, ax = plt.subplots(figsize=(6, 4))
        names = list(results["by_source"])
        bottom = [0.0] * len(names)
        for answer, color in (("human", "#1e7a3c"), ("not_sure", "#9aa3b2"), ("ai", "#b3261e")):
            vals = []
            for n in names:
                answers = results["by_source"][n].get("answers") or {}
                total = sum(answers.values()) or 1
                vals.append(answers.get(answer, 0) / total)
            ax.bar(
                [_short(n) for n in names], vals, bottom=bottom, label=answer.replace("_", " "), color=color
            )
            bottom = [b + v for b, v in zip(bottom, vals, strict=True)]
        ax.set_ylim(0, 1)
        ax.set_ylabel("share of judgments")
        ax.set_title("Who wrote the explanation? (by true source)")
        ax.legend(fontsize=8)
        figs["turing_by_source"] = fig
    elif kind == "preference" and results.get("by_model"):
        for model, row in results["by_model"].items():
            fig, ax = plt.subplots(figsize=(6, 4))
            _share_bars(
                ax,
                {LABELS[a]: row["shares"][a] for a in PREFERENCE_ANSWERS},
                f"Preference: {_short(model, 40)}",
                "share of judgments",
            )
            figs["preference" if len(results["by_model"]) == 1 else f"preference_{len(figs)}"] = fig
    elif kind == "multichoice" and results.get("by_model"):
        fig, ax = plt.subplots(figsize=(6, 4))
        names, values = [], []
        for model, row in results["by_model"].items():
            names += [f"people ({_short(model, 16)})", _short(model)]
            values += [row["human_accuracy"] or 0.0, row["model_accuracy"] or 0.0]
        ax.bar(names, values, color=["#1e7a3c", "#2557c8"] * len(results["by_model"]))
        ax.set_ylim(0, 1)
        ax.set_ylabel("accuracy")
        ax.set_title("Multiple choice: people and model")
        figs["multichoice_accuracy"] = fig
    return figs


def write_charts(out_dir: Path, results: dict[str, Any]) -> dict[str, Path]:
    paths = {}
    for name, fig in figures(results).items():
        fig.tight_layout()
        for fmt in ("png", "svg"):
            path = out_dir / f"{name}.{fmt}"
            fig.savefig(path, format=fmt, dpi=120)
            paths[f"{name}.{fmt}"] = path
        plt.close(fig)
    return paths


def render_all(results: dict[str, Any], fmt: str = "svg") -> dict[str, bytes]:
    """Every chart of a study as bytes (for a dashboard route or ``avd report``)."""
    import io

    out = {}
    for name, fig in figures(results).items():
        fig.tight_layout()
        buf = io.BytesIO()
        fig.savefig(buf, format=fmt, dpi=120)
        plt.close(fig)
        out[name] = buf.getvalue()
    return out
