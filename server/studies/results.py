"""Aggregate a study's valid judgments into the tables of a paper, plus raw JSONL and charts.

Only valid judgments of regular items count (attention checks, too-fast, late and excluded
raters' answers are reported, not used). Shares are pooled over judgments; their 95%
intervals come from a seeded bootstrap over items (items were sampled, raters nested in
them). Majority votes are per item (a tie has none). Agreement uses Fleiss' kappa over the
items with the full number of raters and Krippendorff's alpha over all items.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import async_sessionmaker

from server.db.study_models import Judgment, Study, StudyItem
from server.studies import stats
from server.studies.kinds import PREFERENCE_ANSWERS, load_kind

POSITIVE = {"reasonableness": "reasonable", "turing": "human"}


@dataclass
class ItemVotes:
    item: StudyItem
    labels: list[str] = field(default_factory=list)

    @property
    def majority(self) -> str | None:
        return stats.majority_vote(self.labels)


def pooled_share(items: Sequence[ItemVotes], hit: Callable[[str], bool]) -> float | None:
    labels = [label for it in items for label in it.labels]
    return stats.share(labels, hit)


def share_row(items: Sequence[ItemVotes], hit: Callable[[str], bool], seed: int, resamples: int) -> dict:
    """A share over judgments with its bootstrap interval, and the share by majority vote."""
    voted = [it for it in items if it.labels]
    low, high = stats.bootstrap_ci(voted, lambda xs: pooled_share(xs, hit), n_resamples=resamples, seed=seed)
    majorities = [it.majority for it in voted if it.majority is not None]
    return {
        "items": len(voted),
        "judgments": sum(len(it.labels) for it in voted),
        "share": pooled_share(voted, hit),
        "ci95": [low, high],
        "majority_share": stats.share(majorities, hit),
    }


def _groups(items: list[ItemVotes], key: Callable[[ItemVotes], Any]) -> dict[str, list[ItemVotes]]:
    out: dict[str, list[ItemVotes]] = defaultdict(list)
    for it in items:
        k = key(it)
        if k is not None:
            out[str(k)].append(it)
    return dict(sorted(out.items()))


def agreement(items: list[ItemVotes], target: int, seed: int, resamples: int) -> dict[str, Any]:
    units = [it.labels for it in items if it.labels]
    full = [u for u in units if len(u) == target]
    categories = sorted({label for u in units for label in u})

    def kappa(us: Sequence[list[str]]) -> float | None:
        return stats.fleiss_kappa(stats.count_table(us, categories)) if us else None

    return {
        "fleiss_kappa": kappa(full),
        "fleiss_kappa_ci95": list(stats.bootstrap_ci(full, kappa, n_resamples=resamples, seed=seed)),
        "fleiss_items": len(full),
        "krippendorff_alpha": stats.krippendorff_alpha_nominal(units),
        "krippendorff_alpha_ci95": list(
            stats.bootstrap_ci(units, stats.krippendorff_alpha_nominal, n_resamples=resamples, seed=seed)
        ),
        "alpha_items": len(units),
    }


def metric_agreement(items: list[ItemVotes]) -> dict[str, Any]:
    """For each per-sample metric of the run: does it rank reactions the way people did?

    ``acceptable`` is the share of a rater's answers that found the machine reaction at least
    as good as the human one (machine better or both good). Reported: Spearman's rho of the
    metric with that share and with the machine's win share, and the AUC of the metric for
    items whose majority found the machine reaction acceptable.
    """
    out: dict[str, Any] = {}
    names = sorted(
        {
            name
            for it in items
            for name, value in (it.item.truth.get("scores") or {}).items()
            if isinstance(value, int | float)
        }
    )
    for name in names:
        xs, acceptable, wins, majority = [], [], [], []
        for it in items:
            value = (it.item.truth.get("scores") or {}).get(name)
            if not isinstance(value, int | float) or not it.labels:
                continue
            xs.append(float(value))
            ok = [label in ("machine", "both_good") for label in it.labels]
            acceptable.append(sum(ok) / len(ok))
            wins.append(sum(label == "machine" for label in it.labels) / len(it.labels))
            majority.append(sum(ok) * 2 > len(ok))
        out[name] = {
            "items": len(xs),
            "spearman_acceptable": stats.spearman(xs, acceptable) if xs else None,
            "spearman_machine_wins": stats.spearman(xs, wins) if xs else None,
            "auc_majority_acceptable": stats.auc(xs, majority) if xs else None,
        }
    return out


def rater_pseudonym(secret: str, study_id: str, rater: str) -> str:
    """Stable within a study, unlinkable across studies and to the worker id without the secret."""
    return "r" + hmac.new(secret.encode(), f"{study_id}:{rater}".encode(), hashlib.sha256).hexdigest()[:12]


async def load(sessions: async_sessionmaker, study_id: str) -> tuple[Study, list[StudyItem], list[Judgment]]:
    async with sessions() as db:
        study = await db.get(Study, study_id)
        if study is None:
            raise KeyError(f"no study {study_id!r}")
        items = list((await db.scalars(select(StudyItem).where(StudyItem.study_id == study_id))).all())
        judgments = list(
            (
                await db.scalars(
                    select(Judgment)
                    .where(Judgment.study_id == study_id)
                    .order_by(Judgment.started_at, Judgment.id)
                )
            ).all()
        )
    return study, items, judgments


def aggregate(
    study: Study, items: list[StudyItem], judgments: list[Judgment], *, seed: int = 0, resamples: int = 2000
) -> dict[str, Any]:
    """Every table of the study as one JSON-ready dict."""
    regular = {i.id: ItemVotes(i) for i in items if not i.is_attention}
    by_id = {i.id: i for i in items}
    submitted = [j for j in judgments if j.submitted_at is not None]
    for j in submitted:
        if j.valid and j.item_id in regular and j.answer is not None:
            regular[j.item_id].labels.append(j.answer)
    votes = list(regular.values())
    reasons = Counter(j.reason for j in submitted if not j.valid)
    checks = [j for j in submitted if by_id[j.item_id].is_attention]
    excluded = {j.rater_id for j in submitted if j.reason == "failed_attention_check"}
    counts = Counter(len(v.labels) for v in votes)
    out: dict[str, Any] = {
        "study": {
            "id": study.id,
            "kind": study.kind,
            "name": study.name,
            "status": study.status,
            "raters_per_item": study.raters_per_item,
            "config": study.config,
        },
        "summary": {
            "items": len(votes),
            "attention_checks": sum(1 for i in items if i.is_attention),
            "items_complete": sum(1 for v in votes if len(v.labels) == study.raters_per_item),
            "valid_judgments_per_item": {str(k): n for k, n in sorted(counts.items())},
            "raters": len({j.rater_id for j in submitted}),
            "raters_excluded": len(excluded),
            "judgments_submitted": len(submitted),
            "judgments_valid": sum(1 for j in submitted if j.valid and j.item_id in regular),
            "judgments_invalid": dict(sorted((str(k), n) for k, n in reasons.items())),
            "attention_checks_passed": sum(1 for j in checks if j.valid),
            "attention_checks_answered": len(checks),
        },
        "agreement": agreement(votes, study.raters_per_item, seed, resamples),
    }
    kind = study.kind
    if kind in POSITIVE:
        positive = POSITIVE[kind]
        out["by_source"] = {
            src: share_row(g, lambda a, p=positive: a == p, seed, resamples)
            for src, g in _groups(votes, lambda v: v.item.source).items()
        }
        sub = "round" if kind == "reasonableness" else "phase"
        out[f"by_source_{sub}"] = {
            src: {
                k: share_row(g2, lambda a, p=positive: a == p, seed, resamples)
                for k, g2 in _groups(g, lambda v, s=sub: v.item.truth.get(s)).items()
            }
            for src, g in _groups(votes, lambda v: v.item.source).items()
        }
        if kind == "turing":
            for src, g in _groups(votes, lambda v: v.item.source).items():
                labels = [a for v in g for a in v.labels]
                out["by_source"][src]["answers"] = {
                    o.value: labels.count(o.value) for o in load_kind("turing").options
                }
    elif kind == "preference":
        out["by_model"] = {}
        for src, g in _groups(votes, lambda v: v.item.source).items():
            labels = [a for v in g for a in v.labels]
            majority = Counter(v.majority for v in g if v.labels)
            out["by_model"][src] = {
                "items": len(g),
                "tallies": {a: labels.count(a) for a in PREFERENCE_ANSWERS},
                "shares": {
                    a: share_row(g, lambda x, a=a: x == a, seed, resamples) for a in PREFERENCE_ANSWERS
                },
                "majority_tallies": {a: majority.get(a, 0) for a in PREFERENCE_ANSWERS}
                | {"no_majority": majority.get(None, 0)},
            }
        out["metric_agreement"] = metric_agreement(votes)
    elif kind == "multichoice":
        out["by_model"] = {}
        for src, g in _groups(votes, lambda v: v.item.source).items():

            def correct(xs: Sequence[ItemVotes]) -> float | None:
                labels = [(a, v.item.truth.get("correct")) for v in xs for a in v.labels]
                return stats.share(labels, lambda t: t[0] == t[1])

            voted = [v for v in g if v.labels]
            majority_ok = [v.majority == v.item.truth.get("correct") for v in voted if v.majority is not None]
            model_ok = [v.item.truth.get("model_choice") == v.item.truth.get("correct") for v in g]
            out["by_model"][src] = {
                "items": len(voted),
                "judgments": sum(len(v.labels) for v in voted),
                "human_accuracy": correct(voted),
                "human_accuracy_ci95": list(
                    stats.bootstrap_ci(voted, correct, n_resamples=resamples, seed=seed)
                ),
                "majority_accuracy": stats.share(majority_ok, bool),
                "model_accuracy": stats.share(model_ok, bool),
            }
    out["items"] = [
        {
            "id": v.item.id,
            "source": v.item.source,
            "pair_key": v.item.pair_key,
            "votes": dict(Counter(v.labels)),
            "majority": v.majority,
            **{
                k: v.item.truth.get(k)
                for k in ("sample_id", "dialog_id", "round", "phase")
                if k in v.item.truth
            },
        }
        for v in votes
    ]
    return out


def judgment_rows(
    study: Study, items: list[StudyItem], judgments: list[Judgment], secret: str
) -> list[dict[str, Any]]:
    """Raw judgments for publication: pseudonymous rater ids, no worker or platform ids."""
    by_id = {i.id: i for i in items}
    rows = []
    for j in judgments:
        if j.submitted_at is None:
            continue
        item = by_id[j.item_id]
        started, submitted = j.started_at, j.submitted_at
        rows.append(
            {
                "study_id": study.id,
                "kind": study.kind,
                "item_id": j.item_id,
                "item_source": item.source,
                "attention_check": item.is_attention,
                "rater": rater_pseudonym(secret, study.id, j.rater_id),
                "answer": j.answer,
                "shown": j.shown or {},
                "valid": bool(j.valid),
                "reason": j.reason,
                "seconds": round((_naive(submitted) - _naive(started)).total_seconds(), 3),
                "started_at": _naive(started).isoformat(timespec="milliseconds") + "Z",
                "submitted_at": _naive(submitted).isoformat(timespec="milliseconds") + "Z",
            }
        )
    return rows


def _naive(value):
    from datetime import UTC

    return value.astimezone(UTC).replace(tzinfo=None) if value.tzinfo else value


def write_outputs(out_dir: Path, results: dict[str, Any], rows: list[dict[str, Any]]) -> dict[str, Path]:
    """results.json, judgments.jsonl and the bar charts (PNG + SVG) in ``out_dir``."""
    from server.studies.charts import write_charts

    out_dir.mkdir(parents=True, exist_ok=True)
    paths = {"results": out_dir / "results.json", "judgments": out_dir / "judgments.jsonl"}
    paths["results"].write_text(json.dumps(results, indent=1, sort_keys=True, default=str))
    with paths["judgments"].open("w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(row, sort_keys=True, ensure_ascii=False) + "\n")
    for name, path in write_charts(out_dir, results).items():
        paths[name] = path
    return paths
