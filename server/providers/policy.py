"""The written pay policy (docs/payments.md) as one pure function, plus platform pricing.

Nothing here talks to a database or a platform: ``decide`` turns what a worker did in one
assignment into what they are owed, so the rules can be read and tested in one place.
Amounts are integer US cents. The amount owed is a total; how a platform pays it (a fixed
reward on approval plus a bonus for the rest) is worked out by ``split``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Literal

from server.settings import Settings

Action = Literal["approve", "reject", "hold"]

# What a rater's part of a human study ended with (written by server/studies/api.py).
STUDY_OUTCOMES = ("study_completed", "study_excluded")
# Outcome kinds, best first: an assignment with several events is paid for its best one.
OUTCOME_RANK = (
    "completed",
    "partner_dropped",
    "study_completed",
    "lobby_timeout",
    "study_excluded",
    "abandoned",
    "timed_out",
    "lobby_left",
)
# Outcomes after which the worker's part is over and the assignment may be submitted.
DONE_OUTCOMES = ("completed", "partner_dropped", "lobby_timeout", *STUDY_OUTCOMES)

UNEARNED_DIALOG = (
    "We have no record of a finished dialog for this assignment (it was left or timed out "
    "before the end), so it cannot be paid."
)
UNEARNED_STUDY = (
    "We have no record of ratings finished in this assignment (the page asks you to return the HIT "
    "when there is nothing left for you to rate), so it cannot be paid."
)
DUPLICATE_STUDY = (
    "These ratings were already submitted with another assignment of this study, which is paid for "
    "them, so this assignment cannot be paid as well."
)
EXCLUDED_FEEDBACK = {
    "attention": (
        "One item was a check with a stated answer, and the answer given was a different one, so "
        "the ratings could not be used and this assignment cannot be paid."
    ),
    "too_fast": (
        "Most answers came in faster than the items could be read, so the ratings could not be used "
        "and this assignment cannot be paid."
    ),
}


@dataclass(frozen=True)
class PayPolicy:
    completed_cents: int
    dropout_floor_cents: int
    lobby_timeout_cents: int
    max_bonus_cents: int
    hold_unreviewed: bool
    reject_unearned: bool
    rounds: int
    study_completed_cents: int = 100
    study_excluded_cents: int = 25
    study_reject_excluded: bool = False
    study_max_too_fast_share: float = 0.5

    @classmethod
    def from_settings(cls, settings: Settings) -> PayPolicy:
        return cls(
            completed_cents=settings.pay_completed_cents,
            dropout_floor_cents=settings.pay_dropout_floor_cents,
            lobby_timeout_cents=settings.pay_lobby_timeout_cents,
            max_bonus_cents=settings.pay_max_bonus_cents,
            hold_unreviewed=settings.pay_hold_unreviewed,
            reject_unearned=settings.pay_reject_unearned,
            rounds=settings.rounds,
            study_completed_cents=settings.pay_study_completed_cents,
            study_excluded_cents=settings.pay_study_excluded_cents,
            study_reject_excluded=settings.pay_study_reject_excluded,
            study_max_too_fast_share=settings.pay_study_max_too_fast_share,
        )

    def dropout_pay(self, rounds_done: int) -> int:
        """Pay for a worker whose partner left: the share of rounds done, never below the floor."""
        share = round(self.completed_cents * max(0, min(rounds_done, self.rounds)) / self.rounds)
        return min(self.completed_cents, max(self.dropout_floor_cents, share))

    @property
    def smallest_payout(self) -> int:
        """The least the policy owes for an honest submission (reward above it overpays)."""
        return min(v for v in (self.completed_cents, self.dropout_floor_cents, self.lobby_timeout_cents) if v)

    def max_payout(self, reward_cents: int) -> int:
        """The most one assignment can cost before fees (budget checks use it)."""
        return max(reward_cents, self.completed_cents) + self.max_bonus_cents


@dataclass(frozen=True)
class WorkerOutcome:
    """What one worker did in one assignment, with the dialog's review and QC verdict."""

    kind: str | None  # one of OUTCOME_RANK, or None: nothing recorded
    dialog_id: str | None = None
    rounds_done: int = 0
    dialog_status: str | None = None
    review_decision: str | None = None  # accept | reject
    review_reason: str | None = None
    review_bonus_cents: int = 0
    qc_verdict: str | None = None  # accept | review | reject
    completion_code: str | None = None
    task: str | None = None  # dialog | study | None: not known from the assignment's HIT
    study_id: str | None = None
    valid_judgments: int = 0  # a study outcome: answers that counted ...
    invalid_judgments: dict[str, int] = field(default_factory=dict)  # ... and why the others did not
    claimed_by: str | None = None  # another assignment already holds this (study) outcome


@dataclass(frozen=True)
class PayDecision:
    action: Action
    base_cents: int
    bonus_cents: int
    usable: bool
    feedback: str | None  # shown to the worker (required by MTurk for a rejection)
    why: str  # for the researcher


def decide(policy: PayPolicy, o: WorkerOutcome) -> PayDecision:
    """The pay rules, in order; see docs/payments.md for the reasoning behind each."""
    if o.claimed_by is not None:
        return _unearned(policy, DUPLICATE_STUDY, f"ratings already submitted with {o.claimed_by}")
    if o.kind in STUDY_OUTCOMES:
        return _decide_study(policy, o)
    usable = o.dialog_status == "complete" and (
        o.review_decision == "accept" or (o.review_decision is None and o.qc_verdict == "accept")
    )
    if o.review_decision == "reject" and o.kind in ("completed", "partner_dropped"):
        feedback = o.review_reason or "The dialog did not follow the task rules."
        return PayDecision("reject", 0, 0, False, feedback, "rejected in review")
    bonus = min(o.review_bonus_cents, policy.max_bonus_cents) if o.review_decision == "accept" else 0
    if o.kind == "completed":
        if o.review_decision is None and policy.hold_unreviewed and o.qc_verdict != "accept":
            verdict = o.qc_verdict or "pending"
            return PayDecision("hold", 0, 0, False, None, f"waiting for review (QC: {verdict})")
        return PayDecision("approve", policy.completed_cents, bonus, usable, None, "completed dialog")
    if o.kind == "partner_dropped":
        base = policy.dropout_pay(o.rounds_done)
        return PayDecision("approve", base, bonus, False, None, f"partner left after {o.rounds_done} rounds")
    if o.kind == "lobby_timeout" and policy.lobby_timeout_cents:
        return PayDecision("approve", policy.lobby_timeout_cents, 0, False, None, "no partner found in time")
    why = f"nothing payable ({o.kind or 'no activity recorded'})"
    return _unearned(policy, UNEARNED_STUDY if o.task == "study" else UNEARNED_DIALOG, why)


def _unearned(policy: PayPolicy, feedback: str, why: str) -> PayDecision:
    """A submission with nothing to pay for: rejected with the reason, or approved at the reward only."""
    if policy.reject_unearned:
        return PayDecision("reject", 0, 0, False, feedback, why)
    return PayDecision("approve", 0, 0, False, None, why)


def _decide_study(policy: PayPolicy, o: WorkerOutcome) -> PayDecision:
    """A rater's part of a human study: paid when finished; excluded raters by the study settings.

    Finishing means being handed every item there was for the rater (answers that did not count
    were replaced by the assignment engine). A rater who finished but answered most items faster
    than they could be read did not do the work either, and is treated like an excluded one.
    """
    if o.kind == "study_excluded":
        return _study_excluded(policy, "attention", "failed an attention check")
    answered = o.valid_judgments + sum(o.invalid_judgments.values())
    too_fast = o.invalid_judgments.get("too_fast", 0)
    if answered and too_fast / answered > policy.study_max_too_fast_share:
        return _study_excluded(policy, "too_fast", f"{too_fast} of {answered} answers too fast")
    why = f"finished the study ({o.valid_judgments} of {answered} answers counted)"
    return PayDecision("approve", policy.study_completed_cents, 0, True, None, why)


def _study_excluded(policy: PayPolicy, cause: str, why: str) -> PayDecision:
    if policy.study_reject_excluded:
        return PayDecision("reject", 0, 0, False, EXCLUDED_FEEDBACK[cause], why)
    return PayDecision(
        "approve", policy.study_excluded_cents, 0, False, None, f"{why}: paid the excluded rate"
    )


def split(decision: PayDecision, reward_cents: int) -> int:
    """The bonus to send on top of the platform reward: the rest of the base pay plus the review bonus.

    Approving always pays the full reward, so a base pay below the reward is rounded up to
    it (``avd launch`` warns when the reward exceeds the policy's smallest payout).
    """
    if decision.action != "approve":
        return 0
    return max(0, decision.base_cents - reward_cents) + decision.bonus_cents


# ---------------------------------------------------------------------- pricing


@dataclass(frozen=True)
class Pricing:
    """A platform's commission: ``rate`` of every reward and bonus, at least ``minimum`` cents."""

    rate: float = 0.0
    minimum: int = 0
    large_hit_rate: float = 0.0  # extra commission for HITs with 10 or more assignments

    def fee(self, cents: int, assignments_per_hit: int = 1) -> int:
        if cents <= 0:
            return 0
        rate = self.rate + (self.large_hit_rate if assignments_per_hit >= 10 else 0.0)
        return max(self.minimum, math.ceil(cents * rate - 1e-9))


MTURK_PRICING = Pricing(rate=0.20, minimum=1, large_hit_rate=0.20)
FREE = Pricing()


def assignments_for(dialogs: int) -> int:
    """Worker slots to open for ``dialogs`` dialogs, over-provisioned so pairs form quickly.

    Two workers per dialog, plus a margin that shrinks with batch size: a small batch needs
    proportionally more spare workers for someone to be waiting when another arrives.
    """
    needed = 2 * dialogs
    margin = min(0.5, max(0.05, 1 / math.sqrt(dialogs)))
    return needed + max(1, math.ceil(needed * margin))


@dataclass(frozen=True)
class CostEstimate:
    dialogs: int
    assignments: int
    reward_cents: int
    expected_cents: int  # every slot taken and paid the completed rate, no review bonus
    max_cents: int  # every slot paid the most the policy allows, review bonus included
    fees_expected_cents: int

    def lines(self) -> list[str]:
        return [
            f"dialogs: {self.dialogs}, worker slots: {self.assignments} (with spares for pairing)",
            f"reward per slot: ${self.reward_cents / 100:.2f}",
            f"expected cost: ${self.expected_cents / 100:.2f} "
            f"(of which platform fees ${self.fees_expected_cents / 100:.2f})",
            f"most it can cost: ${self.max_cents / 100:.2f} (every slot paid in full plus the largest bonus)",
        ]


def estimate(
    policy: PayPolicy, pricing: Pricing, dialogs: int, reward_cents: int, per_hit: int
) -> CostEstimate:
    slots = assignments_for(dialogs)
    paid = max(reward_cents, policy.completed_cents)
    top_up = paid - reward_cents
    fee_each = pricing.fee(reward_cents, per_hit) + pricing.fee(top_up)
    expected = slots * (paid + fee_each)
    worst_bonus = top_up + policy.max_bonus_cents
    worst_each = reward_cents + pricing.fee(reward_cents, per_hit) + worst_bonus + pricing.fee(worst_bonus)
    return CostEstimate(dialogs, slots, reward_cents, expected, slots * worst_each, slots * fee_each)
