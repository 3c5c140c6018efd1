"""The threshold search shared by the live classifiers and the semantic ones (server/rules/tune.py)."""

from __future__ import annotations

from server.rules.tune import GRID, TARGET_PRECISION, best_threshold, precision_target


def _rows(
    positives: list[float], negatives: list[float], rule_hits: int = 0
) -> list[tuple[bool, bool, float]]:
    """Labeled rows: ``rule_hits`` positives the rule finds, then positives and compliant lines by score."""
    rows = [(True, True, 0.0)] * rule_hits
    rows += [(True, False, p) for p in positives]
    rows += [(False, False, p) for p in negatives]
    return rows


def test_no_threshold_at_or_below_one_half() -> None:
    """A classifier alone flags only what it judges more likely a violation than not."""
    assert min(GRID) == 0.51 and max(GRID) == 0.99
    rows = _rows([0.35, 0.4], [0.1] * 200, rule_hits=50)
    t, tp, fp = best_threshold(rows)
    assert tp == 50 and fp == 0  # the two positives at 0.35-0.40 stay the rule's misses
    assert t > 0.5


def test_most_positives_then_fewest_false_alarms_then_the_middle_of_the_run() -> None:
    # every threshold from 0.61 to 0.90 finds the positive at 0.91 and leaves the alarm at 0.60 alone
    rows = _rows([0.91, 0.95], [0.6, 0.1, 0.1] + [0.0] * 300, rule_hits=60)
    t, tp, fp = best_threshold(rows)
    assert (tp, fp) == (62, 0)
    assert t == 0.76  # the middle of 0.61 ... 0.91, not its top
    # more positives win over fewer false alarms while precision and the alarm share allow
    rows = _rows([0.55, 0.91], [0.58] + [0.0] * 300, rule_hits=60)
    assert best_threshold(rows)[1:] == (62, 1)


def test_none_when_the_limits_cannot_be_met() -> None:
    assert best_threshold(_rows([], [0.99] * 10, rule_hits=1)) is None


def test_a_rule_below_the_target_keeps_its_classifier_at_its_own_precision() -> None:
    """Rule hits at precision 0.95 (< 0.97) rule out every threshold at the fixed target; at the rule's
    own precision the classifier still adds what it finds without a false alarm."""
    rows = _rows([0.9, 0.92], [0.1] * 600, rule_hits=95) + [(False, True, 0.0)] * 5
    assert best_threshold(rows) is None
    target = precision_target(95, 5)
    assert target == 0.95
    t, tp, fp = best_threshold(rows, target)
    assert (tp, fp) == (97, 5) and 0.5 < t < 0.9
    assert precision_target(97, 1) == TARGET_PRECISION
    assert precision_target(0, 0) == TARGET_PRECISION
