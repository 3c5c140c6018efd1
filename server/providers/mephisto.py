"""The ``mephisto`` provider: Mephisto recruits and pays; this server only decides.

Workers arrive through the Mephisto task in ``tasks/mephisto/`` (its own Python 3.10
environment), which asks this server how each unit went (``server/providers/api.py``) and
applies the pay decisions itself (``python -m avd_mephisto.review``). Nothing here calls
Mephisto, so every platform call refuses with a pointer to the right tool.
"""

from __future__ import annotations

from server.providers.base import HitInfo, LaunchSpec, PlatformAssignment, ProviderError
from server.providers.policy import FREE, Pricing

ELSEWHERE = "Mephisto units are launched and paid from tasks/mephisto/ (see its README.md)"


class MephistoProvider:
    name = "mephisto"
    pricing: Pricing = FREE  # Mephisto's own provider charges its fees
    pays_here = False

    def _refuse(self) -> ProviderError:
        return ProviderError(ELSEWHERE)

    def create_hits(self, spec: LaunchSpec) -> tuple[str | None, list[HitInfo]]:
        raise self._refuse()

    def get_hit(self, hit_id: str) -> HitInfo | None:
        return None

    def list_assignments(self, hit_id: str) -> list[PlatformAssignment]:
        return []

    def get_assignment(self, assignment_id: str) -> PlatformAssignment | None:
        return None

    def bonus_paid(self, assignment_id: str) -> int:
        raise self._refuse()

    def send_bonus(self, worker: str, assignment_id: str, cents: int, reason: str, token: str) -> None:
        raise self._refuse()

    def approve(self, assignment_id: str, feedback: str | None = None) -> None:
        raise self._refuse()

    def reject(self, assignment_id: str, feedback: str) -> None:
        raise self._refuse()

    def block(self, worker: str, reason: str, platform_block: bool = False) -> None:
        raise self._refuse()

    def mark_limit_reached(self, worker: str) -> None:
        return None

    def mark_consented(self, worker: str) -> None:
        return None

    def expire_hit(self, hit_id: str) -> None:
        raise self._refuse()

    def delete_hit(self, hit_id: str) -> bool:
        return False

    def balance_cents(self) -> int | None:
        return None
