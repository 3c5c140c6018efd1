"""Aggregation statistics for human-evaluation studies.

Small and dependency-free beyond numpy (which matplotlib already brings), so every number
in a study report can be traced to a formula here:

- :func:`majority_vote`: the most frequent label of an item; a tie has no majority (``None``).
- :func:`fleiss_kappa`: agreement of a fixed number of raters per item, chance-corrected with
  the pooled label distribution (Fleiss 1971).
- :func:`krippendorff_alpha_nominal`: agreement for any number of raters per item (missing
  values allowed), from the coincidence matrix; 1 - observed / expected disagreement.
- :func:`bootstrap_ci`: a seeded percentile bootstrap over items (the unit that was sampled),
  for any statistic of a list of items.
- :func:`spearman`, :func:`auc`: how well an automatic metric follows a human judgment.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any, TypeVar

import numpy as np

T = TypeVar("T")
L = TypeVar("L", bound=Hashable)


def majority_vote(labels: Iterable[L]) -> L | None:
    """The strictly most frequent label, or ``None`` when there are no labels or the top is tied."""
    counts = Counter(labels).most_common()
    if not counts:
        return None
    if len(counts) > 1 and counts[0][1] == counts[1][1]:
        return None
    return counts[0][0]


def count_table(units: Sequence[Sequence[L]], categories: Sequence[L] | None = None) -> np.ndarray:
    """Items x categories matrix of label counts (categories in the given or first-seen order)."""
    if categories is None:
        categories = list(dict.fromkeys(label for unit in units for label in unit))
    index = {c: i for i, c in enumerate(categories)}
    table = np.zeros((len(units), len(categories)), dtype=np.int64)
    for row, unit in enumerate(units):
        for label in unit:
            table[row, index[label]] += 1
    return table


def fleiss_kappa(table: np.ndarray | Sequence[Sequence[int]]) -> float | None:
    """Fleiss' kappa of an items x categories count table with the same rater count per item.

    ``P_i = (sum_j n_ij^2 - n) / (n (n - 1))``, ``P_bar`` their mean, ``p_j`` the share of
    all ratings in category j, ``P_e = sum_j p_j^2``, kappa ``= (P_bar - P_e) / (1 - P_e)``.
    ``None`` when undefined (no items, fewer than 2 raters, or every rating in one category).
    """
    counts = np.asarray(table, dtype=np.float64)
    if counts.ndim != 2 or counts.shape[0] == 0:
        return None
    per_item = counts.sum(axis=1)
    n = per_item[0]
    if not np.all(per_item == n):
        raise ValueError("Fleiss' kappa needs the same number of ratings for every item")
    if n < 2:
        return None
    p_i = ((counts**2).sum(axis=1) - n) / (n * (n - 1))
    p_bar = p_i.mean()
    p_j = counts.sum(axis=0) / counts.sum()
    p_e = float((p_j**2).sum())
    if math.isclose(p_e, 1.0):
        return None
    return float((p_bar - p_e) / (1 - p_e))


def krippendorff_alpha_nominal(units: Sequence[Sequence[Hashable]]) -> float | None:
    """Krippendorff's alpha for nominal labels; ``units`` holds each item's labels (any number).

    Units with fewer than two labels are not pairable and are dropped. Coincidences:
    ``o_ck = sum_u (pairs (c, k) in u) / (m_u - 1)``; ``n_c`` its margins, ``n`` their sum;
    ``D_o = sum_{c != k} o_ck``, ``D_e = sum_{c != k} n_c n_k / (n - 1)``, alpha ``= 1 - D_o / D_e``.
    ``None`` when undefined (nothing pairable, or a single category overall).
    """
    pairable = [list(u) for u in units if len(u) >= 2]
    if not pairable:
        return None
    categories = list(dict.fromkeys(label for u in pairable for label in u))
    index = {c: i for i, c in enumerate(categories)}
    o = np.zeros((len(categories), len(categories)))
    for unit in pairable:
        m = len(unit)
        counts = Counter(index[label] for label in unit)
        for c, n_c in counts.items():
            for k, n_k in counts.items():
                o[c, k] += (n_c * (n_k - (1 if c == k else 0))) / (m - 1)
    n_c = o.sum(axis=1)
    n = n_c.sum()
    off = ~np.eye(len(categories), dtype=bool)
    d_o = o[off].sum()
    d_e = (np.outer(n_c, n_c)[off]).sum() / (n - 1)
    if d_e == 0:
        return None
    return float(1 - d_o / d_e)


def bootstrap_ci(
    items: Sequence[T],
    statistic: Callable[[Sequence[T]], float | None],
    *,
    n_resamples: int = 2000,
    confidence: float = 0.95,
    seed: int = 0,
) -> tuple[float | None, float | None]:
    """Percentile bootstrap interval of ``statistic`` over resamples of ``items`` (with replacement).

    Items are resampled whole (an item carries all its judgments), because items, not
    judgments, are what the study sampled. Resamples where the statistic is undefined are
    skipped. The same ``seed`` gives the same interval.
    """
    if not items:
        return None, None
    rng = np.random.default_rng(seed)
    values: list[float] = []
    size = len(items)
    for _ in range(n_resamples):
        picks = rng.integers(0, size, size)
        value = statistic([items[i] for i in picks])
        if value is not None and not math.isnan(value):
            values.append(value)
    if not values:
        return None, None
    alpha = (1 - confidence) / 2
    low, high = np.quantile(np.asarray(values), [alpha, 1 - alpha])
    return float(low), float(high)


def mean(values: Sequence[float]) -> float | None:
    return float(sum(values) / len(values)) if values else None


def share(labels: Sequence[Any], positive: Callable[[Any], bool]) -> float | None:
    """Fraction of ``labels`` for which ``positive`` holds."""
    return sum(1 for x in labels if positive(x)) / len(labels) if labels else None


def _ranks(values: Sequence[float]) -> np.ndarray:
    """Ranks 1..n with ties given their average rank."""
    arr = np.asarray(values, dtype=np.float64)
    order = arr.argsort(kind="mergesort")
    ranks = np.empty(len(arr))
    sorted_vals = arr[order]
    i = 0
    while i < len(arr):
        j = i
        while j + 1 < len(arr) and sorted_vals[j + 1] == sorted_vals[i]:
            j += 1
        ranks[order[i : j + 1]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def spearman(x: Sequence[float], y: Sequence[float]) -> float | None:
    """Spearman's rank correlation (Pearson on average ranks); ``None`` if either side is constant."""
    if len(x) != len(y):
        raise ValueError("x and y differ in length")
    if len(x) < 2:
        return None
    rx, ry = _ranks(x), _ranks(y)
    rx, ry = rx - rx.mean(), ry - ry.mean()
    denom = math.sqrt(float((rx**2).sum() * (ry**2).sum()))
    return float((rx * ry).sum() / denom) if denom else None


def auc(scores: Sequence[float], positive: Sequence[bool]) -> float | None:
    """Probability that a positive item scores above a negative one (ties count half)."""
    pos = [s for s, p in zip(scores, positive, strict=True) if p]
    neg = [s for s, p in zip(scores, positive, strict=True) if not p]
    if not pos or not neg:
        return None
    wins = sum(1.0 if a > b else 0.5 if a == b else 0.0 for a in pos for b in neg)
    return wins / (len(pos) * len(neg))
