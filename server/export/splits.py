"""Train / val / test splits grouped by image and stratified by the questioner's final emotion.

Grouping keeps every dialog about one image in one split (a model must not see the test
images during training). Within each emotion stratum the images are shuffled with the seed
and handed, one at a time, to the split that is furthest below its share of that stratum,
so each split's emotion mix follows the whole data set's.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from server.export.schema import SPLITS

DEFAULT_RATIOS = (0.8, 0.1, 0.1)
NO_LABEL = "(none)"


@dataclass(frozen=True)
class SplitItem:
    dialog_id: str
    group: str  # the image (its sha256): the unit that never crosses splits
    label: str | None  # the questioner's emotion after the reveal, if given


def parse_ratios(text: str) -> tuple[float, float, float]:
    """``"0.8,0.1,0.1"`` -> (0.8, 0.1, 0.1); the three must be >= 0 and add up to 1."""
    parts = [float(x) for x in text.split(",")]
    if len(parts) != 3 or any(x < 0 for x in parts) or abs(sum(parts) - 1) > 1e-6:
        raise ValueError("give three non-negative ratios for train,val,test that add up to 1")
    return parts[0], parts[1], parts[2]


def assign_splits(
    items: Iterable[SplitItem], seed: int, ratios: tuple[float, float, float] = DEFAULT_RATIOS
) -> dict[str, str]:
    """dialog id -> split name; the same items and seed always give the same answer."""
    members: dict[str, list[str]] = defaultdict(list)
    labels: dict[str, Counter[str]] = defaultdict(Counter)
    for item in items:
        members[item.group].append(item.dialog_id)
        labels[item.group][item.label or NO_LABEL] += 1

    strata: dict[str, list[str]] = defaultdict(list)
    for group in sorted(members):
        # an image's label is its most common final emotion (ties broken by name)
        label = min(labels[group].items(), key=lambda kv: (-kv[1], kv[0]))[0]
        strata[label].append(group)

    rng = random.Random(seed)
    assignment: dict[str, str] = {}
    for label in sorted(strata):
        groups = strata[label]
        rng.shuffle(groups)
        total = sum(len(members[g]) for g in groups)
        filled = [0, 0, 0]
        for group in groups:
            deficits = [ratios[i] * total - filled[i] for i in range(3)]
            best = max((i for i in range(3) if ratios[i] > 0), key=lambda i: (deficits[i], -i))
            filled[best] += len(members[group])
            for dialog_id in members[group]:
                assignment[dialog_id] = SPLITS[best]
    return assignment
