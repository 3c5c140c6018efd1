"""The ``avd_dialog`` blueprint: one Mephisto unit per worker slot; the dialog happens on avd.

Mephisto does what it is good at (units, onboarding, the crowd provider, payment); the avd
server does the lobby, pairing, the chat and the record. The task page (webapp/) frames the
avd worker page with the agent's identity. A unit ends when the worker's part is done:

- normally the avd page tells its parent frame, whose Mephisto client submits the unit;
- if that never arrives (the tab was closed right at the end), the task runner, which
  polls the avd server, submits on the worker's behalf once the server has said "done"
  for ``submit_grace_seconds``, so a finished worker is never left unpaid.

Either way the runner asks the avd server (the authority) for the assignment's status and
stores it with the agent's data (``avd_status.json``); ``review.py`` pays from it.
"""

from __future__ import annotations

import json
import logging
import os
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

import requests
from mephisto.abstractions.blueprint import AgentState, TaskBuilder
from mephisto.abstractions.blueprints.abstract.static_task.static_blueprint import (
    SharedStaticTaskState,
    StaticBlueprint,
    StaticBlueprintArgs,
)
from mephisto.abstractions.blueprints.abstract.static_task.static_task_runner import StaticTaskRunner
from mephisto.data_model.exceptions import AgentDisconnectedError, AgentReturnedError, AgentTimeoutError
from mephisto.operations.registry import register_mephisto_abstraction
from omegaconf import MISSING, DictConfig

from avd_mephisto.client import AvdClient

if TYPE_CHECKING:
    from mephisto.data_model.agent import Agent
    from mephisto.data_model.task_run import TaskRun
    from mephisto.data_model.unit import Unit

BLUEPRINT_TYPE = "avd_dialog"
WEBAPP = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "webapp")
STATUS_FILE = "avd_status.json"
logger = logging.getLogger(__name__)


@dataclass
class AvdBlueprintArgs(StaticBlueprintArgs):
    _blueprint_type: str = BLUEPRINT_TYPE
    _group: str = field(
        default="AvdBlueprint",
        metadata={"help": "Worker slots for live dialogs held on an avd server."},
    )
    avd_url: str = field(
        default=MISSING, metadata={"help": "Base URL of the avd server (HTTPS).", "required": True}
    )
    avd_key: str = field(
        default=MISSING, metadata={"help": "The server's provider key (avd payments key).", "required": True}
    )
    slots: int = field(default=2, metadata={"help": "Worker slots to open (two per dialog, plus spares)."})
    poll_seconds: float = field(default=2.0, metadata={"help": "How often to ask the avd server."})
    submit_grace_seconds: float = field(
        default=20.0, metadata={"help": "Wait this long for the page's own submit before submitting for it."}
    )


@dataclass
class SharedAvdState(SharedStaticTaskState):
    pass


class AvdTaskBuilder(TaskBuilder):
    """Copies the prebuilt task page (webapp/build) into the server directory."""

    def build_in_dir(self, build_dir: str) -> None:
        bundle = os.path.join(WEBAPP, "build", "bundle.js")
        if not os.path.exists(bundle):
            raise AssertionError(
                f"{bundle} is missing: build the task page once with `npm ci && npm run build` in {WEBAPP}"
            )
        for name in ("bundle.js",):
            with open(os.path.join(WEBAPP, "build", name), "rb") as src:
                data = src.read()
            with open(os.path.join(build_dir, name), "wb") as dst:
                dst.write(data)


class AvdTaskRunner(StaticTaskRunner):
    """Waits for the worker's part on the avd server, then makes sure the unit is submitted."""

    def __init__(self, task_run: TaskRun, args: DictConfig, shared_state: SharedAvdState) -> None:
        super().__init__(task_run, args, shared_state)
        blueprint = args.blueprint
        self.client = AvdClient(blueprint.avd_url, blueprint.avd_key)
        self.poll_seconds = float(blueprint.poll_seconds)
        self.grace_seconds = float(blueprint.submit_grace_seconds)

    def get_init_data_for_agent(self, agent: Agent) -> dict[str, Any]:
        data = dict(super().get_init_data_for_agent(agent) or {})
        data["avd_page"] = self.client.page_url(agent.get_agent_id(), agent.get_worker().worker_name)
        return data

    def _status(self, agent_id: str) -> dict[str, Any] | None:
        try:
            return self.client.status(agent_id)
        except requests.RequestException as exc:  # the server is down for a moment: ask again later
            logger.warning("avd server unreachable for %s: %s", agent_id, exc)
            return None

    @staticmethod
    def _raise_if_gone(agent: Agent, timeout: float) -> None:
        status = agent.get_status()
        if status == AgentState.STATUS_DISCONNECT:
            raise AgentDisconnectedError(agent.db_id)
        if status == AgentState.STATUS_RETURNED:
            raise AgentReturnedError(agent.db_id)
        if status == AgentState.STATUS_TIMEOUT:
            raise AgentTimeoutError(timeout, agent.db_id)

    def run_unit(self, unit: Unit, agent: Agent) -> None:
        agent_id = agent.get_agent_id()
        timeout = self.assignment_duration_in_seconds
        deadline = time.time() + timeout
        done_since: float | None = None
        while not agent.did_submit.is_set():
            self._raise_if_gone(agent, timeout)
            info = self._status(agent_id)
            if info is not None and info.get("done"):
                done_since = done_since or time.time()
                if time.time() - done_since >= self.grace_seconds:
                    logger.info("submitting %s for the worker: avd says their part is done", agent_id)
                    code = info.get("completion_code")
                    agent.handle_submit({"completion_code": code, "submitted_by": "avd"})
                    break
            if time.time() > deadline:
                raise AgentTimeoutError(timeout, agent.db_id)
            agent.did_submit.wait(self.poll_seconds)
        final = self._status(agent_id)
        with open(os.path.join(agent.get_data_dir(), STATUS_FILE), "w") as fp:
            json.dump({"checked_at": time.time(), "avd": final}, fp)
        if not final or not final.get("done"):
            logger.warning("%s submitted, but the avd server has no finished part for it", agent_id)


@register_mephisto_abstraction()
class AvdBlueprint(StaticBlueprint):
    """Worker slots (units) whose work is a live dialog on the avd server."""

    BLUEPRINT_TYPE = BLUEPRINT_TYPE
    ArgsClass: ClassVar[type] = AvdBlueprintArgs
    SharedStateClass = SharedAvdState
    TaskBuilderClass: ClassVar[type] = AvdTaskBuilder
    TaskRunnerClass: ClassVar[type] = AvdTaskRunner

    def __init__(self, task_run: TaskRun, args: DictConfig, shared_state: SharedAvdState) -> None:
        shared_state.static_task_data = [{"slot": i} for i in range(int(args.blueprint.slots))]
        super().__init__(task_run, args, shared_state)

    @classmethod
    def assert_task_args(cls, args: DictConfig, shared_state: SharedAvdState) -> None:
        blueprint = args.blueprint
        assert blueprint.slots >= 1, "open at least one worker slot"
        assert str(blueprint.avd_url).startswith(("https://", "http://127.0.0.1", "http://localhost")), (
            "workers reach the avd server over HTTPS"
        )
        shared_state.static_task_data = [{"slot": i} for i in range(int(blueprint.slots))]
        super().assert_task_args(args, shared_state)
