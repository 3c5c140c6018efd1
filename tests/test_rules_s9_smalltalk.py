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
    #
    # --- off_topic: the worker's household, commute, work and social life as asides -----------------------
    hit("off_topic", Q, "Sorry, my youngest just knocked over her juice. Is the cup full?"),
    hit("off_topic", Q, "Hang on, the dog is at the door."),
    hit("off_topic", Q, "Sorry, making the kids' dinner at the same time. Any birds?"),
    hit("off_topic", Q, "I've got the twins home sick today so I may be slow."),
    hit("off_topic", Q, "Sorry, on the train and the signal is awful. Is it night?"),
    hit("off_topic", Q, "Lost you there for a sec, went through a tunnel."),
    hit("off_topic", Q, "Sorry, rough night. Is the woman young?"),
    hit("off_topic", Q, "My manager is calling, quick, what is on the shelf?"),
    hit("off_topic", A, "I have a chemistry exam tomorrow so let's be quick."),
    hit("off_topic", Q, "Want to add me on Instagram after this?"),
    hit("off_topic", Q, "Who's your favourite band?"),
    hit("off_topic", Q, "I bet you're gorgeous."),
    hit("off_topic", Q, "You should come, I can show you around the old town."),
    hit("off_topic", Q, "Did you ride bikes a lot growing up?"),
    hit("off_topic", A, "I'm typing from a tiny flat in Leeds."),
    hit("off_topic", Q, "How long have you been married?"),
    hit("off_topic", A, "I'm happily married, twenty years this spring."),
    hit("off_topic", Q, "In Lisbon we eat this with boiled potatoes."),
    hit("off_topic", Q, "I saw a carpet like that in Istanbul."),
    hit("off_topic", A, "Oh nice, how do you like Glasgow?"),
    hit("off_topic", A, "Hope your son feels better soon."),
    hit("off_topic", Q, "That looks like my nan's old kitchen, honestly."),
    hit("off_topic", Q, "Do you do these often?"),
    clean("off_topic", Q, "Does the sky look like our sky at dusk in the painting?"),
    clean("off_topic", Q, "Do the women do this dance often in the picture?"),
    # near misses: the depicted household, journeys and people; a judgement asked of the artwork
    clean("off_topic", A, "The baby in the cradle is crying and the dog lies by the door."),
    clean("off_topic", A, "A woman sits on the train reading, and the signal lamp is red."),
    clean("off_topic", Q, "How do you find the painting overall?"),
    clean("off_topic", Q, "Do you like the painting yourself?"),
    clean("off_topic", A, "In the painting we see a market with fish stalls."),
    clean("off_topic", A, "The couple look married, the man holds her hand."),
    clean("off_topic", Q, "Sorry, making sure: is the boat red?"),
    #
    # --- off_topic: short replies that take up the partner's aside -------------------------------------
    hit("off_topic", A, "Aww, that's so sweet of her.", before="My niece painted a horse for me yesterday."),
    hit("off_topic", A, "Sounds like fun.", before="I go dancing every Friday with my friends."),
    hit(
        "off_topic",
        A,
        "Oh no, that must have been tough for him.",
        before="My dad worked nights at the mill.",
    ),
    hit("off_topic", A, "No thanks, I'd rather not.", before="Do you want to add me on Facebook later?"),
    hit("off_topic", A, "Bristol, born and raised.", before="Where are you from? I live in Cairo."),
    hit(
        "off_topic",
        Q,
        "Cool, I'm more of a jazz person.",
        before="I play guitar in a band in Bergen, do you like rock?",
    ),
    # near misses: a bare acknowledgement, a turn back to the artwork, an aside with an artwork question
    clean("off_topic", A, "Oh wow.", before="My dad worked nights at the mill."),
    clean("off_topic", Q, "Ha, fair. What is the man holding?", before="I used to be a tour guide, sorry."),
    clean(
        "off_topic",
        Q,
        "Fair enough. Tell me about the sky.",
        before="I go dancing every Friday with my friends.",
    ),
    clean("off_topic", A, "Red, with a white roof.", before="Sorry, rough night, what colour was the bus?"),
    clean(
        "off_topic",
        A,
        "Nice. The table has two lemons and a knife on it.",
        before="My grandfather made tables like this in Bari.",
    ),
]


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_rule(case: Case) -> None:
    assert_case(case)
