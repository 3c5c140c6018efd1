"""The leave-one-author-out harness (``server.rules.crossauthor``): its pieces, not a full run (that
trains 42 models)."""

from server.rules import crossauthor, learned
from server.rules.config import RulesConfig
from server.rules.evaluate import SplitReport, evaluate, load_labeled, tally
from server.rules.registry import check_many


def test_config_for_runs_exactly_the_chosen_classifiers() -> None:
    cfg = crossauthor.config_for({"off_topic": 0.6, "generic_question": 0.55})
    assert cfg.classifier_threshold("off_topic") == 0.6
    assert cfg.classifier_threshold("generic_question") == 0.55
    # a classifier without a chosen threshold stays off, even one the shipped defaults run
    assert cfg.classifier_threshold("asks_feelings") is None
    assert cfg.classifier_threshold("offensive") is None
    # the rules' own detectors still run
    assert cfg.is_enabled("asks_feelings") and cfg.is_enabled("offensive")


def test_tally_of_given_verdicts_matches_evaluate_and_pooling_adds_up() -> None:
    records = load_labeled(crossauthor.batch_file(15))[:60]
    plain = RulesConfig(classifier=False)
    report = tally(records, check_many(records, plain))["all"]
    assert report == evaluate(records, plain)["all"]
    total = SplitReport()
    crossauthor.add(total, report)
    crossauthor.add(total, report)
    assert (total.messages, total.exact) == (2 * report.messages, 2 * report.exact)
    assert total.rules["not_a_question"].tp == 2 * report.rules["not_a_question"].tp
    summary = crossauthor.summary(total)
    assert set(summary["rules"]) == set(learned.LEARNED_RULES)


def test_the_held_out_authors_are_training_files_and_the_blind_batch_is_not() -> None:
    assert all(crossauthor.batch_file(n) in learned.TRAINING_FILES for n in crossauthor.AUTHORS)
    assert 21 not in crossauthor.AUTHORS
