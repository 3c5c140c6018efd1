"""The text classifiers' per-word steps (``learned.Model.step_cache``) give the log-odds of the
features computed afresh, bit for bit on a second pass and to rounding against the training features."""

from __future__ import annotations

import math

from server.rules import learned
from server.rules import text as T
from server.rules.features import text_features

TEXTS = [
    ("questioner", "What colour is the little boat on the left?"),
    ("answerer", "It is a pale, misty grey and my grandma had one like it, lol."),
    ("questioner", "how r u today? do you like it"),
    ("answerer", "Yes."),
    ("answerer", ""),
    ("questioner", "gloominess everywhere... gloominess!"),
]


def _reference(model: learned.Model, role: str, text: str, fired: tuple[str, ...]) -> list[float]:
    """The linear model over ``text_features`` (the training features), summed in their own order."""
    words = T.words(T.normalise(text))
    rows = [
        model.rows[i]
        for f in text_features(role, text, words, 0.0, fired)
        if (i := model.index.get(f)) is not None
    ]
    if not rows:
        return list(model.bias)
    scale = 1.0 / math.sqrt(len(rows))
    return [b + sum(col) * scale for b, col in zip(model.bias, zip(*rows, strict=True), strict=True)]


def test_cached_steps_agree_with_the_training_features() -> None:
    model = learned.default_model()
    model.step_cache.clear()
    for fired in ((), ("greeting",)):
        for role, text in TEXTS:
            words = T.words(T.normalise(text))
            cold = model._text_logits(role, text, words, 0.0, fired)
            assert model._text_logits(role, text, words, 0.0, fired) == cold  # the steps now cached
            for got, want in zip(cold, _reference(model, role, text, fired), strict=True):
                assert math.isclose(got, want, rel_tol=1e-12, abs_tol=1e-12), (role, text, fired)
    assert model.step_cache
