"""The ``state`` frame the runtime sends is the JSON of ``p.State(dialog=view)``, though it
serializes each history item once per message and splices the history into the view's JSON."""

from __future__ import annotations

import json

from server.dialog import protocol as p
from server.dialog.runtime import DialogRuntime
from server.services import Services
from tests.test_runtime_cache import message, new_dialog

# texts that could confuse a splice: the history key itself, quotes, escapes, non-ASCII
TEXTS = [
    'Is "history":[] written in the sky?',
    'It says \\"history\\":[] in small \\ letters.',
    "Is the caf\u00e9 sign lit at night \U0001f600?",
    "Yes, with a line break\nand a \u2028 separator.",
]


async def test_state_json_is_the_state_models_json(services: Services, stimuli):
    runtime = DialogRuntime(services)
    dialog_id, _, _ = await new_dialog(services, runtime, stimuli)
    meta = await runtime.meta(dialog_id)
    meta["opinions"][0]["text"] = 'An opinion with "history":[] in it.'
    snap = await runtime.snapshot(dialog_id)
    for role in ("questioner", "answerer"):  # no history yet
        assert (
            await runtime.state_json(snap.state, role)
            == p.State(dialog=await runtime.view(snap.state, role)).model_dump_json()
        )
    for i, text in enumerate(TEXTS):
        role = "questioner" if i % 2 == 0 else "answerer"
        out = await runtime.handle(dialog_id, lambda _now, r=role, i=i, t=text: message(r, f"c{i}", t))
        assert out is not None and out.changed, out and out.error
        for viewer in ("questioner", "answerer"):
            sent = await runtime.state_json(out.state, viewer)
            assert sent == p.State(dialog=await runtime.view(out.state, viewer)).model_dump_json()
            assert [h["text"] for h in json.loads(sent)["dialog"]["history"]] == TEXTS[: i + 1]
    # a process that remembers nothing (a reconnect elsewhere) sends the same text
    fresh = DialogRuntime(services)
    fresh._meta[dialog_id] = meta
    state = (await fresh.snapshot(dialog_id)).state
    assert await fresh.state_json(state, "answerer") == await runtime.state_json(state, "answerer")
