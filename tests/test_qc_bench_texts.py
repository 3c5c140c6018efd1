"""The QC bench's ``distinct`` texts: no chat message repeats, within a chunk or across the chunks
that the multi-process run judges, so the figure measured on them gets no help from per-text caches."""

from __future__ import annotations

from bench.qc_bench import GENERATORS


def chat_texts(texts: str, n: int, seed: int) -> list[tuple[str, str]]:
    return [(t.role, t.text) for rec in GENERATORS[texts](n, seed) for t in rec.turns]


def test_distinct_texts_never_repeat_across_chunks() -> None:
    texts = chat_texts("distinct", 300, 0) + chat_texts("distinct", 300, 300)
    assert len(texts) == 12_000
    assert len(set(texts)) == len(texts)


def test_distinct_keeps_the_varied_sentences_and_their_punctuation() -> None:
    varied, distinct = chat_texts("varied", 50, 7), chat_texts("distinct", 50, 7)
    assert [r for r, _ in varied] == [r for r, _ in distinct]
    for (_, v), (_, d) in zip(varied, distinct, strict=True):
        assert d.startswith(v[:-1] + " ") and d[-1] == v[-1] and d[len(v) : -1].isdigit()


def test_distinct_texts_break_the_rules_the_varied_ones_break() -> None:
    """The number added to make a text unique is no content word: the rule hits stay the same."""
    from server.qc.flags import flag_turns

    def hits(texts: str) -> list[list[str]]:
        return [
            sorted(h["id"] for hs in flag_turns(rec, {}).values() for h in hs)
            for rec in GENERATORS[texts](40, 3)
        ]

    assert hits("distinct") == hits("varied")
    assert any(hits("varied"))  # some dialogs do break a rule (repeated questions)


def test_the_varied_texts_do_repeat_as_a_run_grows() -> None:
    """What ``distinct`` exists for: the default texts repeat once a run is long."""
    texts = chat_texts("varied", 3000, 0)
    assert len(set(texts)) < 0.8 * len(texts)
