"""The numbers beside a study's chart, as plain tables for the dashboard and the report.

A table is a title, column names, rows, and the indexes of the columns that hold shares
(shown as percentages). Cells are numbers, strings, None, or ``[low, high]`` intervals.
"""

from __future__ import annotations

from typing import Any

from server.studies.kinds import PREFERENCE_ANSWERS

Table = dict[str, Any]


def _share_table(title: str, rows: dict[str, dict]) -> Table:
    return {
        "title": title,
        "columns": ["source", "items", "judgments", "share", "95% CI", "majority share"],
        "percent": [3, 4, 5],
        "rows": [
            [src, r["items"], r["judgments"], r["share"], r["ci95"], r.get("majority_share")]
            for src, r in rows.items()
        ],
    }


def tables(results: dict[str, Any]) -> list[Table]:
    kind = results["study"]["kind"]
    out: list[Table] = []
    if kind == "reasonableness" and results.get("by_source"):
        out.append(_share_table("Judged reasonable, by source", results["by_source"]))
    if kind == "turing" and results.get("by_source"):
        out.append(_share_table("Judged written by a person, by true source", results["by_source"]))
        out.append(
            {
                "title": "Answers by true source",
                "columns": ["source", "human", "not sure", "ai"],
                "percent": [],
                "rows": [
                    [src, *((r.get("answers") or {}).get(a, 0) for a in ("human", "not_sure", "ai"))]
                    for src, r in results["by_source"].items()
                ],
            }
        )
    if kind == "preference":
        for model, r in (results.get("by_model") or {}).items():
            out.append(
                {
                    "title": f"Preference: {model}",
                    "columns": ["answer", "judgments", "share", "95% CI", "items won by majority"],
                    "percent": [2, 3],
                    "rows": [
                        [
                            a.replace("_", " "),
                            r["tallies"][a],
                            r["shares"][a]["share"],
                            r["shares"][a]["ci95"],
                            r["majority_tallies"][a],
                        ]
                        for a in PREFERENCE_ANSWERS
                    ],
                }
            )
    if kind == "multichoice" and results.get("by_model"):
        out.append(
            {
                "title": "Multiple choice accuracy",
                "columns": ["model", "items", "people", "95% CI", "people (majority)", "model"],
                "percent": [2, 3, 4, 5],
                "rows": [
                    [
                        m,
                        r["items"],
                        r["human_accuracy"],
                        r["human_accuracy_ci95"],
                        r["majority_accuracy"],
                        r["model_accuracy"],
                    ]
                    for m, r in results["by_model"].items()
                ],
            }
        )
    agreement = results.get("agreement") or {}
    out.append(
        {
            "title": "Agreement",
            "columns": ["measure", "value", "95% CI", "items"],
            "percent": [],
            "rows": [
                [
                    "Fleiss' kappa",
                    agreement.get("fleiss_kappa"),
                    agreement.get("fleiss_kappa_ci95"),
                    agreement.get("fleiss_items"),
                ],
                [
                    "Krippendorff's alpha",
                    agreement.get("krippendorff_alpha"),
                    agreement.get("krippendorff_alpha_ci95"),
                    agreement.get("alpha_items"),
                ],
            ],
        }
    )
    return out


def cell(value: Any, percent: bool = False) -> str:
    """A cell as text: intervals as [a, b], shares as percentages when ``percent``."""
    if value is None:
        return "–"
    if isinstance(value, list | tuple):
        if len(value) == 2 and all(v is None for v in value):
            return "–"
        return "[" + ", ".join(cell(v, percent) for v in value) + "]"
    if isinstance(value, float):
        return f"{value:.1%}" if percent else f"{value:.3f}"
    return str(value)
