"""A server's background loops stop when asked, even when asked in the middle of a Redis command.

On Python 3.11 such a cancellation could be lost (redis-py sends commands under ``asyncio.wait_for``;
see ``server.redis_conn.cancel_and_wait``): the sweeper then ran on and ``Sweeper.stop`` never
returned, so uvicorn never finished its shutdown and ``avd serve`` outlived a SIGTERM."""

from __future__ import annotations

import asyncio
import random

from server.dialog.runtime import DialogRuntime
from server.relay import Hub
from server.services import Services
from server.sweeper import Sweeper


async def stops_within(stop, seconds: float) -> bool:
    task = asyncio.ensure_future(stop())
    done, _ = await asyncio.wait({task}, timeout=seconds)
    return task in done


async def test_the_sweeper_stops_even_when_stopped_mid_command(settings_factory):
    settings = settings_factory(sweep_interval_seconds=0.0001)  # it is nearly always in a command
    services = Services.build(settings, settings.redis_url or "")
    try:
        for _ in range(30):
            sweeper = Sweeper(services, DialogRuntime(services))
            sweeper.start()
            await asyncio.sleep(random.uniform(0.001, 0.03))
            assert await stops_within(sweeper.stop, 10), "the sweeper ran on after stop()"
    finally:
        await services.close()


async def test_the_relay_listener_stops_even_when_stopped_as_it_subscribes(services):
    for _ in range(30):
        hub = Hub(services.redis, services.keys)
        await hub.start()
        await asyncio.sleep(random.uniform(0, 0.005))
        assert await stops_within(hub.stop, 10), "the listener ran on after stop()"
