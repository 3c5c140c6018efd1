"""``avd eval`` jobs: recorded in the database, launched on a backend, followed, cancelled."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import threading
import time
import uuid
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from typer.testing import CliRunner

from server.evaluation.synthetic import write_synthetic_export


@pytest.fixture
def eval_db(database_url: str) -> str:
    """The test session's database (PostgreSQL when reachable, else SQLite), migrated by Alembic."""
    return database_url


@pytest.fixture
def env(eval_db: str, tmp_path: Path, monkeypatch) -> Path:
    """Settings for the CLI come from the environment, as for a researcher."""
    monkeypatch.setenv("DATABASE_URL", eval_db)
    monkeypatch.setenv("AVD_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("AVD_STUDY", "s" + uuid.uuid4().hex[:8])
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    return tmp_path


@pytest.fixture(scope="module")
def export(tmp_path_factory) -> Path:
    return write_synthetic_export(tmp_path_factory.mktemp("export"), n_dialogs=60, seed=4)


def avd(*args: str) -> str:
    from server.cli import app

    result = CliRunner().invoke(app, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.stdout


def _wait(job: str, timeout: float = 240) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        row = json.loads(avd("eval", "status", job, "--json"))
        if row["status"] in ("succeeded", "failed", "cancelled"):
            return row
        time.sleep(0.5)
    raise AssertionError(f"run {job} did not finish in {timeout}s")


def test_local_run_is_recorded_and_reports_results(env: Path, export: Path):
    waited = avd("eval", "run", "retrieval", "--model", "random:2", "--data", str(export), "--wait")
    job = waited.splitlines()[0]  # the id comes first, then the results tables
    assert "overall.r@10" in waited and "per round" in waited
    row = _wait(job)
    assert row["status"] == "succeeded", row
    assert row["backend"] == "local" and row["trigger"] == "manual" and row["code_version"]
    assert row["summary"]["overall.n"] == 120 and 0 <= row["summary"]["overall.r@10"] <= 1
    assert row["timings"]["total_s"] >= 0 and row["started_at"] and row["finished_at"]
    out = Path(row["out_dir"])
    assert out.parent == (env / "data" / "eval-runs").resolve()
    assert (out / "results.json").exists() and (out / "samples.jsonl").exists()
    results = json.loads(avd("eval", "results", job[:10], "--json"))
    assert results["metrics"]["overall"]["n"] == 120
    table = avd("eval", "results", job)
    assert "overall.mrr" in table and "per round" in table
    listing = avd("eval", "status")
    assert job[:12] in listing
    assert "retrieval" in avd("eval", "logs", job)  # the progress bar names the task


def test_failed_run_keeps_the_error(env: Path, tmp_path: Path):
    empty = tmp_path / "not-an-export"
    empty.mkdir()
    from server.cli import app

    result = CliRunner().invoke(
        app, ["eval", "run", "retrieval", "--model", "random", "--data", str(empty), "--wait"]
    )
    assert result.exit_code == 1 and "failed" in result.stdout  # --wait exits non-zero on failure
    job = result.stdout.splitlines()[0]
    row = _wait(job)
    assert row["status"] == "failed" and "dialogs.jsonl" in row["error"]
    assert "FileNotFoundError" in avd("eval", "logs", job)


def test_bad_option_is_refused_before_anything_runs(env: Path, export: Path):
    from server.cli import app

    result = CliRunner().invoke(
        app,
        ["eval", "run", "retrieval", "--model", "random", "--data", str(export), "-o", "no_such_option=1"],
    )
    assert result.exit_code != 0
    assert json.loads(avd("eval", "status", "--json")) == []


def test_cancel_stops_a_running_job(env: Path, export: Path):
    pytest.importorskip("torch", reason="a slow enough run needs the LM scorer (ml extra)")
    from server.evaluation.data import ExportData
    from server.evaluation.tiny import build_tiny_model

    texts = [a for d in ExportData.load(export).dialogs.values() for _, a in d.rounds]
    model = build_tiny_model("gpt2", env / "gpt2", texts)
    job = (
        avd(
            "eval",
            "run",
            "retrieval",
            "--model",
            str(model),
            "--data",
            str(export),
            "--split",
            "all",
            "-o",
            "batch_size=1",
        )
        .strip()
        .splitlines()[-1]
    )
    deadline = time.monotonic() + 120
    while json.loads(avd("eval", "status", job, "--json"))["status"] != "running":
        assert time.monotonic() < deadline
        time.sleep(0.3)
    row = json.loads(avd("eval", "status", job, "--json"))
    pid = int(row["backend_job_id"])
    assert avd("eval", "cancel", job).split() == [row["id"], "cancelled"]
    deadline = time.monotonic() + 30
    while Path(f"/proc/{pid}").exists() and "State:\tZ" not in Path(f"/proc/{pid}/status").read_text():
        assert time.monotonic() < deadline, "the job survived its cancel"
        time.sleep(0.2)
    assert json.loads(avd("eval", "status", job, "--json"))["status"] == "cancelled"
    assert json.loads((Path(row["out_dir"]) / "status.json").read_text())["state"] == "cancelled"


def test_submitit_backend_with_its_local_executor(env: Path, export: Path):
    """The Slurm path, run by submitit's local executor (no Slurm here)."""
    pytest.importorskip("submitit", reason="the Slurm backend needs submitit (ml extra)")
    out = avd(
        "eval",
        "run",
        "retrieval",
        "--model",
        "random:4",
        "--data",
        str(export),
        "--backend",
        "slurm",
        "-b",
        "cluster=local",
        "-b",
        "timeout_min=10",
    )
    job = out.strip().splitlines()[-1]
    row = _wait(job)
    assert row["status"] == "succeeded" and row["backend"] == "slurm", row
    assert row["summary"]["overall.n"] == 120
    submitted = json.loads((Path(row["out_dir"]) / "submitit.json").read_text())
    assert submitted == {"cluster": "local", "job_id": row["backend_job_id"]}
    assert "retrieval" in avd("eval", "logs", job)  # submitit's own log files of the job


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def ray_head() -> Iterator[str]:
    """A Ray head with its dashboard (the job server) on loopback, started and stopped here."""
    ray = pytest.importorskip("ray", reason="the Ray backend needs ray[default] (ml extra)")
    os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
    ctx = ray.init(
        num_cpus=1,
        include_dashboard=True,
        dashboard_host="127.0.0.1",
        dashboard_port=_free_port(),
        _node_ip_address="127.0.0.1",
        configure_logging=False,
        log_to_driver=False,
    )
    yield f"http://{ctx.dashboard_url}"
    ray.shutdown()


def test_ray_jobs_backend(env: Path, export: Path, ray_head: str):
    job = (
        avd(
            "eval",
            "run",
            "retrieval",
            "--model",
            "random:5",
            "--data",
            str(export),
            "--backend",
            "ray",
            "-b",
            f"address={ray_head}",
        )
        .strip()
        .splitlines()[-1]
    )
    row = _wait(job)
    assert row["status"] == "succeeded" and row["backend"] == "ray", row
    assert row["backend_job_id"] == f"avd-eval-{row['id']}" and row["summary"]["overall.n"] == 120
    assert "retrieval" in avd("eval", "logs", job)  # fetched from Ray's job logs

    from ray.job_submission import JobSubmissionClient

    slow = (
        avd(
            "eval",
            "run",
            "retrieval",
            "--model",
            "random",
            "--data",
            str(export),
            "--backend",
            "ray",
            "-b",
            f"address={ray_head}",
            "-o",
            "batch_size=1",
        )
        .strip()
        .splitlines()[-1]
    )
    row = json.loads(avd("eval", "cancel", slow) and avd("eval", "status", slow, "--json"))
    assert row["status"] == "cancelled"
    client = JobSubmissionClient(ray_head)
    deadline = time.monotonic() + 60
    while str(client.get_job_status(row["backend_job_id"])).rsplit(".", 1)[-1] not in (
        "STOPPED",
        "SUCCEEDED",
    ):
        assert time.monotonic() < deadline, "Ray did not stop the job"
        time.sleep(0.5)


async def test_auto_launch_follows_the_accepted_set(settings_factory, stimuli, eval_db: str, tmp_path: Path):
    """Runs start when the accepted set has grown by ``every``, on a fresh export, recorded as auto."""
    from test_export import add_qc, insert_dialogs

    from server.db.engine import make_engine, make_sessionmaker
    from server.evaluation import jobs
    from server.evaluation.auto import AutoEvalPolicy, AutoEvalRun, launch_due

    settings = settings_factory(database_url=eval_db)
    ids = await insert_dialogs(settings, await stimuli(6, target=settings), 40)
    await add_qc(settings, {d: "accept" for d in ids[:20]} | {d: "reject" for d in ids[20:25]})
    policy = AutoEvalPolicy(
        every=10,
        runs=[
            AutoEvalRun(task="retrieval", model="random"),
            AutoEvalRun(task="multichoice", model="random:1"),
        ],
    )
    engine = make_engine(eval_db)
    sm = make_sessionmaker(engine)
    try:
        first = await launch_due(sm, settings, policy, tmp_path)
        assert [r.task for r in first] == ["retrieval", "multichoice"]
        assert all(r.trigger == "auto" and r.config["accepted_count"] == 20 for r in first)
        export = Path(first[0].config["export_dir"])
        assert sum(1 for _ in (export / "dialogs.jsonl").open()) == 20  # only accepted dialogs
        assert await launch_due(sm, settings, policy, tmp_path) == []  # no growth, nothing new
        await add_qc(settings, {d: "accept" for d in ids[25:31]})  # +6 < 10: not yet
        assert await launch_due(sm, settings, policy, tmp_path) == []
        forced = await launch_due(sm, settings, policy, tmp_path, force=True)  # avd qc run --then-eval
        assert [r.config["accepted_count"] for r in forced] == [26, 26]
        await add_qc(settings, {d: "accept" for d in ids[31:40]})  # 35 - 26 = 9: not yet
        assert await launch_due(sm, settings, policy, tmp_path) == []
        for run in first + forced:
            for _ in range(600):
                row = await jobs.refresh(sm, run.id)
                if row.status in jobs.FINAL:
                    break
                await asyncio.sleep(0.2)
            assert row.status == "succeeded", row.error
            assert row.summary and row.study == settings.study
    finally:
        await engine.dispose()


class _AgentNotReadyProxy(ThreadingHTTPServer):
    """In front of the real Ray head: refuses the first ``refusals`` job submissions the way Ray's job
    server does while no job agent is available (HTTP 500 and its text), forwards everything else."""

    def __init__(self, upstream: str, refusals: int, text: str) -> None:
        self.upstream, self.refusals, self.text, self.submissions = upstream, refusals, text, 0
        super().__init__(("127.0.0.1", 0), _Forward)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


class _Forward(BaseHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass

    def _relay(self, method: str) -> None:
        import httpx

        proxy: _AgentNotReadyProxy = self.server  # type: ignore[assignment]
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if method == "POST" and self.path.rstrip("/") == "/api/jobs":
            proxy.submissions += 1
            if proxy.submissions <= proxy.refusals:
                self.send_response(500)
                self.send_header("Content-Type", "text/plain")
                self.end_headers()
                self.wfile.write(proxy.text.encode())
                return
        headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "content-length")}
        r = httpx.request(method, proxy.upstream + self.path, content=body, headers=headers, timeout=30)
        self.send_response(r.status_code)
        for k, v in r.headers.items():
            if k.lower() not in ("transfer-encoding", "content-length", "connection", "content-encoding"):
                self.send_header(k, v)
        self.send_header("Content-Length", str(len(r.content)))
        self.end_headers()
        self.wfile.write(r.content)

    def do_GET(self) -> None:
        self._relay("GET")

    def do_POST(self) -> None:
        self._relay("POST")


@pytest.fixture
def refusing_head(ray_head: str, request) -> Iterator[_AgentNotReadyProxy]:
    refusals, text = request.param
    proxy = _AgentNotReadyProxy(ray_head, refusals, text)
    threading.Thread(target=proxy.serve_forever, daemon=True).start()
    yield proxy
    proxy.shutdown()


NO_AGENT = "No available agent to submit job, please try again later."


@pytest.mark.parametrize("refusing_head", [(2, NO_AGENT)], indirect=True)
def test_ray_submission_waits_for_a_job_agent(
    refusing_head: _AgentNotReadyProxy, ray_head: str, tmp_path: Path
) -> None:
    """A head that has no job agent ready yet (just started, or busy) asks to try again: we do."""
    from ray.job_submission import JobSubmissionClient

    from server.evaluation.launchers import RayLauncher
    from server.evaluation.runner import RunSpec

    spec = RunSpec(
        run_id=uuid.uuid4().hex[:12], task="retrieval", model="random:1", data="x", out=str(tmp_path / "o")
    )
    job = RayLauncher(address=refusing_head.url, submit_patience=60).submit(spec)
    assert job == f"avd-eval-{spec.run_id}" and refusing_head.submissions == 3
    assert JobSubmissionClient(ray_head).get_job_info(job).submission_id == job  # it reached the real head
    JobSubmissionClient(ray_head).stop_job(job)


@pytest.mark.parametrize("refusing_head", [(1, "Internal error: something else broke.")], indirect=True)
def test_ray_submission_does_not_retry_other_errors(refusing_head: _AgentNotReadyProxy, tmp_path: Path):
    from server.evaluation.launchers import RayLauncher
    from server.evaluation.runner import RunSpec

    spec = RunSpec(
        run_id=uuid.uuid4().hex[:12], task="retrieval", model="random:1", data="x", out=str(tmp_path / "o")
    )
    with pytest.raises(RuntimeError, match="something else broke"):
        RayLauncher(address=refusing_head.url, submit_patience=60).submit(spec)
    assert refusing_head.submissions == 1
