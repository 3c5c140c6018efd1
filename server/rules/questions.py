"""Questioner rules: ask about the artwork's content, in question form, specifically.

The questioner is meant to form their own emotion from what is in the artwork, so asking how the
answerer feels is not allowed, and questions so generic that they hand the whole job to the
answerer ("what is the image about?") are discouraged.
"""

from __future__ import annotations

import re

from server.rules import text as T
from server.rules.base import Context, Rule, RuleConfig, Severity

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
        ]
    )
)


# Every pattern above addresses the partner or names an emotion or mood.
_ASKS_FEELINGS_TRIGGERS = T.literal_words(_MOOD) | frozenset(
    "you u your ur yours mood emotion emotions feeling feelings vibe vibes tone sense".split()
)


class AsksFeelingsConfig(RuleConfig):
    severity: Severity = "hard"


def detect_asks_feelings(ctx: Context, cfg: AsksFeelingsConfig) -> bool:
    return not ctx.wordset.isdisjoint(_ASKS_FEELINGS_TRIGGERS) and bool(_ASKS_FEELINGS.search(ctx.lower))


# Generic questions are matched on the whole message after trimming politeness and naming the
# artwork one way, so "what is the man in the picture holding?" never matches "what is in IMG".
_POLITE_START = re.compile(
    r"(?:(?:ok|okay|alright|so|and|then|now|well|great|cool|nice|interesting|thanks|thank you|i see|got it|"
    r"hi|hello|hey|hi there|hello there|good (?:morning|afternoon|evening)|"
    r"hmm+)[,.! ]+)*(?:(?:can|could|would|will) (?:you|u) (?:please )?|please )?"
)
_POLITE_END = tuple(
    sep + tail
    for tail in ("please", "for me", "in detail", "in general", "overall", "briefly", "now")
    for sep in (", ", " ")
)
_END_PUNCT = " ?.!,"
_IMG = re.compile(
    r"\b(?:the|this|that|your) (?:whole |overall |entire )?(?:painting|picture|image|artwork|art piece|art|"
    r"piece|work|scene|photo|photograph|canvas|drawing)\b|\bit\b"
)
_GENERIC = re.compile(
    "^(?:"
    + "|".join(
        [
            r"(?:describe|explain|summari[sz]e|tell me about|talk about|give me (?:an? )?"
            r"(?:description|overview|"
            r"summary|idea)(?: of)?|tell me (?:more|everything|something)(?: about)?) (?:IMG|what you see|"
            r"everything|what is in IMG|what(?:'s| is) going on(?: in IMG)?|"
            r"what(?:'s| is) happening(?: in IMG)?)",
            r"(?:describe|explain|tell me more|tell me everything|tell me something|what else|anything else|"
            r"something else|more|go on|continue|keep going|next)",
            r"what(?:'s| is| was) IMG(?: about| of| showing| depicting| all about)?",
            r"what(?:'s| is) (?:in|on) IMG",
            r"what(?:'s| is| are) (?:being )?(?:depicted|shown|portrayed|happening|going on)(?: in IMG)?",
            r"what (?:do|can|did) (?:you|u) see(?: in IMG)?",
            r"what does IMG (?:show|depict|look like|contain|portray|represent|have)",
            r"how does IMG look",
            r"what(?:'s| is) (?:the )?(?:main )?(?:subject|topic|theme|content|story)(?: of IMG)?",
            r"(?:is there )?(?:anything|something) (?:else|more)(?: (?:you can tell me|to add|i should know|"
            r"in IMG|worth mentioning|to say|you see|to know|interesting))?",
            r"what else(?: (?:is there|can you tell me|do you see|is in IMG|is going on|should i know|"
            r"is (?:important|interesting)))?",
            r"(?:any|anymore|any more|no more|some more|more|any other|other) (?:details?|information|info|"
            r"questions?|things?|description|features?)(?: (?:about|in|on) IMG)?",
            r"(?:give me|provide|share) (?:some )?(?:more )?(?:details?|information|info)(?: about IMG)?",
            r"what (?:can|could) (?:you|u) tell me(?: about IMG)?",
            r"(?:what|how) about IMG",
        ]
    )
    + r")$"
)


class GenericQuestionConfig(RuleConfig):
    severity: Severity = "soft"


def generic_form(lower: str) -> str:
    """The message reduced to its core: politeness trimmed, the artwork named IMG, no end punctuation."""
    core = lower.rstrip(_END_PUNCT)
    core = core[_POLITE_START.match(core).end() :]  # type: ignore[union-attr]  # can match empty
    while core.endswith(_POLITE_END):
        core = core.rsplit(" ", 2 if core.endswith(("for me", "in detail", "in general")) else 1)[0]
        core = core.rstrip(_END_PUNCT)
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
    """.split()
)
_CLAUSE_START = re.compile(
    r"(?:^|[,.;:!]\s*|\b(?:and|but|so|also|then|now|ok|okay)\s+)([a-z']+)(?= ([a-z']+)|)"
)
# "have" asks only when a subject follows ("have you...", "has the dog..."), unlike "have a nice day".
_HAVE_SUBJECTS = frozenset("you u they we he she it i there any the his her their its".split())
_REQUEST = re.compile(
    r"\b(?:i(?:'d| would) (?:like|love) to (?:know|hear)|i (?:want|wish) to know|i(?:'m| am)? wondering|"
    r"i wonder|i(?:'m| am) curious|i was wondering|can you tell|could you tell)\b"
)


class NotAQuestionConfig(RuleConfig):
    severity: Severity = "hard"


def is_question(ctx: Context) -> bool:
    if "?" in ctx.text:
        return True
    if _REQUEST.search(ctx.lower):
        return True
    for m in _CLAUSE_START.finditer(ctx.lower):
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
