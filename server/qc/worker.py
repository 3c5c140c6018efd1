"""Entry point of a QC worker process: ``python -m server.qc.worker QUEUE [--burst]``."""

from __future__ import annotations

import gc
import os
import sys

import redis
from rq import Queue, SimpleWorker


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


def main(argv: list[str]) -> None:
    if argv[0].endswith("-qc"):  # the rule-checking queue (server.qc.jobs.queue_name), not the semantic one
        warm_up()
    connection = redis.Redis.from_url(os.environ["REDIS_URL"])
    queue = Queue(argv[0], connection=connection)
    # SimpleWorker runs jobs in this process: QC batches are short, forking per job is waste.
    SimpleWorker([queue], connection=connection).work(burst="--burst" in argv, logging_level="WARNING")


if __name__ == "__main__":
    main(sys.argv[1:])
