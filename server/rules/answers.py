"""Answerer rules: describe the artwork in some detail, without telling the questioner what to feel.

``imposes_emotion`` separates an emotion attached to the artwork or the viewer ("the painting is
depressing", "it makes me feel calm") from one attached to something depicted ("a woman with a
sad face", "the dog looks happy"): only the first imposes a feeling.
"""

from __future__ import annotations

import re
from functools import lru_cache

from server.rules import smalltalk
from server.rules import text as T
from server.rules.base import Context, Rule
from server.rules.questions import (
    BEAUTY_WORDS,
    BEING_LOOK_ASKED,
    BEING_WORD,
    DEPICTED_BEING,
    EVALUATIVE_WORDS,
    INTERROGATIVES,
    SCENE_MOOD_WORDS,
    AsksFeelingsConfig,
    detect_asks_feelings,
)
from server.rules.rule_configs import AnswerIsQuestionConfig, ImposesEmotionConfig, ShortAnswerConfig  # noqa: F401 (re-exported)

# Words that carry no description: an answer made only of these is a bare yes/no/maybe.
_BARE_WORDS = frozenset(
    """
    yes yeah yep yup no nope nah maybe perhaps possibly probably definitely absolutely certainly sure ok
    okay right correct true false exactly indeed not sure i i'm im am don't dont do does doesn't did
    didn't know think guess so it it's its is isn't was wasn't are aren't were weren't there there's
    they they're he she he's she's that that's this one of course kind sort a bit little really
    very much at all quite can't cannot tell idea hard to say say seems seem might be could would
    maybe-not yes-and-no and or but well hmm uh um oh the either neither nor some somewhat partly have
    got clue any none rly uhh uhm umm thats dunno everything else nothing kinda sorta yea yeh ya lol haha
    """.split()
)


def _word_count(words: list[str]) -> int:
    """Words, counting each character of scripts written without spaces (Chinese, Japanese) as one."""
    return sum(len(w) if _UNSPACED.search(w) else 1 for w in words)


# "Pink and orange.": a bare list of too few words, however they are joined.
_JOINERS = frozenset(("and", "or", "n"))


_UNSPACED = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")


# Hedges and stalling: "I really cannot say much about that one" is long but says nothing.
_HEDGE_WORDS = frozenset(
    """
    why not say said saying says tell telling told know knew sure unsure idea certain clear clearly unclear
    obvious obviously hard difficult tough impossible answer answered question questions guess honestly
    honest notice noticed mention mentioned exactly much really totally completely entirely fully believe
    suppose assume afraid sorry nothing anything everything though also think thought seeing saw seen
    see mean means meant again already fine alright okay ok whatever probably likely unlikely possible
    guessing wondering special read understand speak u english please
    """.split()
)
# Function words that still describe: where something is, or how many.
_DESCRIPTIVE = frozenset(
    """
    above below under over between behind beside inside outside up down off out near far front back top
    bottom left right middle center centre corner around through against into onto across along beneath
    one two three four five six seven eight nine ten eleven twelve dozen hundred
    """.split()
)
_EMPTY_WORDS = (_BARE_WORDS | _HEDGE_WORDS | T.STOPWORDS) - _DESCRIPTIVE


# An ask-back that opens with a question word ("Which ones?", "What dog?") is answer_is_question only
# (the labeling guide: short_answer is a bare or too short *answer*). So is a brief ask-back made only of
# words that ask the partner to repeat or explain ("Sorry?", "Huh?", "Pardon, what?", "Like what?", "Why,
# do you?", "English, mate?", "Wie bitte?", "Anything else?"); an echo of a thing ("A bed?") answers
# nothing and stays a short answer too.
_ASK_BACK_OPENERS = frozenset("which what who whose where is are does do did was were can could".split())
_ASK_BACK_WORDS = INTERROGATIVES | frozenset(
    """
        sorry soz pardon huh eh hm hmm what wut wat come again mean meant like say that you u ya ye do
        mate man dude bro pal love hun english speak excuse me really seriously and so oh um uh wdym wym
        wie bitte was hä quoi comment hein pardón perdón perdon qué que cómo como scusa cosa wat nou
        ano nani kya any question questions next else
        """.split()
)
# "About what?", "For whom?", "With which?": a preposition asking what the partner meant.
_ASK_BACK_PREPOSITIONS = frozenset("about of for with from to by on in at".split())


# "Define cosy?", "Clarify 'old'.": the partner asked to explain a word of their question.
_DEFINE = frozenset(("define", "clarify"))
# "Wait, sorry, what was the question?": words that only hold the turn before a question asked back.
_HOLDING = frozenset(
    "wait sorry hang hold on sec second moment um uh erm er oh ah hmm huh oops apologies".split()
)


# "Relative how?", "Limited how?": a word of the partner's question echoed and asked about (not "Blue,
# why?", which answers first).
_ECHO_ASKERS = frozenset("how what why which where who whom when".split())


def _brief_ask_back(ctx: Context) -> bool:
    words = ctx.words
    if _marks_only(ctx):
        return True  # "???"
    if not 0 < len(words) <= 3 or not asks_back(ctx.lower):
        return False
    if all(w in _ASK_BACK_WORDS for w in words):
        return True
    if words[0] in _DEFINE:  # "Define magnificent?": the partner's word asked about
        return True
    if len(words) == 2 and words[0] in _ASK_BACK_PREPOSITIONS and words[1] in _ECHO_ASKERS:
        return True
    return (
        len(words) > 1
        and words[-1] in _ECHO_ASKERS
        and ctx.lower.rstrip().endswith("?")
        and "," not in ctx.lower
        and words[0] not in _AFFIRM
        and not any(w.isdigit() or w in _DESCRIPTIVE for w in words)
        and bool(ctx.history)
        and words[0] in T.words(T.normalise(str(ctx.history[-1].get("text", ""))))
    )


# A reply made only of greeting, thanks or farewell words ("Hello.", "Bye!", "You're welcome!") answers a
# pleasantry, not a question about the artwork: greeting's, not short_answer's (labeling guide). Only
# with a message before it (a reply), and only when the greeting rule's detector agrees.
_COURTESY_WORDS = frozenset(
    """
    hi hii hello hey heya hiya yo bye goodbye cya farewell welcome thanks thank thx ty cheers np likewise
    pleasure mine good morning afternoon evening day night you u too to same here and take care see later
    soon again also as well very much so a lot most all the my dear friend partner there hello's it's
    great fine ok okay sure no problem worries anytime glad happy help could i i'm am doing nice meet you're
    youre ur r ta now kindly ya worries laters hooroo tara cheerio totsiens slán slan abhaile doei ciao tchau
    adeus arvo mate dankie grand lovely top sound fair enough right so well cool alright then amen bless
    blessings god yeah yep ta-ra gg whatever dobranoc hwyl fawr
    karibu nawzajem wzajemnie kwaheri asante sana sawa ó dàbọ dabọ dabo tnx thnx thanx
    """.split()
)
_COURTESY_CORE = frozenset(
    "hi hii hello hey heya hiya yo bye goodbye cya farewell welcome thanks thank thx ty cheers np likewise "
    "pleasure morning afternoon evening ta laters hooroo tara cheerio totsiens slán doei ciao tchau adeus "
    "dankie karibu nawzajem wzajemnie kwaheri asante dàbọ dabọ dabo tnx thnx thanx".split()
    # farewells and "it's nothing" ("Alright, later.", "Okay, ta-ra!", "No worries.", "Night!")
    + "later ta-ra tara worries night".split()
)
# "Good and you?", "Fine, how about yourself?": well-being answered and asked back, a pleasantry.
# "Hi, all good here, and you?", "Not too bad thanks, and yours?", "Not bad love, you?": a greeting may
# open it, "too"/"so" may soften it, a term of address may follow it.
_WELL_BEING_BACK = re.compile(
    r"^(?:(?:hi|hello|hey|hiya|heya)[,.!]* )?"
    r"(?:(?:i'?m|im|i am|all|doing|pretty|very|really|quite|not|too|so)\s+)*(?:fine|good|great|well|ok|okay|"
    r"alright|bad|excellent|wonderful|grand)(?: here)?(?:,? (?:love|mate|friend|dear|bro|pal))?"
    r"(?:,? (?:thanks|thank you|thx|ta))?[,.!]*"
    r"(?: (?:and|how about|what about))? (?:you|u|yours|yourself|urself)\s*\?*$"
    # Portuguese: "Tudo bem sim, e você?", "tudo e vc?"
    r"|^(?:tudo(?: bem| bom| certo| joia)?|bem|estou bem)(?: sim)?(?:,? obrigad[oa])?[,.!]* (?:e )?"
    r"(?:você|voce|vc|tu)\s*\?*$"
)


_GREETING_CFG = smalltalk.GreetingConfig()
_HONORIFICS = frozenset(("po", "ji"))
_SEE_YOU = re.compile(r"\bsee (?:ya|you|u)\b")


def _courtesy_reply(ctx: Context) -> bool:
    words = ctx.words
    if not words:  # "👍" after the partner's thanks
        return bool(ctx.history) and smalltalk.detect_greeting(ctx, _GREETING_CFG)
    # the text's own tests first: the history is read only when they pass
    return (
        (
            (
                all(w in _COURTESY_WORDS for w in words)
                # "You too.", "u too": a pleasantry returned
                and (
                    not _COURTESY_CORE.isdisjoint(words)
                    or (words[-1] == "too" and words[-2:-1] in (["you"], ["u"]))
                    # "See ya.", "See you soon!"
                    or _SEE_YOU.search(ctx.lower) is not None
                )
            )
            # a courtesy in a script without Latin letters ("وعليكم السلام", "さようなら") or in words
            # that are no English ("Karibu!", "Nawzajem.")
            or not any("a" <= c <= "z" for c in ctx.lower)
            # (a Filipino "po" or Hindi "ji" after it is an honorific: "Paalam po!", "Shukriya ji.")
            or all(w not in T.ENGLISH_WORDS or w in _HONORIFICS for w in words)
            and not _HONORIFICS.issuperset(words)
        )
        and bool(ctx.history)  # a reply: the partner spoke first
        and smalltalk.detect_greeting(ctx, _GREETING_CFG)
    )


# "haha shhh 🤫": hushing the partner (and laughing) answers nothing; it plays along with chat.
_HUSH = re.compile(r"^(?:s+h+|p+s+t+|hush)$")
_LAUGH = re.compile(r"^(?:(?:a?ha)+h?|(?:he)+h?|(?:hi)+|l+o+l+|lmao|rofl|xd+)$")


def _hush(words: list[str]) -> bool:
    hushed = False
    for w in words:
        if _HUSH.match(w):
            hushed = True
        elif not _LAUGH.match(w):
            return False
    return hushed


# "Forty, I said.", "Six men, as I said.", "Red, like I said.", "Thick, as I bloody said.", "Five, as
# mentioned.", "Clean, I said already.", "Twelve, I wrote it in Spanish.": a bare reply of one or two words
# repeated with a reminder that it was given already is still a bare reply (the reminder describes nothing;
# the labeling guide's "Red, like I said."). Only a reminder that ends the message counts: "Four, I said
# it already. Pay attention." and "I just said, a thistle." are left as the older batches label them.
_REMINDER_VERB = r"(?:said|told(?: you| u)?|answered|mentioned|wrote|typed|explained|put|stated)"
_SAID_BEFORE = re.compile(
    r",? (?:(?:like|as|same as) (?:i(?:'ve| have)? )?(?:(?:already|just|bloody|damn|literally) )?"
    rf"{_REMINDER_VERB}|i(?:'ve| have)? (?:(?:already|just|bloody|literally) )?{_REMINDER_VERB}"
    r"(?: (?:it|that|so))?"
    r"|same as (?:before|i said)|scroll up)"
    r"(?: (?:before|already|twice|earlier|above|first|in [a-z]+))*[.!]*$"
)
_COUNTS = frozenset(
    """
    one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen
    eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred dozen none
    """.split()
)
_ABOUT = frozenset("about around roughly maybe approximately nearly almost".split())
_REMINDER_WORDS = frozenset("said told answered mentioned wrote typed explained before stated scroll".split())
# "Six, like I said, dumbass.", "Blue, you idiot, scroll up.", "Kilimanjaro, I told you, are you deaf?":
# telling the partner off around the reminder adds no word of answer either (session 17)
_TOLD_OFF = re.compile(
    r",\s*(?:(?:(?:you|ya|yuh) )?(?:idiot|moron|dumbass|numpty|muppet|git|genius|mate)"
    r"|are (?:you|u) (?:(?:just )?(?:deaf|thick|blind|stupid|slow|dense)(?: or )?)+)\??(?=\s*[,.!]|\s*$)"
)
# "Thirty or so", "Red and yellow", "fifty-ish": still one or two words of answer
_ROUGHLY_TAIL = (["or", "so"], ["or", "more"], ["ish"])


# A word that asks for a thing or a choice: what was asked is more than yes or no.
_OPEN_ASKERS = frozenset("what what's whats which who whose where how when or wat wat's wot wut".split())


def _bare_said_before(ctx: Context) -> bool:
    lower = _TOLD_OFF.sub("", ctx.lower)
    match = _SAID_BEFORE.search(lower)
    if match is None or match.start() == 0:
        return False
    head = T.words(lower[: match.start()])
    about = bool(head) and head[0] in _ABOUT
    if about:
        head = head[1:]
    for tail in _ROUGHLY_TAIL:
        if head[-len(tail) :] == tail:
            head = head[: -len(tail)]
    listed = [w for w in head if w not in _JOINERS]
    if not 0 < len(listed) <= (1 if about else 2) or "or" in head:
        return False  # "Five or six, as I told you.": a range is an estimate, as the batches label it
    if any(w in T.STOPWORDS and w not in _DESCRIPTIVE for w in listed):
        return False  # "You idiot, I just told you.": no reply repeated, only the partner told off
    if listed[0] in _COUNTS or listed[0].isdigit():
        return True
    # a word that is no count repeats a thing or a choice asked for ("Red, like I said." after "What
    # colour?"); after a yes/no question it corrects the question ("Startled, like I said." after "Does
    # the tiger look frightened?"), which the labeled batches leave alone
    asked = T.words(T.normalise(str(ctx.history[-1].get("text", "")))) if ctx.history else []
    return not _OPEN_ASKERS.isdisjoint(asked) and not (len(head) == 2 and head[0] in _AFFIRM)


def detect_short_answer(ctx: Context, cfg: ShortAnswerConfig) -> bool:
    words = ctx.words
    if not _REMINDER_WORDS.isdisjoint(words) and _bare_said_before(ctx):
        return True
    if _courtesy_reply(ctx) or _WELL_BEING_BACK.match(ctx.lower) or _brief_ask_back(ctx):
        return False
    if len(words) <= 3 and "s" in ctx.lower and _hush(words):
        return False
    # a closing particle of Singlish or Malaysian English ("Quite scary lor.") adds no word of answer
    if _word_count(words) - (len(words) > 1 and words[-1] in _PARTICLES) < cfg.min_words:
        return not (len(words) > 1 and words[0] in _ASK_BACK_OPENERS and asks_back(ctx.lower))
    if len(words) <= cfg.min_words and not _JOINERS.isdisjoint(words):
        listed = [w for w in words if w not in _JOINERS]
        if len(listed) < cfg.min_words and all(w not in T.STOPWORDS for w in listed):
            return True
    if all(w in _BARE_WORDS for w in words):
        return True
    if words[-1] in _SWORN_TAIL_LAST and "," in ctx.lower:
        # "Yellow, for fuck's sake.", "A lance, obviously, genius.": an oath or a jibe adds no word of answer
        match = _SWORN_TAIL.search(ctx.lower)
        if match is not None and 0 < _word_count(T.words(ctx.lower[: match.start()])) < cfg.min_words:
            return True
    # "Yes, a pipe.", "Apple I think.": one bare reply or hedge around fewer words than asked for
    core = words[1:] if words[0] in _AFFIRM else words
    while core and core[-1] in _HEDGE_TAIL:
        core = core[:-1]
    if core and len(core) < cfg.min_words <= len(words) and "?" not in ctx.text:
        return True
    # nothing but function words, hedges and names of the artwork ("Sure, why not.", "Hard to say
    # from the picture."); a digit or a word of place or number is an answer. A question asked back
    # ("What do you think?") is answer_is_question's, not a short answer.
    empty = all(
        w in _EMPTY_WORDS or (w == "one" and i > 0 and words[i - 1] in _POINTING) for i, w in enumerate(words)
    )
    return empty and not (words[0] not in _AFFIRM and asks_back(ctx.lower))


_PARTICLES = frozenset("lah lor leh meh sia".split())
# An oath, an exasperated "obviously" or a jibe at the partner closing a reply after a comma.
_SWORN_TAIL = re.compile(
    r"(?:,\s*(?:obviously|clearly|genius|einstein|sherlock|(?:you )?(?:idiot|moron|dumbass|muppet|numpty)|"
    r"ffs|"
    r"for (?:fuck|feck|frick|fook|god|christ|pete|heaven|goodness)(?:'?s)? sake|for crying out loud|"
    r"dammit|(?:god ?)?damn it))+\s*[.!]*$"
)
_SWORN_TAIL_LAST = frozenset(
    "obviously clearly genius einstein sherlock idiot moron dumbass muppet numpty ffs sake loud dammit "
    "it".split()
)
# Words that open a bare reply even when a question follows ("Sure, why not?").
_AFFIRM = frozenset(
    "yes yeah yep yup sure ok okay no nope nah maybe right correct true fine alright certainly definitely "
    "absolutely probably perhaps".split()
    # and in the languages workers switch into: "Sì, è orribile.", "Да, очень грустно."
    + "sì sí si ja да oui sim haan evet tak nein non não nao нет".split()
)
# Words that end an answer with a hedge ("Apple I think.").
_HEDGE_TAIL = frozenset(
    "i think guess believe suppose maybe probably perhaps tbh ngl lol honestly imo po ji".split()
)
# "that one", "the one": a pointer, not a count.
_POINTING = frozenset("that this the which each any no every other another".split())


_ART = (
    r"(?:painting|picture|image|artwork|art|art piece|piece|work|scene|photo|canvas|drawing|whole thing|"
    r"portrait|landscape|seascape|"
    r"overall (?:mood|feeling|atmosphere|tone|vibe|impression)|mood|atmosphere|tone|vibe|feeling|colou?rs|"
    r"colou?r (?:palette|scheme)|palette)"
)
# Adjectives naming an effect on the viewer: attached to the artwork or "it", they impose a feeling.
_EFFECT = (
    r"(?:depressing|scary|frightening|terrifying|horrifying|disturbing|creepy|eerie|unsettling|upsetting|"
    r"heartbreaking|heart-breaking|heartwarming|heart-warming|uplifting|calming|relaxing|soothing|"
    r"comforting|gloomy|melancholic|melancholy|sorrowful|"
    r"disgusting|revolting|sickening|gross|amusing|funny|hilarious|exciting|thrilling|awe-inspiring|"
    r"awesome|breathtaking|beautiful|gorgeous|lovely|stunning|ugly|hideous|boring|romantic|"
    r"hopeless|tragic|moving|touching|inspiring|pleasant|unpleasant|peaceful|serene|"
    r"tranquil|ominous|haunting|sinister|menacing|dreadful|grim|bleak|dreary|nostalgic)"
)
# Adjectives of a state: of the artwork they impose a feeling, of "it" they may describe a dog.
_STATE = r"(?:sad|happy|cheerful|joyful|joyous|depressed|lonely|hopeful|angry|melancholic|peaceful|calm)"
_DEGREE = r"(?:(?:very|so|really|quite|rather|pretty|extremely|kind of|kinda|a bit|a little|somewhat|truly|"
_DEGREE += (
    r"incredibly|super|too|mostly|overall|just|all|both|almost|simply|dead|proper|bloody|damn|real|hella) )*"
)
_VIEWER_EMOTION = (
    r"(?:happy|sad|scared|afraid|frightened|calm|relaxed|peaceful|uneasy|uncomfortable|depressed|"
    r"joyful|anxious|nervous|good|bad|warm|cold|sick|disgusted|angry|nostalgic|hopeful|lonely|moved|"
    r"inspired|excited|amused|content|at peace|at ease|creeped out|chills|goosebumps|emotional|"
    r"melancholic|melancholy|gloomy|cheerful|serene|tense|down|blue|upset|disturbed|unsettled)"
)
_IMPOSES = re.compile(
    "|".join(
        [
            # the artwork (or its mood/colours) is/looks/feels EFFECT
            rf"\b(?:the|this|that|its|it's|overall|whole) (?:\w+ )?{_ART} (?:is|are|was|looks|look|seems|"
            rf"feels|feel|appears|comes across as|gives off a|has a|creates? a) "
            rf"(?:a |an )?{_DEGREE}(?:{_EFFECT}|{_STATE})\b",
            # "it is depressing", "it's a sad painting", "this is so creepy"
            rf"(?:^|[.!,;] ?|\bbut |\band )(?:it|this|that)(?:'s| is| was| looks| seems| feels| really is) "
            rf"(?:a |an )?{_DEGREE}{_EFFECT}\b(?! (?:for|to|at|in|with|that|because|how)\b)",
            # the same with "its" typed for "it's" ("yeah its really pretty"); only when the judgement
            # ends the clause, so the possessive "its gloomy sky is grey" stays a description
            rf"(?:^|[.!,;] ?|\bbut |\band |\byeah |\bno |\bhonestly )its (?:a |an )?{_DEGREE}{_EFFECT}"
            r"(?=\s*(?:$|[.!,;?]|as\b|and\b|but\b|though\b|honestly\b|tbh\b|ngl\b|lol\b|lmao\w*|haha\w*))",
            # "It is nice, a lovely glowing orange...": "nice" alone ending the clause judges
            r"(?:^|[.!;] ?)(?:it|this|that)(?:'s| is| was) (?:very |really |so |quite |pretty )?nice"
            r"(?=\s*(?:[,.!;]|$))",
            # a verdict exclaimed at the end: "... a dog biting the unicorn's neck, so sad"
            rf"[,;.!] (?:so|how|just|really|very) (?:{_EFFECT}|{_STATE})\s*[.!]*$",
            # "a sad painting", "a very creepy scene"
            rf"\b(?:a|an|such a|such an|very|really|so|the most) {_DEGREE}(?:{_EFFECT}|{_STATE})"
            rf"(?:,? [\w-]+)? (?:{_ART}|one)\b",
            # the viewer: "makes me feel", "I feel sad", "gives me the creeps"
            rf"\bmak(?:es|ing|e) (?:me|you|one|people|anyone|everyone|the viewer|viewers) (?:feel|want to|"
            rf"smile|laugh|cry|think of|miss|wish|long for|{_VIEWER_EMOTION})\b",
            rf"\b(?:i|you|one|anyone|viewers?|people) (?:would |will |might |can |could )?(?:feel|felt|feels|"
            rf"get|gets) (?:a |an )?{_DEGREE}{_VIEWER_EMOTION}\b",
            r"\b(?:i|you|one|anyone|viewers?|people) (?:would |will |might |can |could )?(?:feel|felt|feels) "
            r"(?:a |an )?(?:sense|feeling) of\b",
            rf"\b(?:i|you|one|anyone)(?: am| are| was| would be| will be|'m|'d be) {_DEGREE}"
            rf"(?:{_VIEWER_EMOTION}) (?:looking|when|by|after|just|if)\b",
            rf"\bgives? (?:me|you|one|the viewer) (?:the |a |an )?{_DEGREE}(?:[\w-]+,? ){{0,3}}"
            r"(?:feeling|vibes?|chills|"
            rf"creeps|goosebumps|sense|impression|mood|shivers)\b",
            rf"\bi (?:really |just |absolutely )?(?:love|like|hate|dislike|adore|enjoy) (?:it|this|that|the "
            rf"(?:\w+ )?{_ART})\b",
            rf"\b(?:feeling|emotion|mood) (?:it gives|it evokes|i get|you get|it brings|of the (?:{_ART})) "
            rf"(?:is|would be) (?:of |one of )?(?:a |an )?{_DEGREE}(?:{_EFFECT}|{_VIEWER_EMOTION}|\w+ness)\b",
            r"\b(?:evokes?|brings? out|inspires?|triggers?|conveys?) (?:a |an )?(?:sense|feeling) of "
            r"(?!(?:depth|scale|space|movement|distance|size|motion|perspective|height|speed)\b)",
        ]
    )
)


# Every pattern above needs one of these words; most answers have none, so the regex is skipped.
_IMPOSES_TRIGGERS = T.literal_words(_EFFECT, _STATE, _VIEWER_EMOTION) | frozenset(
    """
    make makes making made feel feels felt get gets give gives love like hate dislike adore enjoy feeling
    emotion mood evoke evokes bring brings inspire inspires trigger triggers convey conveys nice
    """.split()
)


# Judgements in everyday words: what the answerer thinks of the artwork or of something in it.
# Ambiguous words ("funny", "cool", "sweet", "pretty", "calm") are left to the patterns below
# that say whose judgement it is.
_TASTE = (
    r"(?:magnificent|majestic|magical|dreamy|cosy|cozy|homey|homely|wholesome|charming|delightful|heavenly|aesthetic|"
    r"sublime|spectacular|mesmerising|mesmerizing|nightmarish|grotesque|morbid|poignant|adorable|cute|"
    r"nasty|revolting|"
    r"gross|disgusting|horrifying|terrifying|unsettling|distressing|intimidating|claustrophobic|stifling|"
    r"gripping|brilliant|thrilling|exciting|wonderful|amazing|impressive|striking|powerful|epic|awesome|"
    r"stunning|gorgeous|lovely|breathtaking|spooky|creepy|scary|frightening|eerie|ominous|haunting|bleak|"
    r"dreary|depressing|heartbreaking|heart-breaking|uplifting|moving|touching|inspiring|calming|relaxing|"
    r"soothing|comforting|unpleasant|boring|ugly|hideous|beautiful|hilarious|amusing|"
    r"cluttered|crap|crappy|shitty|rubbish|awful|terrible|horrible|sickening|melancholy|melancholic|"
    r"nerve-racking|nerve-wracking|mournful|blissful|tasteful|elegant|sensual|cruel|desolate|sad|lonely|"
    r"happy|cheerful|joyful|peaceful|serene|tranquil|romantic|dramatic|grim|moody|sweet|cool|delight|joy|fun|"
    r"sombre|somber|playful|feel-good|glamorous|idyllic|inviting|gloomy|ominous|sinister|menacing|stunner|"
    # slang and regional verdicts: "tacky", "naff", "a bloody eyesore", "looks so tasty"
    r"tacky|naff|gaudy|garish|kitsch|cheesy|eyesore|tasty|delicious|yummy|mouth-watering|pointless|"
    r"gorgeous)"
)
# Verdicts of the languages workers switch into, as a whole sentence ("Bellissimo.", "Ja, wunderschön.")
# or after a degree word ("muito bonito", "sehr schön").
_FOREIGN_VERDICT = (
    r"(?:bellissim[oa]|bell[oa]|brutt[oa]|stupend[oa]|splendid[oa]|wundersch[oö]n|sch[oö]n|h[aä]sslich|"
    r"herrlich|toll|traurig|gruselig|prachtig|pragtig|mooi|lelik|lelijk|lind[oa]|bonit[oa]|hermos[oa]|"
    r"precios[oa]|fe[oa]|feio|magnifique|magn[ií]fic[oa]|magnifico|horrible|triste|maravillos[oa]|"
    r"engra[cç]ad[oa]|divertid[oa]|bonit[oa]s|lindos?|lindas?|"
    # Hindi/Urdu, Russian, Swahili, Swedish, Turkish, Malay, Vietnamese: "khoobsurat", "очень грустно",
    # "mbaya sana", "ganska fånig", "çok güzel", "cantik", "ngon quá"
    r"khoobsurat|khubsurat|sundar|mazedaar|mazedar|bekaar|bakwas|грустно|красиво|страшно|ужасно|"
    r"прекрасно|смешно|krasivo|strashno|grustno|mbaya|nzuri|zinatisha|inatisha|f[aå]nig|vacker|vackert|"
    r"l[aä]skig|hemsk|g[uü]zel|[cç]irkin|korkun[cç]|cantik|indah|seram|jelek|[dđ][eẹ]p|ngon|th[ií]ch|"
    # "Sì, è disgustoso.", "C'est dégoûtant.", "Bahut mast hai!", "Sangat indah dan menakjubkan!",
    # "Bardzo piękne.", "Ɛyɛ fɛ paa!" (Twi)
    r"disgustos[oa]|orribile|spaventos[oa]|asqueros[oa]|horroros[oa]|aterrador[a]?|d[eé]go[uû]tant|"
    r"effrayant|affreux|moche|ekelhaft|ekli?g|unheimlich|nojent[oa]|assustador[a]?|pi[eę]kn[aey]|"
    r"straszn[aey]|okropn[aey]|brzydk[aiie]|menakjubkan|menjijikkan|menyeramkan|bagus|mast|pyaa?r[ai]|"
    r"ganda|f[ɛe])"
)
# The same in scripts written without spaces, found inside the one long token ("はい、とても美しいです。",
# "非常漂亮"): words of beauty and disgust only, which say nothing of a depicted person's mood.
_UNSPACED_VERDICT = re.compile(
    r"美しい|綺麗|きれい|素晴らしい|すばらしい|気持ち悪い|美丽|漂亮|好看|아름답|아름다워"
)
_FOREIGN_FILLER = frozenset(
    "ja yes si sí oui nee nein no não nao sim muy muito molto sehr très tres heel baie erg so wirklich "
    "davvero e y und en et and ha demais да очень haan han bilkul bahut hai ni sana ndiyo ganska den det är "
    "ar evet çok cok iya sangat banget lắm lam quá qua nhìn nhin ya dan sì è é es est c'est ist bardzo "
    "tão tao tan così cosi vraiment echt ɛyɛ paa".split()
)
# People, whose looks and moods an answer describes ("the clown looks scary", "the woman feels sad").
_PERSON = (
    r"(?:man|woman|men|women|boy|girl|boys|girls|child|children|kid|kids|people|person|lady|ladies|guy|"
    r"gentleman|figure|figures|baby|he|she|they|his|her|their|clown|soldier|soldiers|king|queen|mother|"
    r"father|old man|old woman|crowd|family|couple)"
)


def _alternatives(alternation: str) -> frozenset[str]:
    """The phrases of a plain alternation, hyphenated words whole ("heart-breaking")."""
    return frozenset(alternation.strip("(?:)").split("|"))


def _without(alternation: str, words: set[str]) -> str:
    """The alternation less some of its words (narrower groups for the frames below)."""
    return "(?:" + "|".join(sorted(_alternatives(alternation) - words)) + ")"


# Judgements that are not also a person's state ("a bit sad" may be the man's face).
_TASTE_NOT_STATE = _without(_TASTE, {"sad", "lonely", "happy", "cheerful", "joyful", "grim", "moody"})
# ... nor a verb or a day out ("it is moving", "the trip was amazing").
_TASTE_OF_IT = _without(
    _TASTE_NOT_STATE,
    {"moving", "touching", "amazing", "exciting", "thrilling", "inspiring", "fun", "delight", "joy"},
)
# ... nor said of the pay, the weather or a slip ("the pay here is terrible", "Crap, I forgot").
_TASTE_OF_SCENE = _without(
    _TASTE_OF_IT, {"terrible", "awful", "horrible", "crap", "crappy", "shitty", "rubbish", "boring", "cool"}
)
_STRONG_TASTE = _alternatives(_TASTE) - {
    "sad", "lonely", "happy", "cheerful", "joyful", "peaceful", "serene", "tranquil", "romantic", "dramatic",
    "grim", "moody", "sweet", "cool", "delight", "joy", "cruel", "elegant", "sensual", "boring",
    "cluttered", "amazing", "striking", "powerful", "awful", "terrible", "horrible", "exciting", "fun",
}  # fmt: skip
_INTENSIFIER = (
    r"(?:so+|such an?|really|truly|absolutely|genuinely|honestly|utterly|incredibly|deeply|totally|super|"
    r"real|bloody|fucking|f\*+ing|freaking|damn|frankly|breathtakingly|hauntingly|wonderfully|quite|rather|"
    r"kinda|kind of|a bit|bit|pretty)"
)
# a sentence that is nothing but a judgement: "Absolutely terrifying.", "Sweet picture.", "Scary stuff."
_VERDICT_FILLER = frozenset(
    """
    and or a an the stuff picture painting scene image photo sight detail thing one part bit work piece view
    but in way ugh wow oh just that it is it's this all as anything overall touch really to look at see
    honestly frankly ngl imo tbh so very truly absolutely genuinely utterly incredibly deeply totally
    super quite rather kinda kind of pretty bloody damn also too most ever little yes yeah yep no nope
    total complete absolute utter such what lol lmao haha omg
    """.split()
)
_SENTENCE_END = re.compile(r"[^.!?;]+")
_JUDGES = re.compile(
    "|".join(
        [
            # intensified: "so adorable", "such a sweet, cosy detail", "truly breathtaking"
            rf"\b{_INTENSIFIER},? (?:[\w-]+(?:,| and) )?{_TASTE_NOT_STATE}\b"
            r"(?! (?:for|that|because|how|if|with)\b)",
            # "gross to look at", "a joy to look at"
            rf"\b(?:{_TASTE}|annoying|confusing|painful|a joy|a delight|a pleasure) (?:for me )?"
            r"to (?:look at|see|watch|behold|stare at)\b",
            # superlatives: "the creepiest thing I've ever seen", "one of the best I've seen"
            r"\b(?:most \w+|best|worst|\w{3,}est) (?!(?:question|partner|person|task|job|chat)s?\b)"
            r"(?:[\w-]+ ){0,3}(?:i've|i have|i've ever|ever)\b(?: seen| had| looked| come)?|"
            r"\bone of the (?:best|worst|most \w+|nicest|prettiest|loveliest|ugliest|saddest|creepiest|"
            r"scariest|funniest|weirdest|strangest|coolest|finest|greatest|dullest)\b",
            # "it is a nice painting", "a great piece": approval of the artwork itself
            r"\b(?:a|an) (?:really |very |truly |quite |pretty )?(?:nice|good|great|fine|wonderful|amazing|"
            r"awful|terrible|bad|cool|sweet|interesting) (?:painting|picture|artwork|piece|work of art|pic|"
            r"image|photo)\b",
            # "yeah its really pretty": "pretty" as the verdict, closing the clause
            r"(?:^|[.!,;] ?|\b(?:yeah|yes|but|and|no|honestly|ngl) )(?:it'?s|it is|this is|that'?s|they'?re) "
            r"(?:really|so|very|super|quite|just|actually) pretty(?=\s*(?:$|[.!,;]))",
            # the verdicts of the languages workers switch into: "es muy bonito", "c'est magnifique",
            # "me gusta mucho", "ang ganda", "sobrang peaceful"
            r"\b(?:es|est[aá]|c'est|[eè]|ist|[eé]|sono|son|sind|s[aã]o) (?:muy |tr[eè]s |molto |sehr |muito |"
            r"tan |si |so |bien |davvero |wirklich )?(?:bonit[oa]s?|hermos[oa]s?|precios[oa]s?|fe[oa]s?|"
            r"triste|tristes|relajante|aterrador[a]?|magnifique|beau|belle|jolie?|effrayant[e]?|bell[oa]|"
            r"bellissim[oa]|brutt[oa]|spaventos[oa]|sch[oö]n|h[aä]sslich|traurig|gruselig|lind[oa]|feio|"
            r"assustador[a]?|deprimente|horrible|horrivel|horr[ií]vel|terrible|incre[ií]ble|maravillos[oa]|"
            r"merveilleux|splendide|magnifico|magn[ií]fic[oa]|wundersch[oö]n|toll)\b|"
            r"\b(?:me gusta|me encanta|mi piace|j'adore|j'aime|gef[aä]llt mir|eu gosto|adoro|me fascina|"
            r"je (?:la|le|l') trouve|lo trovo|la trovo|lo encuentro|la encuentro)\b|"
            r"\b(?:ang ganda|sobrang (?:ganda|pangit|peaceful|creepy|nakakatakot|lungkot|saya)|nakakatakot|"
            r"ang pangit|bahut (?:sundar|accha|achha|khoobsurat|dukhi|darawna)|muy relajante|"
            r"muy (?:bonit[oa]|hermos[oa]|triste|fe[oa]))\b",
            # "it has so much power": the artwork credited with a quality
            r"\b(?:it|this|this one|the (?:painting|picture|artwork|piece)) has (?:so much|such|a lot of|"
            r"real|great) (?:power|energy|life|charm|emotion|feeling|soul|character|beauty)\b",
            r"\b(?:a|an|such a) (?:real |true |total |absolute )?(?:joy|delight|pleasure|treat|stunner|"
            r"triumph|"
            r"masterpiece|nightmare)\b|\bnightmare fuel\b",
            # "it all feels warm and homey", "they look disgusting, slimy and grey"
            r"\b(?:it|this|that|they|everything|it all|the whole thing)(?:'s| is| was| are|'re| looks?|"
            r" seems?| feels?)"
            rf"(?: all)? {_DEGREE}(?:(?:warm|cold|dark|bright|soft|calm|quiet),? (?:and )?)?{_TASTE_OF_IT}\b"
            r"(?! (?:for|to|at|in|with|that|because|how|pay)\b)",
            # exclamations: "what a lovely little harbour", "how depressing"
            rf"(?:^|[.!,;:] ?)(?:what an?|how) (?:[\w-]+ )?{_TASTE}\b|\bwhat a load of (?:shit|crap|"
            r"rubbish)\b",
            # a scene judged: "the storm is terrifying", "the kitchen feels cosy and inviting"
            rf"\bthe (?!{_PERSON}\b)(?:[\w-]+ ){{1,3}}(?:is|was|looks|seems|feels) {_DEGREE}"
            rf"(?:(?:warm|cold|dark|bright|soft|calm|quiet),? (?:and )?)?{_TASTE_OF_SCENE}\b"
            r"(?! (?:for|to|at|in|with|that|because|how)\b)",
            rf"\b(?:the (?!{_PERSON}\b)(?:[\w-]+ ){{1,2}}|it |this one |everything |it all )(?:feels|felt) "
            rf"{_DEGREE}(?:(?:warm|cold|dark|bright|soft|calm|quiet|empty),? (?:and )?)?(?:{_TASTE}|hopeful|"
            r"hopeless|tense|safe|empty and \w+)\b",
            r"\bthe (?:overall |general |whole )?(?:atmosphere|mood|feeling|vibe|feel) (?:is|was|feels|"
            r"seems)\b",
            rf"\bthis one(?:'s| is) {_DEGREE}{_TASTE_OF_IT}\b",
            # a judgement opening a sentence: "Beautiful painting: ...", "Gorgeous colours, ..."
            rf"(?:^|[.!;] ?){_DEGREE}{_TASTE_NOT_STATE},? (?:[\w-]+ )?(?:painting|picture|scene|colou?rs|"
            r"image|"
            r"piece|work|view|sight|detail|one)\b",
            rf"(?:^|[.!;] ){_DEGREE}{_TASTE_OF_SCENE}[,:!] ",
            # viewers told what they will feel; the scene said to be full of a feeling
            r"\b(?:viewers?|people|anyone|you|one) (?:will|would|might|can|could) be (?:\w+ )?(?:amused|"
            r"moved|"
            r"touched|delighted|disgusted|scared|charmed|impressed|saddened|horrified|frightened)\b|"
            r"\bthere(?:'s| is) an? (?:\w+ )?(?:sense|feeling|air|atmosphere|mood) of\b(?! (?:depth|scale|"
            r"space|"
            r"movement|distance|size|motion|perspective|height|speed)\b)|\b(?:radiates?|exudes?|oozes?) "
            r"(?:warmth|joy|calm|peace|sadness|happiness|menace|dread|gloom|charm|energy)\b|\bfull of (?:joy|"
            r"life|sadness|warmth|happiness|despair|hope|fun|menace|dread|gloom|charm)\b",
            # the artwork made to feel something: "which makes it moody", "a lonely atmosphere"
            rf"\bmak(?:es|ing|e) (?:it|this|the (?:\w+ )?{_ART}) (?:feel |look |seem )?{_DEGREE}{_TASTE}\b",
            rf"\b{_TASTE},? (?:(?:almost |quite |very )?[\w-]+,? )?(?:atmosphere|mood|feeling|vibe|note|"
            r"quality|"
            r"energy|air)\b",
            rf"\bsomething (?:\w+ )?{_TASTE} about\b|\bthere's a (?:tenderness|sadness|melancholy|"
            r"beauty) to\b",
            # contempt: "crap art", "a child could paint it"
            r"\b(?:a child|a kid|an? (?:toddler|baby|monkey|chimp|five-year-old|preschooler)|my (?:\w+ )?"
            r"(?:year old|kid|son|daughter|brother|sister|nephew|niece|"
            r"grandson|granddaughter|dog|cat)) could (?:paint|do|draw|"
            r"have done)\b|"
            # the artwork called names: "this painting is garbage", "a total waste of canvas"
            r"\b(?:this|the|that) (?:painting|picture|artwork|art|piece|mural|sculpture|canvas|thing)"
            r"(?:'s| is| was) (?:(?:total|utter|absolute|complete|pure|just) )?(?:shit|crap|rubbish|garbage|"
            r"trash|junk|an eyesore)\b(?! (?:bins?|bags?|cans?|heaps?|piles?|dumps?|trucks?|tips?|yards?|"
            r"shops?)\b)|\bwaste of (?:canvas|paint|good paint|a wall|wall space)\b|"
            r"\b(?:this|it|that)(?:'s| is) (?:total |utter |absolute |complete )?(?:shit|crap|rubbish|"
            r"garbage|"
            # not the pay ("it's crap pay"), which is off_topic's
            r"trash)\b(?! pay\b)|"
            r"\b(?:crap|shitty|crappy|rubbish|garbage) (?:art|painting|picture|colou?r scheme|work)\b|"
            r"\b(?:painter|artist) (?:clearly |really |totally )?(?:sucked|sucks)\b",
            # "it's tacky rubbish", "total trash": a slur on the artwork with an adjective before it
            r"\b(?:this|it|that)(?:'s| is) (?!(?:a|an|the|some|his|her|their|its|my|your)\b)(?:[\w-]+ )?"
            r"(?:shit|crap|rubbish|garbage|trash)\b"
            r"(?! (?:bins?|bags?|cans?|heaps?|piles?|dumps?|trucks?|tips?|pay\b))",
            # a verdict right after yes/no: "yes very pretty, ...", "nah, boring" (a state, "yes, a bit
            # sad", may be a depicted person's)
            rf"(?:^|[.!;] ?)(?:yes|yeah|yep|yup|no|nah|nope|of course|definitely|absolutely|totally|"
            rf"not really)[,.!]? {_DEGREE}(?:{_TASTE_NOT_STATE}|pretty|funny)\b"
            r"(?! (?:for|to|at|in|with|that|because|how)\b)",
            # art in general judged: "modern art is boring", "abstract stuff is pointless"
            rf"\b(?:modern|abstract|contemporary|street|conceptual|this kind of|this sort of|such) "
            rf"(?:art|stuff) (?:is|'s|looks|seems) {_DEGREE}{_TASTE}\b",
            # an exclamation before a verdict: "damn that's sad", "man, it's lovely", "aw, so sweet"
            rf"(?:^|[.!,;] ?)(?:damn|man|wow|oh|aw+|ugh|jeez|geez|god|gosh|blimey|christ|bloody hell)[,!]? "
            rf"(?:that'?s|it'?s|this is|that is|it is|so) {_DEGREE}(?:{_TASTE}|pretty)\b",
            # "damn pretty", "dead pretty": the ambiguous "pretty" as a verdict after a slang intensifier
            r"\b(?:damn|bloody|dead|proper|so|very|super|really) pretty(?=\s*(?:$|[.!,;]))",
            # the best of the area: "best thing in the whole district", "ugliest building in town"
            r"\b(?:best|worst|nicest|prettiest|ugliest|finest|greatest|loveliest) (?:thing|sight|one|bit|"
            r"piece|painting|mural|picture|building|art) (?:in|around|for) (?:the |this |my |our )?"
            r"(?:whole |entire )?(?:district|town|city|country|area|world|region|place|street|village|"
            r"miles|county|land|neighbou?rhood)\b",
            # a simile verdict: "calm as a cucumber", "pretty as a picture", "ugly as sin"
            rf"(?:^|[.!;] ?){_DEGREE}(?:{_TASTE}|{_STATE}|dull|deep|pretty) as (?:a |an |anything|hell|"
            r"sin|ever|owt|dishwater|a picture|can be)\b",
            # a verdict in another language after a degree word: "muito bonito", "sehr schön"
            rf"\b(?:muy|muito|molto|sehr|tr[eè]s|heel|erg|baie|wirklich|davvero|tan|t[aã]o) "
            rf"{_FOREIGN_VERDICT}\b",
        ]
    )
)
# The same, said of the answerer (or "you", "one"): tried only when the message speaks of one.
_JUDGES_ME = re.compile(
    "|".join(
        [
            # the viewer: "it disgusts me", "fills me with awe", "breaks my heart", "made me smile"
            r"\b(?:disgusts?|scares?|frightens?|terrifies|creeps|bores?|amazes?|saddens?|depresses?|upsets?|"
            r"delights?|thrills?|excites?|calms?|relaxes?|unsettles?|disturbs?|fascinates?|sickens?) me\b"
            r"(?! in real life)",
            # "it pains me to see it", "hurts me to look at"
            r"\b(?:pains?|pained|hurts?) me (?:to (?:see|look|watch)|deeply|so much)\b",
            r"\b(?:fills?|filled|left|leaves|puts?|made|makes|turns?) me (?:with|off|quite|so|very|feeling|"
            r"smile|smiling|cry|crying|sad|happy|cold|uneasy)\b",
            r"\b(?:breaks?|broke|warms?|melts?) my heart\b|\bturns? my stomach\b|"
            r"\b(?:brings?|brought|bringing) tears to my eyes\b|"
            r"\b(?:takes?|took|taking) my breath away\b",
            r"\bi (?:feel|felt) (?:such |a |so )?(?:pity|peace|sorrow|awe|dread|fear|joy|sadness|"
            r"for (?:him|her|them))\b",
            r"\bi(?:'m| am) (?:so |really |very |just )?(?:excited|amazed|moved|touched|impressed|disgusted|"
            r"in awe|into it|in love)\b",
            rf"\bi (?:really |just |absolutely |also )?(?:find|found) (?:it|this|that|them|the [\w-]+)"
            rf"(?: (?:part|detail|bit|one))? (?:[\w-]+ )?{_TASTE}\b",
            r"(?:^|[.!,;] ?|\bi )(?:really |just |absolutely )?(?:love|adore|hate) (?:it|this|that|"
            r"looking)\b",
            r"\bi (?:really |just )?(?:admire|enjoy) (?:it|this|that)\b|\bthat i (?:really )?enjoy\b",
            r"\b(?:i|you) (?:could|would|'d) (?:cry|stare at it|watch it|love it)\b|\bi could (?:cry|stare|"
            r"watch)\b",
            r"\b(?:i|you)(?:'d| would) (?:love|hate|not want|want) to (?:be|live|swim|step|sit|stand|go) "
            r"(?:there|in|into|on)\b|\bi had to look away\b|\bmy favou?rite (?:part|bit|detail|thing)\b",
            r"\bi (?:really |just |absolutely )?(?:adore|love|hate|dislike) (?:the|this|that|these|those|"
            r"it|how)\b|"
            r"\bi (?:don't|do not|didn't) (?:really )?(?:like|love|enjoy) (?:it|this|that|the)\b",
            r"\b(?:you|one) feels? like (?:you're|you are|one is|being) (?:right )?(?:there|in)\b",
            # the answerer's own reaction: "I feel like jumping in", "I laughed"
            r"\bi (?:feel|felt) like (?:\w+ing)\b|\bi (?:laughed|smiled|cried|shuddered|winced|giggled|"
            r"chuckled|gasped|cringed|teared up)\b",
            # the artwork's effect on the viewer's eyes: "hurts my bloody eyes" ("my eyes hurt" is the
            # worker's body: off_topic)
            r"\b(?:hurts?|burns?|offends?|assaults?|makes? my) my (?:[\w-]+ )?eyes\b"
            r"|\b(?:hurts?|burns?|offends?|assaults?) (?:the|your) (?:[\w-]+ )?eyes\b",
        ]
    )
)
_ME = frozenset("i me my i'm i'd you'd you one love adore hate".split())
_JUDGES_TRIGGERS = T.literal_words(_TASTE) | frozenset(
    """
    ever best worst joy delight pleasure treat stunner triumph masterpiece nightmare
    atmosphere mood feeling vibe note quality energy air something there's child kid painter artist
    annoying confusing painful fun feels felt atmosphere mood vibe feel what how one's viewers viewer people
    anyone radiates radiate exudes exude oozes full adore love hate dislike like there's sickens
    nicest prettiest loveliest ugliest saddest creepiest scariest funniest weirdest strangest coolest finest
    greatest dullest nice good great fine interesting has
    rubbish shit crap garbage trash yes yeah yep yup no nah nope course definitely absolutely totally really
    modern abstract contemporary street conceptual kind sort such damn man wow oh aw aww ugh jeez geez god
    gosh blimey christ bloody dead proper so very super best worst finest loveliest as muy muito molto sehr
    très tres heel erg baie wirklich davvero tan tão tao
    brother sister nephew niece grandson granddaughter son daughter dog cat
    toddler baby monkey chimp five-year-old preschooler junk eyesore waste
    pretty es está esta c'est è e ist é sono son sind são sao gusta encanta piace j'adore j'aime gefällt
    gefallt gosto adoro fascina trouve trovo encuentro ganda sobrang nakakatakot pangit bahut muy
    """.split()
)


_FOREIGN_VERDICT_RE = re.compile(rf"{_FOREIGN_VERDICT}$")
_VERDICTS_ALSO_ENGLISH = frozenset(("mast", "fe", "ganda", "bagus"))


def _judgement_only(lower: str) -> bool:
    for sentence in _SENTENCE_END.findall(lower):
        words = T.words(sentence)
        if (
            words
            and not _STRONG_TASTE.isdisjoint(words)
            and all(w in _STRONG_TASTE or w in _VERDICT_FILLER for w in words)
        ):
            return True
    return False


def _foreign_verdict_only(lower: str) -> bool:
    """A sentence that is only a verdict in another language: "Bellissimo.", "Ja, wunderschön."."""
    for sentence in _SENTENCE_END.findall(lower):
        words = T.words(sentence)
        verdicts = [w for w in words if _FOREIGN_VERDICT_RE.match(w)]
        if (
            verdicts
            and all(w in _FOREIGN_FILLER or _FOREIGN_VERDICT_RE.match(w) for w in words)
            # a verdict that is also an English word ("mast", "fe") needs a foreign word beside it
            and not (set(verdicts) <= _VERDICTS_ALSO_ENGLISH and T.ENGLISH_WORDS.issuperset(words))
        ):
            return True
    return not lower.isascii() and len(lower) <= 30 and _UNSPACED_VERDICT.search(lower) is not None


# "That's sweet, my daughter also draws a lot." after the partner's remark about their son: the verdict
# opening the reply judges the partner's remark, not the artwork.
_REACTION = re.compile(
    r"^(?:(?:oh|aw+|wow|ah)[,!]? )?(?:that's|thats|that is|how|so) (?:very |really |so )?[a-z]+[.!,]+ "
)


def _reacts_to_remark(ctx: Context) -> bool:
    match = _REACTION.match(ctx.lower)
    if match is None:
        return False
    said = ctx.partner_last()
    if said is None or "?" in said:
        return False
    rest = ctx.lower[match.end() :]
    return not _JUDGES.search(rest) and not _IMPOSES.search(rest)


_STATE_WORDS = T.literal_words(_STATE)
_EFFECT_WORDS = T.literal_words(_EFFECT)


def _answers_being_look(ctx: Context) -> bool:
    """The partner asked what a depicted being shows ("Does the rabbit look sad?"): "so a bit sad, yes"
    describes it (labeling guide); the classifier stands down, the detector still judges. A viewer's
    response ("creepy") judges wherever it is said."""
    words = ctx.wordset
    said = ctx.partner_last()
    if said is None or words.isdisjoint(_STATE_WORDS) or not words.isdisjoint(_EFFECT_WORDS):
        return False
    if "?" not in said:
        return False
    lower = T.normalise(said)
    return ("look" in lower or "seem" in lower or "appear" in lower) and bool(BEING_LOOK_ASKED.search(lower))


def _imposes_spared(ctx: Context) -> bool:
    return _answers_being_look(ctx) or _reacts_to_remark(ctx) or smalltalk.courtesy_only(ctx)


_BEING_NOUN = rf"(?:{DEPICTED_BEING[3:-1]}|he|she|they|it)"
# Moods and verdicts said without the frames above, found with the questioner's lexicons: "Yes, very
# sacred.", "Lively and charming.", "it's really cheerful", "a quite clever print", "creepy af".
_MOODS = (
    EVALUATIVE_WORDS
    | SCENE_MOOD_WORDS
    | frozenset(
        """
    atmospheric tender overrated underwhelming forgettable lekker glam jolly entertaining melodramatic
    goofy bittersweet spiritual sacred holy fun shameful disgraceful passionate dignified nostalgic
    threatening serenity harmonious sketchy dodgy stifling satisfying
    """.split()
    )
) - {"dull"}  # "dull and weathered" bronze: a finish
# Said alone, these acknowledge the partner ("Nice. There are also two lemons."), not the artwork.
_ACKNOWLEDGING = frozenset("nice cool interesting great charming sweet fine good lovely".split())
# Words of a sentence that is only a mood or verdict: "Yes, very spiritual and peaceful."
_MOOD_FILLER = frozenset(
    """
    yes yeah yep yup yea ya yess yesss no nope nah not really very so quite rather pretty a bit little kind
    of kinda sort sorta somewhat too and but or more mostly mainly overall just all also both sir madam po
    ji aye mate honestly truly absolutely definitely totally super extremely incredibly deeply slightly
    lol haha ha hah hehe omg oh ah ew eh wow aw aww course weird strange odd
    """.split()
)
_AFFIRMED = r"(?:(?:ha)+|lol|omg|oh|ah|ew+|aw+|ikr|honestly|well)?[,!]? ?"
_MOOD_ALT = "(?:" + "|".join(sorted((re.escape(w) for w in _MOODS), key=len, reverse=True)) + ")"
_ART_NOUN = (
    r"(?:portrait|painting|piece|print|scene|picture|image|photo|photograph|shot|artwork|work|sight|"
    r"composition|sculpture|statue|drawing|mural|poster|one)"
)
_MOOD_SAID = re.compile(
    "|".join(
        [
            # "it's really cheerful", "yes it feels very threatening", "mostly it's jolly"
            r"(?:^|[.!,;] ?|\b(?:but|and|yes|yeah|mostly|overall|honestly|i think|i'd say|i guess) )"
            r"(?:it|this|that|this one|everything|it all)(?:'s| is| looks| seems| feels| really is)"
            rf" (?:pure |just )?{_DEGREE}(?P<adj>{_MOOD_ALT})"
            r"(?=\s*(?:$|[.!,;:]| (?:and|but|or|to|too|really|honestly|though|tbh|overall|lol|haha|in an? "
            r"[\w-]+ way|for me|to me|to look at|to see|if you ask me|out there|in there|here|there)\b))",
            # "a really clever print", "such a warm and tender portrait", "an annoying but funny scene"
            rf"\b(?:a|an|such an?|the most) {_DEGREE}(?:[\w-]+,? (?:and |but )?)?(?P<adj2>{_MOOD_ALT})"
            rf"(?: little)? {_ART_NOUN}\b",
            # slang after the word: "creepy af", "sad as hell", "creepy ass doll face"
            rf"\b(?P<adj3>{_MOOD_ALT}) (?:af|asf|as hell|as fuck|ass)\b",
            # "to me it's aggressive", "a little bit melancholic for me"
            rf"\b(?:to|for) me,? (?:it'?s|it is|it was|this is) {_DEGREE}(?P<adj4>{_MOOD_ALT})\b"
            rf"|\b{_DEGREE}(?P<adj5>{_MOOD_ALT}) (?:for|to) me\b",
            # a judgement closing the sentence: "the sea is wild and menacing", "..., is magnificent."
            rf"\b(?:is|are|looks|look|seems|seem|feels|feel) {_DEGREE}(?:[\w-]+,? (?:and |but )?)?"
            rf"(?P<adj6>{_MOOD_ALT})(?=\s*(?:[.!]+|$|,? (?:honestly|really|tbh|though|too|as well)\b))",
            # the verdict named as the word for it: "Majestic is the word for it."
            rf"(?:^|[.!,;] ?)(?P<adj7>{_MOOD_ALT}) is the (?:word|term)\b",
        ]
    )
)
# The answerer's own response: "it makes my blood boil", "it pisses me off", "I almost cried".
_MOVED_ME = re.compile(
    r"\bmakes? my blood boil\b|\bpiss(?:es|ed)? me off\b|\blifts? my (?:mood|spirits|heart)\b|"
    r"\b(?:would|'d|will|could) break (?:your|my|one's|anyone's) heart\b|"
    r"\bi (?:almost|nearly|just about) (?:cried|wept|screamed|laughed)\b|\bi feel (?:so |really )?sorry\b|"
    r"\bi can (?:barely|hardly) (?:bear to )?look at it\b|\bmakes? me (?:kind of |kinda |a bit |so |really )"
    rf"{_VIEWER_EMOTION}\b|\bnot my (?:thing|cup of tea|style|taste)\s*[.!]*$|"
    r"\b(?:a )?load of (?:rubbish|crap|shit|nonsense|tosh|codswallop)\b|"
    r"\b(?:it'?s|it is|that'?s|find (?:it|him|her)) (?:a |an )?(?:total |"
    r"proper |real |right |absolute |bit of a )?(?:hoot|laugh|con|scam)\b(?! of\b)|"
    # "really hits you hard", "hits me right in the heart"
    r"\bhits? (?:(?:you|me|one) (?:(?:so |really )?hard|right in the \w+|in the (?:feels|heart|gut))|home)\b|"
    # superlatives of taste: "it's the sweetest thing", "it's the most interesting"
    r"\b(?:it'?s|it is|that'?s|this is) (?:just |honestly |really )?the (?:sweetest|cutest|loveliest|"
    r"prettiest|saddest|creepiest|scariest|funniest|ugliest|nicest|coolest|best|worst|most (?:beautiful|"
    r"interesting|striking|moving|touching|boring|haunting|powerful|peaceful|depressing))\b|"
    # "has so much charm", "such character"
    r"\b(?:has|have|with|got) (?:so much|such|a lot of|lots of|real) (?:charm|character|beauty|soul|"
    r"emotion|feeling|atmosphere|drama)\b|"
    # "damn nice shot", "bloody good picture"
    r"\b(?:damn|bloody) (?:nice|good|great|fine|cool|lovely) (?:shot|pic|picture|painting|photo|piece|image|"
    r"artwork)\b"
)
_MOVED_ME_WORDS = frozenset(
    "boil piss pisses pissed lifts lift break almost nearly sorry barely hardly makes make thing tea load "
    "hoot laugh con scam hit hits sweetest cutest loveliest prettiest saddest creepiest scariest funniest "
    "ugliest nicest coolest best worst most charm character beauty soul emotion feeling atmosphere drama "
    "damn bloody".split()
)


# A question whose subject is a depicted person or animal: "is the man sad?", "how does she look?".
_BEING_ASKED = re.compile(
    r"^(?:[\w']+[,.!] )?(?:(?:so|and|ok|okay) )?(?:is|are|was|were|isn't|aren't|does|do|did|how does|how do|"
    rf"how is|how are) (?:the |a |an |this |that |his |her |their )?(?:[\w'-]+ ){{0,2}}?"
    rf"(?:{_BEING_NOUN}\b|{BEING_WORD.pattern})"
)


def _last_question_of_being(ctx: Context) -> bool:
    """Whether the partner's last question was about a depicted person or animal ("is the man sad?")."""
    said = ctx.partner_last()
    if said is None:
        return False
    asked = T.normalise(said)
    return bool(BEING_LOOK_ASKED.search(asked) or _BEING_ASKED.search(asked))


_CLAUSE = re.compile(r"[^.!?;,]+")
# Words that make a closing adjective a fact about a thing: "the paint is old and dull".
# ... or about the task: "the pay here is terrible", "the timer is annoying".
_SCENE_FACT = re.compile(
    r"\b(?:paint|varnish|surface|condition|frame|metal|bronze|finish|pay|timer|task|hit|chat|wifi|internet|"
    r"connection|weather|job|money|bonus|survey|site|website|app)\b"
)


def _mood_said(ctx: Context) -> bool:
    """A mood or verdict given as the answerer's own, not what a depicted being shows."""
    words = ctx.wordset
    if not words.isdisjoint(_MOVED_ME_WORDS) and ctx.finds(_MOVED_ME):
        return True
    if words.isdisjoint(_MOODS):
        return False
    lower = ctx.lower
    for m in _MOOD_SAID.finditer(lower):
        group = next(g for g, a in m.groupdict().items() if a)
        adj = m.group(group)
        sentence = lower[: m.start(group)].rsplit(".", 1)[-1]
        of_being = BEING_WORD.search(sentence) or _last_question_of_being(ctx)
        if of_being and (adj in BEAUTY_WORDS or adj not in EVALUATIVE_WORDS):
            continue  # "the woman is beautiful", "he looks sad": what the person shows
        if group != "adj6" or not _SCENE_FACT.search(sentence):
            return True
    for clause in _CLAUSE.finditer(lower):
        found = T.words(clause.group())
        moods = [w for w in found if w in _MOODS]
        if (
            not moods
            or all(w in _ACKNOWLEDGING for w in moods)
            or not all(w in _MOODS or w in _MOOD_FILLER for w in found)
        ):
            continue
        before = lower[: clause.start()].rsplit(".", 1)[-1]
        if before.strip() and BEING_WORD.search(before):
            continue  # "the butcher is a fat pig, disgusting": said of the person named before
        if any(w in EVALUATIVE_WORDS for w in moods) or not (
            _last_question_of_being(ctx) or BEING_WORD.search(lower)
        ):
            return True
    return False


# A reply to a feelings question that gives only a degree or a lukewarm verdict ("Little bit.", "Yes, very
# much.", "It's alright.", "its ok i guess", "Very bad.") or only a mood ("Yes, quite sad.", "Of course
# happy, weddings always are."): the answerer's own feeling, though no judgement word is attached to "it".
# A bare "Yes." or "Sort of." stays a short answer (labelled so by every author).
_DEGREE_REPLY = re.compile(
    r"^(?:(?:yes|yeah|yep|yup|yea|oh|ah|ja|aye|well|honestly|hmm+|haha|lol)[,!.]* )*"
    r"(?:(?:a (?:little )?bit|little bit|a little|a lot|very(?: much| very)?|so much|quite(?: a bit| a lot)?|"
    r"extremely|somewhat|massively)"
    r"|(?:it'?s|its|it is|that'?s) (?:(?:pretty|quite|really|just) )?(?:ok|okay|alright|all right|fine|"
    r"not bad|decent|meh|so-so|average|mediocre)(?: i (?:guess|suppose|think))?"
    r"|(?:very|really|so|pretty|quite) (?:bad|good|nice|great|cool))"
    r"(?: so)?(?:,? (?:yes|yeah|yep))?(?=\s*(?:[,.!;:)]|$))"
)
_FEELING_WORDS = _MOODS | (
    T.literal_words(_VIEWER_EMOTION) - {"good", "bad", "warm", "cold", "down", "blue", "content", "sick"}
)
_FEELING_FILLER = _MOOD_FILLER | frozenset("it's its it is of".split())
# "Not forgotten, people live there": the mood asked about denied, not imposed
_NEGATION = frozenset("not no nah nope isn't never".split())
_ASKS_FEELINGS_CFG = AsksFeelingsConfig()


def _partner_asked_feelings(ctx: Context) -> bool:
    said = ctx.partner_last()
    if said is None or "?" not in said and len(said) > 80:
        return False
    partner = Context("questioner", ctx.round, said, ctx.history[:-1])
    return detect_asks_feelings(partner, _ASKS_FEELINGS_CFG)


def _feeling_clause(lower: str) -> bool:
    """One of the first two clauses is only a mood with affirmations and degrees ("yes, very angry")."""
    for clause in _CLAUSE.findall(lower)[:2]:
        found = T.words(clause)
        if (
            found
            and not _FEELING_WORDS.isdisjoint(found)
            and _NEGATION.isdisjoint(found)
            and all(w in _FEELING_WORDS or w in _FEELING_FILLER for w in found)
        ):
            return True
    return False


def _answers_feelings_question(ctx: Context) -> bool:
    lower = ctx.lower
    if len(lower) > 160:
        return False
    replies = _DEGREE_REPLY.match(lower) is not None or (
        not ctx.wordset.isdisjoint(_FEELING_WORDS) and _feeling_clause(lower)
    )
    return replies and _partner_asked_feelings(ctx)


# "Gloomy and stifling, if you ask me.": a judgement the answerer marks as their own opinion.
_OPINION_MARK = re.compile(
    r"\b(?:if you ask me|in my (?:honest |humble )?(?:opinion|view|book)|imo|imho|personally|"
    r"to my (?:eyes?|mind|taste))\b"
)
_OPINION_WORDS = frozenset("ask opinion view book imo imho personally eye eyes mind taste".split())


def _owned_judgement(ctx: Context) -> bool:
    words = ctx.wordset
    if words.isdisjoint(_OPINION_WORDS) or words.isdisjoint(_MOODS) or not _OPINION_MARK.search(ctx.lower):
        return False
    return not words.isdisjoint(EVALUATIVE_WORDS) or not BEING_WORD.search(ctx.lower)


def detect_imposes_emotion(ctx: Context, cfg: ImposesEmotionConfig) -> bool:
    # "It was a pleasure, take care!", "Have a wonderful day!": a farewell wishes well, it judges nothing
    return _imposes(ctx) and not smalltalk.courtesy_only(ctx)


def _imposes(ctx: Context) -> bool:
    words = ctx.wordset
    if asks_back(ctx.lower):
        # an ask-back ("What makes you think it's sad?") questions an emotion, it does not impose one;
        # it is answer_is_question's (no labeled line is both)
        return False
    if not words.isdisjoint(_IMPOSES_TRIGGERS) and ctx.finds(_IMPOSES):
        return True
    if not words.isdisjoint(_ME) and ctx.finds(_JUDGES_ME):
        return True
    if len(ctx.words) <= 6 and _foreign_verdict_only(ctx.lower):
        return True
    # _JUDGES through its literal gate: the 27 kB regex searched whole cost ~60 us per answer that gets here
    if not words.isdisjoint(_JUDGES_TRIGGERS) and (
        (ctx.finds(_JUDGES) and not _reacts_to_remark(ctx))
        or (not _STRONG_TASTE.isdisjoint(words) and _judgement_only(ctx.lower))
    ):
        return True
    if _owned_judgement(ctx) or _answers_feelings_question(ctx):
        return True
    return _mood_said(ctx) and not _reacts_to_remark(ctx)


_SENTENCE = re.compile(r"[^.!?]+[.!?]*")
_ASKING_START = re.compile(
    r"^(?:(?:what|which|where|who|why|how) (?:do|does|did|is|are|was|were|can|could|would|should|else) "
    r"|(?:do|does|did|can|could|would|will|should|are|is|have) (?:you|u|i)\b|what do you mean|"
    r"(?:which|what) one\b|sorry,? what|pardon)"
)


# "There are no dogs, are there?": a statement with a question tag still answers.
_TAG = re.compile(
    r", (?:is|are|was|were|do|does|did|can|could|will|would|has|have|isn't|aren't|wasn't|weren't|don't|"
    r"doesn't|didn't|can't|won't|hasn't|haven't|right|no|yes)(?: (?:it|there|they|he|she|you|we|i|not))?\?+$"
)


# "The black one, are you deaf?", "A brush in her hand, what else would a painter hold?", "Two clouds,
# happy now, idiot?": an answer clause before a comma-joined taunt or rhetorical question answered, like
# "Four. Have you not been reading?" (labeling guide). Not "Sorry, can you repeat?", "a few do, why does
# that matter?" (no content before the comma) nor "Which one, the left?" (asked before the comma).
_RHETORICAL_TAIL = re.compile(
    r", (?:(?:are|is|do|does|did|can|can't|could|couldn't|have|haven't|will|would|should|don't|didn't|"
    r"won't|isn't|aren't|am) (?:you|u|ya)\b|(?:what|why|how|who|where|which) (?:else )?(?:do|does|did|is|"
    r"are|was|were|can|could|would|should|will|else)\b|(?:happy|satisfied) now\b)"
)


def _answered_before_tail(sentence: str) -> bool:
    match = _RHETORICAL_TAIL.search(sentence)
    if match is None:
        return False
    lead = T.words(sentence[: match.start()])
    if _HOLDING.issuperset(lead):
        return False
    return (
        bool(lead)
        and lead[0] not in _ASK_BACK_WORDS
        and lead[0] not in _COURTESY_CORE
        and lead[-1] not in _ECHO_ASKERS
        and any(w not in _EMPTY_WORDS or w in _DESCRIPTIVE for w in lead)
    )


# "Hi, how r u?" said back to the partner's hello: a pleasantry returned (greeting's), not a question put
# instead of an answer. Only as a reply: opening the chat with it is asking back nothing.
_HOW_ARE_YOU = re.compile(
    r"^(?:(?:hi|hello|hey|hiya|heya|yo)(?: there)?[,.!]* )?(?:how (?:are|r) (?:you|u|ya)(?: doing| today)?|"
    r"how's it going|how are things|how (?:is|was) your day|how you doing)\s*\?+$"
)


# "?", "???", "?!": nothing but question marks asks the partner what they meant, the shortest ask-back.
_MARKS_ONLY = re.compile(r"^[?？¿!.\s]*[?？][?？¿!.\s]*$")


def _marks_only(ctx: Context) -> bool:
    return not ctx.words and _MARKS_ONLY.match(ctx.lower) is not None


def detect_answer_is_question(ctx: Context, cfg: AnswerIsQuestionConfig) -> bool:
    lower = ctx.lower
    if _WELL_BEING_BACK.match(lower) or (_HOW_ARE_YOU.match(lower) and ctx.history):
        return False
    if _marks_only(ctx):
        return True
    return asks_back(lower)


@lru_cache(maxsize=16384)
def asks_back(lower: str) -> bool:
    """Every sentence is a question (a statement with a question tag is not).

    Cached (a text and a bool: nothing for the garbage collector to walk): four answerer rules ask it
    of each answer, and repeated_question of the same answer again once it is in the history."""
    sentences = [s.strip() for s in _SENTENCE.findall(lower) if any(c.isalnum() for c in s)]
    if not sentences:
        return False
    for sentence in sentences:
        if sentence.endswith("?"):
            # "Why, do you?": a question word before the tag makes it a question, not a tag
            if _TAG.search(sentence) and sentence.split(" ", 1)[0].rstrip(",") not in INTERROGATIVES:
                return False
            if ", " in sentence and _answered_before_tail(sentence):
                return False
            continue
        first = sentence.split(" ", 1)[0]
        if sentence[-1].isalnum() and first in INTERROGATIVES and _ASKING_START.match(sentence):
            continue  # an unpunctuated question ("what do you mean")
        if first in _DEFINE and sentence.count(" ") <= 2:
            continue  # "Define jumping. Do you mean rearing?": asked to explain a word
        return False
    return True


RULES = [
    Rule(
        id="short_answer",
        roles=frozenset({"answerer"}),
        explanation=(
            "Please answer in a full sentence with some detail (what you see: colours, shapes, "
            "people, setting), not just yes, no or maybe."
        ),
        summary="Answers under min_words words, or made only of yes/no/maybe-type words.",
        config=ShortAnswerConfig,
        detect=detect_short_answer,
    ),
    Rule(
        id="imposes_emotion",
        roles=frozenset({"answerer"}),
        explanation=(
            "Describe what is in the artwork and let your partner decide how it feels: avoid saying "
            "the artwork is sad, scary or beautiful, or how it makes you feel."
        ),
        summary="An emotion or judgement attached to the artwork or the viewer (not to a depicted person).",
        config=ImposesEmotionConfig,
        detect=detect_imposes_emotion,
        # nor does its classifier judge an ask-back that answer_is_question already names
        classifier_defers_to=frozenset({"answer_is_question"}),
        classifier_spared_by=_imposes_spared,
    ),
    Rule(
        id="answer_is_question",
        roles=frozenset({"answerer"}),
        explanation="As the answerer, please answer the question rather than ask one back.",
        summary="Answerer messages in which every sentence is a question.",
        config=AnswerIsQuestionConfig,
        detect=detect_answer_is_question,
    ),
]
