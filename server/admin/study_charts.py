"""One figure per human study (matplotlib, Agg): its headline shares and its agreement, with 95% CIs.

Left panel, by kind: the share judged reasonable / human per source (reasonableness, Turing
test), the share of each preference answer per model, or people's accuracy next to the
model's (multiple choice). Right panel: Fleiss' kappa and Krippendorff's alpha. Every bar
with an interval carries it as an error bar (bootstrap over items, from
``server.studies.results``). A bar whose value is undefined is drawn empty and labelled n/a.
"""

from __future__ import annotations

import io
import threading
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from server.studies.kinds import PREFERENCE_ANSWERS  # noqa: E402

_PYPLOT = threading.Lock()  # pyplot keeps global state; routes render in worker threads
BLUE, GREEN, GREY = "#3a5ba0", "#1e7a3c", "#9aa3b2"
ANSWER_COLOURS = {"machine": BLUE, "human": GREEN, "both_good": "#7fb069", "both_bad": "#b42318"}
POSITIVE_LABEL = {"reasonableness": "share judged reasonable", "turing": "share judged human"}


def _short(name: str, width: int = 22) -> str:
    name = name.rsplit("/", 1)[-1]
    return name if len(name) <= width else name[: width - 1] + "…"


def _errors(value: float | None, ci: list | tuple | None) -> tuple[float, float]:
    """Distances from the value down and up to its interval (0 when either is missing)."""
    if value is None or not ci or ci[0] is None or ci[1] is None:
        return 0.0, 0.0
    return max(0.0, value - ci[0]), max(0.0, ci[1] - value)


def _bars(ax, xs: list[float], values: list, cis: list, colours, width: float = 0.7, labels=None) -> None:
    heights = [v if v is not None else 0.0 for v in values]
    errs = [_errors(v, ci) for v, ci in zip(values, cis, strict=True)]
    ax.bar(
        xs,
        heights,
        width,
        yerr=[[e[0] for e in errs], [e[1] for e in errs]],
        capsize=4,
        color=colours,
        edgecolor="#1d2433",
        linewidth=0.4,
        label=labels,
        error_kw={"elinewidth": 1.1},
    )
    for x, v, e in zip(xs, values, errs, strict=True):
        text = "n/a" if v is None else f"{v:.2f}"
        top = (v or 0.0) + e[1]
        ax.text(x, top + 0.02, text, ha="center", va="bottom", fontsize=8)


def _share_panel(ax, rows: dict[str, dict], ylabel: str) -> None:
    names = list(rows)
    _bars(
        ax,
        list(range(len(names))),
        [rows[n]["share"] for n in names],
        [rows[n].get("ci95") for n in names],
        BLUE,
    )
    ax.set_xticks(range(len(names)), [f"{_short(n)}\n(n={rows[n]['judgments']})" for n in names])
    ax.set_ylabel(ylabel)


def _preference_panel(ax, by_model: dict[str, dict]) -> None:
    width = 0.8 / len(PREFERENCE_ANSWERS)
    models = list(by_model)
    for k, answer in enumerate(PREFERENCE_ANSWERS):
        xs = [m + (k - (len(PREFERENCE_ANSWERS) - 1) / 2) * width for m in range(len(models))]
        rows = [by_model[m]["shares"][answer] for m in models]
        _bars(
            ax,
            xs,
            [r["share"] for r in rows],
            [r.get("ci95") for r in rows],
            ANSWER_COLOURS[answer],
            width,
            answer.replace("_", " "),
        )
    ax.set_xticks(
        range(len(models)), [f"{_short(m)}\n(n={sum(by_model[m]['tallies'].values())})" for m in models]
    )
    ax.set_ylabel("share of judgments")
    ax.legend(fontsize=8, ncols=2, loc="upper right")


def _multichoice_panel(ax, by_model: dict[str, dict]) -> None:
    models = list(by_model)
    series = (
        ("people", "human_accuracy", "human_accuracy_ci95", GREEN),
        ("people (majority)", "majority_accuracy", None, "#7fb069"),
        ("model", "model_accuracy", None, BLUE),
    )
    width = 0.8 / len(series)
    for k, (label, key, ci_key, colour) in enumerate(series):
        xs = [m + (k - (len(series) - 1) / 2) * width for m in range(len(models))]
        _bars(
            ax,
            xs,
            [by_model[m][key] for m in models],
            [by_model[m].get(ci_key) if ci_key else None for m in models],
            colour,
            width,
            label,
        )
    ax.set_xticks(range(len(models)), [f"{_short(m)}\n(n={by_model[m]['judgments']})" for m in models])
    ax.set_ylabel("accuracy")
    ax.legend(fontsize=8, loc="upper right")


def _agreement_panel(ax, agreement: dict[str, Any]) -> None:
    values = [agreement.get("fleiss_kappa"), agreement.get("krippendorff_alpha")]
    cis = [agreement.get("fleiss_kappa_ci95"), agreement.get("krippendorff_alpha_ci95")]
    _bars(ax, [0, 1], values, cis, [GREY, GREY])
    ax.set_xticks(
        [0, 1],
        [
            f"Fleiss κ\n({agreement.get('fleiss_items', 0)} items)",
            f"Kripp. α\n({agreement.get('alpha_items', 0)} items)",
        ],
    )
    lows = [ci[0] for ci in cis if ci and ci[0] is not None] + [v for v in values if v is not None]
    ax.set_ylim(min(0.0, min(lows, default=0.0) - 0.1), 1.1)
    ax.axhline(0, color="#1d2433", linewidth=0.6)
    ax.set_title("Agreement", fontsize=10)


def figure(results: dict[str, Any]):
    """The study's figure; an empty left panel says so when nothing has been judged yet."""
    study = results["study"]
    kind = study["kind"]
    fig, (main, agree) = plt.subplots(
        1, 2, figsize=(9, 4.2), gridspec_kw={"width_ratios": [3, 1.2]}, constrained_layout=True
    )
    if kind in POSITIVE_LABEL and results.get("by_source"):
        _share_panel(main, results["by_source"], POSITIVE_LABEL[kind])
    elif kind == "preference" and results.get("by_model"):
        _preference_panel(main, results["by_model"])
    elif kind == "multichoice" and results.get("by_model"):
        _multichoice_panel(main, results["by_model"])
    else:
        main.text(0.5, 0.5, "no valid judgments yet", ha="center", va="center", transform=main.transAxes)
        main.set_xticks([])
    main.set_ylim(0, 1.15)
    main.set_title(f"{kind}: {_short(study['name'], 50)}", fontsize=10)
    _agreement_panel(agree, results.get("agreement") or {})
    summary = results.get("summary") or {}
    fig.suptitle(
        f"Study {study['id'][:8]} · {summary.get('judgments_valid', 0)} valid judgments"
        f" · {summary.get('raters', 0)} raters · bars: 95% bootstrap intervals",
        fontsize=9,
        color="#667085",
    )
    return fig


def render(results: dict[str, Any], fmt: str = "svg") -> bytes:
    with _PYPLOT:
        fig = figure(results)
        out = io.BytesIO()
        try:
            fig.savefig(out, format=fmt, dpi=120)
        finally:
            plt.close(fig)
    return out.getvalue()
