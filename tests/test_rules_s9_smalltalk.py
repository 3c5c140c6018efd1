"""Session-9 additions to ``greeting`` and ``off_topic``: courtesy in about forty languages (the phrase
book), thanks-plus-farewell combinations, replies to pleasantries, and personal asides with the short
replies to them, each with near misses that must stay clean.

The sentences are written for this test (not copied from the evaluation files). The detectors run without
the classifiers, so a test reads the rule's own code.
"""

from __future__ import annotations

import pytest

from tests.rule_cases import A, Case, Q, assert_case, case_id, clean, hit

_BYE = "Thanks for everything, goodbye!"  # the partner's courtesy that a reply answers
_PAUSE = "Sorry, the doorbell, give me a minute."  # the partner asks to wait

CASES: list[Case] = [
    # --- greeting: salutes of other languages opening a message, content may follow ---------------------
    hit("greeting", Q, "Bore da! What is the woman holding?"),
    hit("greeting", Q, "Selamat siang kak, is the sky cloudy?"),
    hit("greeting", Q, "Wha gwan, how many birds are there?"),
    hit("greeting", Q, "Sawasdee krap. Is the temple gold?"),
    hit("greeting", Q, "Dobroho ranku! Is there a river?"),
    hit("greeting", Q, "Assalamu alaikum sister, what is on the table?"),
    hit(
        "greeting",
        A,
        "Wa alaikum salam. A tall man stands by the door.",
        before="Salam alaikum, who is there?",
    ),
    hit("greeting", Q, "G'day, is the dog asleep?"),
    hit("greeting", Q, "Merhaba! How many chairs are there?"),
    # near misses: a halo, a depicted greeting asked about, a foreign word that is content
    clean("greeting", A, "Halo is golden and round above her head."),
    clean("greeting", Q, "Halo around the saint, what colour?"),
    clean(
        "greeting",
        A,
        "Goodbye, she is waving at the departing ship.",
        before="Is she waving hello or goodbye?",
    ),
    clean(
        "greeting", A, "Hello, the boy seems to be calling to his friend.", before="Is the boy saying hello?"
    ),
    clean("greeting", A, "Yes I think the boat is red."),
    #
    # --- greeting: messages that are only thanks, farewells and wishes, in many languages ----------------
    hit("greeting", Q, "Dziękuję, do zobaczenia!"),
    hit("greeting", Q, "Kiitos paljon, näkemiin."),
    hit("greeting", Q, "Hvala puno, vidimo se!"),
    hit("greeting", Q, "Köszönöm szépen!"),
    hit("greeting", Q, "Çok teşekkür ederim, hoşça kal."),
    hit("greeting", Q, "Makasih banyak ya kak, sampai ketemu lagi."),
    hit("greeting", Q, "Shukriya bhai, Khuda Hafiz."),
    hit("greeting", Q, "Cám ơn anh nhiều!"),
    hit("greeting", Q, "Khop khun ka!"),
    hit("greeting", Q, "Mersi mult, la revedere!"),
    hit("greeting", Q, "Diolch, hwyl fawr!"),
    hit("greeting", Q, "Tack så mycket, hej då!"),
    hit("greeting", Q, "Merci beaucoup, bonne soirée!"),
    hit("greeting", Q, "Obrigado, até logo!"),
    hit("greeting", A, "Sama sama kak!", before=_BYE),
    hit("greeting", A, "De rien, bonne journée!", before=_BYE),
    hit("greeting", A, "Prego, ciao ciao.", before=_BYE),
    hit("greeting", A, "고맙습니다!"),
    hit("greeting", A, "Bitte schön, tschüss!", before=_BYE),
    hit("greeting", A, "Karibu, kwa heri.", before=_BYE),
    hit("greeting", Q, "Thanks heaps, ka kite anō."),
    # "how are you" in another language anywhere in a message
    hit("greeting", Q, "Wie geht es dir? Is the horse brown?"),
    hit("greeting", Q, "Ça va? What is the girl holding?"),
    hit("greeting", Q, "Kumusta ka? How many boats?"),
    # a wish in another language closing a message
    hit("greeting", Q, "Is the lamp lit? Iyi günler!"),
    # near misses: a foreign word answering about the artwork, an English word that is also courtesy
    clean("greeting", A, "Bitte is written on the sign above the door."),
    clean("greeting", A, "Fine."),
    clean("greeting", A, "Night.", before="Is it day or night in the painting?"),
    clean("greeting", A, "Same as before, the red one."),
    clean("greeting", A, "The tack on the horse is leather."),
    clean("greeting", Q, "Prego is written on the jar, what else?"),
    #
    # --- greeting: English thanks, farewells and leaving combined --------------------------------------
    hit("greeting", Q, "kk thx byeeee"),
    hit("greeting", Q, "Thanks so much, bye now. I have to run, the bus is here."),
    hit("greeting", Q, "Thank you, I must go now, dinner is on the table."),
    hit("greeting", Q, "I see, thank you very much for kind answers."),
    hit("greeting", Q, "Cheers pal, you've been brilliant. Take care!"),
    hit("greeting", Q, "Sweet as, ta, catch you later."),
    hit("greeting", Q, "Thanks a ton, that was really helpful. Safe travels!"),
    hit("greeting", A, "You're welcome, you too!", before=_BYE),
    hit("greeting", A, "Night night!", before=_BYE),
    hit("greeting", Q, "Thank you, have a blessed evening."),
    # near misses: thanks before a real question, a leaving that asks, content with a thanks at the end
    clean("greeting", Q, "Thanks. Is the man old?"),
    clean("greeting", Q, "I see. Is the man old?"),
    clean("greeting", A, "The bus is red and it is leaving, thanks."),
    clean("greeting", Q, "I must go back to the dog: is it black?"),
    #
    # --- greeting: replies to pleasantries and to a request for a pause ---------------------------------
    hit("greeting", A, "No worries, take your time.", before=_PAUSE),
    hit("greeting", A, "Sure, take your time!", before="Hold on, one sec."),
    hit("greeting", A, "No bother at all."),
    hit("greeting", Q, "Can't complain, ta. What's on the wall?", before="Good thanks, you?"),
    hit("greeting", A, "Not too bad, and yours?", before="Hi! How's your morning been?"),
    hit("greeting", A, "Likewise! The picture is a busy market.", before="Hello, lovely to meet you."),
    hit("greeting", Q, "Alhamdulillah. Is the mosque white?", before="I'm fine, thank you."),
    # near misses: "take your time" after an aside that asks for no pause, "likewise" about the artwork
    clean("greeting", A, "Take your time.", before="I am slow today, I worked all night."),
    clean("greeting", A, "Likewise, the second dog is brown.", before="The first dog is brown?"),
    clean(
        "greeting", A, "Not too bad, a little faded at the edges.", before="Is the paint in good condition?"
    ),
]


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_rule(case: Case) -> None:
    assert_case(case)
