"""The per-text caches of QC and the rules give the same answers as computing afresh."""

from __future__ import annotations

from server.qc import inclusion, scores
from server.rules import check, check_dialog, check_many, learned, registry

TURNS = [
    {"role": "questioner", "text": "Hi! What does the sky look like?"},
    {"role": "answerer", "text": "It is pale blue, damn nice."},
    {"role": "questioner", "text": "What does the sky look like?"},
    {"role": "answerer", "text": "Yes."},
]


def _fresh() -> None:
    registry._profanity.clear()
    learned.default_model().logit_cache.clear()
    scores.sentiment.cache_clear()
    inclusion._content_words.cache_clear()


def test_rule_results_same_with_warm_and_cold_caches() -> None:
    _fresh()
    cold = [r.as_dict() for r in check_dialog(TURNS)]
    warm = [r.as_dict() for r in check_dialog(TURNS)]
    assert warm == cold
    assert registry._profanity and learned.default_model().logit_cache
    single = check("answerer", 1, TURNS[1]["text"], TURNS[:1])
    assert single.as_dict() == cold[1]


def test_logit_cache_belongs_to_its_model() -> None:
    _fresh()
    check_dialog(TURNS)
    small = learned.train(learned.load_training()[:300])
    messages = [{"role": t["role"], "round": 1, "text": t["text"]} for t in TURNS]
    judged = [r.as_dict() for r in check_many(messages, model=small)]
    assert small.logit_cache and small.logit_cache is not learned.default_model().logit_cache
    small.logit_cache.clear()  # computed afresh: the same verdicts
    assert [r.as_dict() for r in check_many(messages, model=small)] == judged


def test_text_caches_return_fresh_values() -> None:
    _fresh()
    words = inclusion.content_words("Trees and boats")
    words.add("mutated")
    assert inclusion.content_words("Trees and boats") == {"tree", "boat"}
    assert scores.sentiment("A happy sunny day") == scores.sentiment("A happy sunny day")


def test_verdicts_that_read_the_history_are_not_reused() -> None:
    question = "What colour is the horse in the field?"
    first = check("questioner", 2, question, [{"role": "questioner", "text": "Hello there"}])
    again = check("questioner", 3, question, [{"role": "questioner", "text": question}])
    assert "repeated_question" not in first.rule_ids
    assert "repeated_question" in again.rule_ids
    assert check("questioner", 2, question, [{"role": "questioner", "text": "Hello there"}]) == first


def test_full_profanity_cache_is_emptied_without_losing_the_texts_of_the_call(monkeypatch) -> None:
    """Bulk QC over more distinct texts than the cache holds: a dialog whose first texts were seen
    before the cache filled up must still be judged (a KeyError once stopped `qc_bench`)."""
    _fresh()
    monkeypatch.setattr(registry, "_CACHE_SIZE", 3)
    expected = [r.as_dict() for r in check_dialog(TURNS)]  # 4 texts > 3: emptied while judging
    registry._profanity.clear()
    check_dialog(TURNS[:2])  # two texts seen, then a call that has them and two new ones
    assert [r.as_dict() for r in check_dialog(TURNS)] == expected
