"""Pay Mephisto units by the avd server's pay policy: bonus first, then approve or reject.

The avd server decides (server/providers/policy.py, docs/payments.md); this applies the
decision through Mephisto. A local ledger (``avd_ledger.json`` next to each agent's data)
records every step as it is done, and on MTurk the bonus carries a token derived from the
agent, so running this again after a crash pays nobody twice. Decisions on ``hold`` (no
review yet) are skipped and picked up by a later run.

    python -m avd_mephisto.review --task-name avd-dialogs --avd-url https://... --avd-key KEY
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
from typing import Any

from mephisto.abstractions.blueprint import AgentState
from mephisto.abstractions.database import MephistoDB

from avd_mephisto.client import AvdClient

LEDGER = "avd_ledger.json"
REASON = "Thank you for taking part in our art conversation study."


def bonus_token(agent_id: str) -> str:
    return "avd-meph-" + hashlib.sha256(agent_id.encode()).hexdigest()[:40]


def _ledger(agent) -> tuple[str, dict[str, Any]]:
    path = os.path.join(agent.get_data_dir(), LEDGER)
    if os.path.exists(path):
        with open(path) as fp:
            return path, json.load(fp)
    return path, {}


def _write(path: str, ledger: dict[str, Any]) -> None:
    tmp = path + ".tmp"
    with open(tmp, "w") as fp:
        json.dump(ledger, fp)
    os.replace(tmp, path)  # a crash leaves the old ledger or the new one, never half of one


def _send_bonus(agent, unit, cents: int) -> None:
    """MTurk: SendBonus with our own deterministic token; other providers: Mephisto's bonus call."""
    worker = agent.get_worker()
    if unit.get_requester().provider_type.startswith("mturk"):
        from botocore.exceptions import ClientError

        client = agent._get_client()
        mturk_assignment = agent._get_mturk_assignment_id()
        try:
            client.send_bonus(
                WorkerId=worker.worker_name,
                BonusAmount=f"{cents // 100}.{cents % 100:02d}",
                AssignmentId=mturk_assignment,
                Reason=REASON,
                UniqueRequestToken=bonus_token(agent.db_id),
            )
        except ClientError:  # a repeat with the same token is refused: fine if the bonus is there
            if not client.list_bonus_payments(AssignmentId=mturk_assignment)["BonusPayments"]:
                raise
        return
    ok, message = worker.bonus_worker(cents / 100, REASON, unit)
    if not ok:
        raise RuntimeError(f"bonus for {agent.db_id} failed: {message}")


def review_units(db: MephistoDB, task_name: str, client: AvdClient) -> dict[str, list[str]]:
    """Apply the avd decisions to every completed unit of ``task_name``; returns what was done."""
    done: dict[str, list[str]] = {"approved": [], "rejected": [], "held": [], "skipped": []}
    for task in db.find_tasks(task_name=task_name):
        for run in db.find_task_runs(task_id=task.db_id):
            reward_cents = round(float(run.get_task_args().task_reward) * 100)
            for unit in db.find_units(task_run_id=run.db_id):
                agent = unit.get_assigned_agent()
                if agent is None:
                    continue
                if agent.get_status() != AgentState.STATUS_COMPLETED:
                    done["skipped"].append(agent.db_id)  # not submitted, or already decided
                    continue
                info = client.status(agent.get_agent_id())
                decision = (info or {}).get("decision") or {"action": "reject", "feedback": None}
                if info is None:
                    decision["feedback"] = "We have no record of this task on our server."
                path, ledger = _ledger(agent)
                if decision["action"] == "hold":
                    done["held"].append(agent.db_id)
                    continue
                if decision["action"] == "approve":
                    extra = max(0, decision["base_cents"] - reward_cents) + decision["bonus_cents"]
                    if extra and not ledger.get("bonus_sent"):
                        _send_bonus(agent, unit, extra)
                        ledger["bonus_sent"] = extra
                        _write(path, ledger)
                    agent.approve_work()
                    done["approved"].append(agent.db_id)
                else:
                    agent.reject_work(decision.get("feedback") or "The task was not completed.")
                    done["rejected"].append(agent.db_id)
                ledger["decided"] = decision["action"]
                _write(path, ledger)
    return done


def main() -> None:
    from mephisto.abstractions.databases.local_database import LocalMephistoDB

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task-name", required=True)
    parser.add_argument("--avd-url", required=True)
    parser.add_argument("--avd-key", required=True)
    parser.add_argument("--database", help="Mephisto database file (default: Mephisto's own)")
    args = parser.parse_args()
    db = LocalMephistoDB(database_path=args.database) if args.database else LocalMephistoDB()
    print(json.dumps(review_units(db, args.task_name, AvdClient(args.avd_url, args.avd_key))))


if __name__ == "__main__":
    main()
