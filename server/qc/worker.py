"""Entry point of a QC worker process: ``python -m server.qc.worker QUEUE [--burst]``."""

from __future__ import annotations

import gc
import logging
import os
import sys
import threading

import redis
from rq import Queue, SimpleWorker

log = logging.getLogger(__name__)

TEARDOWN_SECONDS = 3.0  # the most a stopping worker waits for Redis to note its end


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

    def _teardown_or_log(self) -> None:
        try:
            super().teardown()
        except redis.RedisError as exc:
            log.warning("worker %s: could not note its end in Redis (%s); exiting", self.name, exc)


def main(argv: list[str]) -> None:
    if argv[0].endswith("-qc"):  # the rule-checking queue (server.qc.jobs.queue_name), not the semantic one
        warm_up()
    connection = redis.Redis.from_url(os.environ["REDIS_URL"])
    queue = Queue(argv[0], connection=connection)
    QCWorker([queue], connection=connection).work(burst="--burst" in argv, logging_level="WARNING")


if __name__ == "__main__":
    main(sys.argv[1:])
