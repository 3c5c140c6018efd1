"""Default classifier thresholds, chosen by cross-validation (``python -m server.rules.tune``).

Each is the lowest probability at which the rule, OR-ed with its classifier, kept a
cross-validated precision of at least 0.97 on the training lines. They belong to the training data
whose fingerprint is ``TUNED_ON``; a test fails when the data change without re-tuning.
"""

TUNED_ON = "506a6aaf2f8a714e"
DEFAULT_THRESHOLDS: dict[str, float] = {
    "off_topic": 0.51,
    "offensive": 0.52,
    "asks_feelings": 0.55,
    "generic_question": 0.51,
    "imposes_emotion": 0.51,
}
