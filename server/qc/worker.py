"""Entry point of a QC worker process: ``python -m server.qc.worker QUEUE [--burst]``."""

from __future__ import annotations

import os
import sys

import redis
from rq import Queue, SimpleWorker


def main(argv: list[str]) -> None:
    connection = redis.Redis.from_url(os.environ["REDIS_URL"])
    queue = Queue(argv[0], connection=connection)
    # SimpleWorker runs jobs in this process: QC batches are short, forking per job is waste.
    SimpleWorker([queue], connection=connection).work(burst="--burst" in argv, logging_level="WARNING")


if __name__ == "__main__":
    main(sys.argv[1:])
