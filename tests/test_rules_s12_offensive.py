"""Session 12 (batch 18 as development data): swearing as other Englishes and languages spell it.

An opening oath before a remark or an address ("Christ, man, ...", "Jesus Christ, sounds awful"), Irish,
Scots and South African spellings that are only ever oaths ("Jaysus", "bladdy", "blerrie"), "what the
hell" in Scots ("whit the hell"), Dutch and German "goddamn" ("godverdomme", "verdammt"), and "taking the
piss". Christ or Jesus named in a religious painting stays content.

Sentences written for this test; the detectors run without the classifiers. Each row: the rule, who
speaks, the message, whether the rule must fire, and what the partner said just before.
"""

from __future__ import annotations

import pytest

from tests.rule_cases import A, Case, Q, assert_case, case_id, clean, hit

CASES: list[Case] = [
    # an opening oath before a remark or an address
    hit("offensive", A, "Christ, mate, it's the same three cows as before.", before="Which animals?"),
    hit("offensive", Q, "Jesus, seriously? Is the barn red or not?", before="Can't tell."),
    hit("offensive", Q, "Christ, ye never say much. Is the lake frozen?", before="Lake."),
    # dialect spellings that only swear
    hit("offensive", A, "Jaysus, there's a goat on the roof of the cottage.", before="Anything odd?"),
    hit("offensive", Q, "My bladdy cat walked on the keyboard. Is the sky blue?"),
    hit("offensive", A, "The blerrie donkey is pulling a cart of melons.", before="What animal is it?"),
    hit("offensive", A, "Whit the hell are ye asking?", before="Is the sheep sad about the weather?"),
    # Dutch and German "goddamn"; "taking the piss"
    hit("offensive", Q, "Verdammt, wrong key. How many windows are there?"),
    hit("offensive", A, "Godverdomme, four windows.", before="How many windows?"),
    hit("offensive", A, "You're taking the piss now, it's a church.", before="Is it a barn?"),
    # Christ and Jesus in the artwork
    clean(
        "offensive",
        A,
        "Christ, at the top, sits on a rainbow with the apostles below.",
        before="Who is at the top?",
    ),
    clean(
        "offensive",
        A,
        "Jesus is carrying the cross up a hill, with soldiers behind.",
        before="What is happening?",
    ),
    clean("offensive", Q, "Is Christ wearing a red robe?", before="There is a man in the centre."),
    clean(
        "offensive", A, "A horse is drinking from a trough full of water.", before="What is the horse doing?"
    ),
]


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_case(case: Case) -> None:
    assert_case(case)
