"""Run the avd_dialog task under Mephisto's mock provider and mock architect, driven line by line.

For tests and dry runs: a real Mephisto Operator, database, worker pool and our task runner,
with Mephisto's MockServer standing in for browsers. Commands arrive as JSON lines on stdin,
answers go out as JSON lines on stdout:

    {"cmd": "register", "worker": "W1"}            -> {"event": "agent", "agent_id", "worker", "page"}
    {"cmd": "submit", "agent_id": "1", "data": {}} -> {"event": "submitted"}   (the page's own submit)
    {"cmd": "wait", "agents": ["1"], "timeout": 60}-> {"event": "units", "status": {...}, "avd": {...}}
    {"cmd": "review"}                              -> {"event": "reviewed", ...}
    {"cmd": "quit"}

    python mock_run.py --avd-url http://127.0.0.1:8000 --avd-key KEY --slots 2 --data-dir /tmp/m
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def working(db, agent_id: str) -> bool:
    return db.get_agent(agent_id)["status"] in ("none", "accepted", "in task", "onboarding")


def say(**event) -> None:
    print(json.dumps(event), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--avd-url", required=True)
    parser.add_argument("--avd-key", required=True)
    parser.add_argument("--slots", type=int, default=2)
    parser.add_argument("--data-dir", required=True)
    parser.add_argument("--grace", type=float, default=2.0)
    args = parser.parse_args()

    from avd_mephisto.blueprint import STATUS_FILE, AvdBlueprintArgs
    from avd_mephisto.client import AvdClient
    from avd_mephisto.review import review_units
    from mephisto.abstractions.architects.mock_architect import MockArchitectArgs
    from mephisto.abstractions.databases.local_database import LocalMephistoDB
    from mephisto.abstractions.providers.mock.mock_provider import MockProviderArgs
    from mephisto.data_model.task_run import TaskRunArgs
    from mephisto.operations.hydra_config import MephistoConfig
    from mephisto.operations.operator import Operator
    from omegaconf import OmegaConf

    os.makedirs(args.data_dir, exist_ok=True)
    db = LocalMephistoDB(database_path=os.path.join(args.data_dir, "mephisto.db"))
    config = OmegaConf.structured(
        MephistoConfig(
            blueprint=AvdBlueprintArgs(
                avd_url=args.avd_url,
                avd_key=args.avd_key,
                slots=args.slots,
                poll_seconds=0.5,
                submit_grace_seconds=args.grace,
            ),
            provider=MockProviderArgs(requester_name="MOCK_REQUESTER"),
            architect=MockArchitectArgs(should_run_server=True, port=str(free_port())),
            task=TaskRunArgs(
                task_name="avd-dialogs-mock",
                task_title="Chat about an artwork",
                task_description="A live dialog on the avd server.",
                task_reward=0.5,
                task_tags="avd,test",
                assignment_duration_in_seconds=600,
            ),
        )
    )
    operator = Operator(db)
    run_id = operator.launch_task_run_or_die(config)
    live = operator.get_running_task_runs()[run_id]
    server = live.architect.server
    client = AvdClient(args.avd_url, args.avd_key)
    say(event="ready", task_run=run_id)

    def agent_of(worker_name: str):
        for worker in db.find_workers():
            if worker.worker_name not in (worker_name, f"{worker_name}_sandbox"):
                continue
            agents = db.find_agents(worker_id=worker.db_id)
            if agents:
                return agents[-1]
        return None

    try:
        for line in sys.stdin:
            cmd = json.loads(line)
            if cmd["cmd"] == "register":
                name = cmd["worker"]
                server.register_mock_agent(name, f"reg-{name}")
                operator._run_loop_until(lambda n=name: agent_of(n) is not None, 30)
                agent = agent_of(name)
                if agent is None:
                    say(event="error", message=f"no agent for {name}")
                    continue
                say(
                    event="agent",
                    agent_id=agent.get_agent_id(),
                    worker=name,
                    page=client.page_url(agent.get_agent_id(), agent.get_worker().worker_name),
                )
            elif cmd["cmd"] == "submit":
                server.submit_mock_unit(cmd["agent_id"], cmd.get("data", {}))
                say(event="submitted", agent_id=cmd["agent_id"])
            elif cmd["cmd"] == "wait":
                wanted = cmd["agents"]
                timeout = cmd.get("timeout", 60)
                operator._run_loop_until(lambda w=wanted: all(not working(db, a) for a in w), timeout)
                avd = {}
                for agent in db.find_agents(task_run_id=run_id):
                    path = os.path.join(agent.get_data_dir(), STATUS_FILE)
                    if agent.get_agent_id() in wanted and os.path.exists(path):
                        with open(path) as fp:
                            avd[agent.get_agent_id()] = json.load(fp)["avd"]
                say(event="units", status={a: db.get_agent(a)["status"] for a in wanted}, avd=avd)
            elif cmd["cmd"] == "review":
                done = review_units(db, "avd-dialogs-mock", client)
                statuses = {a.get_agent_id(): a.get_status() for a in db.find_agents(task_run_id=run_id)}
                say(event="reviewed", done=done, status=statuses)
            elif cmd["cmd"] == "quit":
                break
    finally:
        operator.force_shutdown(timeout=10)
        say(event="stopped")


if __name__ == "__main__":
    main()
