"""Thresholds of the semantic per-rule classifiers, chosen by cross-validation.

``python -m server.qc.semantic_rules --write`` rewrites this file: per rule, the lowest probability
at which "live rule OR classifier" kept a cross-validated precision of at least 0.97 (or the live
rule's own, where that is lower) on the training lines. A rule missing here has no semantic
finding by default (its classifier added nothing within the limits). The thresholds belong to the
training data whose fingerprint is ``TUNED_ON``; a test fails when the data change without
re-tuning. Plain Python: ``server.qc.semantic_flags`` reads it without NumPy or torch.
"""

TUNED_ON = "b4a8b724c6540d5b"
THRESHOLDS: dict[str, float] = {
    "off_topic": 0.54,
    "asks_feelings": 0.76,
    "generic_question": 0.51,
    "imposes_emotion": 0.53,
}
