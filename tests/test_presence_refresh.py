"""The presence heartbeat renews every connected worker's key, a chunk of them per pipeline (so
the event loop serves messages in between), and does not bring back a worker who left while it
ran."""

from __future__ import annotations

from server.dialog.runtime import DialogRuntime
from server.services import Services
from server.sweeper import Sweeper
from server.ws import PRESENCE_CHUNK, WorkerSocket


async def test_every_present_worker_is_renewed_chunk_by_chunk(services: Services) -> None:
    runtime = DialogRuntime(services)
    sockets = WorkerSocket(services, runtime, Sweeper(services, runtime))
    workers = [f"presence-{i}" for i in range(2 * PRESENCE_CHUNK + 7)]
    sockets.present.update({w: f"tab-{w}" for w in workers})
    keys = services.keys
    await sockets.refresh_presence()
    stored = await services.redis.mget([keys.presence(w) for w in workers])
    assert stored == [f"tab-{w}" for w in workers]
    ttl = await services.redis.pttl(keys.presence(workers[-1]))
    assert 0 < ttl <= services.settings.presence_ttl_seconds * 1000

    await services.redis.delete(*(keys.presence(w) for w in workers))
    leaver = workers[-1]  # in the last chunk: it leaves while the first chunks are written
    real_pipeline = services.redis.pipeline

    def pipeline(*args, **kwargs):
        sockets.present.pop(leaver, None)
        return real_pipeline(*args, **kwargs)

    services.redis.pipeline = pipeline  # type: ignore[method-assign]
    try:
        await sockets.refresh_presence()
    finally:
        del services.redis.pipeline
    assert await services.redis.exists(keys.presence(leaver)) == 0
    assert await services.redis.exists(*(keys.presence(w) for w in workers[:-1])) == len(workers) - 1
