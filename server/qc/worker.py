"""Entry point of a QC worker process: ``python -m server.qc.worker QUEUE [--burst]``.

When Redis stops answering (hung, or gone) a worker neither hangs nor loses its job:

- every Redis command of the worker gives up after ``redis_timeout`` seconds (a socket timeout;
  rq's blocking wait for a job is kept shorter than that), where rq's own default is ~7 minutes;
- a job whose outcome cannot be written once its body has run is left as rq's "started" job, and
  the worker gives up on it at the first Redis timeout instead of once per bookkeeping step;
  rq's registry maintenance (any worker of the queue runs it at start and every 10 minutes)
  finds it abandoned once its execution expires (the job's timeout + 60 s) and, since QC jobs
  are enqueued with retries (server.qc.jobs.JOB_RETRIES), runs it again: the jobs are idempotent
  (verdicts already stored for the same configuration are skipped). With no retry left it is
  marked failed in rq's failed-job registry;
- a worker not told to stop starts over (a fresh rq worker) once Redis answers again, so the queue
  keeps being served; one told to stop (SIGTERM) exits.
"""

from __future__ import annotations

import functools
import gc
import logging
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

import redis
from rq import Queue, SimpleWorker

log = logging.getLogger(__name__)

TEARDOWN_SECONDS = 3.0  # the most a stopping worker waits for Redis to note its end
REDIS_TIMEOUT_SECONDS = 30  # the most one Redis command of a worker may take (env AVD_QC_REDIS_TIMEOUT)
MIN_REDIS_TIMEOUT_SECONDS = 11  # rq waits for a job in a blocking pop of (timeout - 10) s, at least 1 s
RESTART_SECONDS = 2.0  # pause before a worker that lost Redis starts over


def warm_up() -> None:
    """Load what every QC job needs, then keep it out of the collector's full passes.

    The rules' classifiers, word lists and profanity model and TextBlob's lexicon live as long as the
    process; a full collection walks them all again (QC judging spent ~7 % of its CPU in the collector,
    mostly in full passes; after ``gc.freeze`` ~4 %: docs/benchmarks.md, session 7). The chat server
    does the same at start-up (``server/app.py``).
    """
    from server.qc.scores import sentiment
    from server.rules import check

    check("questioner", 1, "Hello! What colour is the sky in the picture?")
    check("answerer", 1, "It is a pale blue, with a few clouds.")
    sentiment("A calm and pleasant blue sky.")
    gc.collect()
    gc.freeze()


class QCWorker(SimpleWorker):
    """rq's SimpleWorker (jobs run in this process: QC batches are short, forking per job is
    waste) whose stop never waits on Redis.

    rq's SIGTERM handler writes the request's date to Redis when a job runs, and its teardown
    (registering the worker's death, leaving its pub/sub channel) asks Redis under the worker's
    socket timeout, which rq raises to its dequeue timeout plus 10 s (~7 min), with redis-py's
    retries on top: with Redis hung, a worker told to stop while idle took minutes to exit, and
    one told to stop mid-job blocked in the signal handler itself. Redis forgets a worker that
    could not note its end once the worker's key expires (its heartbeat TTL).
    """

    stop_requested = False  # SIGTERM / SIGINT seen: exit rather than start over

    def request_stop(self, signum: int, frame: Any) -> None:
        self.stop_requested = True
        super().request_stop(signum, frame)

    def set_shutdown_requested_date(self) -> None:
        """Not noted in Redis: rq calls this from the SIGTERM handler while a job runs; the date
        only shows on rq's dashboards (the job still ends before the worker stops)."""

    def teardown(self) -> None:
        """rq's teardown, given up after ``TEARDOWN_SECONDS`` (it then dies with the process)."""
        ended = threading.Thread(target=self._teardown_or_log, name="rq-teardown", daemon=True)
        ended.start()
        ended.join(TEARDOWN_SECONDS)
        if ended.is_alive():
            log.warning("worker %s: Redis did not answer within %.0f s; exiting", self.name, TEARDOWN_SECONDS)

    def unsubscribe(self) -> None:
        """rq's, with the pub/sub thread told to stop *before* the UNSUBSCRIBE whose reply wakes it.

        rq unsubscribes first and stops the thread after; since redis-py 8.2 ``stop()`` also waits
        for the thread to end. A thread that read the reply before it was told to stop went back to
        waiting for its next message, for up to 60 s, so a stopping worker overran its teardown
        (reproduced with another busy thread in the process: 4 slow stops in 20)."""
        thread = self.pubsub_thread
        if not thread:
            return
        try:
            thread.stop(timeout=0)  # redis-py >= 8.2: don't wait here, the reply below ends it
        except TypeError:  # older redis-py: stop() only clears the flag
            thread.stop()
        self.pubsub.unsubscribe()
        thread.join(timeout=1)
        self.pubsub.close()

    ended = False  # its end noted in Redis

    def _teardown_or_log(self) -> None:
        try:
            super().teardown()
            self.ended = True
        except redis.RedisError as exc:
            log.warning("worker %s: could not note its end in Redis (%s); exiting", self.name, exc)

    # The bookkeeping after a job's body: rq writes the outcome in steps, and on an error in one
    # step writes a failure in more steps; with Redis hung each would wait the full timeout.
    # After the first Redis error of a job, the later steps fail at once.
    _redis_lost: redis.RedisError | None = None

    def perform_job(self, job: Any, queue: Any, execution: Any) -> bool:
        self._redis_lost = None
        try:
            return super().perform_job(job, queue, execution)
        finally:
            if self._redis_lost is not None:
                log.warning(
                    "worker %s: Redis did not answer after job %s (%s); its outcome is not recorded: "
                    "it stays 'started' until rq finds it abandoned and runs it again",
                    self.name,
                    job.id,
                    self._redis_lost,
                )

    @staticmethod
    def _fail_fast(step: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(step)
        def guarded(self: QCWorker, *args: Any, **kwargs: Any) -> Any:
            if self._redis_lost is not None:
                raise self._redis_lost
            try:
                return step(self, *args, **kwargs)
            except (redis.ConnectionError, redis.TimeoutError) as exc:
                self._redis_lost = exc
                raise

        return guarded


for _step in (
    "prepare_job_execution",
    "handle_execution_ended",
    "handle_job_success",
    "handle_job_failure",
    "handle_job_retry",
):
    setattr(QCWorker, _step, QCWorker._fail_fast(getattr(SimpleWorker, _step)))


def redis_timeout() -> int:
    """Seconds one Redis command of a worker may take: ``AVD_QC_REDIS_TIMEOUT``, else 30."""
    raw = os.environ.get("AVD_QC_REDIS_TIMEOUT", "").strip()
    value = int(raw) if raw else REDIS_TIMEOUT_SECONDS
    if value < MIN_REDIS_TIMEOUT_SECONDS:
        raise ValueError(f"AVD_QC_REDIS_TIMEOUT must be at least {MIN_REDIS_TIMEOUT_SECONDS} seconds")
    return value


def connect(url: str, timeout: int) -> redis.Redis:
    """The worker's Redis client: commands time out after ``timeout`` s, connecting after 5 s, and
    a connection idle for 30 s is checked (PING) before use, so a dead one is replaced first."""
    return redis.Redis.from_url(
        url,
        socket_timeout=timeout,
        socket_connect_timeout=min(5, timeout),
        health_check_interval=30,
    )


def serve(queue: Queue, burst: bool, timeout: int) -> None:
    """Run rq workers on ``queue`` until told to stop (or, with ``burst``, until it is empty).

    rq ends a worker's loop on a Redis timeout; unless a stop was asked for, a new worker starts
    after a pause, and the end of those whose end Redis could not take is noted once it answers."""
    stopping: list[int] = []  # the stop signals received while no rq worker runs
    unfinished: list[QCWorker] = []  # ended, but Redis did not take note of it
    while True:
        # until rq sets its handlers, a SIGTERM ends the process at once, as before the first start
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        worker: QCWorker | None = None
        try:
            # rq lets its blocking pop wait (worker_ttl - 15) s and raises the socket timeout to
            # (worker_ttl - 5) s if it is shorter: both stay within ``timeout``
            worker = QCWorker([queue], connection=queue.connection, worker_ttl=timeout + 5)
            # it named its connection in Redis: Redis answers again
            while unfinished:
                unfinished.pop()._teardown_or_log()
            worker.work(burst=burst, logging_level="WARNING")
        except (redis.ConnectionError, redis.TimeoutError) as exc:  # while it registered
            log.warning("worker: Redis did not answer (%s)", exc)
        if worker is not None and worker.stop_requested:
            return
        if burst:
            return
        if worker is not None and not worker.ended:
            unfinished.append(worker)
        log.warning("worker: rq's loop ended unasked (Redis lost); starting over in %.0f s", RESTART_SECONDS)
        for sig in (signal.SIGTERM, signal.SIGINT):  # rq's handlers belong to the worker that ended
            signal.signal(sig, lambda signum, frame: stopping.append(signum))
        pause_ends = time.monotonic() + RESTART_SECONDS
        while time.monotonic() < pause_ends:
            if stopping:
                return
            time.sleep(0.1)


def main(argv: list[str]) -> None:
    if argv[0].endswith("-qc"):  # the rule-checking queue (server.qc.jobs.queue_name), not the semantic one
        warm_up()
    timeout = redis_timeout()
    connection = connect(os.environ["REDIS_URL"], timeout)
    serve(Queue(argv[0], connection=connection), "--burst" in argv, timeout)


if __name__ == "__main__":
    main(sys.argv[1:])
