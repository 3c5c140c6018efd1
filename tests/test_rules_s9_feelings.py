"""Moods, verdicts and beauty asked of a part of the scene without "you" (asks_feelings) and told by the
answerer in the same words (imposes_emotion), each with near misses that must stay clean: what a
depicted person or animal visibly shows, plain visible facts, a choice between plain states, and chat
about something else.

The sentences are written for this test (not copied from the evaluation files). The detectors run
without the classifiers, so a test reads the rule's own code.
"""

from __future__ import annotations

import pytest

from tests.rule_cases import A, Case, Q, assert_case, case_id, clean, hit

CASES: list[Case] = [
    # --- "is/are/does/do X look/feel/seem ADJ" with an evaluative or scene-mood word -----------------
    hit("asks_feelings", Q, "Do the huts by the river look snug and homely?"),
    hit("asks_feelings", Q, "Is the old cathedral gloomy?"),
    hit("asks_feelings", Q, "Does the meadow feel idyllic in the evening light?"),
    hit("asks_feelings", Q, "Are the jagged red stripes violent, almost shouting?"),
    hit("asks_feelings", Q, "Is the old bridge gorgeous?"),
    hit("asks_feelings", Q, "Is the juggler impressive?"),
    hit("asks_feelings", Q, "Is the puppet show hilarious?"),
    hit("asks_feelings", Q, "So is the lighthouse majestic?"),
    hit("asks_feelings", Q, "Are the cakes on the counter appetising?"),
    hit("asks_feelings", Q, "Is the empty playground forgotten-looking?"),
    clean("asks_feelings", Q, "Is the sky misty and dark?"),
    clean("asks_feelings", Q, "Does the farmer look happy?"),
    clean("asks_feelings", Q, "Do the fishermen seem lonely on the pier?"),
    clean("asks_feelings", Q, "Does the dog look friendly?"),
    clean("asks_feelings", Q, "Is the girl wearing a pretty dress?"),
    clean("asks_feelings", Q, "Is the lake gloomy grey or bright blue?"),
    clean("asks_feelings", Q, "Is the tram moving?"),
    clean("asks_feelings", Q, "Is the cat's expression sleepy and funny?"),
    # --- the partner's view without a question word, and "would you say" --------------------------------
    hit("asks_feelings", Q, "You find the statue hideous?"),
    hit("asks_feelings", Q, "u think the mural is cringe"),
    hit("asks_feelings", Q, "Would you say the lanterns and the bare hall are mournful?"),
    hit("asks_feelings", Q, "Do you think the canyon looks dangerous to you?"),
    clean("asks_feelings", Q, "Do you think the man is angry?"),
    clean("asks_feelings", Q, "Would you say the soldiers look tired?"),
    # --- a judgement put up with a tag or a bare question mark -----------------------------------------
    hit(
        "asks_feelings",
        Q,
        "Someone scratched their name into the statue, that's disgraceful and tasteless right?",
    ),
    hit("asks_feelings", Q, "The reef looks like another world, no?"),
    hit("asks_feelings", Q, "The dumplings in the steamer look delicious?"),
    hit("asks_feelings", Q, "The silk and the pearls dazzling?"),
    hit("asks_feelings", Q, "So the skateboarder flying over the rail is straight fire?"),
    clean("asks_feelings", Q, "Your spelling is so cute, where do you live?"),
    clean("asks_feelings", Q, "Is there fire in the fireplace?"),
    # --- "is it ADJ that/to ...", "is it a ADJ NOUN", "in a ADJ way" ------------------------------------
    hit("asks_feelings", Q, "Is it heartbreaking that the children sleep in the street?"),
    hit("asks_feelings", Q, "Is it shocking to see the forest burnt like that?"),
    hit("asks_feelings", Q, "Is this a gloomy street?"),
    hit("asks_feelings", Q, "Is it the most romantic little bridge over a canal?"),
    hit("asks_feelings", Q, "Is it a spooky-looking attic?"),
    hit("asks_feelings", Q, "Is the old mill turning in a peaceful way?"),
    hit("asks_feelings", Q, "Do the wolves circle the sheep in a chilling way?"),
    clean("asks_feelings", Q, "Is that a good question? I am new at this."),
    clean("asks_feelings", Q, "Is it hard to see the boats?"),
    clean("asks_feelings", Q, "Is the waiter walking in a calm way?"),
    clean("asks_feelings", Q, "Is it a happy dog?"),
    hit("asks_feelings", Q, "Is it a good photo?"),
    clean("asks_feelings", Q, "Is it a good boat for fishing?"),
    # a depicted person's looks are content unless the partner is asked to judge them
    clean("asks_feelings", Q, "Is the bride gorgeous?"),
    hit("asks_feelings", Q, "Is the bride gorgeous to you?"),
    # --- a mood felt as a likeness of the scene ------------------------------------------------------
    hit("asks_feelings", Q, "Does the empty beach feel like the start of a perfect holiday?"),
    hit("asks_feelings", Q, "Do the lanterns on the river feel like a festive night?"),
    clean("asks_feelings", Q, "Do the children feel like they are having a good time?"),
    clean("asks_feelings", Q, "Does the blanket feel like wool?"),
    # --- the mood of a part, shivers given, a liking put for agreement -------------------------------
    hit("asks_feelings", Q, "What's the mood of the stormy harbour?"),
    hit("asks_feelings", Q, "Does the cellar door give chills?"),
    hit("asks_feelings", Q, "Don't you just adore those teacups?"),
    hit("asks_feelings", Q, "lol is that appetising"),
    clean("asks_feelings", Q, "What's the mood of the old fisherman?"),
    clean("asks_feelings", Q, "Does the woman give the child a blanket?"),
    # --- the adjective first (learners' word order) ----------------------------------------------------
    hit("asks_feelings", Q, "Is lovely the garden?"),
    clean("asks_feelings", Q, "Is happy the boy?"),
    # --- imposes_emotion: the scene's mood told with the shared lexicons ---------------------------------
    hit("imposes_emotion", A, "Honestly it's really festive.", before="Does the square feel festive?"),
    hit("imposes_emotion", A, "Yes, it feels very sombre."),
    hit("imposes_emotion", A, "Yes, a really witty and clever poster."),
    hit("imposes_emotion", A, "Such a gentle and tender painting."),
    hit("imposes_emotion", A, "the doll is creepy af"),
    hit("imposes_emotion", A, "A bit melancholic for me."),
    hit("imposes_emotion", A, "To me it's hostile, yes."),
    hit("imposes_emotion", A, "Serene and a bit nostalgic.", before="Is the lake restful?"),
    hit("imposes_emotion", A, "Ha yes very comical, the hats are enormous."),
    hit("imposes_emotion", A, "Three boats and a pier, very atmospheric."),
    hit("imposes_emotion", A, "The glacier is vast and majestic."),
    hit("imposes_emotion", A, "The old bell tower, with the fog around it, is magnificent."),
    hit("imposes_emotion", A, "It makes me kind of uneasy."),
    hit("imposes_emotion", A, "Ugh, it makes my blood boil."),
    hit("imposes_emotion", A, "Not my cup of tea."),
    hit("imposes_emotion", A, "Frankly it's a load of nonsense."),
    hit("imposes_emotion", A, "I find her a total hoot."),
    clean("imposes_emotion", A, "A bit lonely, yes.", before="Is the shepherd lonely?"),
    clean("imposes_emotion", A, "Lonely and cold.", before="Does the widow look lonely?"),
    clean("imposes_emotion", A, "Sad and tired.", before="How does the old fisherman look?"),
    clean("imposes_emotion", A, "Her face is red and angry."),
    clean("imposes_emotion", A, "The drummers look cheerful, the dancers too."),
    clean("imposes_emotion", A, "Nice. There is also a cat on the wall."),
    clean("imposes_emotion", A, "Interesting. The boat has two masts."),
    clean("imposes_emotion", A, "The varnish is old and dull."),
    clean("imposes_emotion", A, "The pay on this site is terrible."),
    clean("imposes_emotion", A, "Not my thing, I work nights."),
    clean("imposes_emotion", A, "The woman is beautiful, with long dark hair."),
    clean("imposes_emotion", A, "The sky is grey and the sea is calm."),
]


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_case(case: Case) -> None:
    assert_case(case)
