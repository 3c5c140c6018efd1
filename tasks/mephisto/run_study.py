"""Launch the rater units of one avd human study with Mephisto (``avd study launch --provider mephisto``
prints this command with the study's slots and reward filled in).

    AVD_URL=https://avd.example.org AVD_KEY=$(avd payments key) \
      .venv/bin/python run_study.py mephisto.blueprint.study_id=STUDY mephisto.blueprint.slots=N \
      mephisto.provider.requester_name=MY_SANDBOX_REQUESTER
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import avd_mephisto.study  # noqa: E402,F401  (registers the avd_study blueprint)
from mephisto.tools.scripts import task_script  # noqa: E402


@task_script(default_config_file="study")
def main(operator, cfg) -> None:
    operator.launch_task_run(cfg.mephisto)
    operator.wait_for_runs_then_shutdown(skip_input=True, log_rate=30)


if __name__ == "__main__":
    main()
