"""Start a run somewhere and ask about it later: local subprocess, Slurm (submitit), Ray Jobs.

Every backend runs the same entry point (``python -m server.evaluation.runner SPEC``) on a
spec file inside the run's output directory; the runner keeps ``status.json`` there. So a
backend only answers "is the process still alive", "where is its log" and "stop it": the
run's outcome always comes from ``status.json``, whatever the backend. The output directory
must be visible to the submitting machine (a shared file system on a cluster).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any, Protocol

from server.evaluation.runner import RunSpec

ALIVE, GONE, QUEUED = "alive", "gone", "queued"
JOB_ENV = {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "PYTHONUNBUFFERED": "1"}


class Launcher(Protocol):
    backend: str

    def submit(self, spec: RunSpec) -> str: ...
    def state(self, job_id: str, out_dir: Path) -> str: ...
    def logs(self, job_id: str, out_dir: Path) -> str: ...
    def cancel(self, job_id: str, out_dir: Path) -> None: ...


def write_spec(spec: RunSpec) -> Path:
    spec.out_dir.mkdir(parents=True, exist_ok=True)
    path = spec.out_dir / "spec.json"
    path.write_text(spec.model_dump_json(indent=1))
    return path


def _read(path: Path) -> str:
    return path.read_text(errors="replace") if path.exists() else ""


class LocalLauncher:
    """A detached subprocess (own session, so it outlives ``avd`` and is stopped as a group)."""

    backend = "local"
    _children: dict[int, subprocess.Popen] = {}  # reaped here when we are the parent

    def submit(self, spec: RunSpec) -> str:
        path = write_spec(spec)
        log = (spec.out_dir / "log.txt").open("ab")
        proc = subprocess.Popen(
            [sys.executable, "-m", "server.evaluation.runner", str(path)],
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
            env={**os.environ, **JOB_ENV},
        )
        log.close()
        self._children[proc.pid] = proc
        return str(proc.pid)

    def state(self, job_id: str, out_dir: Path) -> str:
        pid = int(job_id)
        child = self._children.get(pid)
        if child is not None and child.poll() is not None:
            return GONE
        try:  # the pid must still be our runner on our spec (pids are reused)
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
        except OSError:
            return GONE
        return ALIVE if str(out_dir / "spec.json") in cmdline else GONE

    def logs(self, job_id: str, out_dir: Path) -> str:
        return _read(out_dir / "log.txt")

    def cancel(self, job_id: str, out_dir: Path) -> None:
        if self.state(job_id, out_dir) == ALIVE:
            os.killpg(int(job_id), signal.SIGTERM)
            child = self._children.get(int(job_id))
            if child is not None:
                child.wait(timeout=30)


def run_spec_path(path: str) -> None:
    """What a submitit job calls (module-level so it pickles by reference)."""
    os.environ.update(JOB_ENV)
    from server.evaluation.runner import run_spec_file

    run_spec_file(path)


class SubmititLauncher:
    """Slurm through submitit; where no Slurm exists (tests, laptops) submitit's local executor.

    ``options`` go to ``executor.update_parameters`` (e.g. ``slurm_partition``,
    ``gpus_per_node``, ``timeout_min``).
    """

    backend = "slurm"

    def __init__(self, cluster: str | None = None, options: dict[str, Any] | None = None) -> None:
        self.cluster = cluster
        self.options = options or {}

    def _folder(self, out_dir: Path) -> Path:
        return out_dir / "submitit"

    def submit(self, spec: RunSpec) -> str:
        import submitit

        path = write_spec(spec)
        executor = submitit.AutoExecutor(folder=self._folder(spec.out_dir), cluster=self.cluster)
        params = {"timeout_min": 24 * 60, "name": f"avd-eval-{spec.run_id[:8]}", **self.options}
        executor.update_parameters(**params)
        job = executor.submit(run_spec_path, str(path))
        if hasattr(job, "_cancel_at_deletion"):
            job._cancel_at_deletion = False  # a local job must outlive the submitting command
        (spec.out_dir / "submitit.json").write_text(
            json.dumps({"cluster": executor.cluster, "job_id": job.job_id})
        )
        return str(job.job_id)

    def _cluster(self, out_dir: Path) -> str:
        path = out_dir / "submitit.json"
        return json.loads(path.read_text())["cluster"] if path.exists() else "slurm"

    def state(self, job_id: str, out_dir: Path) -> str:
        if self._cluster(out_dir) == "slurm":
            import submitit

            s = submitit.SlurmJob(self._folder(out_dir), job_id).state
            if s in ("PENDING", "REQUEUED", "CONFIGURING"):
                return QUEUED
            return ALIVE if s in ("RUNNING", "COMPLETING", "UNKNOWN") else GONE
        try:  # local executor: job id is the pid of a submitit process
            os.kill(int(job_id), 0)
            status = Path(f"/proc/{job_id}/status").read_text()
        except (OSError, ValueError):
            return GONE
        return GONE if "\nState:\tZ" in status else ALIVE

    def logs(self, job_id: str, out_dir: Path) -> str:
        folder = self._folder(out_dir)
        parts = [
            _read(p)
            for p in sorted(folder.glob(f"{job_id}_*_log.out")) + sorted(folder.glob(f"{job_id}_*_log.err"))
        ]
        return "".join(parts)

    def cancel(self, job_id: str, out_dir: Path) -> None:
        if self._cluster(out_dir) == "slurm":
            import submitit

            submitit.SlurmJob(self._folder(out_dir), job_id).cancel(check=False)
        elif self.state(job_id, out_dir) == ALIVE:
            os.kill(int(job_id), signal.SIGINT)  # what submitit's own LocalJob.cancel sends


class RayLauncher:
    """Ray Jobs through Ray's job submission client (the dashboard address, default :8265)."""

    backend = "ray"

    def __init__(
        self, address: str | None = None, python: str | None = None, submit_patience: float = 120
    ) -> None:
        self.address = address or os.environ.get("RAY_ADDRESS") or "http://127.0.0.1:8265"
        self.python = python or sys.executable
        self.submit_patience = submit_patience  # seconds to keep retrying while no job agent is ready

    def _client(self):
        from ray.job_submission import JobSubmissionClient

        return JobSubmissionClient(self.address)

    def submit(self, spec: RunSpec) -> str:
        """Submit the run; while the head has no job agent ready (a cluster just started, or a busy
        head), Ray answers "No available agent ... try again later", so that answer is retried with
        backoff for ``submit_patience`` seconds (nothing was submitted yet); other errors are not."""
        from tenacity import retry, retry_if_exception, stop_after_delay, wait_exponential

        path = write_spec(spec)
        submit = retry(
            retry=retry_if_exception(_no_job_agent_yet),
            stop=stop_after_delay(self.submit_patience),
            wait=wait_exponential(multiplier=0.5, max=5),
            reraise=True,
        )(self._client().submit_job)
        return submit(
            entrypoint=f"{self.python} -m server.evaluation.runner {path}",
            submission_id=f"avd-eval-{spec.run_id}",
            runtime_env={"env_vars": JOB_ENV},
            metadata={"task": spec.task, "run_id": spec.run_id},
        )

    def state(self, job_id: str, out_dir: Path) -> str:
        status = str(self._client().get_job_status(job_id))
        status = status.rsplit(".", 1)[-1].upper()
        if status == "PENDING":
            return QUEUED
        return ALIVE if status == "RUNNING" else GONE

    def logs(self, job_id: str, out_dir: Path) -> str:
        return self._client().get_job_logs(job_id)

    def cancel(self, job_id: str, out_dir: Path) -> None:
        self._client().stop_job(job_id)


def _no_job_agent_yet(exc: BaseException) -> bool:
    """Ray's job server refuses a submission with this text (HTTP 500) when no agent is available."""
    return isinstance(exc, RuntimeError) and "No available agent to submit job" in str(exc)


def make_launcher(backend: str, options: dict[str, Any] | None = None) -> Launcher:
    options = dict(options or {})
    if backend == "local":
        return LocalLauncher()
    if backend == "slurm":
        return SubmititLauncher(cluster=options.pop("cluster", None), options=options)
    if backend == "ray":
        return RayLauncher(address=options.get("address"), python=options.get("python"))
    raise ValueError(f"unknown backend {backend!r}; choose local, slurm or ray")
