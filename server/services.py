"""The shared parts of one server process, built once from the settings."""

from __future__ import annotations

from dataclasses import dataclass, field

import redis.asyncio as aioredis
from pydantic import BaseModel
from sqlalchemy import insert
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker

from server.db.engine import make_engine, make_sessionmaker
from server.db.models import WorkerEvent
from server.dialog.machine import Policy
from server.keys import Keys
from server.lobby import Lobby
from server.media import MediaStore, media_store
from server.redis_conn import connect
from server.relay import Hub
from server.settings import Settings
from server.stimuli.pool import StimulusPool
from server.tokens import Signer

_EVENT_INSERT = insert(WorkerEvent.__table__)


def policy_from(settings: Settings) -> Policy:
    return Policy(
        rounds=settings.rounds,
        turn_seconds=settings.turn_seconds,
        warn_seconds=settings.warn_seconds,
        form_seconds=settings.form_seconds,
        grace_seconds=settings.reconnect_grace_seconds,
        min_message_chars=settings.min_message_chars,
        max_message_chars=settings.max_message_chars,
        min_explanation_words=settings.min_explanation_words,
        max_explanation_chars=settings.max_explanation_chars,
        salvage=settings.salvage,
    )


@dataclass
class Services:
    settings: Settings
    redis: aioredis.Redis
    engine: AsyncEngine
    sessions: async_sessionmaker
    keys: Keys
    signer: Signer
    hub: Hub
    lobby: Lobby
    pool: StimulusPool
    media: MediaStore
    policy: Policy
    redis_url: str
    extras: dict[str, object] = field(default_factory=dict)

    @classmethod
    def build(cls, settings: Settings, redis_url: str) -> Services:
        redis = connect(redis_url)
        engine = make_engine(settings.resolved_database_url)
        keys = Keys(settings.study)
        return cls(
            settings=settings,
            redis=redis,
            engine=engine,
            sessions=make_sessionmaker(engine),
            keys=keys,
            signer=Signer(settings.resolved_secret, settings.study, settings.token_max_age_seconds),
            hub=Hub(redis, keys),
            lobby=Lobby(redis, keys, settings),
            pool=StimulusPool(redis, keys, settings.dialogs_per_stimulus),
            media=media_store(settings),
            policy=policy_from(settings),
            redis_url=redis_url,
        )

    async def close(self) -> None:
        await self.hub.stop()
        await self.redis.aclose()
        await self.engine.dispose()

    async def send(self, worker: str, frame: BaseModel) -> None:
        await self.hub.send(worker, frame.model_dump_json())

    async def record(self, worker: str, kind: str, **fields: object) -> None:
        """Store an outcome that pay decisions read (lobby timeout, completion, dropout...).

        A Core insert (the column defaults filled as the ORM fills them) in its own transaction:
        nothing reads the row back, and an ORM session (the object, its flush, its unit of work)
        cost ~2.5x the CPU (docs/benchmarks.md, "Session 15"); each finished dialog records two."""
        async with self.engine.begin() as conn:
            await conn.execute(
                _EVENT_INSERT, {"study": self.settings.study, "worker_id": worker, "kind": kind, **fields}
            )
