"""Session-11 speed caches give the verdicts a fresh computation gives.

``smalltalk._OFF_TOPIC_TEXTS`` keeps whether a text's own words are off topic, so that a reply's check
of the partner's message before it does not judge that text again; the answer to a personal question
still depends on the history, which the cache must not freeze.
"""

from __future__ import annotations

import json

from server.rules import check, check_dialog, smalltalk
from server.rules.learned import DATA_DIR


def _labeled(limit: int = 400) -> list[dict]:
    rows = []
    for line in (DATA_DIR / "labeled_messages.jsonl").read_text(encoding="utf-8").splitlines():
        if line.strip():
            rows.append(json.loads(line))
    return rows[:limit]


def _verdict(row: dict) -> list[str]:
    return check(
        row["role"], row.get("round") or 1, row["text"], row.get("history") or (), row.get("opinions") or ()
    ).rule_ids


def test_cached_off_topic_texts_give_the_fresh_verdicts() -> None:
    rows = _labeled()
    fresh = []
    for row in rows:
        smalltalk._OFF_TOPIC_TEXTS.clear()
        fresh.append(_verdict(row))
    warm = [_verdict(row) for row in rows]  # the cache now holds these texts (and the partners')
    assert warm == fresh
    assert smalltalk._OFF_TOPIC_TEXTS  # it was used


def test_the_same_reply_after_a_different_partner_message() -> None:
    """ "Leeds, born and raised." answers "where are you from?" (off topic), not a question about the
    painting: the per-text cache holds only the text's own words, the history is read each time."""
    reply = "Leeds, born and raised."
    asked_home = [{"role": "questioner", "text": "Where are you from?"}]
    asked_art = [{"role": "questioner", "text": "What colour is the boat?"}]
    smalltalk._OFF_TOPIC_TEXTS.clear()
    first = check("answerer", 1, reply, asked_home).rule_ids
    second = check("answerer", 1, reply, asked_art).rule_ids
    again = check("answerer", 1, reply, asked_home).rule_ids
    assert "off_topic" in first and first == again
    assert "off_topic" not in second


def test_a_reply_to_an_aside_in_a_dialog() -> None:
    turns = [
        {"role": "questioner", "text": "What is in the picture?"},
        {"role": "answerer", "text": "A boat on a lake. My daughter has a boat like it!"},
        {"role": "questioner", "text": "Aww, that's sweet."},
        {"role": "answerer", "text": "The boat is red."},
    ]
    cold = []
    for i in range(len(turns)):
        smalltalk._OFF_TOPIC_TEXTS.clear()
        cold.append(check_dialog(turns[: i + 1])[-1].rule_ids)
    assert [r.rule_ids for r in check_dialog(turns)] == cold
    assert "off_topic" in cold[1] and "off_topic" in cold[2] and "off_topic" not in cold[3]


def test_the_cache_stays_bounded() -> None:
    smalltalk._OFF_TOPIC_TEXTS.clear()
    for i in range(5000):
        check("answerer", 1, f"The boat number {i} is red.")
    assert 0 < len(smalltalk._OFF_TOPIC_TEXTS) <= 4096


def test_plain_messages_are_judged_by_their_text_alone() -> None:
    """Session 13: greeting, off_topic and short_answer read the partner's message only when the
    message's own text leaves the verdict open, so ``registry._detect`` can keep their verdicts per text
    (bulk QC meets the same questions and answers again)."""
    from server.rules.base import Context
    from server.rules.registry import DEFAULT_CONFIG, RULES_BY_ID

    history = [{"role": "questioner", "text": "What colour is the boat on the left?"}]
    for role, text, rules in [
        ("questioner", "What colour is the boat on the left?", ("greeting", "off_topic")),
        (
            "answerer",
            "It is a pale blue boat with a torn sail, drawn with thin lines.",
            ("greeting", "off_topic"),
        ),
        ("answerer", "Red.", ("greeting", "short_answer")),
    ]:
        for rule_id in rules:
            ctx = Context(role, 1, text, history)
            RULES_BY_ID[rule_id].detect(ctx, DEFAULT_CONFIG.rule_config(rule_id))
            assert not ctx.read_surroundings, (rule_id, text)


def test_verdicts_kept_per_text_match_fresh_ones_in_dialogs() -> None:
    """The same texts in other dialogs (after other partner messages) get the verdicts a fresh process
    gives them: the per-text verdicts hold only what the text alone decided."""
    from server.rules import registry

    rows = _labeled(600)
    dialogs = [
        [{"role": r["role"], "text": r["text"]} for r in rows[i : i + 6]] for i in range(0, len(rows) - 6, 3)
    ]
    fresh = []
    for turns in dialogs:
        registry._verdicts.clear()
        fresh.append([r.rule_ids for r in check_dialog(turns)])
    warm = [[r.rule_ids for r in check_dialog(turns)] for turns in dialogs]
    assert warm == fresh
