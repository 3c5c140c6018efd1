"""Study statistics against values worked out by hand (the arithmetic is in each test)."""

from __future__ import annotations

import math
import random

import pytest

from server.studies import stats

YES, NO = "yes", "no"
# Four items, three raters each (used by the kappa and alpha examples below).
FOUR_ITEMS = [[YES, YES, YES], [YES, YES, NO], [NO, NO, NO], [YES, NO, NO]]


def test_majority_vote_needs_a_strict_winner():
    assert stats.majority_vote(["a", "b", "a"]) == "a"
    assert stats.majority_vote(["a", "b"]) is None  # a tie has no majority
    assert stats.majority_vote(["a", "b", "b", "a", "c"]) is None
    assert stats.majority_vote([]) is None
    assert stats.majority_vote(["c"]) == "c"


def test_fleiss_kappa_worked_example():
    # counts (yes, no): (3,0) (2,1) (0,3) (1,2); n = 3 raters.
    # P_i = (sum n_ij^2 - n) / (n (n-1)): (9-3)/6 = 1, (4+1-3)/6 = 1/3, 1, 1/3 -> P_bar = 2/3
    # p_yes = 6/12, p_no = 6/12 -> P_e = 1/4 + 1/4 = 1/2
    # kappa = (2/3 - 1/2) / (1 - 1/2) = 1/3
    table = stats.count_table(FOUR_ITEMS, [YES, NO])
    assert table.tolist() == [[3, 0], [2, 1], [0, 3], [1, 2]]
    assert stats.fleiss_kappa(table) == pytest.approx(1 / 3)


def test_fleiss_kappa_perfect_and_skewed():
    # Every item unanimous, both categories used: P_bar = 1 -> kappa = 1.
    assert stats.fleiss_kappa([[2, 0], [0, 2]]) == pytest.approx(1.0)
    # (2,0) (1,1): P = 1, 0 -> P_bar = 1/2; p = (3/4, 1/4) -> P_e = 10/16; kappa = (8/16-10/16)/(6/16) = -1/3
    assert stats.fleiss_kappa([[2, 0], [1, 1]]) == pytest.approx(-1 / 3)
    # Everyone always says the same thing: chance agreement is 1, kappa undefined.
    assert stats.fleiss_kappa([[3, 0], [3, 0]]) is None
    with pytest.raises(ValueError):
        stats.fleiss_kappa([[3, 0], [1, 1]])


def test_krippendorff_alpha_worked_example():
    # Coincidences o_ck = sum_u pairs(c,k) / (m_u - 1), m_u = 3:
    #   (y,y,y): o_yy += 3*2/2 = 3
    #   (y,y,n): o_yy += 2*1/2 = 1, o_yn += 2*1/2 = 1, o_ny += 1
    #   (n,n,n): o_nn += 3
    #   (y,n,n): o_yn += 1, o_ny += 1, o_nn += 2*1/2 = 1
    # o = [[4, 2], [2, 4]], n_y = n_n = 6, n = 12
    # D_o = 2 + 2 = 4; D_e = (6*6 + 6*6) / 11 = 72/11; alpha = 1 - 4 * 11/72 = 7/18
    assert stats.krippendorff_alpha_nominal(FOUR_ITEMS) == pytest.approx(7 / 18)


def test_krippendorff_alpha_with_missing_ratings():
    # (a,a): o_aa += 2*1/1 = 2; (a,b): o_ab = o_ba = 1; (b,b,b): o_bb += 3*2/2 = 3; (a): not pairable.
    # n_a = 3, n_b = 4, n = 7; D_o = 2; D_e = 2*3*4/6 = 4; alpha = 1 - 2/4 = 1/2
    assert stats.krippendorff_alpha_nominal(
        [["a", "a"], ["a", "b"], ["b", "b", "b"], ["a"]]
    ) == pytest.approx(0.5)
    assert stats.krippendorff_alpha_nominal([["a"], []]) is None
    assert stats.krippendorff_alpha_nominal([["a", "a"], ["a", "a"]]) is None


def test_alpha_and_kappa_near_zero_for_random_raters():
    rng = random.Random(5)
    units = [[rng.choice([YES, NO]) for _ in range(5)] for _ in range(400)]
    assert abs(stats.fleiss_kappa(stats.count_table(units, [YES, NO]))) < 0.05
    assert abs(stats.krippendorff_alpha_nominal(units)) < 0.05


def test_bootstrap_two_items_hand_computed():
    # Resamples of [0, 1] have mean 0 (p=1/4), 1/2 (p=1/2) or 1 (p=1/4):
    # the 2.5% quantile is 0 and the 97.5% quantile is 1.
    low, high = stats.bootstrap_ci([0.0, 1.0], stats.mean, n_resamples=4000, seed=1)
    assert (low, high) == (0.0, 1.0)
    # A constant has a zero-width interval.
    assert stats.bootstrap_ci([0.4] * 10, stats.mean, n_resamples=200) == pytest.approx((0.4, 0.4))
    assert stats.bootstrap_ci([], stats.mean) == (None, None)


def test_bootstrap_is_seeded_and_about_as_wide_as_the_normal_interval():
    rng = random.Random(2)
    items = [1.0 if rng.random() < 0.3 else 0.0 for _ in range(400)]
    first = stats.bootstrap_ci(items, stats.mean, seed=7)
    assert first == stats.bootstrap_ci(items, stats.mean, seed=7)
    p = stats.mean(items)
    half = 1.96 * math.sqrt(p * (1 - p) / len(items))  # normal approximation, ~0.045
    assert first[0] < p < first[1]
    assert first[1] - first[0] == pytest.approx(2 * half, rel=0.15)


def test_spearman_and_auc_worked_examples():
    # Rank differences d = (0, 1, 1, 0): rho = 1 - 6 * 2 / (4 * (16 - 1)) = 0.8
    assert stats.spearman([1, 2, 3, 4], [1, 3, 2, 4]) == pytest.approx(0.8)
    assert stats.spearman([1, 1, 1], [1, 2, 3]) is None
    # Pairs (pos, neg): (.5,.5) tie = 1/2, (.5,.1) = 1, (.2,.5) = 0, (.2,.1) = 1 -> 2.5 / 4
    assert stats.auc([0.5, 0.2, 0.5, 0.1], [True, True, False, False]) == pytest.approx(0.625)
    assert stats.auc([0.3], [True]) is None
