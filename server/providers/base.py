"""What every crowd platform must offer the launch, payment and reconciliation steps.

Calls are synchronous (boto3 is); async callers run them in a thread. Every paying call
must be safe to repeat: ``send_bonus`` with the same token, ``approve``/``reject`` of an
assignment already in that state, succeed without paying twice, so a payment run that
crashed half-way can simply be run again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

from server.providers.policy import Pricing

PROVIDERS = ("local", "mturk", "mturk-sandbox", "mephisto")
ALREADY_APPROVED = "AlreadyApproved"  # ProviderError code: a rejection came too late


class ProviderError(Exception):
    """The platform refused or failed a call; ``code`` is its error code when it gave one."""

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class LaunchSpec:
    launch_id: str
    study: str
    assignments: int
    reward_cents: int
    per_hit: int
    lifetime_seconds: int
    assignment_seconds: int
    auto_approve_seconds: int
    title: str
    description: str
    keywords: str
    url: str


@dataclass(frozen=True)
class HitInfo:
    id: str
    max_assignments: int
    status: str  # the platform's word: Assignable, Unassignable, Reviewable, ...
    expires_at: datetime | None = None
    pending: int = 0
    available: int = 0
    completed: int = 0
    type_id: str | None = None


@dataclass(frozen=True)
class PlatformAssignment:
    id: str
    hit_id: str
    worker: str  # the platform's worker id
    status: str  # submitted | approved | rejected
    accepted_at: datetime | None = None
    submitted_at: datetime | None = None
    deadline: datetime | None = None
    answer: dict[str, str] = field(default_factory=dict)


class Provider(Protocol):
    name: str
    pricing: Pricing
    pays_here: bool  # False: the platform's own tooling carries out our decisions (Mephisto)

    def create_hits(self, spec: LaunchSpec) -> tuple[str | None, list[HitInfo]]: ...

    def get_hit(self, hit_id: str) -> HitInfo | None: ...

    def list_assignments(self, hit_id: str) -> list[PlatformAssignment]: ...

    def get_assignment(self, assignment_id: str) -> PlatformAssignment | None: ...

    def bonus_paid(self, assignment_id: str) -> int: ...

    def send_bonus(self, worker: str, assignment_id: str, cents: int, reason: str, token: str) -> None: ...

    def approve(self, assignment_id: str, feedback: str | None = None) -> None: ...

    def reject(self, assignment_id: str, feedback: str) -> None: ...

    def block(self, worker: str, reason: str, platform_block: bool = False) -> None: ...

    def mark_limit_reached(self, worker: str) -> None: ...

    def mark_consented(self, worker: str) -> None: ...

    def expire_hit(self, hit_id: str) -> None: ...

    def delete_hit(self, hit_id: str) -> bool: ...

    def balance_cents(self) -> int | None: ...


def cents_to_dollars(cents: int) -> str:
    """MTurk's money format: "1.50"."""
    return f"{cents // 100}.{cents % 100:02d}"


def dollars_to_cents(amount: str) -> int:
    whole, _, frac = amount.strip().partition(".")
    return int(whole or 0) * 100 + int((frac + "00")[:2])
