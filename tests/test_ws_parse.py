"""Frame parsing of server/ws.py: the one-pass JSON validation gives what the two-step path
gave, and every refusal keeps its error."""

from __future__ import annotations

import json

import pytest

from server.dialog import protocol as p
from server.ws import parse_frame

LIMIT = 4096


@pytest.mark.parametrize(
    "raw",
    [
        '{"type":"message","client_id":"c1","text":"hello there"}',
        ' {"type":"ping"}\n',
        '{"type":"hello","v":1.0,"token":"t","tab":"x"}',
        '{"type":"form","client_id":"f","phase":"answerer","emotion":"awe","explanation":"x y"}',
        '{"type":"message","client_id":"c1","text":"hi \\ud800 there"}',  # a lone surrogate: still taken
        '{"type":"message","client_id":"c1","text":"\\ud83d\\ude00 \\u00e9"}',
    ],
)
def test_accepted_frames_as_validated_from_python(raw: str) -> None:
    frame, error = parse_frame(raw, LIMIT)
    assert error is None
    assert frame == p.client_frame_adapter.validate_python(json.loads(raw))


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("{nope", "malformed"),
        ("[1, 2]", "malformed"),
        ('{"text":"no type"}', "malformed"),
        ('{"type":"dance"}', "unknown_type"),
        ('{"type":"message","client_id":"bad id!","text":"x"}', "invalid"),
        ('{"type":"ready","match_id":12}', "invalid"),
        ('{"type":"ping","extra":1}', "invalid"),
    ],
)
def test_refused_frames_keep_their_errors(raw: str, code: str) -> None:
    frame, error = parse_frame(raw, LIMIT)
    assert frame is None and error is not None and error[0] == code


def test_size_limit_counts_utf8_bytes() -> None:
    text = "\u00e9" * 1500  # 1,500 characters, 3,000 bytes of UTF-8
    raw = json.dumps({"type": "message", "client_id": "c", "text": text}, ensure_ascii=False)
    assert parse_frame(raw, len(raw.encode()))[1] is None
    assert parse_frame(raw, len(raw.encode()) - 1)[1] == (
        "too_large",
        f"Frames are limited to {len(raw.encode()) - 1} bytes.",
    )
