"""The HTTP contract with the avd server (the server side is server/providers/api.py).

- The worker's browser opens ``{avd_url}/?provider=mephisto&assignmentId=<agent id>&workerId=<worker>``;
  the page creates its session with ``provider=mephisto`` and that assignment id.
- ``GET {avd_url}/api/providers/assignments/<agent id>`` with ``Authorization: Bearer <key>``
  says whether the worker's part is done (``done``), the ``completion_code``, the ``outcome``
  and the pay ``decision`` (action approve|reject|hold, base_cents, bonus_cents, feedback).
  404: the worker never started on our server; 401: wrong key (``avd payments key``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

import requests

_SAFE = re.compile(r"[^A-Za-z0-9_-]")


def platform_worker_id(worker_name: str) -> str:
    """Mephisto worker names as the avd server accepts them (letters, digits, '-', '_'; 64 at most)."""
    return _SAFE.sub("_", worker_name)[:64]


@dataclass
class AvdClient:
    url: str
    key: str
    timeout: float = 10.0

    def page_url(self, agent_id: str, worker_name: str) -> str:
        query = urlencode(
            {"provider": "mephisto", "assignmentId": agent_id, "workerId": platform_worker_id(worker_name)}
        )
        return f"{self.url.rstrip('/')}/?{query}"

    def status(self, agent_id: str) -> dict[str, Any] | None:
        """Our server's view of this agent's assignment; None while the worker has not started there."""
        reply = requests.get(
            f"{self.url.rstrip('/')}/api/providers/assignments/{agent_id}",
            headers={"Authorization": f"Bearer {self.key}"},
            timeout=self.timeout,
        )
        if reply.status_code == 404:
            return None
        reply.raise_for_status()
        return reply.json()
