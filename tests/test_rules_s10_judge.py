"""Session 10: greetings and chitchat in more voices and languages, feelings asked and told indirectly.

Rows for the wordings the earlier detectors let through (a laugh or apology before the hello, Sinhala,
Haitian Creole and Swahili courtesy, well-being answered in another language; the worker's household on
their lap, places named in passing, the partner's origin or trade asked; the partner's liking asked in
other languages or without "do"; a bare degree or lukewarm verdict answering a feelings question), each
with near misses that must stay clean. The sentences are written for this test (not copied from the
evaluation files). The detectors run without the classifiers, so a row reads the rule's own code.
"""

from __future__ import annotations

import pytest

from tests.rule_cases import A, Case, Q, assert_case, case_id, clean, hit

CASES: list[Case] = [
    # --- greeting: salutes after a laugh or apology, more languages, well-being replies ----------------
    hit("greeting", Q, "Oops, sorry! Hi there, is the boat wooden?"),
    hit("greeting", Q, "Haha, hello! What is on the table?"),
    hit("greeting", Q, "Ayubowan! Is there a temple in it?"),
    hit("greeting", Q, "Bonswa! Ki koulè machin nan?"),
    hit("greeting", A, "Good night, sleep well."),
    hit("greeting", A, "Pole sana, rafiki. Karibu!"),
    hit("greeting", Q, "ok thanks da, nice chatting"),
    hit("greeting", Q, "gg ty"),
    hit("greeting", A, "Muy bien, gracias. The boat is red.", before="Hola! Como estas? How are you?"),
    hit("greeting", A, "Salama, I am fine too.", before="Hi! I am good thanks, and you?"),
    hit("greeting", A, "exhausted, long day at work", before="hows your evening going"),
    clean("greeting", A, "Oh, the man in the corner is waving."),
    clean("greeting", A, "Sorry, the sky is grey, not blue."),
    clean("greeting", A, "Good night scene with a full moon over the lake."),
    clean("greeting", A, "Fine brushwork, very thin lines.", before="Is the surface facing left?"),
    clean("greeting", A, "What?", before="Selamat pagi, apa kabar?"),
    # --- off_topic: the household, places in passing, the task, the partner's origin or trade ----------
    hit("off_topic", Q, "Sorry, puppy asleep on my lap. Is the bridge made of stone?"),
    hit("off_topic", Q, "Thanks, got to pick up my youngest from daycare now."),
    hit("off_topic", Q, "My abuela had a shawl like that. What colour is the scarf?"),
    hit("off_topic", Q, "Greetings from Rotterdam! Is there water in it?"),
    hit("off_topic", Q, "In Lisbon every tram is yellow like that."),
    hit("off_topic", A, "Same in Glasgow, it never stops raining.", before="It rains all day here."),
    hit("off_topic", Q, "Are you a hairdresser or something? You notice every curl."),
    hit("off_topic", Q, "Are you from Kerala? Your spelling looks like my cousin's."),
    hit("off_topic", A, "Done, submitting now. Bye!"),
    hit("off_topic", A, "Honestly they should pay us more for these."),
    hit("off_topic", Q, "Woher kommst du? Ist der Himmel blau?"),
    hit("off_topic", A, "Rough luck mate", before="My boss shouted at me all day at work."),
    hit(
        "off_topic",
        A,
        "Kingston, man! The sailor in front wears a striped shirt and a red cap.",
        before="What is the sailor wearing? Also where are you from?",
    ),
    hit(
        "off_topic",
        A,
        "All well, thank you. The picture shows three cows under an oak.",
        before="Good evening. How are your kids?",
    ),
    clean("off_topic", A, "A mother with a baby on her lap, both smiling."),
    clean("off_topic", Q, "Is there a baby on the woman's lap?"),
    clean("off_topic", Q, "Is the woman a teacher?"),
    clean("off_topic", A, "Stunning, I would hang it in my room.", before="Is the poster pretty?"),
    clean("off_topic", A, "The girl is from the village, she carries water.", before="Who is she?"),
    clean(
        "off_topic",
        A,
        "Yes! The figure in front wears a long red coat and a black hat with a feather.",
        before="What does he wear? Where are you from?",
    ),
    # --- asks_feelings: liking asked without "do", in other languages, verdicts and moods of the whole ----
    hit("asks_feelings", Q, "How much you enjoy the painting?"),
    hit("asks_feelings", Q, "So you feel sad looking at it?"),
    hit("asks_feelings", Q, "Does the fog make you shudder?"),
    hit("asks_feelings", Q, "Is the wet rock making you dizzy?"),
    hit("asks_feelings", Q, "Vind je het mooi?"),
    hit("asks_feelings", Q, "Qu'en penses-tu, du tableau?"),
    hit("asks_feelings", Q, "Kamu suka lukisannya?"),
    hit("asks_feelings", Q, "이 그림 느낌이 어때요?"),
    hit("asks_feelings", Q, "gloomy or cosy"),
    hit("asks_feelings", Q, "Creepy?"),
    hit("asks_feelings", Q, "One quick thing: sad or hopeful?"),
    hit("asks_feelings", Q, "Is it even art?"),
    hit("asks_feelings", Q, "Is it skilfully painted or just a mess?"),
    hit("asks_feelings", Q, "Does the scaffolding spoil the view?"),
    hit("asks_feelings", Q, "Do the lanterns make the street feel cosy?"),
    hit("asks_feelings", Q, "Please tell me, the picture is lovely or dull?"),
    hit("asks_feelings", Q, "What message is behind the broken clock, would you say?"),
    hit("asks_feelings", Q, "Is the general mood of the harbour tense?"),
    hit("asks_feelings", Q, "Would you travel to see it?"),
    hit("asks_feelings", Q, "Is it a painting that leaves you speechless?"),
    clean("asks_feelings", Q, "red or green"),
    clean("asks_feelings", Q, "Blue?"),
    clean("asks_feelings", Q, "Is it art deco?"),
    clean("asks_feelings", Q, "Does the rain make the street wet?"),
    clean("asks_feelings", Q, "Does she feel the cold in that thin dress?"),
    clean("asks_feelings", Q, "I play in an amateur band, so what instruments are there?"),
    clean("asks_feelings", Q, "Wat is er op de foto?"),
    # --- imposes_emotion: a degree or lukewarm verdict answering a feelings question, and more wordings -
    hit("imposes_emotion", A, "A little bit.", before="Does it make you uneasy?"),
    hit("imposes_emotion", A, "Yes, very much so.", before="Do you like it?"),
    hit("imposes_emotion", A, "It's okay I suppose.", before="Do you like the painting?"),
    hit("imposes_emotion", A, "Yes, quite lonely, nobody else around.", before="Is it a lonely scene?"),
    hit("imposes_emotion", A, "Lovely is the word."),
    hit("imposes_emotion", A, "The snow is deep. Bleak and stifling, if you ask me."),
    hit("imposes_emotion", A, "A hare in the grass, it's the cutest thing."),
    hit("imposes_emotion", A, "It really hits you hard, all those names."),
    hit("imposes_emotion", A, "It's real soothing to look at."),
    hit("imposes_emotion", A, "Makes me miss my old street."),
    hit("imposes_emotion", A, "Bahut sundar hai."),
    hit("imposes_emotion", A, "Да, очень красиво."),
    clean("imposes_emotion", A, "Yes.", before="Is it sad?"),
    clean("imposes_emotion", A, "A little bit.", before="Is the boat far from the shore?"),
    clean(
        "imposes_emotion", A, "Not lonely, there are people in the windows.", before="Is it a lonely scene?"
    ),
    clean("imposes_emotion", A, "The light hits the water on the left."),
    clean("imposes_emotion", A, "It is the biggest boat in the harbour."),
    clean("imposes_emotion", A, "In my opinion the man is about forty."),
    clean("imposes_emotion", A, "The dog is real big and brown."),
]


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_case(case: Case) -> None:
    assert_case(case)
