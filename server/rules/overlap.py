"""Questions that copy an opinion shown to the questioner, or repeat one already asked.

Both compare sets of stemmed content words (stopwords and the words naming the artwork dropped),
so word order and small rewordings ("colour"/"color", "looks"/"look") do not hide a copy.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from functools import lru_cache

from server.rules import text as T
from server.rules.answers import asks_back
from server.rules.base import Context, Rule
from server.rules.opinions import BEING_STATES, opinion_parts
from server.rules.questions import is_question
from server.rules.rule_configs import CopiesOpinionConfig, RepeatedQuestionConfig  # noqa: F401 (re-exported)


def _texts(items: Iterable[object], role: str | None = None) -> Iterable[str]:
    for item in items:
        if isinstance(item, str):
            yield item
        elif isinstance(item, dict) and (role is None or item.get("role") == role):
            text = item.get("text")
            if isinstance(text, str):
                yield text


@lru_cache(maxsize=16384)
def _analyse(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """(content stems, frame key) of an earlier message or an opinion; each dialog repeats them."""
    words = T.words(T.normalise(text))
    stems = frozenset(T.content_stems(words))
    return stems, (frozenset() if stems else _frame_key(words))


# A question put for confirmation ("Is the charge thrilling?"), not one that asks for a count or a thing.
_YES_NO_OPENERS = [
    [w] for w in "is are was were does do did can could would will has have isn't aren't".split()
]


def restates_judgement(ctx: Context, text: str) -> bool:
    """Whether the question asks the opinion's judgement of its subject ("Is the charge thrilling?" after
    "The galloping horses and the flags make the charge thrilling."): a judgement word, a word of the
    subject, and at most one content word the opinion does not have. A pronoun is not enough ("Is he
    angry?" checks a person's look, as the labeled batches have it)."""
    parts = opinion_parts(text)
    mine = ctx.stems
    if parts is None or mine.isdisjoint(parts.judgement) or mine.isdisjoint(parts.subject):
        return False
    if len(mine - parts.subject - parts.judgement) > 1 or not (mine & parts.judgement) - BEING_STATES:
        return False  # "Is the boy happy?", "is she angry at the cats": what a depicted being shows
    return T.words(_LEAD_IN.sub("", ctx.lower))[:1] in _YES_NO_OPENERS


def _keeps_judgement(mine: AbstractSet[str], text: str) -> bool:
    """Whether a question sharing most words with an opinion also keeps what the opinion says of its
    subject: one that names only the subject checks what is there (labeling guide, sessions 9 and 12)."""
    parts = opinion_parts(text)
    return parts is None or not mine.isdisjoint(parts.judgement)


def detect_copies_opinion(ctx: Context, cfg: CopiesOpinionConfig) -> bool:
    if not ctx.opinions:
        return False
    mine = ctx.stems
    if not mine:
        return False
    for text in _texts(ctx.opinions):
        shared = len(mine & _analyse(text)[0])
        if (
            shared >= cfg.min_shared_words
            and shared / len(mine) >= cfg.min_overlap
            and _keeps_judgement(mine, text)
        ):
            return True
        if shared and restates_judgement(ctx, text):
            return True
        if restates_of_referent(ctx, text):
            return True
    return False


# "Does she look forlorn?": someone the dialog has just brought up, asked if they look as an opinion says.
_REFERENT_LOOKS = re.compile(r"^(?:does|do|did) (?:he|she|they) (?:look|seem|appear)s?\b")


def restates_of_referent(ctx: Context, text: str) -> bool:
    """Whether the question asks the opinion's judgement of a person or animal it names by a pronoun
    ("Does she look forlorn?" after "The old woman sitting alone ... looks forlorn."): every content word
    of the question is the opinion's judgement, and the last question or answer named the opinion's
    subject, so the pronoun is it (labeling guide, session 12). Without that mention ("Does he look
    tired?" after a Spanish question about a rider) the pronoun may be anyone."""
    asked = _LEAD_IN.sub("", ctx.lower)
    if not _REFERENT_LOOKS.match(asked):
        return False
    parts = opinion_parts(text)
    mine = T.content_stems(T.words(asked))  # without "ok", "so" and the like before the question
    if parts is None or not mine or not mine <= parts.judgement:
        return False
    recent: set[str] = set()
    for earlier in list(_texts(ctx.history))[-2:]:
        recent |= _analyse(earlier)[0]
    return not recent.isdisjoint(parts.subject)


# Words that frame a question without saying what it asks about ("can you see", "is there").
_FRAME = frozenset(
    "is are was were can could do does did you u see there the a an any please tell me".split()
)
_ART_NOUNS = frozenset("painting picture image artwork art piece photo photograph canvas scene work".split())


def _frame_key(words: list[str]) -> frozenset[str]:
    """A question with no content words reduced to its question words ("who ... in IMG")."""
    if "else" in words or "more" in words:
        # "anything else?", "what else is there?", "and what else in the picture?": one generic ask,
        # and so are "anything more?", "what more can you tell me?" and "tell me more" (session 17)
        return frozenset({"<else>", "who" if not _WHO_ELSE.isdisjoint(words) else "what"})
    # "what's in the picture?" and "what is in the picture?" ask alike
    words = [w[:-2] if w.endswith("'s") else w for w in words]
    return frozenset("IMG" if w in _ART_NOUNS else w for w in words if w not in _FRAME)


_WHO_ELSE = frozenset("who anyone anybody someone somebody whom".split())


# Rewordings of one question swap these; each group is compared as its first word.
_GROUPS = [
    "people anyone anybody someone somebody person persons human humans individuals figure figures folk "
    "folks",
    "wear clothes clothing clothed outfit outfits attire garment garments dressed wears wore worn wearing "
    "uniform uniforms costume costumes",
    "inside indoors indoor interior",
    "outside outdoors outdoor exterior",
    "sea ocean oceans seas",
    "hold holds holding held carry carries carrying carried",
    "near close nearby beside",
    "far distant faraway",
    "closed shut",
    "color colour colors colours hue hues tint shade shades colouring coloring coloured colored",
    "old elderly aged",
    "face expression expressions facial",
    "gazeat watch watches watching",
    # everyday words of scenes that rewordings swap
    "man men guy guys gentleman gentlemen fellow male lad lads bloke blokes chap chaps dude dudes",
    "woman women lady ladies female wifie lass lassie",
    "child children kid kids youngster youngsters",
    "father dad daddy papa",
    "mother mum mom mummy mommy mama",
    "grandfather grandpa granddad grandad",
    "grandmother grandma granny gran",
    "baby babies infant infants",
    "car cars automobile automobiles",
    "road roads street streets",
    "path paths track tracks trail trails",
    "sofa sofas couch couches settee",
    "shop shops store stores",
    "lit burning alight aflame",
    "hurt wounded injured",
    "jug jugs pitcher pitchers",
    "sleep sleeping asleep sleeps slept dozing awake",
    "smile smiles smiling grin grins grinning",
    "cry crying cries weep weeping tears",
    "sit sits sitting seated sat",
    "wet damp soaked soggy",
    "forest forests wood woods woodland",
    "river rivers stream streams brook creek",
    "quiet silent",
    "dirty mucky filthy grimy grubby muddy",
    "gallop galloping gallops run running runs",
    "boat boats ship ships vessel vessels sailboat sailboats yacht yachts",
    "shape shapes form forms",
    "real realistic lifelike naturalistic figurative",
    "ground field fields land soil earth",
    "room rooms studio studios hall halls chamber",
    "ox oxen",
    # everyday words questioners swap when they ask the same thing again
    "old elderly aged age ages",
    "big size sized",
    "tall high height",
    "background back rear distance",
    "foreground front",
    "writing words word letters lettering text inscription inscriptions written write writes wrote",
    "fall falls falling fell fallen",
    "move moves moving movement motion",
    "frozen ice icy",
    "alone herself himself themselves",
    "bare leafless",
    "busy traffic crowded",
    "tidy clean neat",
    "bug bugs insect insects",
    "dress dresses gown gowns frock frocks",
    "fire fires flame flames blaze",
    "harbour harbor harbours harbors port ports",
    "couple couples pair pairs",
    "hen hens chicken chickens",
    "lamp lamps lantern lanterns",
    "time hour hours day night morning evening midday noon afternoon dawn dusk daylight daytime nighttime",
    # feelings and things that rewordings name with another everyday word
    "scared afraid frightened fearful terrified",
    # what frightens is not who is frightened ("are they scared?" after "it sounds scary")
    "frightening scary terrifying creepy spooky",
    "doing action actions activity",
    "coat coats jacket jackets",
    "flower flowers blossom blossoms bloom blooms blooming flowering",
    "happy glad cheerful joyful",
    "angry furious",
    "full overflowing overflows brimming",
    "dead dying died",
    "sign signs placard placards banner banners",
    # session 17: landing places and more of the people a scene holds
    "pier piers dock docks jetty jetties quay quays wharf wharves landing",
    "sculpture sculptures statue statues bust busts figurine figurines",
    "feast feasts party parties celebration celebrations festivity festivities banquet banquets",
]
_SAME = {word: group.split()[0] for group in _GROUPS for word in group.split()}
# Words that hedge or frame a question without changing what it asks ("mainly", "visible", "kind of").
_NEUTRAL = frozenset(
    """
    main mainly mostly primarily predominantly dominant dominantly overall general generally exact exactly
    precisely roughly approximately actual actually basically particular particularly specific specifically
    kind type sort visible visibly appear appears appearance present exist exists located currently
    notice spot find artist painter use used uses using anywhere somewhere less object objects item items
    display year years two three four five six seven eight nine ten
    perhaps maybe possibly probably altogether roughly whereabouts besides apart trying mind
    happen happens happening toward towards around breed breeds species
    hell damn damned heck ffs wtf freaking frigging fucking fuck fuckin shit crap lol haha
    side
    pic pics foto fotos sup yo hey hi hiya heya hello whole entire total ah lah leh lor sia meh
    english confirm wonder
    kindly
    """.split()
)
# "looking at" / "staring at" ask what someone watches; "look like" asks how something looks.
_GAZE = re.compile(r"\b(?:look|looks|looking|stare|stares|staring|gaze|gazes|gazing|glance|glancing) at\b")
_TIME_OF_DAY = re.compile(r"\btime of (?:the )?day\b")
# Phrases that ask the same thing in other words: "have on" is "wear", "the source of" asks where.
_REPHRASE = (
    (re.compile(r"\b(?:have|has|had|having) on\b|\bdressed in\b|\bgot on\b(?=\W*$|,)"), "wear"),
    (re.compile(r"\b(?:busy|occupied) with\b"), "doing"),
    # "is the kid hurt, the one he is carrying?": the clause after the question only says which one
    (re.compile(r", (?:i mean )?the one (?:that |who |which )?[a-z' ]+\?*$"), ""),
    (re.compile(r"\bmake out\b"), "see"),
    # "may I ask what the weather is?", "I'd like to know how many": the polite frame asks nothing
    (
        re.compile(
            r"\b(?:(?:may|can|could|might) (?:i|we)|i (?:would|'d) like to|i (?:want|wanted) to) "
            r"(?:ask|know|enquire|inquire)(?: you)?\b"
        ),
        "",
    ),
    (re.compile(r"\bwhat(?:'s| is| was) the (?:source|origin) of\b"), "where is"),
    (re.compile(r"\b(?:come|comes|coming|came) from\b"), "from"),
    (re.compile(r",? would (?:you|u) say\b|\b(?:is|was) (?:the )?(?:scene|painting|picture|it) set\b"), ""),
    (re.compile(r"\b(?:contains?|containing)\b"), "in"),
    (re.compile(r"\b(?:made|built|constructed) (?:of|from|out of)\b"), "material"),
    (re.compile(r"\bwhat(?:'s| is) the number of\b|\bcount (?:up )?(?:all )?(?:the )?"), "how many "),
    (re.compile(r"\bwhat(?:'s| is) the headcount\b"), "how many people"),
    (re.compile(r"\b(?:the )?number of\b"), "how many"),
    # "on which side is the moon?", "what place is she in?", "which people ride...?" ask where and who
    (re.compile(r"\b(?:(?:on|at|in|from|to) )?(?:which|what) (?:side|place|direction|way)\b"), "where"),
    (re.compile(r"\bwhich (?:people|persons?|one of them)\b"), "who"),
    # "is rain falling?" asks "is it raining?"; "what is he up to?" what he is doing
    (re.compile(r"\b(rain|snow)(?: is| was)? (?:falling|coming down)\b"), r"\1"),
    (re.compile(r"\bsun(?: is| was)? (?:shining|out)\b"), "sun"),  # "is the sun shining?" asks if it is sunny
    (re.compile(r"\bup to\b(?=\W*$)"), "doing"),
    (re.compile(r"\bby (?:him|her|them|it)sel(?:f|ves)\b"), "alone"),
    # "is anyone with him?", "is she with someone?" ask whether he or she is alone
    (
        re.compile(
            r"\b(?:any ?one|any ?body|some ?one|some ?body|no ?one|nobody|(?:any|some)(?: other)? person)"
            r"(?: else)?"
            r"(?: (?:sitting|standing|walking|there|here))? with\b"
            r"|\bwith (?:any ?one|any ?body|some ?one|some ?body|others|other people|company)\b"
        ),
        "alone with",
    ),
    (re.compile(r"\b(?:take|takes|took|taking) place\b"), ""),
    (re.compile(r"\bafter dark\b"), "night"),
    # small talk ("how's it going?") asks nothing; "what's going on" asks what happens
    (re.compile(r"\bhow(?:'s| is| are) (?:it|things) going\b|\bgoing on\b"), ""),
    # the partner's own place and life ("what's the weather by you?", "have you been to one?") are
    # not the artwork's, whatever else the question shares with one about it
    (
        re.compile(
            r"\bby (?:you|u)\b|\bwhere (?:you|u) (?:are|live)\b|\byour (?:place|end|side|city|town|country)\b"
            r"|\b(?:have|do) (?:you|u) (?:ever )?(?:have )?been\b"
        ),
        " yourworld ",
    ),
    (re.compile(r"\bbloody hell\b"), ""),  # an oath, not blood
    # session 17: "is it still raining?" asks "is it raining?"; "inside the hut" is "in the hut"; what is
    # "behind her" or "behind everything" in a picture is its background
    (re.compile(r"\bstill (?=[a-z]{2,}ing\b)"), ""),
    (re.compile(r"\binside (?=(?:the|a|an|this|that|his|her|their|its) )"), "in "),
    (
        re.compile(r"\bbehind (?:him|her|them|it|everything|everyone|everybody|all that|all of it)\b"),
        "in the background",
    ),
    (re.compile(r"\b(?:have|has|with) no leaves\b|\bwithout leaves\b"), "bare"),
    (re.compile(r"\b(?:going|coming|getting) back to\b|\bjust to (?:fix|check|confirm)\b"), ""),
    # "where is it happening", "what is lying on the table": the verb only says that it is there
    (
        re.compile(
            r"\b(?:happening|taking place|lying|lies|lie|sitting|sits|standing|stands|placed|resting|rests|"
            r"located|situated|hanging|hangs)\b(?= (?:on|in|at|by|near|next to|behind|under|inside|over)\b)"
        ),
        "",
    ),
)
_REPHRASE_GATED = tuple((rx, repl, T.gate(rx).may_match) for rx, repl in _REPHRASE)
_REPHRASE_TRIGGERS = frozenset(
    "on in out source origin from say set contain contains containing made number happening taking count "
    "busy side place direction way which falling coming up by no without take takes took after bloody "
    "headcount back just with occupied one going been your where built constructed shining "
    "ask know enquire inquire still inside behind "
    "lying lies lie sitting sits standing stands placed resting rests located situated hanging hangs".split()
)
# "have shoes on" is "wear shoes"; "have a kite in his hand" is "hold a kite".
_HAVE_ON = re.compile(
    r"\b(?:have|has|had|having|got) ((?:(?:a|an|any|some|the|his|her|their) )?[a-z-]+) on\b"
    r"(?! (?:the|a|an|his|her|their|its|it|top|him|them)\b(?! heads?\b))"
)
_IN_HANDS = re.compile(
    r"\b(?:(?:have|has|had|having|got|holding|holds|hold|carrying|carries|carry) )?"
    r"((?:(?:a|an|any|some|the) )?[a-z-]+ )?in (?:his|her|their|its|the|one|both|each) "
    r"(?:left |right |own )?(?:hands?|arms?|fingers)\b"
)
# "Sorry, did you say...", "what was it again": asked again on purpose; the frame says nothing.
# What the questioner says of their own attention ("sorry, I missed it", "I zoned out", "as I asked"):
# a cue that the question is asked again, and no term of what it asks.
_LAPSE = (
    r"(?:i )?(?:may |might |must )?(?:have )?(?:missed|forgot|forgotten) (?:it|that|this|what you said)"
    r"(?: earlier| before)?|(?:i )?(?:zoned|spaced|tuned) out|(?:i )?(?:did not|didn't|do not|don't) "
    r"(?:quite )?(?:follow|catch|get|understand) (?:it|that|this|you)?(?: earlier| before)?|"
    r"(?:as|like) i (?:already )?(?:asked|said)(?: before| earlier)?"
)
_RECALL = re.compile(
    r"\b(?:(?:did|do) (?:you|u) (?:say|said|mention|tell me)|(?:you|u) (?:said|mentioned|told me)|again|"
    r"remind me|(?:do|did) (?:you|u) think|sorry|once more|"
    r"(?:i )?(?:already )?asked (?:it |this |that )?(?:already|before)|" + _LAPSE + r")\b"
)
_THINGS_AT = re.compile(
    r"\b(?:anything|something) (?:else )?(?:on|in|under|behind|inside|near|above|below|beside|around|at)\b"
)
# "what else is on the table?" asks what "anything else on the table?" asks (session 17)
_WHAT_ELSE_AT = re.compile(
    r"(?:and |so |ok |okay )?what else (?:is |are )?(?:there )?"
    r"(?:on|in|under|behind|inside|near|above|below|beside|around|at)\b"
)
_HANDS_TRIGGERS = frozenset("on hand hands arm arms fingers".split())
_RECALL_TRIGGERS = frozenset(
    "say said mention mentioned told again remind think sorry once asked missed forgot forgotten zoned "
    "spaced tuned follow catch understand".split()
)
# Chat interjections and asides before the question itself: no term of what is asked.
_LEAD_IN = re.compile(
    r"^(?:(?:ugh+|argh+|hang on|wait|kk|k|ok+|okay|lol|bro|soz|sry|sorry|oops|um+|uh+|hmm+|right|so|and|"
    r"well|oh|ah|aw+|ha+|last one|one more|last question|my bad|nvm)[,.!]* +)+"
)
_LEAD_IN_FIRST = frozenset(
    "ugh ughh argh hang wait kk k ok okk okay lol bro soz sry sorry oops um umm uh hmm hmmm right so and "
    "well oh ah aw aww ha haha last one my nvm".split()
)
# Function words spelt as in chat or in dialect ("whats", "r there", "how much people yuh see"):
# left as they are they become content words that no rewording shares; "po" and "nuh" only soften.
_CHAT = {"whats": "what's", "wats": "what's", "wots": "what's", "wat": "what", "wot": "what",
         "wat's": "what's", "wot's": "what's", "whit's": "what's",
         "whos": "who's", "wheres": "where's", "hows": "how's", "wtf": "what", "whit": "what",
         "wha": "what", "r": "are", "u": "you", "yuh": "you", "ya": "you", "ur": "your", "d": "the",
         "teh": "the", "dat": "that", "deh": "there", "pon": "on", "mi": "me", "fi": "for",
         "plz": "please", "pls": "please", "po": "", "nuh": "", "wee": "", "lil": ""}  # fmt: skip
_CHAT_WORD = re.compile(r"(?<![\w'-])(?:" + "|".join(sorted(_CHAT, key=len, reverse=True)) + r")(?![\w'-])")
_WH = {"what": "what", "which": "what", "who": "who", "whom": "who", "whose": "who", "where": "where",
       "when": "when", "why": "why", "how": "how", "whereabouts": "where"}  # fmt: skip
_REQUESTS = frozenset("describe tell explain name list show give say mention".split())
# He and she stay apart ("what is he holding?" is not "what is she holding?").
_PRONOUNS = {"she": "<she>", "her": "<she>", "hers": "<she>", "herself": "<she>",
             "he": "<he>", "him": "<he>", "his": "<he>", "himself": "<he>",
             "they": "<they>", "them": "<they>", "their": "<they>", "themselves": "<they>"}  # fmt: skip


# verbs that only say where something is, in a question asking where ("where is the cat sitting?")
_PLACED = frozenset(
    T.stem(w)
    for w in """hung hang hangs hanging placed place put positioned located situated settled sitting sits sat
    standing stands stood lying lies lay resting rests kept stored found
    go goes going went gone lead leads leading led head heads heading end ends ending""".split()
)


# What an "else"/"more" ask adds without naming anything in the artwork: "anything else worth
# mentioning?", "what else do you notice?", "what else is in it that I might have missed?" ask what
# "what else?" asks (session 17: batches 19-23 labelled them repeats of an earlier "what else")
_MORE_FILLER = frozenset(
    T.stem(w)
    for w in """worth mention mentioning know knowing noting note notice noticing spot spotting miss missed
    add tell say see interesting important should""".split()
)
# "anything else apart from the boat?": what else there is besides what was named
_BESIDES = re.compile(r"\b(?:else|more)\b.*?\b(?:apart from|besides|except|other than|aside from)\b(.*)$")


def _generic_more(lower: str, terms: set[str]) -> set[str]:
    """The terms of an "else"/"more" question without its filler; none when it names nothing else."""
    if terms <= _MORE_FILLER:
        return set()
    besides = _BESIDES.search(lower)
    if besides:
        named = {T.stem(_SAME.get(w, w)) for w in T.words(besides.group(1))}
        if terms <= named | _MORE_FILLER:
            return set()
    return terms


@lru_cache(maxsize=16384)
def question_terms(lower: str) -> tuple[frozenset[str], str, frozenset[str]]:
    """(terms, question word, frame key) of a normalised question, for comparing it with another.

    Terms are the stemmed content words with synonyms merged and hedges dropped, plus "he"/"she";
    the question word is the first wh-word ("how many" apart), or "yes/no".
    """
    if " at" in lower:  # what both regexes need: most questions skip them
        lower = _GAZE.sub("gazeat", lower)
    if "time of " in lower:
        lower = _TIME_OF_DAY.sub("time", lower)
    if lower.split(" ", 1)[0].strip(",.!") in _LEAD_IN_FIRST:
        lower = _LEAD_IN.sub("", lower)  # "ugh. how many oysters?", "kk last one, is the ashtray full"
    words = T.words(lower)
    if not _CHAT.keys().isdisjoint(words):
        lower = _CHAT_WORD.sub(lambda m: _CHAT[m.group()], lower)  # "whats on the silos", "r they big"
        words = T.words(lower)
    if not _REPHRASE_TRIGGERS.isdisjoint(words):
        rephrased = _rephrase(lower)
        if rephrased != lower:
            lower = rephrased
            words = T.words(lower)
    if not _HANDS_TRIGGERS.isdisjoint(words):
        lower = _IN_HANDS.sub(r"hold \1", _HAVE_ON.sub(r"wear \1", lower))
        words = T.words(lower)
    if not _RECALL_TRIGGERS.isdisjoint(words):
        lower = _RECALL.sub("", lower)
        words = T.words(lower)
    terms = set()
    for w in words:
        if w in _PRONOUNS:
            terms.add(_PRONOUNS[w])
        elif w not in T.STOPWORDS and w not in _NEUTRAL and not w.isdigit() or w == "doing":
            base = w[:-2] if w.endswith("'s") else w  # "what colour's her hair?", "the tiger's fur"
            terms.add(T.stem(_SAME.get(base, base)))
    for i, word in enumerate(words):
        w = word.split("'", 1)[0]  # "what's"
        if w in _WH:
            kind = "how many" if w == "how" and words[i + 1 : i + 2] in (["many"], ["much"]) else _WH[w]
            break
    else:
        # without a wh-word, a request ("can you describe the room?") asks what something is like, and
        # so does a bare phrase ("food??", "and below him?", "sky colour?")
        kind = "what" if not _REQUESTS.isdisjoint(words) or _is_fragment(words) else "yes/no"
    if (
        ("anything" in words or "something" in words)
        and _THINGS_AT.search(lower)
        or ("else" in words and _WHAT_ELSE_AT.match(lower))
    ):
        terms.add("<things>")  # "is there anything on the table?" asks what is on it, not whether
        if len(terms) == 1 and "else" in words:
            terms.clear()  # "anything else in the picture?": a generic ask, compared by its frame
    if terms and ("else" in words or "more" in words):
        terms = _generic_more(lower, terms)
    if kind == "where":
        terms -= _PLACED  # "where has the lamp been hung?" asks where the lamp is
    key = frozenset() if terms else _frame_key(words)
    if _TOPIC.match(lower):
        return _resolve_pronouns(frozenset(terms)), kind, key
    return frozenset(terms), kind, key


def _rephrase(lower: str) -> str:
    """``lower`` with each ``_REPHRASE`` substitution made in turn; a regex whose required strings
    the (possibly already rephrased) text lacks changes nothing, so its gate skips it."""
    for rx, repl, may_match in _REPHRASE_GATED:
        if may_match(lower):
            lower = rx.sub(repl, lower)
    return lower


_VERBS_OF_YES_NO = frozenset(
    """is are was were am do does did can could will would should shall may might must has have had
    isn't aren't wasn't weren't don't doesn't didn't can't couldn't won't any anything anyone anybody
    there it they he she you i""".split()
)


def _is_fragment(words: list[str]) -> bool:
    """A bare phrase of one or two words ("food??", "and below him?") with no verb that asks whether."""
    if len(words) > 5:
        return False
    rest = [w for w in words if w not in _FILLERS]
    return 0 < len(rest) <= 2 and _VERBS_OF_YES_NO.isdisjoint(rest)


_FILLERS = frozenset("and so but ok okay lol the a an".split())


# "The little girl, what she is doing?": the person named first, then asked about with a pronoun
_TOPIC = re.compile(
    r"^(?:(?:and|so|okay|ok|now|right)[,.]? )*(?:the|this|that) [a-z' -]{1,30}?, "
    r"(?=(?:what|where|who|which|how|is|are|was|were|does|do|did|can)\b)"
    r"|, (?:the|this|that) [a-z' -]{1,30}\?*$"  # or put last: "what's he got on, the porter?"
)


def _resolve_pronouns(terms: frozenset[str]) -> frozenset[str]:
    """A pronoun that names a person of the same question (put first, as its topic) adds nothing."""
    pronouns = [p for p in ("<he>", "<she>", "<they>") if p in terms]
    if not pronouns:
        return terms
    rest = terms.difference(pronouns)
    return terms.difference(p for p in pronouns if _RELATED.get(p, frozenset()) & rest)


def _stems(words: str) -> frozenset[str]:
    return frozenset(T.stem(_SAME.get(w, w)) for w in words.split())


# A general word and the specific ones it may stand for ("man" for "the farmer", "animals" for
# "oxen", "water" for "the sea"): a reworded repeat often names the same thing one level up.
_PERSON_GENERIC = _stems("people")
_PERSON_KINDS = _stems("man woman child girl boy girls boys")
_PERSON_ROLES = _stems(
    """
    farmer soldier sailor fisherman dancer rider knight king queen priest monk nun worker peasant hunter
    merchant musician officer nurse teacher student waiter pianist player keeper guard servant maid cook
    baker shepherd ploughman warrior fighter traveller traveler pilgrim bride groom saint angel
    skater skaters rider riders butcher butchers customer customers singer singers sailor sailors
    fishermen workers soldiers dancers players musicians villagers peasants farmers hunters
    patient patients doctor doctors surgeon dentist beekeeper beekeepers climber climbers mountaineer
    mountaineers bather bathers swimmer swimmers rower rowers passenger passengers vendor vendors seller
    sellers buyer buyers shopkeeper miner miners labourer labourers tourist tourists pedestrian
    pedestrians spectator spectators audience crowd shepherds knights guards servants apprentice
    apprentices porter porters hiker hikers walker walkers wanderer wanderers runner runners
    guest guests diner diners visitor visitors onlooker onlookers bystander bystanders mourner mourners
    worshipper worshippers reveller revellers picker pickers firefighter firefighters
    """
)
_ANIMAL_GENERIC = _stems("animal animals creature creatures beast beasts livestock")
_ANIMALS = _stems(
    """
    ox cow cows horse horses dog dogs cat cats sheep goat goats pig pigs bird birds hen hens chicken chickens
    duck ducks goose geese donkey donkeys mule mules bull bulls calf deer cattle camel camels pet pets
    """
)
_WATER_GENERIC = _stems("water waters")
_WATERS = _stems("sea river lake pond canal harbour harbor bay")
# "he" and "she" stand for a person named another way earlier ("the woman" ... "is she indoors?")
_MALE = _stems("man boy boys father grandfather king prince husband son brother monk priest gentleman")
_FEMALE = _stems(
    "woman girl girls mother grandmother queen princess wife daughter sister nun lady bride maid"
)
_INSECT = _stems("insect insects bug bugs")
_INSECTS = _stems("bee bees fly flies butterfly butterflies ant ants wasp wasps moth moths beetle beetles")
_FRUIT = _stems("fruit fruits")
_FRUITS = _stems(
    "apple apples pear pears lemon lemons orange oranges grape grapes peach peaches cherry "
    "cherries plum plums fig figs banana bananas melon melons berries strawberries"
)
_BUILDING = _stems("building buildings")
_BUILDINGS = _stems(
    "house houses church churches tower towers castle castles cottage cottages barn barns "
    "hut huts mill mills farmhouse palace temple chapel shed"
)
_HEAD = _stems("head heads headwear")
_HEADWEAR = _stems(
    "hat hats cap caps turban turbans helmet helmets bonnet bonnets hood hoods crown crowns "
    "beret headscarf veil"
)
_GARMENTS = _stems(
    "robe robes dress dresses coat coats jacket jackets shirt shirts trousers skirt skirts cloak cloaks "
    "gown gowns suit suits apron aprons shoes boots scarf gloves sweater vest tunic"
)
_HYPERNYMS = (
    (_PERSON_GENERIC, _PERSON_KINDS | _PERSON_ROLES),
    (_PERSON_KINDS, _PERSON_ROLES),
    (_ANIMAL_GENERIC, _ANIMALS),
    (_WATER_GENERIC, _WATERS),
    (frozenset({"<he>"}), _MALE | _PERSON_ROLES),
    (frozenset({"<she>"}), _FEMALE | _PERSON_ROLES),
    (frozenset({"<they>"}), _PERSON_GENERIC | _PERSON_KINDS | _PERSON_ROLES),
    (_stems("wear"), _GARMENTS),
    (_FRUIT, _FRUITS),
    (_INSECT, _INSECTS),
    (_BUILDING, _BUILDINGS),
    (_HEAD, _HEADWEAR),
)


# term -> the terms it is related to (both directions), so that a comparison is one look-up
_RELATED: dict[str, frozenset[str]] = {}
for _general, _specific in _HYPERNYMS:
    for _g in _general:
        _RELATED[_g] = _RELATED.get(_g, frozenset()) | _specific
    for _s in _specific:
        _RELATED[_s] = _RELATED.get(_s, frozenset()) | _general


@lru_cache(maxsize=16384)
def _tails(term: str) -> frozenset[str]:
    """The words a compound may end with: "tablecloth" -> "cloth", "ecloth"... (at least 4 letters)."""
    return frozenset(term[i:] for i in range(3, len(term) - 3))


@lru_cache(maxsize=16384)
def _all_tails(terms: frozenset[str]) -> frozenset[str]:
    return frozenset().union(*map(_tails, terms)) if terms else frozenset()


def _compound(a: str, b: str) -> bool:
    """One term ends with the other, a word of its own ("tablecloth" / "cloth", "boathouse" / "house")."""
    return b in _tails(a) or a in _tails(b)


def related(a: str, b: str) -> bool:
    """The same term, or one names the other at a more general level."""
    return a == b or b in _RELATED.get(a, ()) or _compound(a, b)


def soft_shared(mine: frozenset[str], theirs: frozenset[str]) -> int:
    """Terms in common, counting a general word and a specific one it may stand for as one."""
    shared = mine & theirs
    n = len(shared)
    if n == len(mine) or n == len(theirs):
        return n
    return _soft_rest(mine, theirs, shared, n, _all_tails(theirs))


def _soft_rest(
    mine: frozenset[str], theirs: frozenset[str], shared: frozenset[str], n: int, their_tails: frozenset[str]
) -> int:
    """``soft_shared`` past the exact matches (``their_tails`` is ``_all_tails(theirs)``)."""
    left = set(theirs - shared)
    for a in sorted(mine - shared):  # in set order the greedy matching would vary with PYTHONHASHSEED
        match: AbstractSet[str] = _RELATED.get(a, frozenset()) & left or _tails(a) & left
        if not match and a in their_tails:
            match = {b for b in left if a in _tails(b)}
        if match:
            left.discard(min(match))
            n += 1
    return n


_HOW_MANY = re.compile(
    r"\b(?:how many|number of) (?:(?:more|different|separate|other|of (?:the|those|these)) )?([a-z']+)"
)


@lru_cache(maxsize=16384)
def counted(lower: str) -> str | None:
    """The stem of what a "how many" question counts ("how many oxen" -> "ox")."""
    m = _HOW_MANY.search(lower)
    return T.stem(_SAME.get(m.group(1), m.group(1))) if m else None


def is_repeat(lower: str, earlier_lower: str, min_overlap: float, whole: bool = True) -> bool:
    """Whether a question asks again what an earlier one (both normalised) asked.

    ``whole`` is false for one question of a message that asks several: a clause is short, so one
    detail added to an earlier question is not enough there ("is the fallen boy hurt, is he crying?"
    after "is anyone falling over?").
    """
    if _ASKS_AGAIN.search(lower):
        return True  # "just tell me again": whatever was asked, asked again
    mine, kind, key = question_terms(lower)
    earlier = _earlier(earlier_lower)
    return _repeats(lower, mine, kind, key, earlier, soft_shared(mine, earlier[1]), min_overlap, whole)


# An earlier question as every later one compares with it: (normalised text, terms, question word,
# frame key, ``_all_tails`` of the terms, whether it is the whole message rather than one of its parts).
Earlier = tuple[str, frozenset[str], str, frozenset[str], frozenset[str], bool]


@lru_cache(maxsize=16384)
def _earlier(earlier_lower: str, first: bool = True) -> Earlier:
    terms, kind, key = question_terms(earlier_lower)
    return earlier_lower, terms, kind, key, _all_tails(terms), first


def _repeats(
    lower: str,
    mine: frozenset[str],
    kind: str,
    key: frozenset[str],
    earlier: Earlier,
    shared: int,
    min_overlap: float,
    whole: bool,
) -> bool:
    """``is_repeat`` past the "tell me again" test, with both questions' terms and
    ``soft_shared(mine, theirs)`` already at hand."""
    earlier_lower, theirs, their_kind, their_key, _, _ = earlier
    if not mine:
        # nothing but function words ("why?", "who is in the picture?"): the same frame repeats
        return bool(key) and their_key == key
    if not theirs:
        return False
    if not shared:
        return False  # every way below of asking again shares at least one term (or a related one)
    if _another_way_possible(kind, their_kind, earlier_lower) and _asked_another_way(
        lower, mine, kind, earlier_lower, theirs, their_kind
    ):
        return True
    union = len(mine) + len(theirs) - shared
    # "how big is it?" and "what size is it?" ask the same way; "is it day or night?" asks which, as
    # "what time is it?" does, and whether, as "is it night?" does
    kind, their_kind = _KIND.get(kind, kind), _KIND.get(their_kind, their_kind)
    if (kind == "why") != (their_kind == "why"):
        return False  # the reason for what was asked about ("why is the child crying?") is a new question
    same_kind = kind == their_kind or _either_way(kind, lower, their_kind, earlier_lower)
    if not same_kind and _recalls(lower):
        # asked again on purpose, open after closed or the other way round: "what's it made of again?"
        # after "is it made of stone?", "what did you say the other colour was?" after "is there any
        # other colour?"
        return True
    if shared / union >= min_overlap and (union > 1 or same_kind):
        # one shared word is a repeat only when asked the same way ("is there a dog?" twice,
        # not "is there a dog?" then "what is the dog eating?")
        return True
    if not same_kind:
        return False
    if shared == 1 and (len(theirs) == 1 or len(mine) == 1):
        # whether a thing is there, asked again with where to look ("any boat in the water?" after
        # "is there a boat?") or without what the first time added ("is there writing?" after "is
        # there any writing carved in it?")
        first_there = len(theirs) > 1
        thing = next(iter(mine if first_there else theirs))
        if _asks_again_whether(lower, earlier_lower, thing, first_there):
            return True
    if shared == len(mine) >= 2:
        # every term of the question was asked before, the same way ("is the sky cloudy?" after
        # "is the sky clear or cloudy?")
        return True
    if len(mine) == 1 and shared == 1 and kind == "yes/no" and _OF_IT.match(lower):
        # one quality asked again of "it" ("is it murky?" after "is the murky water filthy?")
        return True
    if shared and _recalls(lower):
        # asked again on purpose: "what was on the counter again?", "did you say there were dogs?"
        return True
    if kind == "how many":
        # the same (or a more general) thing counted again, the rest only says where or doing what
        mine_n, their_n = counted(lower), counted(earlier_lower)
        if mine_n and their_n and related(mine_n, their_n):
            rest, their_rest = mine - {mine_n}, theirs - {their_n}
            return not rest or not their_rest or soft_shared(rest, their_rest) > 0
    # an earlier question of two or more terms asked again with one detail added
    return whole and len(theirs) >= 2 and shared == len(theirs) and len(mine) == shared + 1


def _another_way_possible(kind: str, their_kind: str, earlier_lower: str) -> bool:
    """What ``_asked_another_way`` needs before it can hold: an open and a closed question, offered
    alternatives earlier, or a "who" question (a cheap test that skips it for most pairs)."""
    if kind == "why" or their_kind == "why":
        return False
    return (
        (kind == "what" and their_kind == "yes/no")
        or (kind == "yes/no" and their_kind == "what")
        or kind == "who"
        or their_kind == "who"
        or " or " in earlier_lower
    )


def _asked_another_way(
    lower: str, mine: frozenset[str], kind: str, earlier_lower: str, theirs: frozenset[str], their_kind: str
) -> bool:
    """The same thing asked in another form: open and closed, one of the offered answers, who and whether."""
    if kind == "why" or their_kind == "why":
        return False
    if _open_and_closed(lower, mine, kind, earlier_lower, theirs, their_kind) or _open_and_closed(
        earlier_lower, theirs, their_kind, lower, mine, kind
    ):
        return True
    if _picks_alternative(lower, mine, kind, earlier_lower, theirs, their_kind):
        return True
    return _who_and_whether(mine, kind, theirs, their_kind) or _who_and_whether(
        theirs, their_kind, mine, kind
    )


# "what's the sky like?" asks its state; "what does the dog look like?" asks far more than one quality
_OPEN = re.compile(r"(?<!\blook )(?<!\blooks )\blike\b|\bdescribe\b|\btell me about\b")
_ING = re.compile(r"\b[a-z]{2,}ing\b")


def _open_and_closed(
    open_lower: str, open_terms: frozenset[str], open_kind: str,
    closed_lower: str, closed_terms: frozenset[str], closed_kind: str,
) -> bool:  # fmt: skip
    """ "What's the sky like?" and "is the sky clear?" ask about the same state of one thing.

    The closed question names one quality of the thing and no action ("is the man smiling?" asks
    something new after "describe the man"), and it is not whether the thing is there at all.
    """
    return (
        open_kind == "what"
        and closed_kind == "yes/no"
        and len(closed_terms) == len(open_terms) + 1
        and _OPEN.search(open_lower) is not None
        and not _EXISTS.search(closed_lower)
        and not _ING.search(closed_lower)
        and soft_shared(open_terms, closed_terms) == len(open_terms)
    )


_ALTERNATIVES = re.compile(r"\b([a-z][a-z'-]*),? or (?:a |an |the |some )?([a-z][a-z'-]*)\b")


def _picks_alternative(
    lower: str, mine: frozenset[str], kind: str, earlier_lower: str, theirs: frozenset[str], their_kind: str
) -> bool:
    """ "Is the water calm, no waves?" after "is the water calm or rough?": one of the offered answers,
    about the same thing, with at most one word more."""
    if kind not in ("yes/no", their_kind) or " or " not in earlier_lower:
        return False
    for m in _ALTERNATIVES.finditer(earlier_lower):
        alts = {T.stem(_SAME.get(w, w)) for w in m.groups() if w not in T.STOPWORDS}
        if len(alts) != 2 or not alts <= theirs or len(mine & alts) != 1:
            continue
        subject = theirs - alts
        rest = mine - alts
        if subject and soft_shared(subject, rest) == len(subject) and len(rest) <= len(subject) + 1:
            return True
    return False


_ANYONE = T.stem(_SAME["anyone"])


def _who_and_whether(who: frozenset[str], kind: str, whether: frozenset[str], other_kind: str) -> bool:
    """ "Who's waving on the platform?" after "is anyone waving?": asking who asks whether anyone."""
    if kind != "who" or other_kind != "yes/no" or _ANYONE not in whether:
        return False
    rest = whether - {_ANYONE}
    return bool(rest) and soft_shared(rest, who) == len(rest) and len(who) <= len(rest) + 1


_KIND = {"how": "what"}
_ASKS_AGAIN = re.compile(r"\b(?:tell me|say (?:it|that)|repeat (?:it|that)|answer (?:it|that)) again\b")
_OF_IT = re.compile(r"^(?:so |and |but )?(?:is|was|does) it (?:look |seem |feel )?[a-z'-]+\?*$")
_EXISTS = re.compile(
    r"^(?:\w+[,.!]? )?(?:(?:is|are) there\b|any\b|(?:do|can|could) (?:you|u) see\b|is there any\b)"
)


_OTHER = frozenset(
    "other others else besides except apart also too well another more anything something anyone someone "
    "anybody somebody".split()
)


def _asks_again_whether(lower: str, earlier_lower: str, thing: str, first_there: bool = False) -> bool:
    """Both ask whether a thing is there, the thing first ("any boat in the water?"), not another one.

    With ``first_there`` the earlier question names it first too, among what it says of it ("is there
    any writing carved in it?", "are there any animals or people?" before "is there writing?").
    """
    if not (_EXISTS.search(lower) and _EXISTS.search(earlier_lower)):
        return False
    if not _OTHER.isdisjoint(T.words(lower)):
        return False
    return thing in _named_first(lower) and (not first_there or thing in _named_first(earlier_lower))


@lru_cache(maxsize=16384)
def _named_first(lower: str) -> frozenset[str]:
    """The stem of the first content word of a question, and of its alternative ("any pet or animal")."""
    words = T.words(lower)
    content = [
        i for i, w in enumerate(words) if w not in T.STOPWORDS and w not in _NEUTRAL and w not in _FRAME
    ]
    if not content:
        return frozenset()
    first = content[0]
    named = [words[first]]
    if words[first + 1 : first + 2] == ["or"] and first + 2 < len(words):
        named.append(words[first + 2])  # "any pet or animal in the room?"
    return frozenset(T.stem(_SAME.get(w, w)) for w in named)


def _either_way(kind: str, lower: str, their_kind: str, earlier_lower: str) -> bool:
    """A yes/no question with alternatives ("is he young or old?") also asks which, like a wh-question."""
    return (kind == "yes/no" and their_kind == "what" and " or " in lower) or (
        their_kind == "yes/no" and kind == "what" and " or " in earlier_lower
    )


_RECALL_CUE = re.compile(
    r"\b(?:(?:did|do) (?:you|u) (?:say|said|mention|tell me)|(?:you|u) (?:said|mentioned|told me)|again|"
    r"remind me|once more|asked (?:it |this |that )?(?:already|before)|already asked|" + _LAPSE + r")\b"
)


_RECALL_CUE_GATE = T.gate(_RECALL_CUE)


@lru_cache(maxsize=16384)
def _recalls(lower: str) -> bool:
    # most questions hold none of the strings a recall needs ("again", "said", "remind me"...): a few
    # substring tests answer for them instead of the regex's alternation tried at every word
    return _RECALL_CUE_GATE.may_match(lower) and _RECALL_CUE.search(lower) is not None


_ASKS = frozenset(
    "what what's whats which who who's whose where where's when why how how's is are was were do does did "
    "can could has have".split()
)
_QUESTION_SENTENCE = re.compile(r"[^?]+\?+")
# the statements before a question in the same stretch of text ("I am Kasia from Kraków, first time
# here. What plant is it?"): the question is what follows the last full stop or exclamation mark
_LEAD_STATEMENTS = re.compile(r"^.*[.!]\s+(?=\S)")
# a comma before a new question ends one ("what colour is the dog, is it black?")
_NEXT_QUESTION = re.compile(
    r", (?:and |but |so )?(?=(?:is|are|was|were|does|do|did|can|has|have|what|how|where|who|which) )"
    # "how many boats are there and are they moving?": "and" before a yes/no question about them
    r"| and (?=(?:is|are|was|were|does|do|did) (?:it|they|he|she|there)\b)"
)


# An apology or a word about oneself before the question ("forgive me, but", "I may have missed it,"):
# it names nothing that the question asks about.
_ASIDE = re.compile(
    r"^(?:(?:(?:i'm |i am )?(?:so |very |really )?sorry|forgive|apologies|my apologies|pardon|excuse me|"
    r"i (?:may|might|must) have|i (?:did not|didn't|do not|don't|forgot|missed|zoned)|before i forget|"
    r"just to)\b[^,:;?]*[,:;] (?:but |so |and )?)+"
)
_ASIDE_FIRST = frozenset("i'm i so very really sorry forgive apologies my pardon excuse before just".split())


_NOT_INTERJECTION = frozenset(_ASKS | set(_PRONOUNS) | {"the", "this", "that", "a", "an", "it", "its", "i"})


def _is_interjection(clause: str) -> bool:
    """A greeting or remark before a question that names nothing it asks about: one or two words ("kia
    ora", "rough night"), or about the questioner ("i lost my place", "my tea went cold"); not a topic
    such as "the girl", which the question then refers to, nor "i think the dog"."""
    words = clause.split()
    if words[0] in _FIRST_PERSON:
        return len(words) > 1 and words[1] not in _OPINION_VERBS
    return len(words) <= 2 and _NOT_INTERJECTION.isdisjoint(words)


_FIRST_PERSON = frozenset("i i'm i've i'd my".split())
_OPINION_VERBS = frozenset("think guess wonder mean bet suppose believe see know reckon".split())


@lru_cache(maxsize=16384)
def question_parts(lower: str) -> tuple[str, ...]:
    """The whole message, then each question in it when it asks more than one ("what's she got on? is
    that a hat?", "what colour are the sails, and how many ships are there?"), so that one of them
    asked again is found. A sentence is split at a comma only when every piece opens like a question:
    after a topic ("the little girl, what is she holding?") the pronoun needs the topic."""
    parts = []
    for sentence in _QUESTION_SENTENCE.findall(lower):
        if "." in sentence or "!" in sentence:
            sentence = _LEAD_STATEMENTS.sub("", sentence)
        if sentence.split(" ", 1)[0].rstrip(",:;") in _ASIDE_FIRST:
            sentence = _ASIDE.sub("", sentence) or sentence  # "so sorry, I missed it, but which...?"
        clauses = [c.strip(" ,.!") for c in _NEXT_QUESTION.split(sentence) if c.strip(" ,.!")]
        while len(clauses) > 1 and _is_interjection(clauses[0]):
            del clauses[0]  # "kia ora, what colour is the tram?", "sorry, rough night, what colour was it?"
        if len(clauses) > 1 and all(c.split(" ", 1)[0] in _ASKS for c in clauses):
            parts.extend(clauses)
        elif len(clauses) == 1 and clauses[0] != sentence.strip(" ,.!?"):
            parts.append(clauses[0])
        elif any(c.isalpha() for c in sentence):
            parts.append(sentence.strip(" ,.!"))
    return (lower, *parts) if len(parts) > 1 or (parts and parts[0] != lower.strip()) else (lower,)


@lru_cache(maxsize=16384)
def _earlier_questions(text: str) -> tuple[str, ...]:
    """question_parts of an earlier message: every later message of the dialog compares with it.

    A question sent without its mark after a remark ("lol fair. any women in it") counts from the
    remark's end, as one with the mark does."""
    lower = T.normalise(text)
    parts = question_parts(lower)
    if len(parts) == 1 and "?" not in lower and ("." in lower or "!" in lower):
        last = _LEAD_STATEMENTS.sub("", lower).strip(" ,.!")
        if last and last != lower.strip(" ,.!"):
            return (lower, last)
    return parts


@lru_cache(maxsize=16384)
def _earlier_parts(text: str) -> tuple[Earlier, ...]:
    """``_earlier`` of each of an earlier message's question parts, the whole message first."""
    return tuple(_earlier(q, j == 0) for j, q in enumerate(_earlier_questions(text)))


@lru_cache(maxsize=16384)
def _reach(mine: frozenset[str]) -> frozenset[str]:
    """The terms besides its own that ``soft_shared`` may count a term of ``mine`` as: the terms
    related to them and their tails (it counts no more than the exact matches when an earlier
    question has none of these and none of ``mine`` ends one of its terms)."""
    return frozenset().union(*(_RELATED.get(a, ()) for a in mine), *map(_tails, mine))


def detect_repeated_question(ctx: Context, cfg: RepeatedQuestionConfig) -> bool:
    history = ctx.history
    if not history:
        return False
    if "?" not in ctx.text and not is_question(ctx):
        return False  # a statement ("ok so the cat is grumpy") repeats no question (no labeled line is both)
    # is_repeat(part, earlier, min_overlap, whole=i == 0 and j == 0) for every part i of the message and
    # every part j of an earlier question, with each part's own work done once, not once per pair
    # a question the partner answered with a question back was never answered, so not yet asked
    # (labeling guide, session 12: "How tall is the tower?" "Which tower?" "The stone one, how tall?")
    texts, asked_back = _questions_asked(history)
    earlier = [e for text in texts if text not in asked_back for e in _earlier_parts(text)]
    if earlier:
        min_overlap = cfg.min_overlap
        for i, part in enumerate(question_parts(ctx.lower)):
            if _ASKS_AGAIN.search(part):
                return True
            mine, kind, key = question_terms(part)
            if not mine:
                # "Fine. Anything else?": a generic "else" after a remark moves on rather than repeats
                if key and (i == 0 or "<else>" not in key) and any(e[3] == key for e in earlier):
                    return True
                continue
            reach, n_mine = _reach(mine), len(mine)
            # a pair can be a repeat only in the ways _repeats tries, each of which needs one of
            # these: the part's question word, a recall, or enough terms shared (counted below)
            maybe = kind == "how many" or _recalls(part)
            for e in earlier:
                theirs = e[1]
                if mine.isdisjoint(theirs) and reach.isdisjoint(theirs) and mine.isdisjoint(e[4]):
                    continue  # nothing in common, not even softly (below: shared stays 0), without a set made
                exact = mine & theirs
                shared, n_theirs = len(exact), len(theirs)
                if (
                    shared != n_mine
                    and shared != n_theirs
                    and not (reach.isdisjoint(theirs) and mine.isdisjoint(e[4]))
                ):
                    shared = _soft_rest(mine, theirs, exact, shared, e[4])  # soft_shared(mine, theirs)
                if not shared:
                    continue  # as in _repeats: no term in common, no repeat
                if (
                    maybe
                    or shared / (n_mine + n_theirs - shared) >= min_overlap
                    or shared == 1
                    and (n_mine == 1 or n_theirs == 1)
                    or shared == n_mine >= 2
                    or shared == n_theirs >= 2
                    and n_mine == shared + 1
                    or _another_way_possible(kind, e[2], e[0])
                ) and _repeats(part, mine, kind, key, e, shared, min_overlap, i == 0 and e[5]):
                    return True
            if _ends_narrowed(part, kind) and _narrowed_repeat(part, earlier):
                return True
    return False


# An open question asked again with where to look added ("where is the jug on the shelf?" after "where
# is the jug?") or with a guess at the answer after a comma ("what is by the door, a dog?").
_NARROWED = re.compile(
    r"(?: (?:on|in|at|behind|under|near|beside|inside|over|along|next to) (?:the |a |an |this |that )?"
    r"[a-z'-]+|, (?:a |an |some )?[a-z'-]+)\?*$"
)


def _ends_narrowed(part: str, kind: str) -> bool:
    return kind in ("what", "where") and _NARROWED.search(part) is not None


def _narrowed_repeat(part: str, earlier: list[Earlier]) -> bool:
    """The open question without its added place or guess asks what an earlier one of the same kind
    asked: every term of it and no more."""
    mine, kind, _ = question_terms(_NARROWED.sub("?", part))
    if not mine:
        return False
    return any(e[2] == kind and e[1] and soft_shared(mine, e[1]) == len(mine) == len(e[1]) for e in earlier)


def _questions_asked(history: Iterable[object]) -> tuple[list[str], set[str]]:
    """The questioner's texts in order (a plain string counts as one), and those of them the partner
    answered with a question back ("Are you asking if it's sunset?"), in one pass: every question of
    a long dialog is compared with all earlier ones, so this scan runs per message."""
    texts: list[str] = []
    asked_back: set[str] = set()
    previous: dict | None = None  # the previous message with a text
    for item in history:
        if isinstance(item, str):
            texts.append(item)
            continue
        if not isinstance(item, dict) or not isinstance(text := item.get("text"), str):
            continue
        role = item.get("role")
        if role == "questioner":
            texts.append(text)
        elif (
            role == "answerer"
            and previous is not None
            and previous.get("role") == "questioner"
            and _asked_back(text)
        ):
            asked_back.add(previous["text"])
        previous = item
    return texts, asked_back


@lru_cache(maxsize=16384)
def _asked_back(text: str) -> bool:
    return asks_back(T.normalise(text))


def _asks_unanswered(lower: str, earlier_text: str) -> bool:
    """A question the partner did not answer, asked again in any form: every term of it was asked there
    ("is the sun still up?" after "what is the sun doing, is it still up?" got a question back)."""
    mine, kind, _ = question_terms(lower)
    if not mine or kind == "why":
        return False
    theirs, their_kind, _ = question_terms(_earlier_questions(earlier_text)[0])
    # one term of a long question is a detail of it, not the question ("what is under the bridge?"
    # after "is someone with the old man on the bridge?")
    if their_kind == "why" or len(mine) == 1 < len(theirs) - 1:
        return False
    return soft_shared(mine, theirs) == len(mine)


RULES = [
    Rule(
        id="copies_opinion",
        roles=frozenset({"questioner"}),
        explanation=(
            "This question mostly repeats one of the opinions you were shown. Ask about the artwork "
            "in your own words to check what is really there."
        ),
        summary="A question whose content words mostly come from one of the two opinions shown.",
        config=CopiesOpinionConfig,
        detect=detect_copies_opinion,
    ),
    Rule(
        id="repeated_question",
        roles=frozenset({"questioner"}),
        explanation="You already asked this. Ask about something new in the artwork.",
        summary="A question whose content words match an earlier question in the same dialog.",
        config=RepeatedQuestionConfig,
        detect=detect_repeated_question,
    ),
]
