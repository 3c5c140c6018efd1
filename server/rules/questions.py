"""Questioner rules: ask about the artwork's content, in question form, specifically.

The questioner is meant to form their own emotion from what is in the artwork, so asking how the
answerer feels is not allowed, and questions so generic that they hand the whole job to the
answerer ("what is the image about?") are discouraged.
"""

from __future__ import annotations

import re

from server.rules import text as T
from server.rules.base import Context, LearnedRuleConfig, Rule, Severity

_YOU = r"(?:you|u)"
_ART = (
    r"(?:it|this|that|(?:the|this|that) (?:painting|picture|image|artwork|art|art piece|piece|work|scene|"
    r"photo|canvas|portrait|landscape|drawing))"
)
_FEELINGS = (
    r"(?:happy|sad|scared|afraid|frightened|angry|upset|calm|relaxed|peaceful|excited|amused|disgusted|"
    r"moved|touched|disturbed|uneasy|uncomfortable|nostalgic|depressed|joyful|anxious|nervous|inspired|"
    r"impressed|bored|creeped out|emotional|hopeful|lonely)"
)
_MOOD = (
    r"(?:sad|happy|scary|depressing|cheerful|joyful|gloomy|creepy|uplifting|frightening|disturbing|"
    r"melancholic|melancholy|heartbreaking|heartwarming|terrifying|horrifying|calming|relaxing|soothing|"
    r"beautiful|ugly|pleasant|unpleasant|positive|negative|hopeful|hopeless|sorrowful|upsetting)"
)
# Verdicts on the artwork itself (asked of "it", "the painting"...): taste, not content.
_VERDICT = (
    rf"(?:{_MOOD}|good|bad|nice|great|amazing|wonderful|awful|terrible|horrible|boring|interesting|"
    r"impressive|breathtaking|stunning|gorgeous|lovely|pretty|moving|touching|powerful|striking|crap|crappy|"
    r"rubbish|garbage|masterpiece|well done|well painted|dull|weird|cool|awesome|fascinating|strange|"
    r"disturbing|romantic|dramatic|peaceful|calming|relaxing|soothing|haunting|eerie|moody)"
)
# Adjectives that only say what something does to the viewer, whatever it is said of.
_STRICT = (
    r"(?:breathtaking|depressing|heartbreaking|heart-breaking|heartwarming|heart-warming|uplifting|"
    r"awe-inspiring|impressive|stunning|disturbing|unsettling|upsetting|terrifying|horrifying|creepy|eerie|"
    r"haunting|frightening|scary|saddening|moving to look at|beautiful to look at|nice to look at)"
)
_DEGREE = r"(?:(?:very|so|really|quite|rather|pretty|too|a bit|a little|kind of|somewhat|truly|more|most) )*"
# An -ing word followed by its object is a verb ("is the dog terrifying the cat?"), not a verdict.
_NO_OBJECT = r"(?! (?:the|a|an|his|her|its|their|them|him|it|me|us|everyone|people|someone|each)\b)"
_ASKS_FEELINGS = re.compile(
    "|".join(
        [
            rf"\bhow (?:do|did|does|would|will|could|can|might) {_YOU} feel\b",
            rf"\b(?:do|did|does|would|will|could|can) {_YOU} "
            r"(?:feel|like|love|enjoy|hate|dislike|prefer|admire)\b"
            r"(?! to\b)",
            rf"\bwhat (?:do|did|would|will) {_YOU} (?:feel|think of|think about|like|love|dislike)\b",
            r"\bwhat(?:'s| is) the (?:overall |general |main )?(?:mood|emotion|feeling|vibe|tone)"
            rf"(?: (?:of|in) {_ART}| like| conveyed| it gives)?\s*[?.!]*$",
            rf"\b(?:is|isn't) {_ART} (?:a )?(?:very |so |really |rather |quite )?{_MOOD}\b",
            rf"\bmakes? {_YOU} (?:feel|think|want|smile|laugh|cry|{_FEELINGS})\b",
            rf"\b(?:does|did|would|will|could|can) {_ART} (?:make|leave) {_YOU}\b",
            r"\b(?:yo)?ur (?:\w+ )?(?:feelings?|emotions?|emotional|opinion|impression|reaction|thoughts|"
            r"favorite|favourite|mood|take|view|personal|gut)\b",
            rf"\b(?:in|from) {_YOU}r (?:opinion|view|perspective|eyes)\b",
            r"\bwhat (?:emotions?|feelings?|mood|vibes?|sense) (?:do|does|did|would|will|can|could) "
            rf"(?:{_YOU}|{_ART}) (?:feel|get|have|evoke|give|bring|trigger|stir|inspire|spark|create|awaken)"
            rf"(?! (?:in|on|to) the (?!viewer))",
            rf"\b(?:are|were|r) {_YOU} (?:\w+ )?{_FEELINGS}\b",
            rf"\bdo {_YOU} find {_ART}\b",
            rf"\bwould {_YOU} (?:hang|buy|want|put|keep|recommend|choose|pick)\b",
            rf"\b(?:scare|frighten|bother|upset|disturb|please|move|touch|amuse|disgust|sadden|excite|calm|"
            rf"relax|creep|depress|cheer)s? {_YOU}\b",
            r"\b(?:which|what) emotion (?:would|do|did|should|will)\b",
            r"\b(?:pick|choose|select) an? emotion\b",
            # "is the painting funny to you?" (the artwork, not someone in it, judged by the partner)
            rf"\b(?:is|isn't|does|doesn't) {_ART} (?:look |seem |feel |sound )?(?:[\w-]+ ){{1,2}}"
            rf"(?:to|for) {_YOU}\b",
            rf"\b{_ART} (?:is|looks|seems|feels) (?:[\w-]+ ){{1,2}}(?:to|for) {_YOU}\b",
            # "do you think the painting is beautiful?", "don't you find it boring?"
            rf"\b(?:do|did|would|don't|wouldn't) {_YOU} (?:think|find|consider|say|agree|feel)(?: that)? "
            rf"{_ART}(?:'s| is| was| looks| seems| feels| would be)? (?:a |an )?{_DEGREE}{_VERDICT}\b",
            rf"\b(?:puts?|putting|gets?) {_YOU} in (?:a |the )?(?:[\w-]+ )?mood\b",
            rf"\b(?:appeals?|speaks?|resonates?|appealing) (?:to|with) {_YOU}\b",
            rf"\b(?:are|r) {_YOU} (?:a fan of|into|fond of|impressed by|moved by|touched by)\b",
            rf"\bhow (?:would|do|did|will) {_YOU} (?:rate|judge|grade|score)\b",
            rf"\bwhat (?:do|did|would) {_YOU} make of\b",
        ]
    )
)


# Every pattern above addresses the partner or names an emotion or mood.
_ASKS_FEELINGS_TRIGGERS = T.literal_words(_MOOD) | frozenset(
    "you u your ur yours mood emotion emotions feeling feelings vibe vibes tone sense".split()
)
# Patterns without "you", each group tried only when one of its words is in the message (a long
# alternation run on every question would cost more than all the other rules together).
_WITHOUT_YOU: list[tuple[frozenset[str], re.Pattern[str]]] = [
    (
        # a verdict on the artwork put up for agreement: "this is a crap painting, right?"
        T.literal_words(_VERDICT),
        re.compile(
            rf"\b{_ART}(?:'s| is| was| looks| seems| feels) (?:a |an )?{_DEGREE}{_VERDICT}\b[^?]{{0,30}}"
            r"(?:right|isn't it|is it not|don't you think|wouldn't you say|don't you agree|agreed?|no|eh|"
            r"huh)\s*\?"
        ),
    ),
    (
        # the mood of the artwork: "what kind of mood does the picture give?", "is the mood dark?"
        frozenset(
            "mood emotion emotions feeling feelings vibe vibes atmosphere feel word make makes leave "
            "leaves".split()
        ),
        re.compile(
            "|".join(
                [
                    r"\bwhat (?:kind |sort |type )?of (?:emotions?|feelings?|mood|vibes?|atmosphere) "
                    rf"(?:do|does|did|would|will|can|could) (?:{_YOU}|{_ART}|one|people|the viewer|viewers) "
                    r"(?:feel|get|have|evoke|give|bring|trigger|stir|inspire|spark|create|awaken|put|convey|"
                    r"express|carry|radiate|suggest|communicate|leave)\b(?! (?:in|on|to) the (?!viewer))",
                    rf"\bhow (?:does|did|would|will|might) {_ART} (?:feel|make (?:one|people|viewers|"
                    r"the viewer|anyone|someone) feel)\b",
                    r"\b(?:make|makes|leave|leaves) (?:one|people|viewers|the viewer|anyone|someone) "
                    r"(?:feel|want)\b",
                    r"\b(?:is|was|would be|isn't) the (?:overall |general |main )?"
                    r"(?:mood|emotion|feeling|vibe)"
                    rf"(?: (?:of|in) {_ART})? (?!(?:on|in|of|at|from|between|among|inside|around|behind)\b)"
                    r"(?:more |mostly |rather )?[a-z-]+",
                    r"\b(?:is|was|isn't) the (?:overall |general )?atmosphere"
                    rf"(?: (?:of|in) {_ART})? {_DEGREE}"
                    rf"(?:{_MOOD}|{_STRICT})\b",
                    r"\b(?:describe|sum up|summari[sz]e|name) the (?:overall |general |main )?"
                    rf"(?:mood|emotions?|feelings?|atmosphere|vibe)(?: (?:of|in) {_ART})?\s*[?.!]*$",
                    r"\b(?:which|what) (?:emotions?|feelings?|mood|word) (?:would |do you think )?(?:best )?"
                    r"(?:describes?|fits?|sums? up|matches|captures?|suits?) "
                    rf"(?:{_ART}|the (?:mood|atmosphere))\b",
                ]
            )
        ),
    ),
    (
        # the artist's intent or message: "what was the painter trying to say?"
        frozenset("artist artist's painter painter's meaning message intention intent statement".split()),
        re.compile(
            "|".join(
                [
                    r"\b(?:artist|painter)(?: was| is| were)? (?:\w+ )?(?:trying|wanting|wanted|wants|meant|"
                    r"means|intended|intends|hoping|hoped|attempting|going for|aiming) (?:to )?"
                    r"(?:say|express|convey|communicate|tell|get across|evoke|capture|show us|"
                    r"a (?:mood|feeling)|make (?:us|people|you|viewers|the viewer|anyone) feel)",
                    r"\b(?:what|which) (?:\w+ )?(?:did|does|do|was|is) (?:the |this )?(?:artist|painter) "
                    r"(?:mean|intend|feel|going for|want (?:us|people|you|viewers) to feel|trying to say)",
                    r"\b(?:meaning|message|intention|intent|statement) (?:behind|of|in) "
                    rf"(?:{_ART}|the (?:artwork|painting|picture|work))\b",
                    r"\b(?:artist|painter)'s (?:intention|intent|message|meaning|point|purpose|statement|"
                    r"feelings?|mood|emotions?|state of mind)\b",
                    r"\b(?:hidden|deeper|real|true|symbolic) (?:message|meaning)\b",
                ]
            )
        ),
    ),
    (
        # a viewer's response asked of anything depicted: "is the storm breathtaking?"
        T.literal_words(_STRICT),
        re.compile(
            rf"^(?:is|are|was|were|isn't|aren't) (?!there\b)[^?]{{1,80}}? {_DEGREE}{_STRICT}\b{_NO_OBJECT}"
            rf"|^(?:does|do|did|doesn't|don't) [^?]{{1,80}}? (?:look|seem|feel|appear)s? {_DEGREE}{_STRICT}\b"
        ),
    ),
]


class AsksFeelingsConfig(LearnedRuleConfig):
    severity: Severity = "hard"


def detect_asks_feelings(ctx: Context, cfg: AsksFeelingsConfig) -> bool:
    words = ctx.wordset
    if not words.isdisjoint(_ASKS_FEELINGS_TRIGGERS) and _ASKS_FEELINGS.search(ctx.lower):
        return True
    return any(not words.isdisjoint(triggers) and rx.search(ctx.lower) for triggers, rx in _WITHOUT_YOU)


# Generic questions are matched on the whole message after trimming politeness and naming the
# artwork one way, so "what is the man in the picture holding?" never matches "what is in IMG".
_POLITE_START = re.compile(
    r"(?:(?:ok|okay|alright|so|and|then|now|well|great|cool|nice|interesting|thanks|thank you|i see|got it|"
    r"hi|hello|hey|hi there|hello there|good (?:morning|afternoon|evening)|"
    r"hmm+)[,.! ]+)*(?:(?:can|could|would|will) (?:you|u) (?:please |pls |plz )?|please |pls |plz )?"
)
_POLITE_END = tuple(
    sep + tail
    for tail in ("please", "pls", "plz", "for me", "in detail", "in general", "overall", "briefly", "now")
    for sep in (", ", " ")
)
_END_PUNCT = " ?.!,"
# Words that add emphasis but no subject: "what the hell is going on", "what exactly is it about".
_FILLER_WORDS = frozenset(
    "hell heck earth world exactly actually basically really just even generally roughly precisely overall "
    "general short briefly quickly please then all know far".split()
)
_FILLER = re.compile(
    r"\b(?:the hell|the heck|on earth|in the world|exactly|actually|basically|really|just|even|generally|"
    r"roughly|precisely|overall|in general|in short|briefly|quickly|please|then|all|you know|so far)\b ?"
)
_IMG = re.compile(
    r"\b(?:the|this|that|your) (?:whole |overall |entire )?(?:painting|picture|image|artwork|art piece|art|"
    r"piece|work|scene|photo|photograph|canvas|drawing)\b|\bit\b"
)
_HERE = r"(?: (?:in|on|inside) IMG| here| there)?"
_SIZE = r"(?:(?:quick|brief|short|general|rough|overall|basic|full|complete|detailed) )?"
_GENERIC = re.compile(
    "^(?:"
    + "|".join(
        [
            rf"(?:describe|explain|summari[sz]e|tell me about|talk about|tell me|let me know|say|show me|"
            rf"give me (?:an? |the )?{_SIZE}(?:description|overview|summary|idea|rundown|sense|picture)"
            r"(?: of)?|"
            r"tell me (?:more|everything|something)(?: about)?) (?:IMG|what you see|what you can see|"
            rf"everything|what(?:'s| is) (?:in|on) IMG|what(?:'s| is) going on{_HERE}|"
            rf"what(?:'s| is) happening{_HERE}|what IMG (?:is about|is of|shows|depicts|is showing|contains|"
            r"looks like)|what(?:'s| is| are) (?:being )?(?:depicted|shown|portrayed)(?: in IMG)?)",
            rf"(?:give me|can i (?:get|have)|i(?:'d| would) like) (?:an? |the )?{_SIZE}"
            r"(?:description|overview|summary|idea|rundown)(?: of IMG)?",
            r"(?:say more|more please|go ahead|go on then|keep describing|keep talking|what more|"
            r"anything more|what else (?:can|could|would) (?:you|u) "
            r"(?:say|add|tell me|describe|mention|see))",
            r"(?:is|are) there (?:anything |something )?(?:else|more)"
            r"(?: to (?:it|see|say|add|know|tell|mention|describe))?",
            r"(?:is|are) there (?:any )?(?:more|other) (?:details?|things?|information|info|stuff|features?)"
            r"(?: (?:to (?:see|mention|add|know)|(?:in|on) IMG))?",
            r"what(?:'s| is) (?:this|that|here)",
            r"what(?:'s| is) IMG like",
            r"how (?:would|do|can|could|will) (?:you|u) describe IMG",
            r"what(?:'s| is) (?:the )?(?:general |main |overall |basic |big )?(?:idea|gist|point|premise)"
            r"(?: (?:of|behind) IMG)?",
            r"what do (?:we|i) have here|what(?:'ve| have) (?:we|you) got(?: here)?|what are we looking at",
            r"what (?:do|can|did) (?:you|u) (?:notice|observe)(?: in IMG)?",
            r"(?:describe|explain|tell me more|tell me everything|tell me something|what else|anything else|"
            r"something else|more|go on|continue|keep going|next)",
            r"what(?:'s| is| was) IMG(?: about| of| showing| depicting| all about)?",
            r"what(?:'s| is) (?:in|on) IMG",
            rf"what(?:'s| is| are) (?:being )?(?:depicted|shown|portrayed|happening|going on){_HERE}",
            r"what (?:do|can|did) (?:you|u) see(?: in IMG)?",
            r"what does IMG (?:show|depict|look like|contain|portray|represent|have)",
            r"how does IMG look",
            r"what(?:'s| is) (?:the )?(?:main )?(?:subject|topic|theme|content|story)(?: of IMG)?",
            r"(?:is there )?(?:anything|something) (?:else|more)(?: (?:you can tell me|to add|i should know|"
            r"in IMG|worth mentioning|to say|you see|to know|interesting))?",
            r"what else(?: (?:is there|can you tell me|do you see|is in IMG|is going on|should i know|"
            r"is (?:important|interesting)))?",
            r"(?:any|anymore|any more|some more|more|any other|other) (?:details?|information|info|"
            r"questions?|things?|description|features?)(?: (?:about|in|on) IMG)?",
            r"(?:give me|provide|share) (?:some )?(?:more )?(?:details?|information|info)(?: about IMG)?",
            r"what (?:can|could) (?:you|u) tell me(?: about IMG)?",
            r"(?:what|how) about IMG",
        ]
    )
    + r")$"
)


class GenericQuestionConfig(LearnedRuleConfig):
    severity: Severity = "soft"


def generic_form(lower: str) -> str:
    """The message reduced to its core: politeness trimmed, the artwork named IMG, no end punctuation."""
    core = lower.rstrip(_END_PUNCT)
    core = core[_POLITE_START.match(core).end() :]  # type: ignore[union-attr]  # can match empty
    while core.endswith(_POLITE_END):
        core = core.rsplit(" ", 2 if core.endswith(("for me", "in detail", "in general")) else 1)[0]
        core = core.rstrip(_END_PUNCT)
    if not _FILLER_WORDS.isdisjoint(core.split()):
        core = _FILLER.sub("", core).strip(" ,")
    return _IMG.sub("IMG", core).strip()


def detect_generic_question(ctx: Context, cfg: GenericQuestionConfig) -> bool:
    if len(ctx.words) > 14:
        return False
    return bool(_GENERIC.match(generic_form(ctx.lower)))


# A question either carries '?' or starts one of its clauses with a question word or a request.
INTERROGATIVES = frozenset(
    """
    what what's whats where where's when which who who's whom whose why how how's is isn't are aren't
    was wasn't were weren't do does doesn't did didn't don't can can't could couldn't will won't would
    wouldn't should shouldn't shall may might hasn't haven't am describe tell explain name
    list mention say give please pls plz let share elaborate
    wat wut wht whr wher hw continue walk paint keep go summarize summarise sum sketch talk run fill break
    """.split()
)
_CLAUSE_START = re.compile(
    r"(?:^|[,.;:!]\s*|\b(?:and|but|so|also|then|now|ok|okay)\s+)([a-z']+)(?= ([a-z']+)|)"
)
# "have" asks only when a subject follows ("have you...", "has the dog..."), unlike "have a nice day".
_HAVE_SUBJECTS = frozenset("you u they we he she it i there any the his her their its".split())
_REQUEST = re.compile(
    r"\b(?:i(?:'d| would) (?:like|love) (?:to (?:know|hear)|an? (?:description|idea|overview|summary))|"
    r"i (?:want|wish) to know|i(?:'m| am)? wondering|i wonder|i(?:'m| am) curious|i was wondering|"
    r"can you tell|could you tell)\b(?! about (?:that|it|this)\b)"
)


class NotAQuestionConfig(LearnedRuleConfig):
    severity: Severity = "hard"


# Words a question may open with before its question word ("so what is...", "btw is the...").
_LEAD_IN = re.compile(
    r"^(?:(?:so|and|but|also|then|now|ok|okay|alright|right|great|cool|nice|well|hmm+|btw|oh|ah)[,.!]*\s+)+"
)


# Question marks of other scripts: full-width (Chinese, Japanese), Arabic, Greek, Armenian, Ethiopic.
_QUESTION_MARKS = ("?", "\uff1f", "\u061f", "\u037e", "\u055e", "\u1367")


def is_question(ctx: Context) -> bool:
    text = ctx.text
    if "?" in text or (not text.isascii() and any(mark in text for mark in _QUESTION_MARKS)):
        return True
    lower = _LEAD_IN.sub("", ctx.lower)
    if _REQUEST.search(lower) or lower.rstrip(" .!").endswith(" please"):
        return True
    for m in _CLAUSE_START.finditer(lower):
        first, second = m.group(1), m.group(2)
        if first in INTERROGATIVES or (first in ("have", "has", "had") and second in _HAVE_SUBJECTS):
            return True
    return False


def detect_not_a_question(ctx: Context, cfg: NotAQuestionConfig) -> bool:
    return bool(ctx.words) and not is_question(ctx)


RULES = [
    Rule(
        id="asks_feelings",
        roles=frozenset({"questioner"}),
        explanation=(
            "Please ask about what is in the artwork, not how your partner feels about it or whether "
            "they like it; the emotion you pick should come from the content."
        ),
        summary="The questioner asks the answerer's feelings, opinion or liking of the artwork.",
        config=AsksFeelingsConfig,
        detect=detect_asks_feelings,
    ),
    Rule(
        id="generic_question",
        roles=frozenset({"questioner"}),
        explanation=(
            "This question is very general. Ask about something specific: a colour, a person, "
            "an object, the setting, the light."
        ),
        summary="Whole-message generic questions: 'what is the image about?', 'describe it', "
        "'anything else?'.",
        config=GenericQuestionConfig,
        detect=detect_generic_question,
    ),
    Rule(
        id="not_a_question",
        roles=frozenset({"questioner"}),
        explanation="As the questioner, please send a question about the artwork (end it with '?').",
        summary="Questioner messages with no '?', no question word or request at the start of a clause.",
        config=NotAQuestionConfig,
        detect=detect_not_a_question,
    ),
]
