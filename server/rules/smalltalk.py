"""Greetings and off-topic chitchat: the conversation should be about the artwork from the first word.

Both rules look for fixed phrases with precompiled regexes over the normalised text. Greetings only
count at the start of a message (a woman "waving hello" in the painting is content); well-being
questions, farewells and bare courtesy messages count anywhere.
"""

from __future__ import annotations

import re

from server.rules import phrasebook as PB
from server.rules import text as T
from server.rules.base import ROLES, Context, Rule
from server.rules.prefix import PrefixGate
from server.rules.questions import few_needs
from server.rules.rule_configs import GreetingConfig, OffTopicConfig  # noqa: F401 (re-exported)

_YOU = r"(?:you|u|ya)"

# Salutations of chat and of other languages that workers open with ("heyy", "hii", "ciao", "hola").
_SALUTATIONS = (
    r"hi+|hello+|hey+(?: hey+)?|hiya+|howdy|greetings|yo+|heya+|heyo|sup|wass?up|wazz?up|"
    r"helo+|hai|hullo|hellu|ello|hey ya|top of the morning|dear (?:partner|friend)|"
    # regional English (Irish, South African, Australian); "alright?" or "alright mate" as a hello (a bare
    # "alright," before content acknowledges)
    r"howya|howaya|how'?ya|howzit|howsit|heita|alright(?=\s*\?| (?:mate|pal|love|bud|m8)\b)|"
    # and the opening salutes of other languages (phrasebook.py)
    rf"{PB.GREETING_RE}"
)
# an honorific or a Nigerian "oga" before the salute ("Oga good morning o."), or a laugh or apology
# ("Ha, sorry! Hello, what is in the photo?")
_HONORIFIC_FIRST = (
    r"(?:(?:ha+|haha+|hehe|lol|oh|ah|oops|sorry|ok|okay|well|um+|erm|aye|och)[,!.]* ){0,2}"
    r"(?:(?:oga|sir|madam|ma'?am|aunty|uncle|boss|bro)[,!]? )?"
)
_GREETING_START = re.compile(
    # "good evening light falls..." describes; "good evening!" greets
    rf"^{_HONORIFIC_FIRST}(?:{_SALUTATIONS}"
    r"|good (?:morning|afternoon|evening|day|night)"
    r"(?=\s*(?:[,.!;:]|$| to (?:you|u)| there| all| everyone| partner| po\b| ji\b| sir\b| ma\b| mam\b"
    r"| ma'am\b| madam\b| oga\b| o\b| boss\b))"
    r"|(?:morning|evening)(?=\s*[!.]*$)|(?:good )?(?:morning|afternoon|evening|mornin'?)(?=\s*!))"
    r"(?:\s+(?:there|all|friend|partner|mate|buddy|everyone|"
    r"again))?\b(?![\-'])"
)
_SMALLTALK = re.compile(
    "|".join(
        [
            rf"\bhow (?:are|r|re) {_YOU}(?: doing| today| doing today| feeling today| going)?"
            r"\s*(?:[?!.,;]|$)",
            r"\bhow(?:'s|s| is| are) (?:it going|things|everything|life|you doing)\b"
            r"(?! (?:in|at|over|where|there)\b)",
            rf"\bhow (?:have|ve) {_YOU} been\b",
            # the partner's family and health: "How is your family?", "how are your kids"
            r"\bhow(?:'s|s| is| are) (?:your|ur) "
            r"(?:family|families|wife|husband|kids|children|parents|health)"
            r"\s*(?:(?:today|doing|ma|sir|madam|po|ji)\s*)?(?:[?!.,;]|$)",
            # well-being asked in Russian, Polish, Hindi, Swahili, Yoruba
            r"\bкак (?:дела|вы|ты|поживаете)\b|\bjak si[eę] (?:masz|macie)\b|\bco s[lł]ycha[cć]\b|"
            r"\b(?:aap )?kaise (?:ho|hain|hai)\b|\bu hali gani\b|\bhabari za\b|\bbawo ni\b",
            r"\bhow(?:'s|s| is) (?:your|ur) day(?: going| been)?\s*(?:so far\s*)?(?:[?!.,;]|$)",
            # "enjoy the rest of your day", "enjoy your evening"
            r"\benjoy (?:the rest of )?(?:your|ur) (?:day|evening|night|weekend|afternoon|morning)\b",
            r"\bwhat'?s up\b",
            r"\b(?:nice|good|pleased|glad|great) to (?:meet|chat with|talk to|work with|see) (?:you|u|ya)\b",
            r"\bhope (?:you|u)(?:'re| are)? (?:doing )?(?:well|good|fine|ok|okay)\b",
            r"\bhope (?:you|u) (?:have|had|are having) a (?:good|nice|great|lovely)\b",
            r"(?:^|[,.!;] )(?:i'?m|i am) (?:fine|good|great|ok|okay|doing (?:well|good|fine|great)|well)\b"
            r"(?! (?:at|with|in|to|for|on)\b)",
            rf"^(?:and|how about|what about) {_YOU}\s*\??$",
            # a reply to "how are you" that asks back: "Good and you?", "not bad, yourself?"
            rf"^(?:i'?m |im |i am )?(?:fine|good|great|well|ok|okay|not bad|all good|alright|doing well)"
            rf"(?:,? thanks| thank {_YOU})?[,.!]? (?:and|how about|what about) (?:{_YOU}|yourself)\b"
            rf"|^(?:i'?m |im |i am )?(?:fine|good|great|not bad|doing well)[,.!]? (?:{_YOU}|yourself)\s*\?",
            # "fine thanks", "not bad, thank you": well-being answered (an acknowledgement "great, thanks"
            # before content is not)
            rf"^(?:i'?m |im |i am )?(?:(?:very|really|pretty|quite|all) )?(?:fine|not bad|doing (?:well|good|"
            rf"fine|great|ok|okay|alright))(?:,? (?:thanks|thank {_YOU}|thx|ty|cheers)\b)"
            rf"|^(?:i'?m |im |i am )?(?:very|really|pretty|quite|all) (?:well|good|great)(?: here)?[,.!]? "
            rf"(?:thanks|thank {_YOU}|thx|cheers)\b",
            # the farewell at the start of a longer message: "Bye, and the tree is black", "bye then"
            rf"^(?:ok(?:ay)?,? |alright,? |well,? )?(?:good ?bye|bye(?: bye)?|cya|see ya|see {_YOU} later|"
            r"farewell)"
            r"(?: then| now| for now| all| everyone)?(?=\s*(?:[,.!;]|$))",
            # leaving the chat at the end of a message: "my mom is calling, gtg", "ok I have to go now"
            r"(?:^|[,.!;] |\b(?:ok|okay|so|sorry|anyway|now) )(?:gtg|g2g|gotta go|(?:i )?(?:got to|have to|"
            r"need to|must) go)(?: now)?\s*[!.]*$|\w gtg\s*[!.]*$",
            # a farewell with the partner's name or a word of address: "see ya Kenji!", "bye mate"
            r"(?:^|[,.!;] )(?:good ?bye|bye|cya|see ya) [a-z]+\s*[!.]*$",
            # the answer to "have a good day": "you too!", "thanks, you too"
            rf"^(?:(?:thanks|thank {_YOU}|thx|cheers|same|and|ta)[,!. ]+)?{_YOU} too\b\s*(?:[,.!]|$)"
            rf"|^(?:(?:thanks|thank {_YOU}|thx|cheers)[,!. ]+)?(?:same to {_YOU}|take care)\s*(?:[,.!]|$)",
            rf"\b(?:good ?bye|bye(?: bye)?|see {_YOU}(?: later| around| soon)?|"
            r"take care|farewell|cheers|cya|see ya|ttyl|later(?:s)?|laters|bye for now|god bless(?: you)?|"
            # regional English: "hooroo", "tara", "toodle-oo"
            r"all the best|hooroo|ta-?ra|cheerio|toodle-?oo|ttfn|catch (?:you|ya|u) later|"
            # farewells of other languages that workers end with ("Auf Wiedersehen", "adiós", "ó dàbọ̀")
            rf"{PB.FOREIGN_FAREWELL_RE}|"
            # blessings as a farewell: "wishing you blessings", "blessings to you too"
            r"wishing (?:you|u) (?:blessings|all the best|well)|"
            r"(?:many )?blessings to (?:you|u)(?: too| all)?)"
            r"(?: (?:now|then|for now|all|mate|everyone|ya|y'all))?\s*[!.！。]*$",
            r"\b(?:nice|great|good|fun|lovely|a pleasure) (?:chatting|talking|working|playing) "
            r"with (?:you|u)\b",
            r"\b(?<!for )(?<!of )good luck(?: with| on| for)?(?: the| your)?(?: rest| next| other)?"
            r"(?: of)?(?: the| your)?(?: \w+)?\s*[!.]*$",
            # "have a pleasant day", "have a blessed evening", "have a very good one"
            r"\bhave a (?:(?:very|really|truly) )?(?:good|nice|great|lovely|wonderful|pleasant|fantastic|"
            r"blessed|splendid|beautiful|brilliant|fab|super|awesome|marvellous|marvelous|terrific|fine|"
            r"restful|relaxing|peaceful) "
            r"(?:day|one|evening|night|weekend|arvo|afternoon|morning|week|rest of (?:the|your) day)\b",
        ]
    )
)
# Thanks in the other languages workers write them in (phrasebook.py); the honorifics that follow them
# ("salamat po", "thank you ji") are part of the courtesy, not content.
_FOREIGN_THANKS = PB.FOREIGN_THANKS_RE
_HONORIFIC = r"(?: (?:po|ji|na|sir|ma'?am))?"
# Messages that are nothing but courtesy (the partner gains nothing about the artwork).
_COURTESY_ONLY = re.compile(
    r"^(?:(?:ok|okay|alright|great|cool|nice|sure|perfect)[,!. ]+)?"
    r"(?:thanks|thank (?:you|u)(?: so much| very much)?"
    r"|thx|tnx|thnx|thanx|ty|you'?re welcome|(?:you are|ur|u r) welcome|welcome|no problem(?: at all)?|np|"
    r"my pleasure|"
    r"anytime|no worries|likewise|same here|(?:the )?pleasure(?: is|'s)? (?:all )?mine|"
    r"(?:glad|happy) (?:i could|i was able to|to) help|"
    rf"(?:you(?:'re| are) )?most welcome|walang anuman|{_FOREIGN_THANKS}|"
    # "you're welcome" and "likewise" in Swahili, Polish, Russian, Hindi ("Karibu!", "Nawzajem.")
    r"karibu(?: sana)?|nie ma za co|nawzajem|wzajemnie|не за что|взаимно|(?:и )?вам тоже|"
    rf"koi baat nahi(?:n)?|aapko bhi|ikaw (?:din|rin)){_HONORIFIC}"
    r"(?:[,!. ]+(?:a lot|again|so much|very much|friend|partner|mate|buddy))?[\s!.:)]*$"
)


_SMALLTALK_TRIGGERS = frozenset(
    """
    how how's what's whats up meet chat talk work see hope fine good great ok okay well doing and about
    goodbye bye care farewell cheers have been cya ya ttyl later laters nice great fun lovely pleasure luck
    not alright too then same very really pretty quite all hows enjoy bless wiedersehen tschüss tschuss adios
    adiós luego revoir arrivederci paalam ingat alvida best hooroo tara ta-ra cheerio toodle-oo toodleoo
    ttfn catch totsiens slán slan doei ciao tchau adeus sayonara arvo miłego milego widzenia zobaczenia
    как jak słychać slychac kaise hali habari bawo
    gtg g2g gotta go
    kwaheri tutaonana njema всего хорошего milenge dàbọ dabọ dabo dàbo wishing blessings family
    """.split()
)
_THANKS_FOR = re.compile(
    r"^(?:(?:ok|okay|alright|great|cool|nice|got it|i see|wow|oh|ah|aha|awesome|perfect|fine|right)[,!. ]+)*"
    r"(?:thanks|thank (?:you|u)|thx|thnx|ty|many thanks)(?: (?:a lot|so much|very much))? for "
    r"(?:the|your|that|this|all|such)(?: [\w']+){0,6}[\s!.]*$"
)


# A sign-off made only of acknowledgements, "that was my last question" and thanks: no content.
_ACK = (
    r"(?:ok|okay|alright|all right|great|cool|nice|perfect|awesome|wonderful|excellent|(?:very )?good|got it|"
    r"i see|"
    r"ah|oh|right(?: so)?|fine|my pleasure|well|fair enough|sound|grand|lovely|top|that'll do(?: me)?|"
    r"kk?|ha|haha|anyhow|anyway|gg|"
    r"bye(?: now| then)?|hooroo|totsiens|sl[aá]n|doei|cheerio|laters)"
)
_CLOSE = (
    r"(?:that(?:'s| is| was|s)? (?:all|it|everything|enough|plenty|my (?:last|final) (?:question|one)|"
    r"the (?:last|final) (?:question|one))"
    r"(?: (?:from me|for me|for now|i (?:wanted|needed|had) to (?:ask|know)|i had|i (?:wanted|needed|need)|"
    r"then))?|"
    # a farewell closing the thanks: "I am most grateful for your help. Good day."
    r"good (?:day|night)(?: to (?:you|u))?|"
    r"i(?:'m| am) (?:done|finished|all done)(?: (?:now|here|asking))?|"
    r"(?:i have |i've got |i got )?no (?:more|other|further) questions|"
    r"we(?:'re| are) (?:done|finished)(?: here)?|"
    r"(?:this|that) (?:is|was) (?:my|the) (?:last|final) (?:question|one)|"
    r"(?:it was )?(?:nice|great|good|fun|a pleasure) (?:chatting|talking|working) with (?:you|u)|"
    r"(?:you(?:'ve| have)? been|you were) (?:very |really |so |a great |a big )*"
    r"(?:helpful|a great help|great|a help)|"
    # "I think I understand the painting now", "I have a clear picture of it now", "that helps a lot"
    r"(?:i think |i guess |now )?i (?:now |finally |really )?(?:understand|get|got|know|have|'ve got|"
    r"can (?:picture|imagine|see|visuali[sz]e))"
    r"(?: (?:it|the (?:painting|picture|image|artwork|scene|idea|whole thing)|everything|what it looks like|"
    r"(?:a|the) (?:good|clear|better|decent|full|nice|complete|vivid) (?:idea|picture|sense|image|view)"
    r"(?: of (?:it|the (?:painting|picture|image|artwork|scene)))?|enough(?: (?:information|info|to go on))?|"
    r"all i need(?:ed)?))"
    r"(?: (?:now|better|well|clearly|much better|at last|quite well|pretty well))*|"
    r"(?:that|this|it) (?:helps|helped|gives me a (?:good|clear|better) (?:idea|picture|sense))"
    r"(?: (?:a lot|me|so much|a great deal|loads))*)"
)
_THANKS = (
    r"(?:thanks|(?:i )?thank (?:you|u|ya)(?: kindly)?|thx|tnx|thnx|thanx|ty|many thanks|cheers|"
    r"much appreciated|"
    r"i(?:'m| am) (?:most |very |so |really |truly |ever so )?grateful|"
    rf"i (?:do |really |truly )?appreciate (?:it|that|your (?:help|patience|time|answers|kindness))|"
    rf"{_FOREIGN_THANKS}){_HONORIFIC}"
    r"(?: (?:a lot|so much|very much|ever so much|so very much|again|a bunch|a ton|heaps|loads|a million|"
    r"mate|a mil))?"
    r"(?: for (?:the|your|that|this|all|such|everything|helping|answering|describing|waiting|being|kind|"
    r"help|patience|time)"
    r"(?: [\w']+){0,6})?"
)
_SIGN_OFF = re.compile(rf"^(?:(?:{_ACK}|{_CLOSE}|{_THANKS})(?:[\s,!.;:)-]+|$))+$")
_SIGN_OFF_TRIGGERS = frozenset(
    "thanks thank thx ty cheers appreciated appreciate salamat danke dank gracias merci grazie obrigado "
    "obrigada dhanyavad dhanyavaad shukriya arigato pleasure dankie ta grateful tnx thnx thanx asante "
    "dziękuję dziekuje dzięki dzieki dhanyawad dhanyawaad спасибо благодарю ṣé sé se seun ṣeun".split()
)
# "👍" or "🙂" alone, answering the partner's thanks or goodbye: a courtesy too.
_EMOJI_ONLY = re.compile(r"^[\s!.]*[\U0001F300-\U0001FAFF\u2600-\u27BF\u2764\uFE0F\u200d]+[\s!.]*$")
_PARTNER_COURTESY = re.compile(
    r"\b(?:thanks|thank (?:you|u|ya)|thx|ty|cheers|ta|bye|goodbye|cya|see (?:you|ya|u)|take care|"
    r"have a (?:good|nice|great|lovely))\b"
)


# Thanks and farewells in scripts without spaces between words, which the word gates above miss.
_UNSPACED_COURTESY = re.compile(
    r"ありがとう|さようなら|じゃあね|またね|谢谢|再见|拜拜|감사합니다|고맙습니다|안녕히|"
    r"شكرا|مع السلامة|спасибо|до свидания|пока"
)


# A message made only of courtesy, in any language the phrase book knows: thanks, farewells, "you're
# welcome", well-wishes and salutes, with acknowledgements ("ok", "i understand"), closing remarks
# ("that's all", "you've been a star") and address words ("kak", "bhai", "mate") between them; it may end
# by announcing that the worker leaves ("I must go now, the bus is here"). At least one real courtesy
# phrase is needed: "ok, sir" alone is not one.
_COURTESY_UNIT = (
    rf"(?:{_THANKS}|{PB.THANKS_RE}|{PB.FAREWELL_RE}|{PB.WELCOME_RE}|{PB.WELL_WISHES_RE}|{PB.HOW_ARE_YOU_RE}|"
    rf"{PB.GREETING_RE}|{_SALUTATIONS}|no problem(?: at all)?|np|"
    rf"(?:nice|good|great|lovely|pleased|glad) (?:to (?:meet|chat with|talk to) you|chatting|talking)|"
    rf"how (?:are|r) (?:you|u)(?: doing| today)?)"
)
_COURTESY_FILLER = (
    rf"(?:{_ACK}|{_CLOSE}|{PB.ADDRESS}|sorry|sure|yes|yeah|yep|aye|kk+|okie|oki|aight|ha+|hehe|lol|sweet|and|"
    r"brilliant|nice one|ace|(?:i )?(?:gotta|got to|have to|must) (?:go|run|dash)(?: now)?|"
    r"i understand|understood|noted|how (?:lovely|nice|kind|sweet)|"
    r"(?:that|this) (?:was|is) (?:so |very |really )?"
    r"(?:nice|lovely|fun|great|helpful|interesting|useful)|(?:very|so|really) (?:helpful|kind|useful)|"
    r"(?:you(?:'ve| have)? been|you were|you are|you're) (?:so |very |really |such )?(?:a star|a gem|"
    r"patient|kind|lovely|helpful|a great help|wonderful|amazing|brilliant)|that'?s (?:my|the) (?:\w+)|"
    r"(?:thank|thanks) (?:god|goodness))"
)
_COURTESY_SEP = r"(?:[\s,!.;:()~…\-?]|<3|[\U0001F300-\U0001FAFF\u2600-\u27BF\uFE0F\u200d])+"
# "I must go now", "gotta run", "I go now, my tea is ready": the rest of the message says why
_LEAVING = (
    r"(?:(?:i|we) (?:must|have to|need to|gotta|got to|should|'ve got to|'ll) |(?:i'?m |i am )?gotta |"
    r"got to |i (?:go|leave|log off)\b|(?:i'?m|i am) (?:off|going|leaving|logging off)\b)"
    r"(?:(?:go|run|leave|log off|head off|dash)\b)?[^?]*"
)


def _courtesy_message(pieces: str) -> re.Pattern[str]:
    return re.compile(
        rf"^(?:{_COURTESY_FILLER}{_COURTESY_SEP})*{pieces}(?:{_COURTESY_SEP}|$)"
        rf"(?:(?:{pieces}|{_COURTESY_FILLER})(?:{_COURTESY_SEP}|$))*(?:{_LEAVING})?$"
    )


_COURTESY_MESSAGE = _courtesy_message(_COURTESY_UNIT)
# with the words that are courtesy only as an answer to the partner's courtesy ("Night!", "You too.")
_COURTESY_REPLY = _courtesy_message(
    rf"(?:{_COURTESY_UNIT}|{PB.REPLY_ONLY}|(?:i'?m )?(?:fine|good|well)(?: thanks| thank you)?|"
    r"take (?:your|ur) time)"
)
# The message-start regexes behind a test of the text's first characters (``prefix.PrefixGate``, same
# verdicts): most messages open with a word no courtesy phrase can begin with ("What colour ..."), and
# these regexes otherwise try their whole alternation of many languages' phrases on every message.
_GREETING_START_GATE = PrefixGate(_GREETING_START)
_COURTESY_ONLY_GATE = PrefixGate(_COURTESY_ONLY)
_THANKS_FOR_GATE = PrefixGate(_THANKS_FOR)
_SIGN_OFF_GATE = PrefixGate(_SIGN_OFF)
_COURTESY_MESSAGE_GATE = PrefixGate(_COURTESY_MESSAGE)
_COURTESY_REPLY_GATE = PrefixGate(_COURTESY_REPLY)
# "how are you" in other languages, anywhere in a message ("Hur mår du idag?")
_FOREIGN_HOW_ARE_YOU = re.compile(rf"(?:^|[\s,.!?;¿¡]){PB.HOW_ARE_YOU_RE}(?=[\s,.!?;]|$)")
# the same with each phrase its own top-level alternative (it matches where one of them does), so that
# ``Context.finds`` tries only the phrases whose letters the message has instead of all at every space
_FOREIGN_HOW_ARE_YOU_EACH = re.compile(
    "|".join(
        rf"(?:^|[\s,.!?;¿¡])(?:{phrase})(?=[\s,.!?;]|$)"
        for phrases in PB.HOW_ARE_YOU.values()
        for phrase in phrases
    )
)
# a farewell or wish of another language closing a message ("..., iyi günler!", "Ich hoffe, du hast einen
# schönen Tag.")
_FOREIGN_CLOSE = re.compile(rf"(?:^|[\s,.!;]){PB.FOREIGN_FAREWELL_RE}[\s!.]*$")
_FOREIGN_CLOSE_GATE = T.EndGate(_FOREIGN_CLOSE)
_GERMAN_WISH = re.compile(r"\bich hoffe,? (?:du hast|sie haben) einen sch[oö]nen (?:tag|abend)\b")


def _foreign_close(lower: str) -> bool:
    """A farewell of another language ends the message (only the last words are searched, for speed)."""
    tail = lower[-40:]
    if len(lower) > 40:
        space = tail.find(" ")
        if space < 0:
            return False
        tail = tail[space:]
    return _FOREIGN_CLOSE_GATE.search(tail) or ("hoffe" in lower and _GERMAN_WISH.search(lower) is not None)


def courtesy_only(ctx: Context) -> bool:
    """The whole message is courtesy; a few ambiguous words count only right after the partner's."""
    lower = ctx.lower
    if len(lower) > 120:
        return False
    if _COURTESY_MESSAGE_GATE.match(lower):
        return True
    # the words that count only as a reply come in short messages
    return len(lower) <= 60 and _COURTESY_REPLY_GATE.match(lower) and _partner_was_courteous(ctx)


# the partner asks for a pause ("wait a minute", "one sec"): "No worries, take your time." answers it
_ASKS_TO_WAIT = re.compile(
    r"\b(?:wait(?: (?:a|one|\d+) (?:sec|second|minute|min|moment)s?)?|"
    r"(?:one|a|just a) (?:sec|second|minute|moment)|"
    r"hold on|brb|be right back|give me a (?:sec|second|minute|moment))\s*[.!]*$"
)


def _partner_was_courteous(ctx: Context) -> bool:
    said = ctx.partner_last()
    if said is None:
        return False
    text = T.normalise(said)
    return bool(
        _GREETING_START_GATE.match(text)
        or _ASKS_TO_WAIT.search(text)
        or _SMALLTALK.search(text)
        or _COURTESY_ONLY_GATE.match(text)
        or (len(text) <= 120 and _COURTESY_MESSAGE_GATE.match(text))
    )


def _reply_to(ctx: Context, mine: re.Pattern[str], partner: re.Pattern[str]) -> bool:
    """The message matches ``mine`` and the partner's message just before it matches ``partner``."""
    if not mine.match(ctx.lower):
        return False  # the text alone decides: the history is not read (the verdict can be kept per text)
    said = ctx.partner_last()
    return said is not None and bool(partner.search(said.lower()))


def _emoji_courtesy_reply(ctx: Context) -> bool:
    return _reply_to(ctx, _EMOJI_ONLY, _PARTNER_COURTESY)


# "Good, thanks." or "Fine. What's the picture?" is a greeting only as the answer to "how are you?":
# the partner's message just before must have asked after the worker's well-being.
_WELL_BEING_REPLY = re.compile(
    r"^(?:(?:aye|yeah|yes|oh|ah|well|haha|ha),? )?"
    r"(?:(?:i'?m |im |i am |all |doing |pretty |very |really |quite |not |not too |not so |they(?:'re| are) |"
    r"we(?:'re| are) |everyone is |(?:my )?family is )*(?:fine|good|great|well|ok|okay|"
    r"alright|bad|excellent|fantastic|wonderful|tired|busy|doing|exhausted|knackered|shattered|stressed)\b"
    r"(?! (?:at|with|in|to|for|on)\b)"
    # "can't complain", "no complaints", "could be worse", "alhamdulillah"
    r"|(?:i )?(?:can'?t|cannot) complain|no complaints|could be worse|mustn'?t grumble|surviving|so-so|"
    # and in other languages: "Nzuri sana, I am fine too.", "Muy bien, gracias."
    rf"alhamdulill?ah|{PB.WELL_BEING_RE}(?=[\s,.!]|$))"
)
_WELL_BEING_ASKED = re.compile(
    rf"{_FOREIGN_HOW_ARE_YOU.pattern}|\bhow (?:are|r|re) {_YOU}\b(?! (?:able|sure|going to))|\bhow(?:'s|s| "
    rf"is| are) "
    r"(?:it going|things|"
    rf"everything|life|(?:your|ur) (?:day|morning|evening|week|weekend|family|wife|husband|kids|children|"
    rf"parents))\b"
    rf"|\bhow (?:have|ve) {_YOU} been\b|\bhow do {_YOU} do\b"
    rf"|\bhope {_YOU}(?:'re| are)? (?:doing )?(?:well|good|fine)\b|\b(?:and|how about|what about) "
    rf"(?:{_YOU}|yourself|yours|urs)\s*\?"
    # the question asked back after the partner's own answer: "Not bad love, you?"
    rf"|^(?:i'?m )?(?:fine|good|great|well|ok|okay|not bad|not too bad|alright|grand|all good)\b[^?]{{0,20}}"
    rf"[,.!] (?:{_YOU}|yourself|yours)\s*\?\s*$"
)


def _answers_well_being(ctx: Context) -> bool:
    """The message opens with a well-being word right after the partner asked how the worker is."""
    return _reply_to(ctx, _WELL_BEING_REPLY, _WELL_BEING_ASKED)


# "Likewise!" or "You too." opening a message that answers the partner's pleasantry
_REPLY_OPENING = re.compile(
    rf"^(?:likewise|(?:and )?{_YOU} too|same to {_YOU}|and (?:to )?{_YOU}|"
    r"the pleasure is (?:all )?mine)\s*[!,.]"
)
# A question about a greeting in the artwork ("Is she saying hello or goodbye?") is answered with the
# word: "Goodbye, the train is leaving." describes the scene.
_ASKS_ABOUT_DEPICTED_GREETING = re.compile(
    r"\b(?:say|says|saying|wave|waves|waving|greeting)\b[^?]*\b(?:hello|goodbye|hi|bye)\b[^?]*\?"
    r"|\b(?:hello|goodbye|hi|bye) or (?:hello|goodbye|hi|bye)\b"
)
_DEPICTED_GREETING_ANSWER = re.compile(r"^(?:hello|goodbye|good-bye|hi|bye)\b[,.;:]? (?:\w+ ){2}")


def _answers_depicted_greeting(ctx: Context) -> bool:
    """The message names the greeting the partner asked about in the artwork, then describes it."""
    if not _DEPICTED_GREETING_ANSWER.match(ctx.lower):
        return False
    said = ctx.partner_last()
    return said is not None and bool(_ASKS_ABOUT_DEPICTED_GREETING.search(T.normalise(said)))


def detect_greeting(ctx: Context, cfg: GreetingConfig) -> bool:
    lower = ctx.lower
    if _answers_depicted_greeting(ctx):
        return False
    return bool(
        _GREETING_START_GATE.match(lower)
        or (_REPLY_OPENING.match(lower) is not None and _partner_was_courteous(ctx))
        or (not ctx.wordset.isdisjoint(_SMALLTALK_TRIGGERS) and ctx.finds(_SMALLTALK))
        or _COURTESY_ONLY_GATE.match(lower)
        or _THANKS_FOR_GATE.match(lower)
        or (_is_sign_off(lower) if not ctx.wordset.isdisjoint(_SIGN_OFF_TRIGGERS) else False)
        or (len(lower) < 80 and not ctx.wordset.isdisjoint(_READY_TRIGGERS) and bool(_READY.match(lower)))
        or _answers_well_being(ctx)
        or _emoji_courtesy_reply(ctx)
        or courtesy_only(ctx)
        or ctx.finds(_FOREIGN_HOW_ARE_YOU_EACH)
        or _foreign_close(lower)
        or (
            len(lower) < 40
            and not any("a" <= c <= "z" for c in lower)
            and bool(_UNSPACED_COURTESY.search(lower))
        )
    )


# "Yes, let's begin, ask me anything.", "ok. ask ur question", "Ready when you are!": a message that only
# says the chat may start is small talk (the labelled batches call it greeting); "Let's start, what's in
# the picture?" asks, and "Ask away, I've got nine more of these" is chitchat about the task.
_READY_PHRASE = (
    r"(?:(?:let'?s|lets) (?:begin|start|get started|go)|(?:please |you can |go ahead and )?ask (?:me )?"
    r"(?:anything|away|whatever you (?:want|like))|(?:please |you can )?ask (?:your|ur|the|me your) "
    r"(?:first )?(?:question|questions)|(?:i'?m |i am )?ready when you are|go ahead|i'?m ready|i am ready)"
)
_READY = re.compile(
    r"^(?:(?:yes|yeah|yep|ok|okay|sure|alright|right|good|great|fine|hi|hello)[,.! ]+)*"
    rf"{_READY_PHRASE}(?:[,.! ]+{_READY_PHRASE})*[\s,.!:)]*$"
)
_READY_TRIGGERS = frozenset("ask let's lets ready ahead".split())


def _is_sign_off(lower: str) -> bool:
    """Thanks plus only acknowledgements and closing words ("great, that was my last question, thanks")."""
    return len(lower) < 160 and _SIGN_OFF_GATE.match(lower)


# Weather counts as off topic only when it is the weather around the worker, not in the artwork.
_HERE_AND_NOW = (
    rf"(?:today|tonight|this (?:morning|afternoon|evening|week)|right now|"
    r"here (?:today|now|too|as well|in (?:my|our) \w+|where i)|"
    rf"(?:over )?here\s*[.!]*$|outside my|"
    rf"where {_YOU} (?:are|live)|where i (?:am|live)|in your (?:area|city|town|country|place)|"
    rf"at your (?:place|end)|over there|your (?:side|way))"
    r"(?! in (?:the|this) (?:painting|picture|image|scene|artwork|photo))"
)
_OFF_TOPIC = re.compile(
    "|".join(
        [
            # the weather around the workers
            rf"\b(?:weather|it'?s?|it is) (?:\w+ ){{0,3}}(?:nice|great|good|bad|terrible|awful|hot|cold|"
            rf"warm|sunny|rainy|raining|snowing|cloudy|windy|freezing|humid|"
            rf"lovely)\b.{{0,30}}\b{_HERE_AND_NOW}",
            rf"\b(?:how(?:'s| is| was) (?:the )?weather|what(?:'s|s| is) the weather like) "
            rf"(?:where|over there|today|at your|in your|for {_YOU})",
            r"\bweather (?:is|was|has been) (?:so |really |very )?"
            r"(?:great|nice|good|bad|lovely|terrible|awful)\b(?! in)",
            # where people live
            rf"\bwhere (?:(?:are|r) )?{_YOU} from\b",
            rf"\bwhere do {_YOU} live\b",
            rf"\bwhat (?:country|city|state|town|part of the world) (?:are|do) {_YOU}\b",
            r"\b(?:i'?m|i am) (?:from|based in)\b",
            r"\bi live (?:in|near)\b",
            rf"\bwhat time is it (?:there|for {_YOU}|where {_YOU})",
            # payment and the task itself
            r"\b(?:payment|bonus|mturk|m-turk|turker|turkers|requester|hourly rate|qualification)\b",
            # the pay as a noun: "it's crap pay", "the pay's a joke", "the pay rate"
            r"\b(?:the|crap|crappy|bad|low|shit|shitty|lousy|terrible|awful|poor|rubbish|hit|my|your) pay\b"
            r"|\bpay(?:'s| is| was| rate)\b",
            r"\b(?:these|those) (?:hits|tasks|surveys)\b",
            r"\b(?:this|that|next|another|first|last|my|your|the) (?:hit|hits|task|survey)\b"
            r"(?! (?:the|a|an|his|her|its|their|him|them)\b)",
            r"\bhow much (?:do|does|did|are|will) (?:you|u|we|they|it) (?:get|earn|make|pay)\b",
            r"\bhow many (?:more )?(?:questions|rounds|turns) (?:are )?(?:left|remaining|to go|do we have)\b",
            r"\b(?:are|r) (?:you|u) (?:a (?:bot|robot|real person|human|computer)|human|real)\b",
            r"\b(?:are|r) (?:you|u) still there\b",
            r"\b(?:hurry up|sorry for the (?:wait|delay)|my (?:internet|connection|wifi))\b",
            r"\b(?:the|this) (?:timer|interface|website)\b",
            # the partner's day and life ("how was your day?" is small talk: a greeting, session 17)
            rf"\bwhat (?:did|are|will) {_YOU} (?:do|doing|up to) "
            r"(?:today|tonight|later|this weekend|for fun)\b",
            rf"\bwhat do {_YOU} do for (?:a living|work|fun)\b",
            rf"\bhow old (?:are|r) {_YOU}\b",
            rf"\bwhat(?:'s| is) {_YOU}r (?:name|job|age)\b",
            rf"\b(?:are|r) {_YOU} (?:a student|married|male or female|a man or a woman|working)\b",
            rf"\bdo {_YOU} have (?:kids|children|pets|a job|a family)\b",
            r"\b(?<!how's )(?<!hows )(?<!how is )(?<!off )(?<!rest of )(?<!enjoy )(?:my|your) "
            r"(?:day|weekend|boss|kids|wife|husband|dinner|lunch|breakfast)\b",
            # the same asked in the word order of other Englishes, without "do" ("You have children? How
            # old?", "You speak French? Where you learned?", "you also from SG? Which area you stay?"),
            # and the partner's own family ("How old is your son?") or haste ("You seem in a rush today.")
            rf"(?:^|[.!?,]\s*)(?:so |and |eh |oh )?{_YOU} (?:also |too )?"
            r"(?:have (?:any )?(?:kids|children|pets)|"
            r"speak (?:[a-z]+ )?(?:french|spanish|german|italian|english|portuguese|chinese|arabic|hindi|"
            r"russian|japanese|polish|dutch|greek|turkish)|(?:also |too )?from [a-z]+)\s*\?",
            rf"\bwhere (?:did )?{_YOU} (?:learn(?:ed|t)?|study|studied|grow up|grew up)\b"
            rf"|\bwhich (?:area|part|city|town|country|state) (?:do |did )?{_YOU} (?:stay|live|from)\b",
            r"\b(?:how old|how are|how is|what is|what's|where is|where are) (?:is |are )?(?:your|ur) "
            r"(?:sons?|daughters?|children|kids|parents|family)\b",
            rf"\b{_YOU} (?:seem|sound|look)(?: to be)? (?:so |very |really |a bit )?"
            r"(?:in a (?:rush|hurry)|busy|tired|distracted|bored|sleepy)\b",
            # the worker's own family and pets ("my daughter does ballet too", "our dog"), not a greeting's
            # word of address ("Good morning my brother", "Hello my sister", session 17)
            r"\b(?<!it in )(?<!this in )(?<!that in )(?<!one in )(?<!good morning )(?<!good evening )"
            r"(?<!good afternoon )(?<!good day )(?<!hello )(?<!hi )(?<!hey )(?:my|our) "
            r"(?:(?:own|little|older|younger|elder|eldest|youngest|big|baby|late|dear|sweet|"
            r"beloved|poor|old|great) ){0,2}(?:daughters?|sons?|children|"
            r"child|baby|mum|mom|dad|mother|father|parents|brothers?|sisters?|uncles?|aunts?|grandma|"
            r"grandmother|grandpa|grandfather|grandparents|granny|cousins?|family|girlfriend|boyfriend|"
            # kin words of Filipino and Indian English, great-grandchildren, the ex, the parish
            r"lola|lolo|tita|tito|kuya|nanay|tatay|nani|nana-ji|dadi|dada|amma|appa|ammi|abbu|"
            # grandparents in the words of other languages, and children by their rank
            r"nonna|nonno|abuel[ao]|abuelit[ao]|oma|opa|babcia|dziadek|bubbe|zayde|yiayia|yaya|papou|mamie|"
            r"papi|mormor|morfar|farmor|farfar|av[oóô]|vov[oóô]|oldest|youngest|eldest|kiddos?|toddler|twins|"
            r"great-?grand\w+|grand(?:sons?|daughters?|children|kids)|ex|ex-(?:wife|husband|boyfriend|"
            r"girlfriend)|vicar|pastor|parish|church|mosque|temple|coach|landlord|landlady|colleagues?|"
            r"co-?workers?|classmates?|"
            r"neighbou?rs?|dogs?|cats?|pets?|puppy|kitten|gran(?:d-?)?dads?|gran|nan|nana|nanna|auntie|hubby|"
            r"missus|fianc[eé]e?|step(?:dad|mum|mom|son|daughter)|in-laws|room|bedroom|flatmates?|"
            r"housemates?|best friend|friends?(?!\s*(?:[,.!?]|$)))\b",
            r"\bi(?:'m| am) (?:so )?(?:tired|bored|hungry|sleepy)\b",
            # the worker's body and aids: "my eyes hurt", "my hearing aid is whistling"
            r"\bstaring at (?:this|the|my|a) (?:screen|monitor|laptop|phone)\b"
            r"|\bmy (?:eyes|back|head|neck|hands?|wrists?|fingers|legs|knees|feet) (?:\w+ )?(?:hurts?|aches?|"
            r"are killing|is killing|are sore|is sore|are tired|are burning|is pounding|shot)\b"
            r"|\bmy (?:hearing aids?|glasses|specs|reading glasses|contacts)\b",
            # the worker's hobbies and games: "I have soccer practice after this", "go play fortnite"
            r"\b(?:i|we)(?:'ve)?(?: \w+)? (?:have|got|had|skip|skipped|miss|missed) (?:my |our )?"
            r"(?:soccer|football|basketball|baseball|"
            r"cricket|tennis|hockey|band|choir|piano|guitar|dance|swim(?:ming)?|karate|volleyball|rugby|"
            r"gym) (?:practice|class|lessons?|training|game|match|rehearsal)\b"
            r"|\b(?:play|playing|played) (?:some )?(?:fortnite|minecraft|roblox|valorant|video ?games|"
            r"xbox|playstation|ps[45]|call of duty|league of legends)\b",
        ]
    )
)

# Chitchat added after the second test batch, tried only when one of its own words is present so
# that the common words it needs ("you", "here") do not send every message through both regexes.
_CHITCHAT = re.compile(
    "|".join(
        [
            r"\b(?:is it|it's|its|it is) (?:\w+ )?(?:raining|snowing|sunny|hot|cold|warm|winter|summer|"
            r"spring|autumn|fall|night|nighttime|daytime|morning|evening|late|early|dark|light|midnight|"
            r"freezing) "
            rf"(?:already |now |yet |still )?{_HERE_AND_NOW}",
            r"\b(?:nice|lovely|beautiful|hot|cold|rainy|sunny|gloomy|horrible|miserable) "
            r"(?:day|weather|morning|evening)(?: today)?,? (?:isn't it|huh|eh|right|innit|ain't it)\b",
            # the partner's home and travels, the worker's devices and the task
            rf"\bwhere {_YOU} live\b",
            r"\bin (?:my|your|ur) (?:country|city|town|area|state|neighbou?rhood|part of the world|village|"
            r"region)\b",
            rf"\b(?:are|r) {_YOU} (?:also |too )?(?:in|based in|located in|living in) "
            r"(?!(?:the|this|that|a|an|it) "
            r"(?:painting|picture|image|scene|artwork|photo|market|sea|water|boat|ship)\b)"
            r"(?:the )?[a-z]+(?: too| as well)?\s*\?",
            rf"\bhave {_YOU} (?:ever )?(?:been|travell?ed|gone) to\b",
            rf"\bdo {_YOU} (?:paint|draw|play|watch|study|go to|have a (?:job|pet|dog|cat)|"
            r"work (?:from|at|in|as))\b",
            r"\b(?:i|we) (?:have|need|got) to (?:go|leave|log off|run)\b",
            r"\b(?:be right back|back in a (?:sec|second|minute|moment)|i was away|"
            r"sorry i was (?:away|gone))\b",
            r"\b(?:on|from) my (?:phone|laptop|computer|tablet)\b",
            r"\bmy (?:(?:bloody|stupid|damn|final|big|first|new|old|math|maths|english|history|chemistry|"
            r"physics|biology) )?(?:phone|laptop|computer|keyboard|battery|roommate|teacher|class|exams?|"
            r"homework|shift|test|assignment|essay|interview)\b",
            rf"\bhow (?:long|many) (?:have|did) {_YOU} (?:been )?(?:doing|done|work(?:ed|ing)? on) "
            r"(?:this|these|them|it)\b",
            r"\b(?:done|did|do|doing) (?:many|a lot of|lots of|several|a few|other) "
            r"(?:of these|of those|others)\b",
            r"\b(?:first|second|third) time (?:doing|on|with) (?:this|these|one)\b",
            r"\bit(?:'s| is) (?:so |very |really |already |getting )?(?:late|early) "
            r"(?:here|for me|where i)\b",
        ]
    )
)
_CHITCHAT_TRIGGERS = frozenset(
    """
    today tonight now here where your ur over outside morning afternoon evening week day weather country
    city town area state neighbourhood neighborhood part village region you u go leave log run back away
    phone laptop computer tablet keyboard battery roommate teacher class exam homework shift these those
    others time late early exams test assignment essay interview
    """.split()
)


# Asides about the worker's own life and questions about the partner's, added after batches 5 and 6:
# what the worker did once ("I grew up on a farm", "when I was a kid", "reminds me of my trip"),
# is doing now ("I'm making soup right now", "sorry, my kid just woke up", "haven't had lunch"),
# their home, devices and food, the task (dialogs, partners, rounds, the pay), and the same asked
# of the partner ("do you have pets?", "is your city rainy?", "did you grow up near the sea?").
# Each group is tried only when one of its own words is in the message, so that a message pays
# for the few groups it could match.
_LIFE_NOUN = (
    r"trip|holidays?|vacation|house|flat|apartment|home|street|school|garden|car|job|work|office|"
    r"city|town|village|country|neighbou?rhood|headphones|internet|connection|wifi|signal|laptop|"
    r"phone|computer|tablet|battery|keyboard|electricity|basement|bins?|desk|kettle|commute|"
    r"(?:night )?shift|day job|honeymoon|(?:late )?(?:husband|wife)|grand(?:sons?|daughters?|children|kids)|"
    r"nephews?|nieces?|family|kids|children|parents|pets?|dogs?|cats?|hobby|hobbies|plans|"
    r"browser|mouse|coffee|tea|plants?|heating|rent|roommate|flatmate|partner (?:is|was|has)|"
    r"own (?:dinner|lunch|food|kids?|dog|cat|house)|first language|native language|accent|"
    # "Sorry, my English is poor.": an apology for the language of the chat, not the worker's life
    r"english(?! (?:is|isn't|was|wasn't|not)\b)"
)
_LIFE_GROUPS = [
    (
        # what the worker did once, always wanted, never saw
        "grew used went visited once lived born spent been travelled traveled got wanted dreamed dreamt "
        "meant never",
        r"\b(?:i|we)(?: have| had|'ve|'d)?(?: also| once| actually| even)? "
        r"(?:grew up|used to|went to|visited|once \w+|lived|was born|spent (?:a|my|our|the|last|two)|"
        r"been to|travell?ed to|got back from|just got back)\b"
        r"|\b(?:i|we)(?: have| had|'ve|'d) (?:always )?(?:wanted|dreamed|dreamt|meant) to "
        r"(?:go|see|visit|travel|live|try)\b"
        r"|\b(?:i|i've|i have) (?:never|not) (?:\w+ )?(?:seen|been to|visited) (?:\w+ )?(?:snow|the sea|"
        r"a real|a volcano|the ocean|the mountains|mountains|a live|one in real life|in real life)\b",
    ),
    (
        # childhood
        "when kid child teenager student",
        r"\bwhen i was (?:a |little|young|small|younger|at school|\d+)"
        r"|\bas a (?:kid|child|teenager|student),? (?:i|we)\b",
    ),
    (
        # the painting reminds the worker of their own life
        "reminds remind remember me",
        r"\breminds? me (?:of )?(?:my|our|when|that i|i need|i have|of the time)\b"
        r"|\bremember when (?:i|we)\b|\b(?:a bit |just )?like me (?:when|watching|at|in|on|after|every)\b",
    ),
    (
        # the worker's own days: last summer, yesterday, next week
        "last next yesterday tomorrow",
        r"\blast (?:year|summer|winter|week|month|weekend|night|christmas) (?:i|we)\b"
        r"|\b(?:i|we)\b[^.?!]{0,50}\b(?:last|this past|next) (?:year|summer|winter|spring|autumn|weekend|"
        r"month|week|christmas|night)\b|\b(?:i|we)\b[^.?!]{0,50}\b(?:yesterday|tomorrow)\b",
    ),
    (
        # the worker's pets and home
        "cat cats dog dogs pet pets puppy kitten horse horses farm garden house flat print poster miss home",
        r"\b(?:i|we)(?: have| had|'ve got|'ve| have got| own| owned| used to have) (?:a|an|two|three|some) "
        r"(?:\w+ )?(?:cats?|dogs?|pets?|puppy|kitten|horses?|farm|garden|house|flat|print|poster)\b"
        r"|\bi (?:really |still )?miss (?:her|him|them|going|living|being|having|my|our|home|that place)\b"
        r"|\b(?:i|we)(?:'ve| have)?(?: got| have| own| keep) (?:a|an|two|three|four|some|\d+) "
        r"(?:\w+ )?\w+ (?:at home|back home|of my own|of our own)\b",
    ),
    (
        # the weather and the time where the worker is
        "here power me where home",
        r"\b(?:sunset|sunrise|storm\w*|rain\w*|snow\w*|sunny|dark|night|evening|morning|foggy|windy|"
        r"cloudy|thunder\w*) (?:\w+ )?here (?:too|as well|also|now|today|tonight|right now)\b"
        r"|\bthe power (?:went|is|was|keeps going) (?:out|off)\b"
        r"|\b(?:it's|it is|its) (?:nearly |almost |already |just |past |after |getting )?(?:\w+ )?"
        r"(?:midnight|noon|dark|late|early|morning|evening|night|afternoon|lunchtime|dinnertime|bedtime|"
        r"\d+(?: ?[ap]m)?|\w+ (?:am|pm|o'clock|in the (?:morning|evening|afternoon|night)|at night)) "
        r"(?:here|for me|where i)\b"
        r"|\bwhere i (?:live|am|grew up|come from|work|sit|'m sitting)\b|\bback home\b",
    ),
    (
        # meals
        "dinner lunch breakfast supper food",
        r"\b(?:you|u|i|we)(?:'re|'m| are| am| were| was)? (?:having|have|had|eat|eating|ate|cook|cooking|"
        r"make|making|get|getting)(?: \w+)? for (?:dinner|lunch|breakfast|supper)\b"
        r"|\b(?:haven't|have not|didn't|did not) (?:had|have|eaten|eat) (?:my |any )?(?:lunch|dinner|"
        r"breakfast|food)\b",
    ),
    (
        # what the worker is doing at the moment
        "now moment",
        r"\b(?:i'm|i am|we're|we are) (?:\w+ )?(?:\w+ )?(?:right now|at the moment)\b(?<!see right now)",
    ),
    (
        # the worker's state, whereabouts and occupation
        "starving exhausted knackered distracted stressed sick ill busy work home train bus break lunch "
        "cafe café kitchen office pyjamas bed car library eating drinking cooking making having listening "
        "studying watching working woke got came sleep wait had cold headache fever migraine vegetarian "
        "vegan nurse teacher student doctor programmer engineer mum mom dad mother father grandmother "
        "grandfather native owl person",
        r"\b(?:i'm|i am) (?:so |really |a bit |kind of |pretty |very )?(?:starving|exhausted|knackered|"
        r"distracted|stressed|sick|ill|busy|at work|at home|on (?:a|the|my) (?:train|bus|break|lunch)|"
        r"in (?:a|the|my) (?:caf[eé]|kitchen|office|pyjamas|bed|car|library)|"
        r"(?:eating|drinking|cooking|making|having|listening|studying|watching|working) )"
        r"|\b(?:i|we) (?:just )?(?:woke up|got up|got home|came home|had (?:pasta|pizza|lunch|dinner|"
        r"breakfast|soup|a (?:long|busy|bad|good) day))\b|\bi (?:can't|cannot) (?:sleep|wait for the)\b"
        r"|\b(?:i've|i have) (?:got )?a (?:cold|headache|fever|migraine)\b"
        r"|\b(?:i'm|i am) (?:a |an )?(?:vegetarian|vegan|nurse|teacher|student|doctor|programmer|"
        r"engineer|mum|mom|dad|mother|father|grandmother|grandfather|native|night owl|morning person)\b",
    ),
    (
        # excuses for a pause
        "sorry apologies sec second moment minute bear",
        r"\b(?:sorry|apologies),? (?:i'm|i am|i was|for being|my|i had to|if i'm) (?:so |a bit |being )?"
        r"(?:slow|late|away|afk|busy|in the|distracted|(?!english )\w+ (?:just|is|was))"
        r"|(?:^|[.,!;] |\b(?:wait|hold on|give me|need) )(?:one|a|just a) (?:sec|second|moment|minute)"
        r"(?:,|\.|!|$| please)|\bbear with me\b",
    ),
    (
        # the worker's and the partner's home, devices and language
        "trip holiday holidays vacation house flat apartment home street school garden car job work office "
        "city town village country neighbourhood neighborhood headphones screen internet connection wifi "
        "signal browser mouse coffee tea plant plants heating rent roommate flatmate partner own first "
        "native english accent laptop phone computer tablet battery keyboard electricity basement bin bins "
        "desk kettle commute shift night day honeymoon late husband wife grandson grandsons granddaughter "
        "granddaughters grandchildren grandkids nephew nephews niece nieces screen battery's"
        " phone's laptop's family kids children parents pet pets dog dogs cat cats hobby hobbies plans",
        # "would you want it in your house?" asks the partner's taste (asks_feelings), not about their home
        rf"\b(?<!want in )(?<!hang in )(?<!have in )(?<!want it in )(?<!hang it in )(?<!have it in )"
        rf"(?<!put it in )(?<!put this in )(?<!hang this in )(?<!want this in )(?<!have this in )"
        rf"(?:my|our|your|ur) "
        rf"(?:{_LIFE_NOUN})\b"
        r"(?! (?:in|of) (?:the|this) (?:painting|picture|image|scene))"
        r"|(?<!on )(?<!in )\b(?:my|your|ur) screen\b",
    ),
    (
        # the task: dialogs, partners, rounds, instructions, ratings, the pay, how many done today
        "chat chats dialog dialogs dialogue dialogues conversation conversations partner partners "
        "instructions matched questioner answerer submit rounds round rating pay pays paying paid hits "
        "today tonight far week",
        r"\b(?:these|this|my|your|our|other|the last|a|many|more|first|long) (?:chats?|dialog(?:ue)?s?|"
        r"conversations?)\b(?! (?:in|between) the)"
        r"|\b(?:last|previous|other|next|new|first|same) partners?\b|\bpartners? (?:i|we) (?:had|get|got)\b"
        r"|\b(?:the|these) instructions\b|\b(?:get|got|getting) matched\b|\bmatched with\b"
        r"|\b(?:the|next|a) (?:questioner|answerer) (?:next|role|this)\b|\bjust submit\b"
        r"|\b(?:\d+|ten|five|few|two|three|four|all) (?:more )?rounds\b(?! of)|\brounds? (?:left|to go)\b"
        r"|\b(?:a |good |bad )?rating\b(?! of)"
        r"|\b(?:the|this|that|my|your|our|their) pay\b(?! (?:attention|for the|at the))|\bpay (?:rate|out)\b"
        r"|\bpays? (?:you|us|me|per)\b|\b(?:paying|paid) (?:you|us|me|per|extra)\b"
        r"|\b(?:we|you|u|i|me|us|both)(?: \w+){0,2} (?:get|getting|got|be|being) paid\b"
        rf"|\b(?:have|did) {_YOU} (?:done|do|finished|completed)\b[^.?!]{{0,20}}\b(?:today|so far|tonight|"
        r"this week)\b|\b(?:these|those|many|more|some|other|few|your|my) (?:art |image |painting )?hits\b"
        r"(?! (?:the|a|an|his|her|its|their|him|them|it|and|against)\b)",
    ),
    (
        # the partner's life asked about
        "you u",
        rf"\b(?:do|did|have|are|were|will|would|can) {_YOU} (?:ever |also |usually |still |even )?"
        r"(?:grow up|live|lived|work|worked|travel|speak (?:any )?other|support|drive|cook|"
        r"go (?:out|skiing|skating|to (?:school|work|the gym|university|college|concerts?|museums?))|"
        r"been to|eaten|eat|drink|drinking|eating|going out|doing anything|doing this from|"
        r"have (?:a |any )?(?:pets?|kids|children|brothers|sisters|siblings|a car|a job|a family|"
        r"breakfast|lunch|dinner|plans)|got a (?:pet|dog|cat|job)|at (?:home|work|school|university)|"
        r"a (?:student|native|city person|morning person)|new to (?:this|these)|from (?:around|here)|"
        r"stuck at home|seen (?:the|any) (?:real|good|game|match|films?|movies?|news)|ever seen a real|"
        r"travel much|like (?:sports|football|music|cooking)|listen(?:ing)? to)\b"
        rf"|\b(?:where|when|which) (?:are|r|do|did) {_YOU} (?:right now|at|from|grow up|learn|go)\b"
        rf"|\bwhich (?:country|city|team|browser|language|football team) (?:are|do|did) {_YOU}\b",
    ),
    (
        # where the worker is: "here in Ukraine", "I'm in Nairobi", "we live in Arizona"
        "here i'm am live lived today",
        r"(?:^|[.,!?;] )here in (?!(?:the|this|that|these|those|a|an|his|her|its|their|front|back|corner|"
        r"middle|centre|center|foreground|background|picture|painting|scene|image|which|it)\b)[a-z]+"
        r"|\b(?:i|we)(?: actually| still| now| also)? live (?:in|near|on|by|next to)\b"
        r"|\btoday(?:'s| is| was) (?:very |so |really )?(?:hot|cold|warm|rainy|sunny|freezing|humid|windy|"
        r"snowy|"
        r"grey|gray|lovely|horrible|boiling|scorching)\b"
        r"|\b(?:boiling|scorching|pouring|roasting|sweltering|baking|humid|chilly) here\b(?! (?:in|on|"
        r"at) the)",
    ),
    (
        # the worker's work, studies and past trips
        "work worked study studied commute teach taught tutor tutored retired volunteer once kids children "
        "ridden tried climbed travelled traveled myself yourself visited kid child",
        r"\b(?:i|we)(?: \w+)? (?:work|worked|study|studied|commute|teach|taught|tutor|tutored|volunteer)\b"
        r"(?: (?:in|at|on|as|for|from|near|with|every|part-time|nights|weekends))"
        r"|\b(?:i|i'm|i am|i was) (?:a )?(?:retired|former)\b"
        r"|\b(?:i|we)\b[^.?!]{0,60}\bonce\s*(?:[.!,]|$)|\b(?:i|we)\b[^.?!]{0,60}\bas (?:kids|children|a kid|"
        r"a child)\b"
        rf"|\bhave {_YOU} ever (?:ridden|tried|climbed|travell?ed|visited|lived|worked)\b"
        r"|\b(?:have|got|keep|own|play|ride|cook) (?:any |a |an |some )?(?:\w+ )?yourself\b"
        r"|\b(?:i'm|i am|i was) (?:a |an )(?:\w+ )?(?:\w+ )?myself\b",
    ),
    (
        # the partner's identity
        "you u",
        rf"\b(?:are|r) {_YOU}(?: also| too| still)? (?:a |an )?(?:student|retired|working|religious|"
        r"vegetarian|vegan|married|single|employed|unemployed|parent|mum|mom|dad|native|\w+ person)\b",
    ),
    (
        # "mine" for the worker's own pet, pay or screen ("is your cat as fat as mine?"), not a coal mine
        "mine",
        r"\bmine(?<!the mine)(?<!a mine)(?<!coal mine)(?<!gold mine) (?:is|was|says|has|does|would|too)\b"
        r"|\b(?:as|than|just|like) mine\b|^mine\b",
    ),
    (
        # the time of day and the weather where the partner is
        "weather time side end place",
        r"\bweather doing\b|\bwhat time is it (?:in|at) (?:your|ur)\b"
        r"|\b(?:night|day|morning|evening|late|early|dark) (?:at|in|on) (?:your|ur) (?:side|end|place)\b",
    ),
    (
        # the task, the site and the pay
        "website timer interface round these today tonight here pays paying paid peanuts beer cents much "
        "using",
        r"\b(?:the|this|that) (?:\w+ )?(?:timer|interface|website)\b"
        r"|\b(?:at |on |in )?round (?:\d+|one|two|three|four|five|six|seven|eight|nine|ten)\b(?! (?:of|and) )"
        r"|\b(?:doing|do|done|did) these(?: all| for| today| since| every| on here)?\s*(?:[.,!?]|$| all|"
        r" for| today|"
        r" since| every)"
        r"|\b(?:first|second|third|fourth|fifth|sixth|tenth|\d+(?:st|nd|rd|th)) (?:one|task|painting|dialog|"
        r"chat|"
        r"hit|conversation)(?: of these| (?:i|we)(?:'ve| have)? (?:did|done|do|finished|had))? "
        r"(?:today|tonight|this (?:week|morning|evening))\b"
        r"|\b(?:been|work|working|doing|people) on here\b"
        r"|\b(?:pays?|paying|paid) (?:nothing|peanuts|so little|next to nothing|pennies)\b|\bbeer money\b"
        r"|\b\d+ cents\b|\bhow much (?:are|do|did|will) (?:you|u|we|they) (?:get|getting|earn|earning|make|"
        r"making)\b|\b(?:laptop|phone|tablet|computer|browser|device) (?:you are|are you|you're) using\b",
    ),
    (
        # pauses and the worker's doings between messages
        "sorry excuse apologies hang hold door back came typing kettle desk",
        r"\b(?:sorry|excuse|apologies) (?:for )?(?:the |my )?(?:late reply|late answer|delay|wait|"
        r"slow reply)\b"
        r"|\b(?:hang|hold) on,? (?:someone|somebody|my|a (?:sec|second|minute))\b"
        r"|\bsomeone(?:'s| is) at the door\b"
        r"|\b(?:i|i've|i'm|i am|just|we)(?: just| got| come)? back from\b|\bi (?:just )?came back from\b"
        r"|\btyping (?:so )?(?:slow|slowly)\b|\bput(?:ting)? the kettle on\b"
        r"|\b(?:eating|having) (?:my )?(?:lunch|dinner|breakfast) at my desk\b",
    ),
    (
        # the worker's habits, plans and news ("I go skiing there every winter", "we just adopted a puppy")
        "go play take collect ride swim cook bake paint draw visit walk adopted moved bought baby memories "
        "while log leave break coffee doing skipped brings bring",
        r"\b(?:i|we) (?:usually |often |always |still )?(?:go|play|take|collect|ride|swim|cook|bake|paint|"
        r"draw|"
        r"visit|walk)\b[^.?!]{0,40}\b(?:every (?:day|week|winter|summer|year|morning|weekend|sunday)|at home|"
        r"with (?:my|friends)|on weekends)\b"
        r"|\b(?:i|we) (?:just |recently )?(?:adopted|moved (?:house|to|in)|bought a (?:house|flat|car)|"
        r"had a baby)\b|\bbrings? back (?:my |memories of (?:my|our|when))\b"
        r"|\bwhile (?:we|i) (?:chat|type|talk|do this)\b|\b(?:i'm|i am) doing (?:this|these)\b"
        # (not "I'll leave the mood to you", which hands the partner a judgement)
        r"|\b(?:i|we)(?:'ll|'m going to| will| need to| have to| should)(?: \w+){0,2} (?:log off|"
        r"leave(?!(?: [\w']+){1,3} (?:to|up to) (?:you|u|yourself)\b)|"
        r"take a (?:short |quick )?break|grab a coffee)\b"
        r"|\b(?:shall|should|can) we (?:take|grab|have) a (?:short |quick )?(?:break|coffee)\b"
        r"|\b(?:i|i've) (?:skipped|missed) (?:breakfast|lunch|dinner)\b",
    ),
    (
        # the study, the site and the clock where the partner is
        "study platform approved approval tasks page site timed logged log zone zones monday tuesday "
        "wednesday thursday friday saturday sunday mondays fridays you u how's",
        r"\bthis (?:study|platform)\b(?! (?:of|in|is lit|room|desk|walls?))|\b(?:get|gets|got|be|being) "
        r"approved\b|\bapproval\b"
        r"|\b(?:these|other|more|most|my|image|survey|of|doing|for) tasks\b"
        r"|\b(?:page|site) (?:reloaded|loaded|froze|crashed|logged)\b|\brefresh(?:ed)? the page\b"
        r"|\btimed out\b|\blogged (?:me )?out\b|\btime ?zones?\b"
        r"|\b(?:it's|it is) (?:finally )?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b"
        r"|\b(?:ugh|happy|glad),? (?:it's )?(?:mondays?|fridays?)\b"
        r"|\bis it (?:\w+ ){0,3}(?:night|morning|evening|afternoon|late|early|dark)(?: \w+)? for (?:you|u)\b"
        r"|\blanguages? do (?:you|u) speak\b"
        r"|\b(?:are|r) (?:you|u) (?:\w+ )?(?:multitasking|left-handed|right-handed|on holiday|on vacation|"
        r"enjoying your (?:evening|day|weekend|morning|afternoon))\b"
        r"|\b(?:do|did|have) (?:you|u) (?:ever )?(?:collect|vote|voted|sleep well|slept well|watch the news|"
        r"see the game|have (?:any )?hobbies|have (?:a |any )?plans|have (?:a|the) (?:tv|radio) on|"
        r"like to (?:cook|travel|read|swim|dance|paint|draw)|study art|painted anything|"
        r"have (?:a )?(?:garden|fireplace))\b",
    ),
    (
        # the worker's weather and place said in a few words: "Here also very hot", "awful here too",
        # "40 degrees here today"; "sorry to hear that" about the partner's news
        "here degrees sorry our hits tasks shift shifts phone typing power hit task place home",
        r"(?:^|[.!?;,] )here (?:also|too|as well)?,? ?(?:it(?:'s| is) )?"
        r"(?:also |too |so |very |really |super |quite ){0,3}(?:hot|cold|freezing|boiling|raining|rainy|"
        r"snowing|sunny|humid|windy|chilly|awful|grim|"
        r"miserable|pouring|grey|gray|wet)\b"
        r"|\b(?:hot|cold|freezing|raining|rainy|snowing|sunny|humid|windy|awful|terrible|horrible|grim|"
        r"miserable|wet|lovely|gorgeous) (?:here|over here|outside) "
        r"(?:too|also|as well|today|now|right now)\b"
        r"|\b\d+ degrees (?:\w+ )?(?:here|today|outside|where i)\b"
        r"|^(?:oh,? |aw+,? |ah,? )?(?:i'?m |im |so |very |really )*sorry (?:to hear|for your loss|about your)"
        r"|\b(?:at|in|to|from) our (?!(?:left|right|view|eyes|perspective|viewpoint|side|angle|painting|"
        r"picture|image|scene|artwork|chat|conversation|dialog|time|questions?|own eyes)\b)[a-z]+"
        r"|\b(?:\d+|two|three|four|five|several|multiple|many) (?:more )?(?:hits|tasks)\b"
        r"|\b(?:i|i'm|im|i've|we|my)\b[^.?!]{0,20}\b(?:night|double|late|early|long|\d+-hour) shifts?\b"
        r"|\b(?:on|from|with) (?:my|this)(?: \w+)? (?:phone|laptop|keyboard|tablet)\b"
        r"|\btyping (?:on|with) (?:my|this)\b"
        r"|\b(?:power|electricity) (?:cut|outage|went out|is out|is off)\b"
        r"|\b(?:first|second|third|fourth|fifth|sixth|\d+(?:st|nd|rd|th)) (?:hit|task) "
        r"(?:in a row|of the day|so far)\b|\b(?:at|to|round) (?:my|our) place\b"
        r"|\b(?:i|we) (?:keep|have|own|raise|breed) \w+(?: \w+)? (?:at home|back home)\b",
    ),
    (
        # a pause explained by the worker's chores: "sorry, was making tea", "I have a baby crying here"
        "sorry soz apologies baby kid child toddler dog puppy",
        r"\b(?:sorry|soz|apologies),? (?:i was |was |i'm |im |i am |i had to |had to |just ){1,3}"
        r"(?:(?:making|having|eating|cooking|grabbing|fetching|drinking|get|getting|make|grab) "
        r"(?:a |my |some |the |me a )?"
        r"(?:tea|coffee|cuppa|lunch|dinner|breakfast|food|snack|sandwich|drink)|(?:feeding|walking|feed|walk)"
        r" (?:the |my )?(?:baby|dog|cat|kids?)|(?:answering|answer|on) the (?:door|phone))\b"
        r"|\b(?:i have|i've got|i got|there's) an? (?:baby|kid|child|toddler|dog|puppy) (?:crying|screaming|"
        r"barking|yelling)\b",
    ),
    (
        # grumbling about the pay and the time the task takes: "this pays about 20p", "the pay's a joke",
        # "been at these since 6am", "two more of these and I'm done", "I've got forty to go",
        # "another one of these", "this is taking forever", "let's get this bloody thing over with"
        "pay pays paid pay's pennies peanuts since more another forever ages dragging drags over go done "
        "doing",
        r"\b(?:this|it|these|they|that)(?: \w+)? (?:pays?|paid) (?:(?:about|only|like|around|just|me|us|"
        r"barely|maybe) )*(?:[£$€]?\d+(?:p|c|ct|cents?|pence)?\b|pennies|peanuts|nothing|buttons|"
        r"sweet f\w*|rubbish|crap)"
        r"|\b(?:the )?pay(?:'s| is| was)? (?:(?:a|an|so|such a|total|absolute|really) )*(?:joke|rubbish|"
        r"crap|terrible|awful|peanuts|pennies|shit|garbage|insulting|pathetic)\b"
        r"|\bfor (?:pennies|peanuts)\b"
        r"|\b(?:been|i'?ve been|i've been|i been) (?:at|doing|on) (?:these|this|them|it)(?: \w+)? "
        r"(?:since|for (?:hours|ages|\d+))\b"
        r"|\b(?:\d+|one|two|three|four|five|six|ten|twenty|thirty|forty|fifty|a few|a couple) more "
        r"(?:of )?(?:these|those|to go)\b|\b(?:\d+|\w+ty|ten|twenty) (?:more )?to go\b"
        r"|\banother one of (?:these|those)\b|\bonly doing (?:these|this)\b"
        r"|\b(?:this|it|that)(?:'s| is| has been|'s been)? (?:taking|takes|taken) (?:forever|ages|so long)\b"
        r"|\b(?:this|it)(?:'s| is) dragging(?: on)?\b"
        r"|\bget (?:this|it)(?: \w+){0,2} over with\b"
        r"|\bdone for the (?:night|day|evening)\b",
    ),
    (
        # the worker's surroundings going wrong: "my tea's gone cold", "the wifi's been dodgy all day",
        # "the neighbour's dog won't stop barking", "the telly's broken", "brain's fried"
        "tea coffee cuppa dinner food wifi wi-fi internet connection signal telly tv broadband neighbour's "
        "tea's coffee's cuppa's dinner's food's wifi's internet's connection's signal's telly's tv's "
        "neighbor's neighbours neighbors brain's brain won't wont keeps keep",
        r"\b(?:my|the|me) (?:tea|coffee|cuppa|dinner|lunch|food)(?:'s| has| is)? (?:gone|going|getting|now) "
        r"(?:cold|stone cold)\b"
        r"|\bthe (?:wifi|wi-fi|internet|connection|signal|telly|tv|broadband)(?:'s| is| has been|'s been|"
        r" was| keeps) (?:\w+ )?(?:dodgy|down|broken|slow|patchy|rubbish|playing up|acting up|cutting out|"
        r"dropping|out|off)\b"
        r"|\bneighbou?r'?s'? (?:music|drill|party)\b"
        r"|\b(?:dog|dogs|baby|kids?|rooster) (?:won'?t|will not|keeps?|wont) (?:stop )?(?:barking|crying|"
        r"screaming|yelling|crowing)\b"
        r"|\bbrain(?:'s| is) (?:fried|dead|mush|frazzled)\b",
    ),
    (
        # the weather where the worker is: "freezing here", "lashing rain, as per usual in Galway"
        "freezing boiling roasting baltic chilly sweltering lashing pouring raining snowing cold hot warm "
        "per",
        r"\b(?:freezing|boiling|roasting|baltic|chilly|sweltering|lashing|pouring|raining|snowing|cold|hot|"
        r"warm) (?:out here|over here|here(?= *(?:[,.!;:)]|lol|haha|$))|where i am)"
        r"|\b(?:lashing|pissing|bucketing)(?: (?:rain|down|it down))\b"
        r"|\bas per usual (?:in|here in|over here|round here) [a-z]+",
    ),
]
_LIFE_GROUPS.append(
    (
        # the worker's studies, tasks done and weather said plainly: "I'm a second-year painting student",
        # "I've done nine of these today", "I hope the weather is kinder where you are", "Sunny here, for
        # once."; not "the artist did many of these", "the sky is grey here"
        "student done did finished completed weather sunny rainy windy overcast muggy humid rained snowed",
        r"\b(?:i'm|im|i am) (?:a |an )(?:[\w-]+ ){0,2}student\b"
        r"|\b(?:i've|ive|i have|i|we've|we have) (?:already |just )?(?:done|did|finished|completed) "
        r"(?:\w+ )?of (?:these|those)\b"
        r"|\bweather\b[^.?!;]{0,30}\bwhere (?:you|u) are\b"
        r"|(?:^|[.!?;,] ?)(?:it's |its |it is )?(?:sunny|rainy|windy|overcast|muggy|humid) here\b"
        r"|\b(?:rained|been raining|snowed|been snowing) here for\b",
    )
)
# Session 9: asides about the worker's household, commute, work, social media and the partner, in the first
# or second person ("sorry, the little one just knocked over her cereal", "hang on, the dog's at the door",
# "sorry, on the bus, the signal keeps dropping", "add me on Instagram", "what's your favourite team?").
_LIFE_GROUPS.extend(
    [
        (
            # the household interrupting: children, pets, chores done while chatting
            "kids kid kids' children little young baby toddler son daughter dog dog's door sorry while same "
            "school hope twins sick home",
            r"\b(?:i've|i have|i've got|i got|got) (?:the|my) (?:kids|children|little ones?|baby|twins)"
            r"(?: \w+)? (?:home|off|sick|with me|here)\b"
            r"|\b(?:my|our|the) (?:little|young|youngest|eldest|oldest) (?:one|boy|girl)(?:'s| has| is)? "
            r"(?:just )?(?:spilled|spilt|woke|knocked|dropped|crying|shouting|screaming|fell|broke|sick)\b"
            r"|\b(?:my|our) (?:kids?|son|daughter|baby|toddler|boy|girl)(?:'s| has| is| are)? (?:just )?"
            r"(?:spilled|spilt|woke|knocked|dropped|shouting|screaming|fell|broke|home|sick|off school)\b"
            r"|\bthe dog(?:'s| is) at the door\b|\bsomeone at the door\b"
            r"|\bsorry,? (?:i'm |im |i am |i was |was |just |am |also ){0,3}"
            r"(?:getting|making|cooking|sorting|"
            r"packing|watching|feeding|putting|washing|cleaning|driving|changing|bathing|hanging|folding|"
            r"ironing|doing the) (?!sure\b)(?:\w+ ){0,4}"
            r"(?:lunch(?:es)?|dinner|breakfast|tea|rice|food|kids|baby|washing|laundry|dishes|match|game|"
            r"news|telly|tv|sorted|ready|done|at the same time|while)\b"
            r"|\b(?:while|as) (?:doing|i do|i'm doing|im doing|i am doing) (?:this|these)\b"
            r"|\bschool run\b"
            r"|\bhope (?:the|your|ur) (?:\w+ )?(?:kids?|son|daughter|mum|mom|dad|wife|husband|dog|cat|baby|"
            r"little one|family)s? (?:\w+ )?(?:feels?|gets?|is|are) (?:better|well|ok|okay)\b",
        ),
        (
            # the commute and the connection: "sorry, on the bus", "went through a tunnel", "network issue"
            "sorry tram bus train metro subway tube stop bridge tunnel lost network connection signal "
            "signal's internet wifi page refreshed",
            r"\bsorry,? (?:i'm |im |i am |was |just )?(?:on|in) (?:the|a) (?:tram|bus|train|metro|subway|"
            r"tube|taxi|uber)\b|\bmy stop\b|\b(?:went|going|go) (?:under|through) a (?:bridge|tunnel)\b"
            r"|\blost (?:you|u) (?:there|for a)\b"
            r"|\b(?:network|connection|signal|internet|wifi|wi-fi)(?:'s| is| was)? (?:issue|issues|problem|"
            r"problems|awful|terrible|bad|dodgy|weak|dropped|dropping|gone)\b"
            r"|\bthe page (?:refreshed|reloaded|froze|crashed)\b",
        ),
        (
            # the worker's night, work, studies and appointments: "rough night", "my supervisor is calling"
            "rough long night day supervisor manager boss test exam midterm quiz tmrw tomorrow interview "
            "appointment served stationed pray married engaged divorced widowed job",
            r"\b(?:sorry|had|i had|i've had|ive had),? (?:a )?(?:rough|long|bad|late|sleepless) "
            r"(?:night|day|shift)\b"
            r"|\bmy (?:supervisor|manager|team ?lead|boss)(?:'s| is)? (?:calling|here|watching|coming|"
            r"shouting|texting)\b"
            r"|\b(?:i|i've|ive) (?:have|got|has) (?:a|an|my) (?:\w+ )?(?:test|exam|midterm|quiz|final|"
            r"interview|appointment)\b"
            r"|\bi (?:served|was stationed|was deployed) (?:in|with|on|at)\b"
            r"|\bi (?:pray|go to (?:church|mosque|temple)) (?:every|each|five|on)\b"
            r"|\b(?:i'm|im|i am) (?:already |happily |newly |not )?(?:married|engaged|divorced|widowed)\b"
            r"|\bhow long (?:are|have) (?:you|u) (?:been )?(?:married|together|engaged|living there)\b"
            r"|\bwhat(?:'s| is) (?:yer|your|ur) (?:job|work|line of work)\b"
            r"|\b(?:hate|love|like) (?:this|my) (?:job|task|work)\b|\bboring (?:job|task|hit)\b"
            r"|\b(?:this|the) (?:\w+ )?(?:task|hit) (?:takes|is taking|took) (?:forever|ages|so long)\b"
            r"|\bpays the bills\b",
        ),
        (
            # social media, favourites and the partner's looks: "add me on Facebook", "what's your favourite
            # team?", "I bet you're pretty", "I can show you around"
            "add follow facebook instagram insta snapchat tiktok whatsapp twitter discord favourite favorite "
            "fav fave pretty beautiful handsome cute gorgeous sexy show yourself come visit growing "
            "writing typing chatting band choir orchestra sounds looks feels this these",
            r"\b(?:add|follow|message|dm|find|friend) (?:me|you|u) on\b"
            r"|\b(?:my|your|ur) (?:facebook|instagram|insta|snapchat|snap|tiktok|whatsapp|twitter|discord)\b"
            r"|\b(?:what(?:'s| is)|who(?:'s| is)) (?:your|ur|yer) (?:favou?rite|fav|fave) "
            r"(?:team|player|band|"
            r"singer|food|dish|movie|film|show|sport|song|drink|book|game|club)\b"
            r"|\b(?:i bet )?(?:you(?:'re| are)|u r|ur|you must be) (?:so |very |really )?(?:pretty|beautiful|"
            r"handsome|cute|gorgeous|sexy)\b"
            r"|^(?:thanks|thank you|hi|hello|hey|bye),? (?:beautiful|gorgeous|handsome|sexy|babe|cutie)\b"
            r"|\b(?:i can|i'll|i will|let me) show (?:you|u) around\b|\byou should (?:come|visit)(?: \w+)?,"
            r"|\bdo (?:you|u) (?:like|enjoy|go to|drink|play|watch) (?!(?:the|this|that|it)\b)(?:\w+ ){1,3}"
            r"yourself\b"
            r"|\b(?:you|u|i|we)\b[^.?!]{0,40}\bgrowing up\b"
            r"|\bwhere (?:are|r) (?:you|u) (?:writing|typing|chatting|sitting|calling) from\b"
            r"|\b(?:i'm|im|i am) (?:writing|typing|chatting) (?:from|in) (?:a|my|the|our)\b"
            r"|\b(?:i|we|my \w+) (?:play|plays|sing|sings|am|was) (?:\w+ ){0,2}in a "
            r"(?:band|choir|orchestra)\b"
            # "sounds like my last dentist visit", "do you do this a lot?"
            r"|\b(?:sounds|looks|feels) like (?:my|our) (?:(?:last|first|old|own|late) )?(?:\w+ )?"
            r"(?:visit|trip|"
            r"holiday|vacation|wedding|house|flat|kitchen|office|garden|kids?|son|daughter|wife|husband|"
            r"mum|mom|"
            r"dad|grandma|grandmother|granny|nan|uncle|aunt|boss|school|village|town|childhood)\b"
            r"|\bdo (?:you|u) do (?:this|these) (?:a lot|often|much|every day|for a living|full[- ]time)\b",
        ),
    ]
)
# Session 10: the household on the worker's lap, school runs, the task submitted, the pay, hunger, identity
# questions to the partner ("are you a photographer?", "are you from Bihar?") and the same asked in the
# languages workers switch into ("Wie alt bist du?", "¿De dónde eres?").
_LIFE_S10 = [
    (
        # "Sorry, toddler on my lap.", "baby on my hip", "pick up my oldest from school"
        "lap hip knee knees arm arms shoulder shoulders pick picking school daycare nursery kindergarten",
        r"\b(?:baby|babies|toddler|kid|kids|child|son|daughter|cat|kitten|dog|puppy|little one|"
        r"grandchild|"
        r"grandson|granddaughter|twins)s? (?:is |are |asleep |sleeping )?(?:on|in) my (?:lap|hip|knee|"
        r"knees|"
        r"arms?|shoulders?)\b"
        r"|\bpick(?:ing)? (?:up )?(?:my|the|our) (?:\w+ ){0,2}(?:up )?from (?:school|daycare|nursery|"
        r"kindergarten|practice|the station|the airport)\b",
    ),
    (
        # the task submitted, done before, first time: "submitting now", "first time doing such task"
        "submit submitting submitted time",
        r"\b(?:submitting|submitted) (?:it |this |the \w+ )?(?:now|already)\b|\bsubmit (?:the|this|my|"
        r"your) "
        r"(?:hit|task|work|survey|chat)\b"
        r"|\b(?:first|second|third) time (?:doing|on|with) (?:such|this|these|a|one) (?:\w+ )?"
        r"(?:task|hit|study|survey|chat|thing)s?\b",
    ),
    (
        # the pay: "they should pay more for this", "it pays for the bird seed", "my pension"
        "pay pays retirement pension salary wages paycheck paycheque mortgage bills",
        r"\b(?:should|could|ought to|to) pay (?:us |me |you |people )?(?:more|better|extra|properly)\b"
        r"|\bpays? for (?:the|my|our) (?!\w+ (?:in|on|of) the\b)\w+"
        r"|\b(?:my|our|your) (?:retirement|pension|salary|wages|paycheck|paycheque|mortgage|bills)\b",
    ),
    (
        # hunger: "mi belly a grumble", "haven't eaten since morning"
        "belly tummy stomach eat eaten",
        r"\b(?:my|mi|me) (?:belly|tummy|stomach)(?:'s| is| a)? (?:grumbl|rumbl|growl)\w*"
        r"|\b(?:haven't|have not|hadn't|didn't|did not|nuh|not) (?:eat|eaten|ate) (?:\w+ )?(?:since|"
        r"from|all) "
        r"(?:morning|breakfast|lunch|yesterday|day)\b",
    ),
    (
        # the partner's origin or trade asked: "are you from Bihar?", "r u a photographer or smth"
        "you u from",
        rf"\b(?:are|r) {_YOU} (?:also |originally |really )?from (?!(?:the|this|that) (?:picture|"
        rf"painting|"
        r"image|photo|scene)\b)[a-z]+"
        rf"|\b(?:are|r) {_YOU} (?:a|an) (?:\w+ )?(?:\w+(?:er|ist|ian|or)|nurse|chef|cook|coach|nanny)\b"
        r"(?! (?:of|in|at) the (?:picture|painting|image|scene)\b)",
    ),
    (
        # the partner's exams and shifts, their looks: "good luck with your exams", "u sound fun"
        "exams exam test shift interview homework sound sound seem seems",
        r"\b(?:your|ur) (?:\w+ )?(?:exams?|homework|shift|interview|midterms?|finals)\b"
        rf"|\b{_YOU} (?:sound|seem) (?:like )?(?:so |really |very |a )?(?:fun|nice|lovely|cool|great|"
        r"interesting|sweet|kind|smart|clever|busy|tired)\b",
    ),
    (
        # back from a pause: "back, sorry", "sorry, back now"
        "back",
        r"^(?:ok,? |okay,? )?(?:i'?m |im |am )?back(?: now)?,? (?:sorry|apologies)\b"
        r"|^(?:sorry|apologies),? (?:i'?m |im |am )?back\b",
    ),
    (
        # habits on given days: "I go walking there on Sundays"
        "sundays mondays tuesdays wednesdays thursdays fridays saturdays weekends",
        r"\b(?:i|we) (?:usually |often |always |still )?(?:go|play|take|walk|swim|ride|visit|cook|"
        r"dance|sing)"
        r"\b[^.?!]{0,40}\bon (?:sundays|mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|"
        r"weekends)\b",
    ),
    (
        # the partner's life asked in other languages: how old, where from, what job
        "alt bist kommst woher dónde donde eres años anos tienes âge age viens où ou dove sei anni hai "
        "onde "
        "você voce é anos tem skąd skad jesteś jestes lat masz otkuda tebe let kahan umar nerelisin "
        "yaşındasın yasindasin",
        r"\bwie alt bist du\b|\bwoher kommst du\b|\b(?:de )?d[oó]nde eres\b|\bcu[aá]ntos a[nñ]os tienes\b"
        r"|\bquel [aâ]ge as-tu\b|\bd'o[uù] viens-tu\b|\bdi dove sei\b|\bquanti anni hai\b"
        r"|\bde onde (?:voc[eê]|voce|tu) [eé]\b|\bquantos anos (?:voc[eê]|voce|tu) tem\b"
        r"|\bsk[aą]d jeste[sś]\b|\bile masz lat\b|\botkuda ty\b|\bskol'?ko tebe let\b"
        r"|\b(?:aap|tum) kahan se (?:ho|hain)\b|\b(?:aapki|tumhari) umar\b|\bnerelisin\b|"
        r"\bka[cç] ya[sş][iı]ndas[iı]n\b",
    ),
    (
        # grumbling about the pay in other languages: "die Bezahlung ist wirklich schlecht"
        "bezahlung lohn sueldo salario salaire stipendio salário salario zapłata zaplata wypłata wyplata "
        "zarplata зарплата оплата sweldo gaji maaş maas",
        r"\b(?:die bezahlung|der lohn|el sueldo|el salario|le salaire|lo stipendio|o sal[aá]rio|"
        r"zap[lł]ata|wyp[lł]ata|zarplata|зарплата|оплата|sweldo|gaji|maa[sş])\b",
    ),
]
# one gate and one regex for all of them (its literal gate tries each branch only when it can match)
_LIFE_GROUPS.append(
    (" ".join(words for words, _ in _LIFE_S10), "|".join(f"(?:{pattern})" for _, pattern in _LIFE_S10))
)
_LIFE = tuple((frozenset(words.split()), re.compile(pattern)) for words, pattern in _LIFE_GROUPS)
# word -> the _LIFE patterns it opens, so a message tries only the groups one of its words belongs to
# (a scan of every group's word set was ~10 % of the rules' time on short dialogs)
_LIFE_BY_WORD: dict[str, tuple[re.Pattern[str], ...]] = {}
for _group, _pattern in _LIFE:
    for _word in _group:
        _LIFE_BY_WORD[_word] = (*_LIFE_BY_WORD.get(_word, ()), _pattern)
# the same words as a set: a set intersected with a dict walks every key of the dict (thousands, ~30 us
# a message), with a set only the smaller of the two
_LIFE_WORDS = frozenset(_LIFE_BY_WORD)


# each _LIFE pattern -> a few strings of which its every match holds one (None: too many to test): most
# messages that have a group's word ("next", "door", "where") have none of them
_LIFE_NEEDS = {pattern: few_needs(pattern) for _, pattern in _LIFE}


def _life_aside(ctx: Context) -> bool:
    """One of the _LIFE groups has a word in the message and its pattern matches."""
    tried: set[re.Pattern[str]] = set()
    lower = ctx.lower
    for word in ctx.wordset & _LIFE_WORDS:
        for pattern in _LIFE_BY_WORD[word]:
            if pattern not in tried:
                tried.add(pattern)
                needs = _LIFE_NEEDS[pattern]
                if (needs is None or any(s in lower for s in needs)) and ctx.finds(pattern):
                    return True
    return False


# Every _OFF_TOPIC pattern needs one of these words.
_OFF_TOPIC_TRIGGERS = frozenset(
    """
    nice great good bad terrible awful hot cold warm sunny rainy raining snowing cloudy windy freezing humid
    lovely weather from live based time paid payment bonus mturk m-turk turk turker turkers requester hourly
    qualification hit hits task tasks survey surveys much questions rounds turns bot robot person human
    computer real still hurry wait delay internet connection wifi timer interface website day morning
    evening week weekend night today tonight later fun living work old name job age student married male
    female man woman working kids children pets family boss wife husband dinner lunch breakfast tired bored
    daughter daughters son sons child baby mum mom dad mother father parents brother brothers sister sisters
    uncle uncles aunt aunts grandma grandmother grandpa grandfather grandparents granny cousin cousins
    girlfriend boyfriend neighbour neighbours neighbor neighbors dog dogs cat cats pet puppy kitten
    hungry sleepy country city state town part grandad grandads granddad granddads grand-dad gran nan nana
    nanna auntie hubby missus fiance fiancee fiancé fiancée stepdad stepmum stepmom stepson stepdaughter
    in-laws room bedroom flatmate flatmates housemate housemates friend friends nonna nonno abuela abuelo
    abuelita abuelito oma opa babcia dziadek bubbe zayde yiayia yaya papou mamie papi mormor morfar farmor
    farfar avó avô avo vovó vovô vovo oldest youngest eldest kiddo kiddos toddler twins
    lola lolo tita tito kuya nanay tatay nani dadi dada amma appa ammi abbu ex vicar pastor parish church
    mosque temple coach landlord landlady colleague colleagues coworker coworkers co-worker co-workers
    classmate classmates great-granddaughter great-grandson great-grandchildren greatgranddaughter
    grandson grandsons granddaughter granddaughters grandchildren grandkids eyes back head neck hearing
    glasses practice fortnite minecraft roblox games video staring speak learned learn learnt study studied
    grow grew area rush busy distracted pay pay's
    """.split()
)


# "I'm in Nairobi": a capitalised place after "I'm in" (read from the original text).
_IN_PLACE = re.compile(r"\b[Ii](?:'m| am) in (?!The\b|This\b|A\b)[A-Z][a-z]+")
# "It is 40 degrees here in Chennai", "Wish it was sunny here in Manchester": a capitalised place.
_HERE_IN_PLACE = re.compile(r"\b[Hh]ere in (?!The\b|This\b|That\b|A\b|An\b|It\b)[A-Z][a-z]+")


# Customs and trips of the worker's own place, named with a capital: "In Lisbon we eat it with rice", "I
# saw one in Seville", "how do you find Leeds?" (not "how do you find the painting?")
_PLACE = r"(?!The\b|This\b|That\b|It\b|Her\b|His\b|Him\b|A\b|An\b|My\b|Your\b)[A-Z][a-z]+"
_PLACE_ASIDE = re.compile(
    rf"\b[Ii]n {_PLACE}(?: [A-Z][a-z]+)?,? (?:we|i|people) (?:\w+ )?(?:do|don't|eat|have|put|dance|go|call|"
    r"make|celebrate|use|wear|play|drink|cook|say)\b"
    rf"|\b(?:I|we|We) (?:\w+ )?(?:saw|ate|bought|visited|had) (?:\w+ ){{0,4}}in {_PLACE}"
    rf"|\b[Hh]ow do (?:you|u) (?:find|like) (?:living in |life in )?{_PLACE}"
)


# "In Prague every statue is full of pigeons", "Same in Vienna", "Hello from Greenpoint, Brooklyn", "I am
# Kasia from Kraków": a real place named in passing (tried only when one of its words is there)
_PLACE_NAMED = re.compile(
    rf"\b[Ii]n {_PLACE},? (?:every|all the|most) \w+"
    rf"|\b(?:[Ss]ame|[Jj]ust like that|[Ii]t'?s the same|[Ii]t is the same) (?:here )?in {_PLACE}"
    rf"|\b(?:[Hh]ello|[Hh]i|[Hh]ey|[Gg]reetings|[Ww]aving) from {_PLACE}"
    rf"|\b(?:I'?m|I am|[Mm]y name is|[Mm]y name's) [A-Z][a-z]+(?: [A-Z][a-z]+)? from {_PLACE}"
)
_PLACE_NAMED_WORDS = frozenset("every all most same like from".split())


def detect_off_topic(ctx: Context, cfg: OffTopicConfig) -> bool:
    return _off_topic_alone(ctx) or _replies_to_aside(ctx)


# A reply that reacts to the partner's personal aside ("Haha, same.", "Sounds lovely.", "Aww, that's sweet
# of her.", "Oh wow, that must have been hard for him.") or answers their personal question in a few
# words ("Leeds, born and raised.", "No thanks, I'd rather not.") carries the chitchat on, even when a
# description of the artwork follows it.
_REACTION = re.compile(
    r"^(?:(?:ha+|haha\w*|hehe\w*|lol|lmao\w*|oh+(?: no| dear| my)?|ooh+|wow|aw+|brr+|yikes|oof|ouch|jeez|"
    r"blimey)[,.!]* )*"
    r"(?:nice|cool|dope|sweet|lovely|interesting|respect|same (?:as|here|with)|me too|i know the feeling|"
    r"i understand|sounds (?:\w+)|that(?:'s| is| must| sounds| was)(?: \w+){0,3} (?:fun|nice|lovely|sweet|"
    r"sad|hard|tough|cool|great|awful|memory|day|shame|dope|amazing|interesting)|how (?:lovely|nice|sad|"
    r"cool|fun)|i hope|i bet|lucky (?:you|him|her)|good for (?:you|him|her)|congrats|congratulations|"
    r"sorry to hear|thank you for (?:your service|sharing)|you too|no thanks|i'?d rather not|"
    r"(?:bad|hard|tough|rough) luck|unlucky|good luck|same(?=[,.!]|$)|"
    r"(?:you're|you are) doing (?:fine|great|well|good))\b"
)
# "let's stick to the painting": a reply that turns back to the artwork without taking the aside up
_REDIRECT = re.compile(r"^(?:let's|let us|please|can we) (?:stay|keep|focus|get back|stick|go back)\b")
_ASK_BACK = re.compile(r"(?:\b(?:and )?(?:you|u|yourself|yours|why)|\bwhy not)\s*\?+\s*$")


def _replies_to_aside(ctx: Context) -> bool:
    """The partner's message just before was a personal aside, and this short one takes it up."""
    lower = ctx.lower
    # the word count first: most messages are longer (a normalised text that is not empty has a sentence)
    if not lower or len(lower.split()) > 12 or _BARE_ACK.match(lower) or _REDIRECT.match(lower):
        return False
    sentences = [x for x in re.split(r"(?<=[.!?])\s+", lower) if x]
    # a question about the artwork, or a description after the reaction, is back on the artwork
    if "?" in lower and not _ASK_BACK.search(lower) or any(_DESCRIBES.match(x) for x in sentences[1:]):
        return False
    reacts = _REACTION.match(lower) is not None
    if not reacts and len(sentences[0].split()) > 8:
        return False
    text = ctx.partner_last()
    if text is None:
        return False
    partner = Context(str(ctx.history[-1].get("role")), ctx.round, text, ctx.history[:-1])
    if not _off_topic_alone(partner):
        return False
    questions = [q for q in re.split(r"(?<=[.!?])\s+", partner.lower.strip()) if q.endswith("?")]
    # the partner asked about the artwork too (a question without "you"): the reply answers that
    if any(not _SECOND_PERSON.search(q) for q in questions):
        return False
    return reacts or bool(questions)


_BARE_ACK = re.compile(
    r"^(?:(?:lol|lmao|ok|okay|oh|wow|ha|haha|hehe|cool|nice|right|yeah|yes|no|i see|fair enough|aw|aww|"
    r"bless|aw bless|hmm|ah|sure|great|damn)[\s,.!]*)+$"
)
_DESCRIBES = re.compile(
    r"(?:the|there|theres|there's|she|he|it|they|in the|on the|its|her|his|this one|any|what|whats|what's|"
    r"is|are|how|where|who|which|does|do|tell|describe|can|could)\b"
)
_SECOND_PERSON = re.compile(r"\b(?:you|u|your|ur|yours|yourself|ya|yer)\b")


def _off_topic_alone(ctx: Context) -> bool:
    """The message is off topic by itself (or as the answer to a personal question)."""
    return _off_topic_text(ctx) or _answers_personal_question(ctx)


# text -> whether its words alone are off topic: a reply's check of the partner's message before it
# (``_replies_to_aside``) judges the same text again that the partner's own check judged just before
_OFF_TOPIC_TEXTS: dict[str, bool] = {}


def _off_topic_text(ctx: Context) -> bool:
    """The message's own words are off topic (its text alone decides: kept per text)."""
    known = _OFF_TOPIC_TEXTS.get(ctx.text)
    if known is None:
        if len(_OFF_TOPIC_TEXTS) >= 4096:
            _OFF_TOPIC_TEXTS.clear()
        known = _OFF_TOPIC_TEXTS[ctx.text] = _off_topic_words(ctx)
    return known


# Every place regex above (_IN_PLACE, _HERE_IN_PLACE, _PLACE_ASIDE, _PLACE_NAMED) needs a capitalised word
# ("[A-Z][a-z]") after at least one character of the text: most messages have none, and this one search
# rules all four out.
_INNER_CAPITAL = re.compile(r"[A-Z][a-z]")


def _names_a_place(ctx: Context) -> bool:
    """The worker names their own place or one they saw ("I'm in Nairobi", "In Lisbon we eat it...")."""
    text = ctx.text
    if _INNER_CAPITAL.search(text, 1) is None:
        return False
    words = ctx.wordset
    text = text.replace("\u2019", "'")
    return bool(
        _PLACE_ASIDE.search(text)
        or (not words.isdisjoint(_PLACE_NAMED_WORDS) and _PLACE_NAMED.search(text))
        or (("i'm" in words or "am" in words) and _IN_PLACE.search(text))
        or ("here" in words and _HERE_IN_PLACE.search(ctx.text))
    )


def _off_topic_words(ctx: Context) -> bool:
    words, lower = ctx.wordset, ctx.lower
    if _names_a_place(ctx):
        return True
    # through its literal gate: searched whole, the regex cost ~4x more on the messages its words let in
    if not words.isdisjoint(_OFF_TOPIC_TRIGGERS) and ctx.finds(_OFF_TOPIC):
        return True
    if _life_aside(ctx):
        return True
    return not words.isdisjoint(_CHITCHAT_TRIGGERS) and _CHITCHAT.search(lower) is not None


# The partner asked about the worker's home, weather or pay ("where u from", "whats the weather like
# over there", "how much are you getting for this?") and asked nothing about the artwork after it: a
# short reply ("Alabama, born and raised. You?", "Lashing rain here.") answers the chitchat.
_PERSONAL_QUESTION = re.compile(
    rf"(?:\bwhere (?:(?:are|r) )?{_YOU} (?:from|based|located)|\bwhere do {_YOU} live|"
    rf"\b(?:what(?:'s|s| is) the weather like|how(?:'s| is) the weather) (?:where|over there|there|in your|"
    rf"at your|for {_YOU})|"
    rf"\bhow much (?:are|do|r) {_YOU} (?:getting|get|earning|earn|making|make)|"
    rf"\bwhat (?:country|city|town|part of the world) (?:are|r) {_YOU})"
    r"[^?.!]*[?.! ]*(?:lol|haha|btw)?[?.! ]*$"
)


# The chat itself: a message asked again or missed, not following, not reading a language ("Did you skip
# my last message?", "I am sorry, my memory fails me: how many ... did you say?", "I beg your pardon, I do
# not follow.", "I am afraid I do not read French."). Such words stand the off_topic classifier down; the
# detector's word groups still judge the rest of the message.
_REPAIR_TRIGGERS = frozenset(
    "say said mean meant message messages question answer reply memory follow understand read pardon "
    "english".split()
)
_REPAIR = re.compile(
    rf"\b(?:did|do) {_YOU} (?:just )?(?:say|mean|skip|miss|see|read|get) (?:my|what i)\b"
    rf"|\bdid {_YOU} (?:just )?(?:say|mean)\b"
    r"|\b(?:my|your|the) (?:last|previous|earlier|first) (?:message|question|answer|reply)\b"
    r"|\bmy english (?:is|isn't|was|wasn't|not)\b"
    r"|\bmy memory (?:fails|failed|is (?:bad|poor|terrible|awful|going|not))\b|\bbeg your pardon\b"
    r"|\b(?:do not|don't|dont|did not|didn't|can't|cannot|could not|couldn't) (?:quite |really )?"
    r"(?:follow|understand|read)\b"
)


def _about_the_chat(ctx: Context) -> bool:
    return not ctx.wordset.isdisjoint(_REPAIR_TRIGGERS) and bool(_REPAIR.search(ctx.lower))


# "How is your family?" answered "They are fine, thank God." before a description: the reply is chitchat.
_FAMILY_ASKED = re.compile(
    r"\bhow(?:'s|s| is| are) (?:your|ur) (?:family|families|wife|husband|kids|children|parents|mum|mom|dad)\b"
)
_FIRST_SENTENCE = re.compile(r"[^.!?]+[.!?]*")


def _answer_opens(ctx: Context) -> bool:
    """A longer message whose first few words may answer the partner's personal question ("Trinidad, boy!
    The figure is...", "They are fine, thank God. The picture shows..."): the partner must have asked one."""
    first = _FIRST_SENTENCE.match(ctx.lower)
    if first is None:
        return False
    opening = first.group()
    words = T.words(opening)
    return (
        0 < len(words) <= 4
        and "?" not in opening
        and words[0] not in _NOT_AN_ANSWER
        and not _DESCRIBES.match(opening)
    )


_NOT_AN_ANSWER = frozenset(
    "yes yeah yep no nope nah sure ok okay maybe sorry hmm um well so oh ah right correct true".split()
)


def _answers_personal_question(ctx: Context) -> bool:
    # what the message's own text decides comes first: when it rules an answer out, the partner's
    # message is not read (and the verdict can be kept per text, ``registry._detect``)
    lower = ctx.lower
    well_being = _WELL_BEING_REPLY.match(lower) is not None
    if len(ctx.words) > 12:
        answers = _answer_opens(ctx)
    else:
        # a question back about the artwork is no chitchat; "You?" or "and you?" at the end asks it back
        answers = "?" not in lower or "?" not in _ASKED_BACK.sub("", lower)
    if not (well_being or answers):
        return False
    said = ctx.partner_last()
    if said is None:
        return False
    said = said.lower()
    if well_being and _FAMILY_ASKED.search(said):
        return True
    return answers and any(s in said for s in _PERSONAL_NEEDS) and bool(_PERSONAL_QUESTION.search(said))


_ASKED_BACK = re.compile(r"\b(?:and )?(?:you|u|yourself)\s*\?+\s*$")
# every _PERSONAL_QUESTION match holds one of these (a test before its search of the partner's message)
_PERSONAL_NEEDS = (
    "where ",
    " the weather",
    "how much ",
    "what country",
    "what city",
    "what town",
    "what part",
)


RULES = [
    Rule(
        id="greeting",
        roles=frozenset(ROLES),
        explanation=(
            "Please skip greetings, thanks and small talk: start straight away with "
            "a question or answer about the artwork."
        ),
        summary="Greetings, well-being exchanges, farewells and messages that are only thanks.",
        config=GreetingConfig,
        detect=detect_greeting,
    ),
    Rule(
        id="off_topic",
        roles=frozenset(ROLES),
        explanation=(
            "Keep the conversation on the artwork: not your own weather, where you live, "
            "the pay, the task or your day."
        ),
        summary="Chitchat about real-world weather, home towns, payment, the task or the partner's life.",
        config=OffTopicConfig,
        detect=detect_off_topic,
        classifier_defers_to=frozenset({"greeting"}),
        classifier_spared_by=_about_the_chat,
    ),
]
