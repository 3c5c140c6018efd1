"""Session-8 additions to the rules, each with near misses that must stay clean.

The sentences are written for this test (not copied from the evaluation files). The detectors run
without the classifiers, so a test reads the rule's own code. One table holds every case: the rule, the
message, whether the rule must fire (``hit``) or stay quiet (``clean``), who speaks, and what came before.
"""

from __future__ import annotations

import pytest

from tests.rule_cases import A, Case, Q, assert_case, case_id, clean, hit

_SIGN_OFF = "Thanks, that is all from me."  # the questioner's last message before a foreign farewell


CASES: list[Case] = [
    # --- non_english: a message made only of foreign greetings, thanks and farewells -------------------
    # foreign courtesy alone is not English
    hit("non_english", A, "Ciao ciao!", before=_SIGN_OFF),
    hit("non_english", A, "Xin chào!", before=_SIGN_OFF),
    hit("non_english", A, "Slán abhaile!", before=_SIGN_OFF),
    hit("non_english", A, "Merci beaucoup!", before=_SIGN_OFF),
    hit("non_english", A, "Au revoir!", before=_SIGN_OFF),
    hit("non_english", A, "Tschüss, danke schön!", before=_SIGN_OFF),
    # courtesy with an English word, or English only, stays English
    clean("non_english", A, "Cheers, totsiens!", before=_SIGN_OFF),  # English beside foreign
    clean("non_english", A, "Hola, is the fox asleep under the table?", before=_SIGN_OFF),
    clean("non_english", A, "Go on then.", before=_SIGN_OFF),  # courtesy words English too
    clean("non_english", A, "Hoi!", before=_SIGN_OFF),
    clean("non_english", A, "Thanks, bye!", before=_SIGN_OFF),
    #
    # --- generic_question: "what is in the picture" in Afrikaans/Dutch, German, Irish, Vietnamese, CJK ---
    # the generic request in more languages: generic, and not English
    hit("generic_question", Q, "Wat is op die skildery?"),
    hit("non_english", Q, "Wat is op die skildery?"),
    hit("generic_question", Q, "Goeiedag! Wat sien jy?"),
    hit("non_english", Q, "Goeiedag! Wat sien jy?"),
    hit("generic_question", Q, "Was ist in dem Gemälde zu sehen?"),
    hit("non_english", Q, "Was ist in dem Gemälde zu sehen?"),
    hit("generic_question", Q, "Cad atá ar an bpictiúr?"),
    hit("non_english", Q, "Cad atá ar an bpictiúr?"),
    hit("generic_question", Q, "Bức tranh này có gì?"),
    hit("non_english", Q, "Bức tranh này có gì?"),
    hit("generic_question", Q, "この写真には何が写っていますか？"),
    hit("non_english", Q, "この写真には何が写っていますか？"),
    hit("generic_question", Q, "这张照片上有什么？"),
    hit("non_english", Q, "这张照片上有什么？"),
    # foreign questions about a part stay specific
    clean("generic_question", Q, "Wat is die kleur van die perd?"),  # asks about a part
    clean("generic_question", Q, "Was ist auf dem Tisch?"),
    clean("generic_question", Q, "Cad atá ina láimh aici?"),
    clean("generic_question", Q, "この絵の犬は何色ですか？"),
    clean("generic_question", Q, "这幅画里的狗是什么颜色？"),
    clean("generic_question", Q, "What is the colour of the photo frame?"),
    # an Irish question is not English; English with Irish-looking words stays English
    hit("non_english", Q, "Conas atá an spéir?"),
    hit("non_english", Q, "Cad atá ar an bpictiúr, a chara?"),
    clean("non_english", Q, "Is the cad in the picture holding a cane?"),
    clean("non_english", Q, "Is the man on the left an Irish farmer, with a cap on?"),
    #
    # --- generic_question: spoken forms of regional English, the sculpture as the artwork ---------------
    # the generic request in spoken forms
    hit("generic_question", Q, "What's goin on in this one?"),
    hit("generic_question", Q, "Howdy folks! What's happenin in the picture?"),
    hit("generic_question", Q, "Hey y'all, whatcha got?"),
    hit("generic_question", Q, "What does the sculpture look like?"),
    hit("generic_question", Q, "What's the painting look like?"),
    # spoken forms about a part stay specific
    clean("generic_question", Q, "Where is the man goin with the cart?"),
    clean("generic_question", Q, "Whatcha see in the top corner?"),
    clean("generic_question", Q, "What does the dog look like?"),
    clean("generic_question", Q, "What is the sculpture made of?"),
    clean("generic_question", Q, "Hey y'all! Is the dog asleep?"),
    #
    # --- offensive: regional name-calling, "bloody" opening a sentence, foreign swearing ----------------
    # regional and foreign insults
    hit("offensive", A, "Two boats, as I wrote. Keep up, you utter plank."),
    hit("offensive", A, "Read it again, dipstick."),
    hit("offensive", A, "It's a horse, you eejit."),
    hit("offensive", A, "Some muppet's left the gate open in the corner."),
    hit("offensive", A, "For feck's sake, it is the same tree."),
    hit("offensive", A, "Green. Bloody pointless question."),
    hit("offensive", A, "Four bloody ducks on the pond, like I said."),
    hit("offensive", A, "Azul, caralho, I said it already."),
    hit("offensive", A, "hell knows what that thing is"),
    # the same words used literally stay polite
    clean("offensive", A, "A plank of wood lies across the stream."),
    clean("offensive", A, "The carpenter holds a tool in his right hand."),
    clean("offensive", A, "A donkey stands by the well."),
    clean("offensive", A, "The soldier fell. Bloody bandages lie beside him."),
    clean("offensive", A, "Three bloody soldiers lie in the snow."),
    clean("offensive", A, "Hell, fire and demons fill the right panel."),
    clean("offensive", A, "Heaven knows why the man is running."),
    #
    # --- imposes_emotion: the artwork called names -----------------------------------------------------
    # verdicts made of insults
    hit("imposes_emotion", A, "The mural is junk, a toddler could do better."),
    hit("imposes_emotion", A, "A monkey could have done this."),
    hit("imposes_emotion", A, "Honestly, a complete waste of canvas."),
    hit("imposes_emotion", A, "This picture is rubbish, just three stripes."),
    # descriptions with the same words impose nothing
    clean("imposes_emotion", A, "The picture is trash bags piled by the road."),
    clean("imposes_emotion", A, "A baby could be sleeping in the cradle, it is hard to see."),
    clean("imposes_emotion", A, "The monkey could reach the bananas if it stretched."),
    clean("imposes_emotion", A, "The painter wasted no paint on the sky, it is bare canvas."),
    #
    # --- repeated_question: asked again on purpose, chat lead-ins and spellings, statements ------------
    # reworded repeats ("again" asks an open question after a closed one on purpose)
    hit("repeated_question", Q, "What is the bowl made of again?", asked="Is the bowl made of clay?"),
    hit("repeated_question", Q, "How tall was the tower again?", asked="Is the tower high?"),
    hit("repeated_question", Q, "ugh. how many cups?", asked="How many cups are there?"),
    hit("repeated_question", Q, "hang on how many cups was it", asked="ugh. how many cups?"),
    hit("repeated_question", Q, "whats on the far wall", asked="What is on the far wall?"),
    hit("repeated_question", Q, "wtf is that dog", asked="What is the dog?"),
    hit("repeated_question", Q, "kk last one, is the bucket full", asked="Is the bucket full of water?"),
    hit("repeated_question", Q, "What is he holding?", asked="What is the hiker holding?"),
    # "side" frames the place
    hit("repeated_question", Q, "Who is standing on the right side?", asked="Who is on the right?"),
    # a statement repeats no question
    clean(
        "repeated_question",
        Q,
        "Ok so the bowl is clay and the cup is tin.",
        asked="Is the bowl made of clay and the cup of tin?",
    ),
    # new questions are not repeats (another quality of the bowl, no "again")
    clean("repeated_question", Q, "What colour is the bowl?", asked="Is the bowl made of clay?"),
    clean("repeated_question", Q, "Why is the tower so tall?", asked="Is the tower high?"),
    clean("repeated_question", Q, "ugh. how many dogs?", asked="How many cups are there?"),
    clean("repeated_question", Q, "What is she holding?", asked="What is the old man holding?"),
    clean("repeated_question", Q, "Who is standing on the right side?", asked="Who is on the left?"),
    #
    # --- not_a_question: chat openers and an emoji before the question ---------------------------------
    # chat openers before a question
    clean("not_a_question", Q, "soz 😅 is there a bench"),
    clean("not_a_question", Q, "lol 😂 r they dancing"),
    clean("not_a_question", Q, "hang on how many boats was it"),
    clean("not_a_question", Q, "sorry what colour was her hat"),
    # chat statements stay statements
    hit("not_a_question", Q, "The dog is cute 😂 lol"),
    hit("not_a_question", Q, "Ugh, the dog is ugly."),
    hit("not_a_question", Q, "Sorry, I was away."),
    #
    # --- greeting: chat acknowledgements before thanks, Portuguese hellos; IM tokens are no mashing ------
    # chat courtesy is a greeting
    hit("greeting", Q, "kk thx"),
    hit("greeting", Q, "Ha, thanks for all the detail anyway."),
    hit("greeting", Q, "oii tudo bem?"),
    hit("greeting", A, "Tudo e você?"),
    # content after the same words is no greeting
    clean("greeting", A, "Ha, the goat is chewing a hat."),
    clean("greeting", Q, "Anyway, what is the dog doing?"),
    clean("greeting", A, "The oil lamp is lit."),
    clean("greeting", Q, "K, is the dog black?"),
    # vowelless chat words are English; a keyboard mash is not; "vc" is chat language
    clean("non_english", Q, "thx"),
    clean("non_english", Q, "nvm"),
    hit("non_english", Q, "jjjjj kkkkl"),
    hit("chat_language", A, "Tudo e vc?"),
]


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_rule(case: Case) -> None:
    assert_case(case)
