"""The text classifiers' packed weight caches (``learned.Model._text_logits``) give the log-odds of
the float tuples summed in the live order, bit for bit: packing changes what is read, not the sums."""

from __future__ import annotations

import dataclasses
import math

from server.rules import learned
from server.rules import text as T
from server.rules.features import message_features, word_features, word_pair

TEXTS = [
    ("questioner", "What colour is the little boat on the left in panel 40213?"),
    ("answerer", "It is a pale, misty grey and my grandma had one like it, lol."),
    ("questioner", "how r u today? do you like it"),
    ("answerer", "Yes."),
    ("answerer", ""),
    ("answerer", "zzqx vvbn"),  # no known word: the message-wide features alone
]


def _tuple_logits(model: learned.Model, role: str, text: str, fired: tuple[str, ...]) -> tuple[float, ...]:
    """The sum over float tuples as the live path adds it: message features, then per word its own
    summed weights and its pair with the word before, then the closing pair."""
    words = T.words(T.normalise(text))

    def row(feature: str) -> list[tuple[float, ...]]:
        i = model.index.get(feature)
        return [] if i is None else [model.rows[i]]

    vectors = [r for f in message_features(role, text, words, 0.3, fired) for r in row(f)]
    n = len(vectors)
    prev = "<s>"
    for w in [*words, "</s>"]:
        if w != "</s>":
            known = [r for f in word_features(w) for r in row(f)]
            if known:
                vectors.append(tuple(sum(col) for col in zip(*known, strict=True)))
                n += len(known)
        pair = row(word_pair(prev, w))
        vectors += pair
        n += len(pair)
        prev = w
    if not n:
        return model.bias
    scale = 1.0 / math.sqrt(n)
    return tuple(b + sum(col) * scale for b, col in zip(model.bias, zip(*vectors, strict=True), strict=True))


def _fresh(model: learned.Model, **changes: object) -> learned.Model:
    """A copy with empty caches of its own (``dataclasses.replace`` alone would share them)."""
    caches = ("word_cache", "pair_cache", "step_cache", "head_cache", "logit_cache")
    return dataclasses.replace(model, **{name: {} for name in caches}, **changes)


def test_packed_sums_equal_the_tuple_sums_bit_for_bit() -> None:
    model = _fresh(learned.default_model())
    for fired in ((), ("greeting", "offensive")):
        for role, text in TEXTS:
            words = T.words(T.normalise(text))
            want = _tuple_logits(model, role, text, fired)
            assert model._text_logits(role, text, words, 0.3, fired) == want, (role, text)
            assert model._text_logits(role, text, words, 0.3, fired) == want  # from the caches
    assert model.step_cache and model.head_cache and model.word_cache


def test_an_unknown_message_scores_the_bias() -> None:
    model = learned.default_model()
    empty = _fresh(model, index={}, rows=[])
    assert empty._text_logits("answerer", "anything at all", ["anything", "at", "all"], 0.0, ()) == model.bias
