"""The ``local`` provider: no platform; workers arrive by URL (demos, pilots, bots).

There is nothing to create or call: a launch only prints the link, and a payment run
writes the ledger (``provider_payment``) that the researcher pays from by hand, for
example as gift cards for colleagues in a pilot. Assignments are made up from the
workers' outcome events (one per payable event), see ``reconcile.local_assignments``.
"""

from __future__ import annotations

from server.providers.base import HitInfo, LaunchSpec, PlatformAssignment
from server.providers.policy import FREE, Pricing


class LocalProvider:
    name = "local"
    pricing: Pricing = FREE
    pays_here = True

    def create_hits(self, spec: LaunchSpec) -> tuple[str | None, list[HitInfo]]:
        return None, []

    def get_hit(self, hit_id: str) -> HitInfo | None:
        return None

    def list_assignments(self, hit_id: str) -> list[PlatformAssignment]:
        return []

    def get_assignment(self, assignment_id: str) -> PlatformAssignment | None:
        return None

    def bonus_paid(self, assignment_id: str) -> int:
        return 0  # the ledger is the only record; its status says what was done

    def send_bonus(self, worker: str, assignment_id: str, cents: int, reason: str, token: str) -> None:
        return None

    def approve(self, assignment_id: str, feedback: str | None = None) -> None:
        return None

    def reject(self, assignment_id: str, feedback: str) -> None:
        return None

    def block(self, worker: str, reason: str, platform_block: bool = False) -> None:
        return None  # our own Worker.blocked flag is the block

    def mark_limit_reached(self, worker: str) -> None:
        return None

    def mark_consented(self, worker: str) -> None:
        return None

    def expire_hit(self, hit_id: str) -> None:
        return None

    def delete_hit(self, hit_id: str) -> bool:
        return False

    def balance_cents(self) -> int | None:
        return None
