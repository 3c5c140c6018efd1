"""The ``avd_study`` blueprint: rater units for one avd human study (``avd study launch``).

The same as ``avd_dialog`` (blueprint.py) but for the page the units frame: the avd rater page
``{avd_url}/rate/<study_id>`` instead of the dialog page. That page speaks the same protocol
(it posts ``avd-done`` with the completion code to its parent frame), the runner asks the
same status endpoint, and ``python -m avd_mephisto.review --task-name avd-study-<id>`` pays
by the avd server's decisions for study outcomes (docs/payments.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar
from urllib.parse import urlencode

from mephisto.operations.registry import register_mephisto_abstraction
from omegaconf import MISSING, DictConfig

from avd_mephisto.blueprint import AvdBlueprint, AvdBlueprintArgs, AvdTaskRunner, SharedAvdState
from avd_mephisto.client import platform_worker_id

if TYPE_CHECKING:
    from mephisto.data_model.agent import Agent
    from mephisto.data_model.task_run import TaskRun

BLUEPRINT_TYPE = "avd_study"


def study_page_url(avd_url: str, study_id: str, agent_id: str, worker_name: str) -> str:
    query = urlencode(
        {"provider": "mephisto", "assignmentId": agent_id, "workerId": platform_worker_id(worker_name)}
    )
    return f"{avd_url.rstrip('/')}/rate/{study_id}?{query}"


@dataclass
class AvdStudyBlueprintArgs(AvdBlueprintArgs):
    _blueprint_type: str = BLUEPRINT_TYPE
    _group: str = field(
        default="AvdStudyBlueprint",
        metadata={"help": "Rater slots for a human-evaluation study held on an avd server."},
    )
    study_id: str = field(
        default=MISSING, metadata={"help": "The study id (avd study list).", "required": True}
    )


class AvdStudyTaskRunner(AvdTaskRunner):
    """Frames the study's rater page; waiting, submitting and status are the dialog runner's."""

    def __init__(self, task_run: TaskRun, args: DictConfig, shared_state: SharedAvdState) -> None:
        super().__init__(task_run, args, shared_state)
        self.study_id = str(args.blueprint.study_id)

    def get_init_data_for_agent(self, agent: Agent) -> dict[str, Any]:
        data = dict(super().get_init_data_for_agent(agent) or {})
        data["avd_page"] = study_page_url(
            self.client.url, self.study_id, agent.get_agent_id(), agent.get_worker().worker_name
        )
        return data


@register_mephisto_abstraction()
class AvdStudyBlueprint(AvdBlueprint):
    """Rater units (one per slot) whose work is a human-evaluation study on the avd server."""

    BLUEPRINT_TYPE = BLUEPRINT_TYPE
    ArgsClass: ClassVar[type] = AvdStudyBlueprintArgs
    TaskRunnerClass: ClassVar[type] = AvdStudyTaskRunner

    @classmethod
    def assert_task_args(cls, args: DictConfig, shared_state: SharedAvdState) -> None:
        assert str(args.blueprint.get("study_id") or ""), "name the study: mephisto.blueprint.study_id=..."
        super().assert_task_args(args, shared_state)
