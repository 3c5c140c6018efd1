"""Session 13 (batch 19 as development data):

- asks_feelings: "wow, is it creepy tho lol": a judgement asked in the last clause after a reaction.
- generic_question: "anything else apart from the boat and the pier?" asks for anything but what was named.
- offensive: "ass" stressing a size before a noun ("a big ass ship") is crude; a donkey that walks or is
  loaded ("a big ass carrying sacks") is not.
- imposes_emotion: "it pains me to see it" is how the artwork makes the answerer feel; a farewell
  ("It was a pleasure, take care!", "Have a lovely evening!") judges nothing, also for the classifier.

Sentences written for this test; the detectors run without the classifiers unless a row says model=True.
"""

from __future__ import annotations

import pytest

from tests.rule_cases import A, Case, Q, assert_case, case_id, clean, hit

CASES: list[Case] = [
    hit("generic_question", Q, "Anything else apart from the boat and the pier?", before="A boat by a pier."),
    hit("generic_question", Q, "Is there anything else besides the two horses?", before="Two horses."),
    clean("generic_question", Q, "Anything red apart from the boat?", before="A boat by a pier."),
    clean("generic_question", Q, "Is the boat tied to the pier?", before="A boat by a pier."),
    hit("offensive", Q, "is it a big ass ship or a small one", before="A ship in a harbour."),
    hit("offensive", A, "a huge ass bridge over the river lol", before="What is over the river?"),
    clean("offensive", A, "A big ass carrying sacks walks behind the monk.", before="What animal is there?"),
    clean("offensive", A, "A small grey ass with baskets.", before="What animal is there?"),
    hit("imposes_emotion", A, "The boy is alone in the snow, it pains me to see it.", before="Is he alone?"),
    hit("imposes_emotion", A, "It hurts me to look at, all that mud.", before="Is the field muddy?"),
    clean("imposes_emotion", A, "His knee pains him, he is limping.", before="Why is he slow?"),
    clean("imposes_emotion", A, "It was a pleasure, take care!", before="Thanks for your help, bye!"),
    clean("imposes_emotion", A, "It was a pleasure, take care!", before="Thanks, bye!", model=True),
    clean("imposes_emotion", A, "Have a lovely evening!", before="Thanks, bye!", model=True),
    hit("imposes_emotion", A, "It is lovely to look at, so peaceful.", before="Thanks!"),
    hit("asks_feelings", Q, "wow, is it creepy tho lol", before="A doll with one eye."),
    hit("asks_feelings", Q, "ok, is it depressing then", before="A grey street in the rain."),
    clean("asks_feelings", Q, "wow, is it big tho lol", before="A ship."),
    clean("asks_feelings", Q, "ok, is the doll old then", before="A doll with one eye."),
]


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_case(case: Case) -> None:
    assert_case(case)
