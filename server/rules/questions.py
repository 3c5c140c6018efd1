"""Questioner rules: ask about the artwork's content, in question form, specifically.

The questioner is meant to form their own emotion from what is in the artwork, so asking how the
answerer feels is not allowed, and questions so generic that they hand the whole job to the
answerer ("what is the image about?") are discouraged.
"""

from __future__ import annotations

import re
from re import _constants, _parser  # type: ignore[attr-defined]

from server.rules import text as T
from server.rules.base import Context, Rule
from server.rules.rule_configs import AsksFeelingsConfig, GenericQuestionConfig, NotAQuestionConfig  # noqa: F401 (re-exported)

_YOU = r"(?:you|u|yuh)"
_ART = (
    r"(?:it|this|that|(?:the|this|that) (?:painting|picture|image|artwork|art|art piece|piece|work|scene|"
    r"photo|canvas|portrait|landscape|drawing|pic|poster|print|photograph|sculpture|mural|tapestry))"
)
_FEELINGS = (
    r"(?:happy|sad|scared|afraid|frightened|angry|upset|calm|relaxed|peaceful|excited|amused|disgusted|"
    r"moved|touched|disturbed|uneasy|uncomfortable|nostalgic|depressed|joyful|anxious|nervous|inspired|"
    r"impressed|bored|creeped out|emotional|hopeful|lonely|furious|mad|livid|queasy|sick|tearful|teary|"
    # what a scene does to the viewer, in other words: "make you dread", "making you dizzy", "make yuh vex"
    r"dread|dizzy|vex|vexed|annoyed|irritated|worried|grieve|shudder|shiver|wince|squeamish|homesick|"
    r"wistful|giddy|proud|jealous|envious|cringe|nostalgic)"
)
_MOOD = (
    r"(?:sad|happy|scary|depressing|cheerful|joyful|gloomy|creepy|uplifting|frightening|disturbing|"
    r"melancholic|melancholy|heartbreaking|heartwarming|terrifying|horrifying|calming|relaxing|soothing|"
    r"beautiful|ugly|pleasant|unpleasant|positive|negative|hopeful|hopeless|sorrowful|upsetting|gross|"
    r"disgusting)"
)
# Moods of a place or scene that are not verdicts on their own ("does the harbour feel safe?").
_ATMOS = (
    r"(?:dreary|homely|homey|cozy|cosy|safe|lonely|tense|dreamy|magical|serene|tranquil|"
    r"ominous|menacing|threatening|sinister|festive|lively|joyous|sombre|somber|bleak|grim|idyllic|"
    r"welcoming|inviting|hostile|oppressive|mysterious|romantic|peaceful|dramatic|gloomy|melancholic)"
)
# What a scene is made to feel: "does the wind make the sea feel wild?"
_FELT = rf"(?:{_ATMOS}|calm|quiet|loud|wild|alive|violent|aggressive|chaotic|warm|cold)"
# "warm and safe", "cold and dreary": a plain quality leading to a mood
_PLAIN = r"(?:(?:warm|cold|dark|bright|grey|gray|still|soft|calm|quiet),? (?:and )?)?"
# The scene named with a word before it ("this picnic scene", "the whole park").
_SCENE = (
    r"(?:(?:the|this|that) (?:whole |entire |overall )?(?:[\w-]+ )?(?:scene|painting|picture|"
    r"image|artwork|still life|landscape|seascape|cityscape|setting|view|portrait|poster|photograph|"
    r"sculpture|mural|tapestry)|"
    r"the (?:whole|entire) [\w-]+)"
)
# Verdicts on the artwork itself (asked of "it", "the painting"...): taste, not content.
_VERDICT = (
    rf"(?:{_MOOD}|good|bad|nice|great|amazing|wonderful|awful|terrible|horrible|boring|interesting|"
    r"impressive|breathtaking|stunning|gorgeous|lovely|pretty|moving|touching|powerful|striking|crap|crappy|"
    r"rubbish|garbage|masterpiece|well done|well painted|dull|weird|cool|awesome|fascinating|strange|"
    r"disturbing|romantic|dramatic|peaceful|calming|relaxing|soothing|haunting|eerie|moody|sweet|cute|funny|"
    r"silly|fun)"
)
# Adjectives that only say what something does to the viewer, whatever it is said of.
_STRICT = (
    r"(?:breathtaking|depressing|heartbreaking|heart-breaking|heartwarming|heart-warming|uplifting|"
    r"awe-inspiring|impressive|stunning|disturbing|unsettling|upsetting|terrifying|horrifying|creepy|eerie|"
    r"haunting|frightening|scary|saddening|moving to look at|beautiful to look at|nice to look at)"
)
_DEGREE = r"(?:(?:very|so|really|quite|rather|pretty|too|a bit|a little|kind of|somewhat|truly|more|most) )*"
# Said of anything depicted, a response of the viewer too ("is the soft light calming?", "are the pliers
# revolting?"); not "relaxing", which is also what a person does.
_RESPONSE = (
    rf"(?:{_STRICT[3:-1]}|calming|soothing|comforting|gross|revolting|disgusting|repulsive|sickening|"
    r"nauseating|hilarious|unnerving|chilling|harrowing|spine-chilling|hair-raising|nerve-wracking|"
    r"nerve-racking|heart-stopping|gut-wrenching|heart-wrenching|stressful|nightmarish|nightmare fuel)"
)
# Verdicts that a question puts up for agreement ("... is just cruel, right?", "sounds scary, is it?").
_TAGGED_VERDICT = (
    rf"(?:{_RESPONSE[3:-1]}|cruel|mean|nasty|sad|awful|terrible|horrible|beautiful|ugly|lovely|gorgeous|"
    r"amazing|boring|funny|cute|sweet|creepy|spooky|tragic|sick|wrong|brutal|pathetic|ridiculous)"
)
_SIGHT = r"(?:dreadful|glorious|magnificent|spectacular|splendid|sorry|grand|fine|marvellous|marvelous)"
# An -ing word followed by its object is a verb ("is the dog terrifying the cat?"), not a verdict.
_NO_OBJECT = r"(?! (?:the|a|an|his|her|its|their|them|him|it|me|us|everyone|people|someone|each)\b)"
# The adjective says what the thing is, not which thing ("is the owl creepy?", not "is the owl a
# creepy little thing?", "is that ugly old man her father?").
_PREDICATIVE = (
    r"(?=\s*(?:$|[?.!,;:]| (?:or|and|to|for|in|at|with|overall|enough|as|too|now|today|looking|"
    r"you|would|do|painting|picture|image|scene|one|artwork|piece|work|photo)\b))"
)
# What a depicted person feels is content ("Does he feel gentle and at peace with the birds?").
_NOT_A_BEING = (
    r"(?!(?:he|she|they|him|her)\b)(?!(?:the |a |an |this |that |his |her )?(?:[\w'-]+ ){0,2}"
    r"(?:man|woman|men|women|boy|girl|boys|girls|child|children|kid|kids|people|person|lady|guy|baby|"
    r"soldier|soldiers|king|queen|mother|father|couple|bride|groom|sailor|dog|cat|horse|bird)\b)"
)
_ASKS_FEELINGS = re.compile(
    "|".join(
        [
            # the body's reaction: "does the drop make your stomach turn?", "make your skin crawl"
            rf"\bmak(?:e|es|ing) {_YOU}r (?:stomach|skin|heart|blood|hair|spine|knees|mouth)\b|"
            rf"\b(?:gives?|giving|sends?) {_YOU} (?:the )?(?:chills|shivers|goosebumps|creeps)\b",
            rf"\bhow (?:do|did|does|would|will|could|can|might) {_YOU} feel\b",
            rf"\b(?:do|did|does|would|will|could|can) {_YOU} "
            r"(?:feel|like|love|enjoy|hate|dislike|prefer|admire)\b"
            r"(?! to\b)",
            rf"\bwhat (?:do|did|would|will) {_YOU} (?:feel|think of|think about|like|love|dislike)\b",
            r"\bwhat(?:'s| is|s) the (?:overall |general |main )?"
            r"(?:mood|emotion|feeling|vibe|tone|atmosphere)"
            rf"(?: (?:of|in) {_ART}| like| conveyed| it gives)?(?: (?:for|to) {_YOU})?"
            r"(?:,[^?]{1,40})?\s*[?.!]*$",
            rf"\b(?:is|isn't) {_ART} (?:(?:mostly|more|overall|generally|a|an|very|so|really|rather|quite) )*"
            rf"{_MOOD}\b{_PREDICATIVE}",
            rf"\bmak(?:e|es|ing) {_YOU} (?:feel|think|want|smile|laugh|cry|{_FEELINGS})\b",
            rf"\b(?:does|did|would|will|could|can) {_ART} (?:make|leave) {_YOU}\b",
            r"\b(?:yo)?ur (?:\w+ )?(?:feelings?|emotions?|emotional|opinion|impression|reaction|thoughts|"
            r"favorite|favourite|mood|take|view|personal|gut|heart|taste|judgement|judgment|estimation|"
            r"impressions)\b",
            rf"\b(?:in|from) {_YOU}r (?:opinion|view|perspective|eyes)\b",
            r"\bwhat (?:emotions?|feelings?|mood|vibes?|sense) (?:do|does|did|would|will|can|could) "
            rf"(?:{_YOU}|{_ART}) (?:feel|get|have|evoke|give|bring|trigger|stir|inspire|spark|create|awaken)"
            rf"(?! (?:in|on|to) the (?!viewer))",
            rf"\b(?:are|were|r) {_YOU} (?:\w+ )?{_FEELINGS}\b",
            rf"\bdo {_YOU} find {_ART}\b",
            rf"\bwould {_YOU} (?:hang|buy|want|keep|recommend|choose|pick)\b|\bwould {_YOU} put "
            r"(?:it|this|that|the|this|that)(?: (?:painting|picture|piece|one))? (?:up|on|in)\b",
            rf"\b(?:scare|frighten|bother|upset|disturb|please|move|touch|amuse|disgust|sadden|excite|calm|"
            rf"relax|creep|depress|cheer)s? {_YOU}\b",
            r"\b(?:which|what) emotion (?:would|do|did|should|will)\b",
            r"\b(?:pick|choose|select) an? emotion\b",
            # "is the painting funny to you?" (the artwork, not someone in it, judged by the partner)
            rf"\b(?:is|isn't|does|doesn't) {_ART} (?:look |seem |feel |sound )?"
            r"(?!(?:morning|evening|night|day|afternoon|late|early|daytime|nighttime|too hard|"
            r"too difficult|hard|difficult|easy)\b)(?:[\w-]+ ){1,2}"
            rf"(?:to|for) {_YOU}\b",
            rf"\b{_ART} (?:is|looks|seems|feels) (?:[\w-]+ ){{1,2}}(?:to|for) {_YOU}\b",
            # "do you think the painting is beautiful?", "don't you find it boring?"
            rf"\b(?:do|did|would|don't|wouldn't) {_YOU} (?:think|find|consider|say|agree|feel|"
            r"reckon)(?: that)? "
            rf"{_ART}(?:'s|s| is| was| looks| seems| feels| would be)? (?:a |an )?{_DEGREE}{_VERDICT}\b",
            rf"\b(?:puts?|putting|gets?) {_YOU} in (?:a |the )?(?:[\w-]+ )?mood\b",
            rf"\b(?:appeals?|speaks?|resonates?|appealing) (?:to|with) {_YOU}\b",
            rf"\b(?:are|r) {_YOU} (?:a fan of|into|fond of|impressed by|moved by|touched by)\b",
            rf"\bhow (?:would|do|did|will) {_YOU} (?:rate|judge|grade|score)\b",
            rf"\bwhat (?:do|did|would) {_YOU} make of\b",
            # a reaction put as a description: "does the storm take your breath away?"
            rf"\b(?:takes?|took|taking) {_YOU}r breath away\b|\b(?:turns?|turning) {_YOU}r stomach\b|"
            rf"\b(?:breaks?|breaking) {_YOU}r heart\b|\bremind(?:s|ed|ing)? {_YOU}\b",
            rf"\b{_YOU}(?:'d| would) (?:want|like|love|hate|enjoy|prefer)\b",
            rf"\bwould {_YOU} (?:(?:like|love|want) to|wanna) "
            r"(?:be|live|visit|go|step|stand|walk|sit|stay|spend|join)\b",
            # "Tell honestly, you like this painting or not?"
            rf"(?:^|[,.!?:;] )(?:so |and )?{_YOU} (?:like|love|hate|enjoy|dislike) (?:it|this|that|the)\b",
            rf"\bif {_YOU} could\b[^?]*\bwould {_YOU}\b",
            rf"\b{_YOU}r (?:first )?impressions\b",
            rf"\b(?:most|best|worst|[a-z]{{3,}}est) (?:[\w-]+ ){{0,3}}{_YOU}(?:'ve| have)? ever "
            r"(?:seen|saw)\b",
            # "do you find the mud gross?", "do you think the clown is scary?" (said of anything)
            rf"\b(?:do|did|don't|would|wouldn't) {_YOU} (?:think|find|consider|say|call)(?: that)? "
            rf"(?:the|this|that|these|those|it|they|them|he|she|him|her)\b(?: [\w'-]+){{0,4}}? "
            rf"(?:(?:is|are|was|were|looks?|seems?) )?{_DEGREE}(?:{_STRICT}|gross|disgusting|revolting|"
            r"beautiful|ugly|cute|creepy|boring|cool|lovely|gorgeous|amazing|awesome|nice|pretty|weird|awful|"
            r"horrible|hideous|tacky)\b",
            # the partner's reaction named another way
            rf"\b(?:touch|touches|warm|warms|fill|fills|lift|lifts) {_YOU}r heart\b|"
            rf"\b(?:strikes?|struck|striking) {_YOU}\b|\b(?:gross|grosses|freak|freaks|put|puts|turn|turns) "
            rf"{_YOU} (?:out|off)\b",
            rf"\b(?:feelings?|emotions?|impressions?) (?:are |is )?{_YOU}(?: are|'re| r)? (?:getting|get|"
            r"got|having)\b|"
            rf"\b(?:are|r) {_YOU} (?:enjoying|liking) (?:it|this|that|the (?:painting|picture|view|scene|"
            r"art)|"
            rf"looking|to look)\b|^(?:{_YOU}|so {_YOU}) (?:are )?(?:like|love|hate|"
            r"enjoy|dislike|feeling)\b",
            r"\b(?:does|do|did|is|would|will) (?:it|this|that|the [\w-]+(?: [\w-]+)?) (?:give|"
            rf"giving) {_YOU}\b",
            rf"\b(?:do|did) {_YOU} (?:personally|really|actually|honestly|even|also) (?:like|love|enjoy|"
            r"hate)\b",
            rf"\b(?:do|did|would) {_YOU} (?:agree|side) with\b|\bwhich (?:opinion|one)\b[^?]*\b(?:agree|"
            r"side)\b",
            rf"\b(?:leaves?|leaving|left) on {_YOU}\b",
            rf"\bwould {_YOU} (?:call|describe) (?:it|this|that|{_SCENE}) (?:as )?(?:a |an )?"
            rf"{_DEGREE}{_PLAIN}(?:{_VERDICT}|{_ATMOS})\b",
            # the partner's liking or feeling asked without "do": "how much you like the colours?", "how
            # you feel when...", "so you are scared by this photo?"
            rf"\bhow (?:much )?{_YOU} (?:feel|like|love|enjoy|hate)\b|\bhow much (?:do|did) {_YOU} "
            r"(?:like|love|enjoy|hate)\b"
            rf"|\b{_YOU} (?:are|r|were|'re|feel|felt) (?:\w+ )?{_FEELINGS} (?:by|of|at|with|when|looking)\b",
            # the partner's taste as a wish to look or go: "one you could stare at for ages?", "would you
            # go to see it?"
            rf"\b{_YOU} could (?:stare|look|gaze) at\b"
            rf"|\bwould {_YOU} (?:go|travel|pay) (?:to )?(?:see|visit|look)\b",
            # the partner's mind or first thought: "did your mind go to danger or to comfort?"
            rf"\b{_YOU}r (?:mind|first thought|instinct|gut feeling)\b",
            # what the artwork leaves or made the partner: "a painting that leaves you uneasy", "how squeamish
            # the painting made you"
            rf"\b(?:leaves?|leaving|left) {_YOU} (?:feeling |a bit |so |very |quite |rather )?"
            rf"(?:{_FEELINGS}|cold|speechless|breathless|empty|wanting|in awe)\b"
            rf"|\bhow \w+ {_ART} (?:made|makes|make) {_YOU}\b",
        ]
    )
)


# Every pattern above addresses the partner or names an emotion or mood.
_ASKS_FEELINGS_TRIGGERS = T.literal_words(_MOOD) | frozenset(
    "you u yuh your ur yours you'd you've mood emotion emotions feeling feelings vibe vibes tone sense "
    "impression impressions atmosphere".split()
)
_MOOD_WORDS = T.literal_words(_MOOD)
# Judgements of an artwork or scene that say nothing of what is in it (not a person's state:
# "is the boy sad?" asks about the picture).
_JUDGE_WORDS = (T.literal_words(_STRICT, _ATMOS) - {"to", "look", "at", "moving"}) | frozenset(
    """
    good bad nice great amazing wonderful awful terrible horrible boring impressive stunning gorgeous lovely
    pretty powerful striking crap crappy rubbish garbage masterpiece dull cool awesome
    fascinating romantic dramatic calming relaxing soothing moody depressing cheerful uplifting spooky epic
    meh forgettable tasteful awkward grotesque ghoulish admirable inspiring pleasing pleasant unpleasant ugly
    beautiful cute adorable funny gross disgusting revolting sweet magical ordinary elegant attractive
    amateur tragic wistful nostalgic exciting thrilling nerve-wracking heartwarming heartbreaking majestic
    cruel mean-spirited spirited tasteless silly corny cheesy tacky kitsch pretentious overrated hilarious
    fun
    """.split()
)
# Ways of putting a judgement to the partner: "for you", "would you say", "in your estimation".
_JUDGE_FRAME = re.compile(
    rf"\b(?:for|to) {_YOU}\b|\b(?:for|to) {_YOU}r (?:taste|eyes?|liking)\b|\baccording to {_YOU}\b|"
    rf"\bin {_YOU}r (?:judge?ment|estimation|opinion|view|eyes|book)\b|\b(?:would|do|did) {_YOU} "
    rf"(?:say|reckon|think|lean|side|rate|call)\b|^{_YOU} (?:think|reckon)\b|\b(?:comes?|came|"
    r"coming) across\b|"
    r"\bbe (?:honest|straight)\b|\b(?:tell me )?honestly\b"
)
# A whole message of judgements: "cheerful or gloomy, overall?", "any good?", "masterpiece or not?"
_JUDGE_FILLER = frozenset(
    "any or not more less a an bit so very really pretty quite rather overall is it it's this that one y n "
    "mean yes no just too kind sort of the painting picture which way still at all".split()
)


# Without the everyday words of approval ("is the pay good for you?").
_JUDGE_STRONG = _JUDGE_WORDS - {"good", "bad", "nice", "great", "cool", "sweet", "pretty", "fun"}
_JUDGE = "(?:" + "|".join(sorted(_JUDGE_WORDS, key=len, reverse=True)) + ")"


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
                    # the painter's own feelings: "was the painter angry when he made it?"
                    rf"\b(?:artist|painter)(?: was| is| felt| feels| must have been| must be)? {_DEGREE}"
                    rf"{_FEELINGS}\b",
                    r"\b(?:artist|painter) want (?:to|us|people|you)\b",
                ]
            )
        ),
    ),
    (
        # the scene's mood made by what it shows: "does the fog make the harbour feel lonely?"
        frozenset(
            "make makes making made feel feels vibe feel mood atmosphere art whole scene life sense feeling "
            "feelings emotion impression word sum ten 10 scale rate sofa couch wall gift present hang artist "
            "painter".split()
        ),
        re.compile(
            "|".join(
                [
                    r"\bmak(?:e|es|ing) (?:it|this|that|everything|(?:the|this|that) (?:[\w-]+ ){1,2}?)"
                    rf"(?:(?:feel|seem|look) )?(?:like something|{_DEGREE}{_PLAIN}"
                    rf"(?:{_MOOD}|{_FELT}|{_STRICT})\b)",
                    r"\b(?:have|has|give|gives|giving|give off|gives off|create|creates) (?:a|an) "
                    r"(?:[\w-]+,? ){1,2}(?:or (?:a |an )?[\w-]+ )?(?:vibe|feel|mood|atmosphere)\b",
                    r"^(?:does|do|did|doesn't|don't) [^?]{1,80}? feels? (?:like (?:a |an )?(?:[\w-]+ )?dream|"
                    rf"{_DEGREE}{_PLAIN}(?:{_MOOD}|{_ATMOS}|{_STRICT})\b)",
                    rf"\b(?:is|isn't|was) {_SCENE}(?: overall)? {_DEGREE}{_PLAIN}(?:{_MOOD}|{_ATMOS})\b",
                    r"\b(?:give|gives|giving|bring|brings|bringing|create|creates|evoke|evokes|convey|"
                    r"conveys|"
                    r"is there|there is|there's|have|has) (?:back )?(?:an? |any |the )?(?:[\w-]+ )?"
                    r"(?:sense|feeling|feelings|mood|air) of\b(?! (?:depth|scale|space|movement|distance|"
                    r"size|"
                    r"motion|perspective|height|speed|proportion|direction|balance|order|light|time)\b)",
                    r"\b(?:mood|feeling|vibe|vibes|atmosphere|emotion|impression)\b[^?]{0,40}\b(?:giving off|"
                    r"give off|gives off|leave on|leaves on|leaving on)\b",
                    r"\b(?:one|which|what|an?) (?:emotion|feeling|word)\b[^?]{0,30}\b(?:suits?|fits?|"
                    r"sums? up)|"
                    r"\bsum (?:it|this|the (?:painting|picture|scene)) up in (?:one|a) (?:emotion|feeling|"
                    r"word)\b",
                    r"\bout of (?:ten|10)\b|\bon a scale\b|\brate (?:it|this|the (?:painting|picture))\b",
                    r"\b(?:look good|look nice|fit) (?:over|above|in|on) (?:a|my|your|the) (?:sofa|couch|"
                    r"wall|"
                    r"living room|bedroom|house|home)\b|\bas a (?:gift|present)\b|\bhappy to hang\b",
                    r"\b(?:artist|painter)(?: \w+){0,3}? (?:trying|tried|tries|wanting|wanted|meant|means|"
                    r"intended|"
                    r"hoping|aiming|attempting) to\b|\b(?:artist|painter)(?: is| was)? (?:telling|saying|"
                    r"warning|"
                    r"making a point)\b|\b(?:artist|painter) (?:felt|feel|feels)\b",
                    r"\b(?:counts?|count) as (?:real |proper |actual )?art\b|"
                    r"\bsupposed to be (?:real |proper )?art\b",
                    r"\bwhat (?:kind |sort |type )?(?:of )?(?:emotions?|feelings?|mood|vibes?|atmosphere) "
                    r"(?:do|does|did|would|will|can|could) (?:the|this|that) (?:[\w-]+ ){1,3}?"
                    r"(?:evoke|give off|give|create|radiate|stir|inspire|spark|awaken|trigger|bring out)\b"
                    r"(?! (?:in|on|to) the (?!viewer))",
                ]
            )
        ),
    ),
    (
        # "is it a pretty picture?", "how eerie is it?"
        _JUDGE_WORDS | T.literal_words(_MOOD),
        re.compile(
            r"\b(?:is|isn't|was) (?:it|this|that) (?:an? |one of those )?(?:[\w-]+,? )?"
            rf"{_JUDGE}(?:,? [\w-]+)? (?:kind of |sort of |type of )?(?:painting|picture|photo|image|"
            r"artwork|piece|canvas|one)s?\b"
            rf"|\bhow {_DEGREE}(?:{_STRICT}|{_ATMOS}|{_MOOD}) (?:is|was|would|does) "
            r"(?:it|this|that|the (?:painting|picture|scene|image|artwork))\b"
        ),
    ),
    (
        # a viewer's response asked of anything depicted: "is the storm breathtaking?"
        T.literal_words(_STRICT),
        re.compile(
            rf"^(?:is|are|was|were|isn't|aren't) (?!there\b)[^?]{{1,80}}? {_DEGREE}{_STRICT}\b{_PREDICATIVE}"
            rf"|^(?:does|do|did|doesn't|don't) [^?]{{1,80}}? (?:look|seem|feel|appear)s? {_DEGREE}{_STRICT}\b"
        ),
    ),
]


_WITHOUT_YOU += [
    (
        # the partner's taste asked in the languages workers switch into: "Te gusta?", "Es bonita la
        # pintura?", "Ist das Bild schön, finden Sie?", "Sa tingin mo, maganda ba?", "para sa'yo"
        frozenset(
            "gusta gustan piace piacciono gefällt gefallt gosta gostou aimes aimez aimes-tu trova trovi "
            "finden findest tingin sa'yo sayo gusto maganda pangit nakakatakot pasand es est è ist é está "
            "esta künstler kunstler künstlerin maler malerin artista pintor pittore artiste peintre".split()
        ),
        re.compile(
            r"\b(?:te gusta|le gusta|ti piace|le piace|"
            r"gef[aä]llt (?:es |das bild |ihnen |dir )?(?:dir|ihnen)|"
            r"voc[eê] gost(?:a|ou)|tu aimes|vous aimez|aimes-tu|(?:lei )?trova che|trovi che|finden sie|"
            r"findest du|sa tingin mo|para sa'?yo|gusto mo ba|maganda ba|pangit ba|nakakatakot ba|"
            r"(?:aapko|tumhe|tumko) (?:pasand|accha|acha))\b"
            # the artist's intent: "Was möchte der Künstler sagen?", "Qué quiere decir el pintor?"
            r"|\bwas (?:will|m[oö]chte|wollte) (?:der|die) (?:k[uü]nstler(?:in)?|maler(?:in)?)\b"
            r"|\bqu[eé] (?:quiere|quiso|quer|quis) (?:decir |dizer )?(?:el|o) (?:artista|pintor)\b"
            r"|\bcosa (?:vuole|voleva) (?:dire )?(?:l'artista|il pittore)\b"
            r"|\bque (?:veut|voulait) (?:dire )?(?:l'artiste|le peintre)\b"
            r"|^(?:¿)?(?:es|est[aá]|[eè]|ist|[eé]) (?:(?:la|el|il|lo|das|a|o) (?:pintura|cuadro|quadro|bild|"
            r"dipinto|imagen|gem[aä]lde|obra) )?(?:muy |molto |sehr |muito |tan )?(?:bonit[oa]|hermos[oa]|"
            r"bell[oa]|sch[oö]n|lind[oa]|fe[oa]|triste|brutt[oa]|h[aä]sslich|aterrador[a]?|spaventos[oa]|"
            r"gruselig|traurig|bel quadro)\b[^?]*\?"
        ),
    ),
    (
        # more languages: the partner's opinion or liking ("Wat vind je ervan?", "Wat dink jy van die kuns?",
        # "Você acha o quadro bonito?", "Qu'en penses-tu?", "Podoba ci się?", "Bạn có thích ... không?",
        # "Nǐ juéde ... hǎokàn ma?", "Unapenda?") and the mood ("Wat is de sfeer?")
        frozenset(
            "vind dink hou acha achas parece penses pensez trouves plaît plait pensi sembra provi findest "
            "fühlst fuhlst podoba myślisz myslisz nravitsya beğendin begendin hoşuna hosuna sence suka "
            "menurutmu menurut bagus thích thich juéde juede jue xǐhuan xihuan hǎokàn haokan lagta lagti "
            "laga lagi unapenda unaonaje sfeer stemming sientes sentes ressens".split()
        ),
        re.compile(
            r"\b(?:wat vind (?:je|jij|u)|vind (?:je|jij|u) (?:het|dit|de|die)|wat dink (?:jy|u)|"
            r"hou (?:jy|je) van|vind jy|(?:voc[eê]|voce|vc|tu) achas?|acha (?:o|a|que|bonit|fei|lind)|"
            r"qu[eé] te parece|te parece|qu[eé] sientes|o que (?:voc[eê] )?sentes?|qu'en pens(?:es|ez)|"
            r"tu (?:le |la |les )?trouves|[cç]a te pla[iî]t|qu'est-ce que tu ressens|(?:cosa|che) ne pensi|"
            r"ti sembra|cosa provi|wie findest du|wie f[uü]hlst du|was f[uü]hlst du|"
            r"podoba (?:ci|wam|panu|pani) si[eę]|co (?:o tym )?my[sś]lisz|nravitsya|"
            r"be[gğ]endin mi|ho[sş]una gitti mi|sence|(?:kamu|anda|kau) suka|suka (?:tidak|gak|nggak|ga)|"
            r"bagus (?:tidak|gak|nggak|ga)|menurut(?:mu| kamu| anda)|"
            r"(?:b[aạ]n|ban) (?:c[oó] )?th[ií]ch|th[ií]ch (?:kh[oô]ng|ko)|"
            r"n[iǐ] ju[eé] ?de|x[iǐ] ?huan ma|h[aǎ]o ?k[aà]n ma|"
            r"kais[ae] lag(?:a|i|ta|ti)|kaisi lag(?:i|ti)|unapenda|unaonaje|"
            r"wat is de (?:sfeer|stemming))\b"
        ),
    ),
    (
        # a response said of anything depicted, also after a description: "the monsters at the door,
        # are they terrifying?", "is the soft light calming?", "does it look gross?"
        T.literal_words(_RESPONSE),
        re.compile(
            r"(?:^|[,;:.] ?)(?:is|are|was|were|isn't|aren't) (?!there\b)[^?,]{1,80}? "
            rf"{_DEGREE}{_RESPONSE}\b{_PREDICATIVE}"
            r"|(?:^|[,;:.] ?)(?:does|do|did|doesn't|don't) [^?,]{1,80}? (?:look|seem|feel|appear|sound)s? "
            rf"{_DEGREE}{_RESPONSE}\b"
            # a description closed by a bare response: "the dunes at sunset, breathtaking?"
            rf"|, {_DEGREE}{_RESPONSE}(?: or (?:not|{_TAGGED_VERDICT}))?\s*\?+$"
        ),
    ),
    (
        # a verdict put up for agreement: "... is just cruel, right?", "sounds scary, is it?"
        T.literal_words(_TAGGED_VERDICT),
        re.compile(
            r"\b(?:is|are|was|looks?|seems?|sounds?|feels?)(?: just)? "
            rf"{_DEGREE}{_TAGGED_VERDICT}\b[^?]{{0,20}}"
            r"(?:right|is it|isn't it|is it not|don't you think|wouldn't you say|agreed?|eh|huh)\s*\?"
        ),
    ),
    (
        # a verdict as a sight or a loss: "is the lava an amazing sight?", "is that a terrible waste?"
        _JUDGE_WORDS | T.literal_words(_TAGGED_VERDICT, _SIGHT),
        re.compile(
            r"\b(?:is|are|was|were|isn't) [^?]{1,60}? (?:a|an) "
            rf"{_DEGREE}(?:{_JUDGE}|{_TAGGED_VERDICT}|{_SIGHT}) "
            r"(?:sight|view|spectacle|thing to (?:see|look at|watch)|loss|shame|pity|tragedy|waste)\b"
        ),
    ),
    (
        # the artwork's own mood, message or feel: "the painting's mood?", "does the painting want to
        # say that...", "does it feel dangerous?"
        frozenset(
            "painting's picture's image's artwork's scene's want wants trying tries meant means feel".split()
        ),
        re.compile(
            r"\b(?:painting|picture|image|artwork|scene)'s (?:overall |general |main )?(?:mood|atmosphere|"
            r"feeling|vibe|tone|emotion)\b"
            r"|\b(?:painting|picture|artwork|image) (?:want|wants|is trying|tries|try|meant|means|is meant) "
            r"to "
            r"(?:say|tell|teach|warn|show us)\b"
            r"|^(?:so |and )?(?:does|doesn't|did) (?:it|this|that|the (?:painting|picture|scene|image)) feel "
            r"(?:\w+ )?[\w-]+\s*[?.!]*$"
        ),
    ),
    (
        # a mood asked as what the scene feels like: "do the apples feel like a lazy afternoon?"
        frozenset("feel feels".split()),
        re.compile(
            r"^(?:does|do|did|doesn't|don't) [^?]{1,80}? feels? like (?:a|an) "
            rf"{_DEGREE}(?:{_MOOD}|{_ATMOS}|lazy|sleepy|perfect|happy|sad|nightmare|dream)\b"
            r"|^(?:does|do|did) [^?]{1,60}? feels? (?:so |really |very )?(?:alive|vibrant|lively)\b"
            # a meaning felt in the scene: "does the skull in the sand feel like a warning of death?"
            rf"|^(?:does|do|did|doesn't|don't) {_NOT_A_BEING}[^?]{{1,80}}? feels? like (?:a |an )?"
            r"(?:[\w-]+ )?(?:warning|omen|threat|promise|memory|prayer|celebration|funeral|punishment|sign|"
            r"message|reminder)s?\b"
            # a calm asked of the scene: "does the slanting rain feel calm and gentle?"
            rf"|^(?:does|do|did|doesn't|don't) {_NOT_A_BEING}[^?]{{1,80}}? feels? {_DEGREE}"
            r"(?:calm|gentle|restful|empty|hopeful|heavy|harsh)\b(?! (?:to the touch|against))"
        ),
    ),
    (
        # a mood put to the answerer to confirm: "would you describe the rain over the bridge as calm?"
        # (not a choice of states: "would you describe the sea as calm or rough?")
        frozenset("describe call".split()),
        re.compile(
            rf"\b(?:would|do|did|could|can) {_YOU} (?:describe|call) [^?]{{1,80}}? as (?:a |an )?{_DEGREE}"
            rf"{_PLAIN}(?:{_MOOD}|{_ATMOS}|{_STRICT}|calm|gentle|restful)\b(?! or\b)"
        ),
    ),
    (
        # whether it is art or well made at all: "is it even art?", "it's art or an advert?", "well made or
        # amateur work?", "does the graffiti ruin it?", "is it hard to look at?"
        frozenset(
            "art amateur amateurish made painted done executed crafted ruin ruins spoil spoils look".split()
        ),
        re.compile(
            r"\b(?:is (?:it|this|that)|it'?s|it is|this is) (?:even |really |actually |real |proper |true )?"
            r"art\s*(?:\?|,? or\b)"
            r"|\b(?:well|badly|poorly|skilfully|skillfully|nicely) (?:made|painted|done|executed|crafted)\b"
            r"[^.!]*\?"
            r"|\bamateur(?:ish)?(?: (?:work|painting|job|piece|effort|art|stuff))?\s*\?|\bor (?:just "
            r")?amateur"
            r"|\b(?:does|do|did|would|will) (?:the |this |that |all )?(?:[\w-]+ ){0,3}(?:ruin|spoil) "
            r"(?:it|this|that|the (?:painting|picture|scene|image|view|effect|mood|whole thing))\b"
            r"|\b(?:hard|difficult|painful|unpleasant|pleasant|nice|easy|a pleasure|a joy) to look at\b"
            r"[^.!]*\?"
        ),
    ),
    (
        # what the artist means by it: "the message behind the drowned books?", "does the painter seem to
        # be saying something about loneliness?", "did the painter mean the flood as a metaphor?"
        frozenset("message moral symbolism artist painter artist's painter's heart".split()),
        re.compile(
            r"\b(?:message|moral|symbolism) (?:is |was )?(?:behind|of) (?:it|this|that|the)\b"
            r"|\b(?:artist|painter)(?: \w+){0,2}? (?:seems?|seemed) to (?:be )?(?:saying|telling|suggesting|"
            r"say|tell|suggest|comment)\b"
            r"|\b(?:artist|painter) (?:meant|means|mean|intended|wanted|wants) (?:[\w-]+ ){0,4}?"
            r"(?:as a (?:metaphor|symbol|comment|statement|warning)|"
            r"us to (?:feel|think|take|see|understand))\b"
            r"|\b(?:artist|painter) (?:was |is )?(?:sympathetic|critical|mocking|making fun)\b"
            # the viewer's heart: "making the heart race?", "so much that my heart should race?"
            r"|\b(?:make|makes|making|made) (?:the|one's|my|the viewer's) heart (?:race|pound|sink|ache|"
            r"melt)\b"
            r"|\bmy heart (?:should|would|will|must) (?:race|pound|sink|ache|melt)\b"
        ),
    ),
    (
        # the overall tone of the scene: "is the overall tone violent?", "the general feel of it?"
        frozenset("overall general tone".split()),
        re.compile(
            r"\b(?:overall|general) (?:tone|mood|feel|feeling|atmosphere|vibe|impression)\b[^.!]*\?"
            r"|\btone of (?:the|this|that|it)\b[^.!]*\?"
        ),
    ),
    (
        # a mood the parts give the whole scene: "do the parasols make it a lazy calm afternoon?", "does the
        # startled pose make it frightening?", "does the black water make it look like something terrible
        # is about to happen?"
        _JUDGE_WORDS | T.literal_words(_ATMOS, _MOOD, _STRICT) | frozenset("lazy calm terrible".split()),
        re.compile(
            r"\b(?:make|makes|made|making) (?:it|this|that|the (?:whole )?(?:scene|painting|picture|image|"
            r"place|room|landscape|view|street|garden|house|chapel|church))"
            r"(?: (?:feel|look|seem|appear)(?: like)?)? (?:a |an )?(?:\w+ )?"
            rf"{_DEGREE}(?:{_JUDGE}|{_ATMOS}|{_MOOD}|{_STRICT}|lazy|calm|something (?:terrible|bad|awful))\b"
        ),
    ),
    (
        # a verdict on the artwork put as a statement with a question mark: "kindly tell me, the painting is
        # beautiful or just ordinary?"
        T.literal_words(_VERDICT, _STRICT),
        re.compile(
            rf"\b(?:the|this|that) (?:painting|picture|image|artwork|photo|piece|work|drawing|scene) "
            rf"(?:is|looks|seems|feels) {_DEGREE}(?:{_VERDICT}|{_STRICT})\b[^.!?]{{0,40}}\?"
        ),
    ),
]


def _only_judgements(words: list[str]) -> bool:
    return (
        len(words) <= 8
        and len(set(words)) > 1
        and not _JUDGE_WORDS.isdisjoint(words)
        and all(w in _JUDGE_WORDS or w in _JUDGE_FILLER for w in words)
    )


# The partner's liking or feeling asked in scripts without spaces or Latin letters ("사진이 어떤 느낌이에요?",
# "你觉得好看吗?", "どう思いますか", "тебе нравится?", "هل يعجبك"): tried only on text that is not ASCII.
_SCRIPT_FEELINGS = re.compile(
    r"느낌|좋아(?:해요|하세요|하나요)|마음에 들어|你觉得|喜欢吗|好看吗|感觉(?:如何|怎么样)|"
    r"どう思い|好きですか|どう感じ|感じますか|"
    r"(?:тебе|вам) нравится|как (?:тебе|вам)|что (?:ты|вы) чувству|يعجبك|تعجبك|هل تحب|"
    r"ما رأيك|क्या आपको पसंद|कैसा लग"
)


# "sick, is it gross tho lol", "ok, is it creepy then": the last clause asks only a judgement after a
# reaction, with chat words closing it.
_JUDGE_ASKERS = (["is"], ["isn't"], ["does"], ["was"])
_CHAT_TAIL = frozenset("tho though lol haha then honestly tbh ngl".split())


def _judgement_asked_last(lower: str) -> bool:
    words = T.words(lower.rsplit(",", 1)[1])
    while words and words[-1] in _CHAT_TAIL:
        words = words[:-1]
    return words[:1] in _JUDGE_ASKERS and _only_judgements(words)


def _asks_only_judgement(ctx: Context) -> bool:
    """A question made of judgements: "is it nice?", "cute or sad", "Short question: cheerful or gloomy?",
    "Depressing?"."""
    asked = "?" in ctx.text
    words = ctx.words
    if ":" in ctx.lower:
        words = T.words(ctx.lower.rsplit(":", 1)[1]) or words
    if len(words) == 1:
        return asked and words[0] in EVALUATIVE_WORDS
    if (asked or words[:1] in _JUDGE_ASKERS) and _only_judgements(words):
        return True
    if "," in ctx.lower and _judgement_asked_last(ctx.lower):
        return True
    judged = [w for w in words if w in _JUDGE_WORDS or w in _MOOD_WORDS]
    return (
        "or" in words
        and len(judged) > 1
        and len(words) <= 8
        and all(w in _JUDGE_FILLER or w in judged for w in words)
    )


def detect_asks_feelings(ctx: Context, cfg: AsksFeelingsConfig) -> bool:
    words = ctx.wordset
    if not words.isdisjoint(_ASKS_FEELINGS_TRIGGERS) and ctx.finds(_ASKS_FEELINGS):
        return True
    if not words.isdisjoint(_JUDGE_STRONG) and ctx.finds(_JUDGE_FRAME):
        return True
    if _asks_only_judgement(ctx) or (not ctx.lower.isascii() and _SCRIPT_FEELINGS.search(ctx.lower)):
        return True
    lower = ctx.lower
    for triggers, needs, rx in _WITHOUT_YOU_TESTS:
        if words.isdisjoint(triggers) or (needs is not None and not any(s in lower for s in needs)):
            continue
        if ctx.finds(rx):
            return True
    return _judges_part(ctx)


def few_needs(rx: re.Pattern[str]) -> tuple[str, ...] | None:
    """A few strings of which every match of ``rx`` holds one, or None: a test of them costs less than
    the literal gate's index (a look-up of every three letters of the text) on the many messages that
    have one of the group's words but none of these (an answer has no "?"; many a text has "at")."""
    needs = T.gate(rx).needs
    if needs is not None and len(needs) <= 12:
        return needs
    return ("?",) if _parser.parse(rx.pattern, rx.flags)[-1] == (_constants.LITERAL, ord("?")) else None


# each _WITHOUT_YOU group with the strings its regex needs (None: too many to test)
_WITHOUT_YOU_TESTS = tuple((triggers, few_needs(rx), rx) for triggers, rx in _WITHOUT_YOU)


# What a depicted person or animal visibly shows ("Would you say the boy looks carefree and happy as he
# rides?", "Does the old woman seem tired?") and what kind of artwork it is ("was it a photo or a
# painting?") ask about the content (labeling guide): they stand the asks_feelings classifier down. The
# detector still judges them (a viewer's-response word such as "creepy" asks feelings wherever it is).
DEPICTED_BEING = (
    r"(?:man|woman|men|women|boy|girl|boys|girls|child|children|kid|kids|people|person|lady|ladies|guy|"
    r"gentleman|figure|figures|baby|clown|soldier|soldiers|king|queen|mother|father|crowd|family|couple|"
    r"model|bride|groom|sailor|sailors|dog|dogs|cat|cats|horse|horses|bird|birds|animal|animals|rabbit|"
    r"rabbits|bunny|hare|fox|bear|bears|cow|cows|sheep|lamb|lion|deer|monkey|owl|mouse|pig|goat|donkey|"
    r"elephant|wolf|puppy|kitten)"
)
# "Does the rabbit look sad?": what a depicted being shows, asked of it.
BEING_LOOK_ASKED = re.compile(
    rf"\b(?:the|a|an|that|this|his|her|their) (?:[a-z'\-]+ ){{0,2}}{DEPICTED_BEING} "
    r"(?:look|looks|looked|seem|seems|seemed|appear|appears|appeared)\b"
    r"|\b(?:he|she|they) (?:look|looks|seem|seems|appear|appears)\b"
)
_CONTENT_ASKED = re.compile(
    rf"\b(?:the|a|an|that|this|his|her|their) (?:[a-z'\-]+ ){{0,2}}{DEPICTED_BEING} "
    r"(?:look|looks|looked|seem|seems|seemed|appear|appears|appeared)\b"
    r"|\b(?:he|she|they) (?:look|looks|seem|seems|appear|appears)\b"
    r"|^(?:\w+[,.]? )?(?:is|was) (?:it|this|that) (?:a|an) (?:photo|photograph|painting|drawing|print|"
    r"sculpture|poster|sketch|watercolou?r|etching|collage|mural)\b"
    # what a depicted being feels: "Does he feel gentle and at peace with the birds?"
    rf"|\b(?:does|do|did|doesn't|don't) (?:he|she|they|(?:the|a|an|that|this|his|her|their) "
    rf"(?:[a-z'\-]+ ){{0,2}}{DEPICTED_BEING}) feels?\b(?! like)"
)
_CONTENT_ASKED_TRIGGERS = frozenset(
    "look looks looked seem seems seemed appear appears appeared photo photograph painting drawing print "
    "sculpture poster sketch watercolor watercolour etching collage mural feel feels".split()
)


def _asks_about_content(ctx: Context) -> bool:
    return not ctx.wordset.isdisjoint(_CONTENT_ASKED_TRIGGERS) and ctx.finds(_CONTENT_ASKED)


# Judgements asked of a part of the scene without "you" (labeling guide: the mood, feeling or beauty
# of the artwork or of a part of it): "do the cabins look cosy?", "is the bride pretty?", "that's
# disrespectful, right?". Two lexicons, because a depicted being's visible state is content.
# Verdicts and viewer responses: a judgement whatever they are said of ("is the clown funny?").
EVALUATIVE_WORDS = frozenset(
    """
    beautiful pretty gorgeous lovely stunning ugly hideous cute adorable charming elegant graceful majestic
    glamorous glam dazzling magnificent splendid spectacular breathtaking impressive amazing awesome
    incredible wonderful marvellous marvelous fantastic fabulous terrific superb exquisite nice cool awful
    terrible horrible dreadful funny hilarious comical amusing silly ridiculous absurd cheesy corny tacky
    kitsch kitschy tasteless pretentious boring dull bland tedious interesting fascinating intriguing clever
    striking touching poignant heartbreaking heart-breaking heartwarming heart-warming
    uplifting inspiring depressing disturbing unsettling creepy spooky eerie scary frightening terrifying
    horrifying menacing sinister ominous gross disgusting revolting repulsive sickening nauseating appetizing
    appetising delicious tasty yummy thrilling exciting electrifying awe-inspiring epic noble
    heroic tragic shocking disrespectful offensive annoying irritating cringe cringey cringy cringeworthy
    daft naff shiok lekker dope stylish classy gaudy garish vulgar grotesque ghastly divine glorious
    wondrous enchanting captivating mesmerizing mesmerising hypnotic haunting harrowing chilling
    unnerving creepy-looking overrated underwhelming mediocre distasteful tasteful vain disgraceful
    shameful outrageous appalling
    """.split()
)
# Moods of a place, thing or the whole scene; said of a depicted person or animal they are what it
# visibly shows ("does the dog look friendly?"), which is content.
SCENE_MOOD_WORDS = frozenset(
    """
    cosy cozy snug homely homey welcoming inviting gloomy mournful melancholy melancholic sombre somber bleak
    grim dreary desolate forlorn lonely peaceful peacefull serene tranquil restful idyllic dreamy magical
    mysterious romantic nostalgic joyful joyous cheerful happy sad festive lively vibrant playful
    friendly hostile oppressive tense chaotic violent dramatic dangerous threatening sacred
    spiritual heavenly hellish apocalyptic hopeful hopeless sorrowful solemn soothing calming
    relaxing angry drowsy sleepy gentle forgotten haunted cheery upbeat dismal
    depressed intimate lonesome cruel brutal
    """.split()
)
_JUDGEMENT_WORDS = EVALUATIVE_WORDS | SCENE_MOOD_WORDS
_RESPONSE_WORDS = T.literal_words(_RESPONSE)
# Everyday approval judges the artwork ("is it a nice picture?"), not any thing in it ("is it a nice
# tree?" asks what the tree is like).
_MILD = frozenset("nice good fine cool".split())
_ARTWORK_NOUNS = frozenset(
    "picture painting scene print photo photograph image piece artwork work portrait drawing poster view "
    "place one sculpture mural landscape canvas sketch shot monument statue building sight".split()
)
# "is that a good question?" judges the chat, not the artwork.
_CHAT_NOUNS = frozenset("question questions idea answer answers guess point plan description way job".split())
_SHIVER_WORDS = frozenset("chills shivers goosebumps creeps don't dont didn't".split())
_MOOD_NOUNS = frozenset("mood feeling vibe atmosphere emotion".split())
_PART_TRIGGERS = _JUDGEMENT_WORDS | frozenset("good fine moving nightmare feeling perfect".split())
# Beauty is judged of a face or pose too ("is the bold pose glamorous?"); other words said of a
# feature describe it ("is the rabbit's expression twitchy and funny?").
BEAUTY_WORDS = frozenset(
    "beautiful pretty gorgeous lovely stunning ugly hideous glamorous elegant graceful majestic dazzling "
    "magnificent cute adorable charming".split()
)
# one of the judgement words, longest first (a regex fragment)
_LEX = "(?:" + "|".join(sorted((re.escape(w) for w in _JUDGEMENT_WORDS), key=len, reverse=True)) + ")"
# What a mood word is said of, when it is a being: then the message asks what it visibly shows.
BEING_WORD = re.compile(
    rf"\b(?:{DEPICTED_BEING[3:-1]}|he|she|they|him|his|her|them|their|"
    r"character|characters|saint|saints|dude|lady|ladies|folk|folks|crowd|"
    r"[a-z]*(?:man|men|keeper|maker|seller|monger|herd|rider|player|dancer|singer|worker|farmer|hunter|"
    r"fisher|thrower|fighter|driver|runner|drinker|protester|mourner|boxer|climber|swimmer|surfer|baker|"
    r"butcher|drummer|guitarist|musician|traveller|traveler|walker|child|chef|waiter|waitress|nurse|priest|"
    r"monk|nun|widow|widower|orphan|beggar|peasant|prisoner|refugee|pilgrim|shepherd|knight|prince|princess|"
    r"warrior|camel|tiger|"
    r"bull|ox|oxen|heron|deer|stag|hound|fan|student|tourist|visitor)s?)\b"
)
# A being's visible features: "is the rabbit's expression twitchy and funny?" asks what it shows.
_FEATURE_WORD = re.compile(r"\b(?:face|faces|eyes|expression|expressions|smile|pose|posture|mouth|gesture)\b")
# "do the wild eyes look dangerous to you?": the partner's judgement, whatever it is said of.
_TO_YOU = re.compile(rf"\b(?:to|for) {_YOU}\b")
# A question about something else after the judgement: "your typing is so cute, where are you from?"
_NEW_QUESTION = re.compile(r"\b(?:where|what|who|how|why|which|when|is|are|do|does|can|could|did)\b")
# The word after a predicate adjective ("is the dress pretty?", not "is she wearing a pretty dress?").
_AFTER_PREDICATE = (
    r"(?:[- ](?:looking|feeling))?(?=\s*(?:$|[?.!,;:]| (?:and|or|to|for|in|at|with|overall|enough|too|like|"
    r"looking|you|would|from|when|the way|ye|eh|no|right|innit|also|somehow|though|tho|lah|la|leh|mate|"
    r"na|ya|yeah|yes|bro|n|yourself|personally|honestly|really|feeling)\b))"
)
_SENTENCE_START = r"(?:^|[.!?] |[,;:] (?=(?:is|are|was|were|does|do|did)\b))"
_LEAD = (
    r"(?:(?:so|and|but|ok|okay|like|then|now|well|alright|right|hmm|mate|oh|also|honestly|lol|lmao|haha|omg|"
    r"wow)[,.]? )*"
)
_JUDGED_PART = [
    # "is the red gown glamorous?", "do the cabins look cosy and warm?", "do you find the hills gloomy?"
    re.compile(
        rf"{_SENTENCE_START}{_LEAD}(?:is|are|was|were|isn't|aren't)\b(?! there\b| (?:you|u)\b)"
        r"(?P<subj>[^?.!,]{1,80}?) "
        rf"(?:(?:looking|looks?|seems?|feels?) )?{_DEGREE}(?P<adj>{_LEX}){_AFTER_PREDICATE}"
    ),
    re.compile(
        rf"{_SENTENCE_START}{_LEAD}(?:does|do|did|doesn't|don't|would|wouldn't)\b(?P<subj>[^?.!,]{{1,80}}?) "
        r"(?:(?:look|seem|feel|appear|sound)s?(?: (?:so|very|really|quite|kind of|kinda|a bit|a little))?|"
        r"find|think|reckon|call|consider|say|suppose)\b(?P<mid>[^?.!]{0,60}?) "
        rf"{_DEGREE}(?P<adj>{_LEX}){_AFTER_PREDICATE}"
    ),
    # the partner's view put without a question word: "you find it funny?", "u think its cringe"
    re.compile(
        rf"{_SENTENCE_START}{_LEAD}(?:(?:do|did|don't) )?(?:you|u|yuh|ye) (?:find|think|tink|reckon|consider|"
        rf"feel)\b(?P<mid>[^?.!]{{0,60}}?) {_DEGREE}(?P<adj>{_LEX}){_AFTER_PREDICATE}"
    ),
    # the adjective first: "is scary the horse?", "is nice the colours together?"
    re.compile(
        rf"^(?:is|are) {_DEGREE}(?P<adj>{_LEX}) (?P<after>(?:the|this|that|these|those|it)\b[^?.!]{{0,40}})"
    ),
    # a bare judgement with a question mark: "the henna and the gold jewellery dazzling?"
    re.compile(
        rf"^(?:so |and |but )?(?:the|this|that|these|those|it) [^?.!,]{{0,60}}? {_DEGREE}(?P<adj>{_LEX})"
        r"\s*\?+\s*$"
    ),
    # a judgement followed by a question mark: "the fish looks disgusting?", "that's disrespectful right?"
    re.compile(
        r"(?:^|[.!?] )(?P<subj>(?:[^?.!]*, (?=(?:that|it|this|which)\b))?[^?.!,]{0,80}?)"
        r"\b(?:is|are|'s|was|were|looks?|seems?|feels?|appears?|sounds?) "
        rf"(?:just )?{_DEGREE}(?P<adj>{_LEX}){_AFTER_PREDICATE}"
        r"(?P<rest>[^?.!]{0,40})\?+\s*$"
    ),
    # a mood felt as a likeness: "do the quiet boats feel like the end of a good day?"
    re.compile(
        rf"{_SENTENCE_START}{_LEAD}(?:does|do|did|doesn't|don't) (?P<liken>[^?.!,]{{1,60}}?) feels? like "
        rf"[^?.!]{{0,40}}?\b(?P<adj>{_LEX}|good|perfect)\b"
    ),
    # "is it heartbreaking that families are on the roofs?", "is it cruel to hunt deer like this?"
    re.compile(
        r"\b(?:is|isn't|was|wasn't) (?:it|this|that)(?: (?:just|so|really|not|a bit|kind of))? "
        rf"(?P<adj>{_LEX}) (?:that|to|how|when|seeing|watching|the way)\b"
    ),
    # "is it a good print?", "is it the most peaceful little sauna?", "is this a sad place?"
    re.compile(
        r"(?:\b(?:is|isn't|was) (?:it|this|that)|\b(?:it|this|that)(?:'s| is|s| was))(?: just)? "
        rf"(?:a|an|such an?|the most|one|really a) {_DEGREE}(?P<adj>{_LEX}|good|fine|moving|nightmare)"
        r"(?:[- ](?:looking|feeling))?"
        r"(?:,? (?:and )?[\w-]+)? (?:(?:little|old|big|kind of|sort of) )?(?P<noun>[\w-]+)(?: overall)?"
        r"(?: (?:by|in|on|at|with|of|under|to|over|near|beside|behind|across|along|from)\b[^?.!]{0,40})?"
        r"\s*(?:[?.!,]|$)"
    ),
    # "is it a holy-feeling place?"
    re.compile(r"\b(?:is|isn't|was) (?:it|this|that) (?:a|an) (?P<adj>[\w]+)[- ]feeling\b"),
    # "are the dogs tearing at the stag in a sickening way?"
    re.compile(
        rf"(?P<subj>[^?.!]{{0,80}}?)\bin an? {_DEGREE}(?:[\w-]+,? (?:and )?)?(?P<adj>{_LEX}|calm)"
        r" (?:way|manner|fashion)\b[^?.!]{0,40}\?"
    ),
    # "... in a violent, jagged way?"
    re.compile(
        rf"(?P<subj>[^?.!]{{0,80}}?)\bin an? {_DEGREE}(?P<adj>{_LEX}),? (?:and )?[\w-]+"
        r" (?:way|manner|fashion)\b[^?.!]{0,40}\?"
    ),
]
# A scene likened to a place or state that is a judgement ("the coral is like another world, no?",
# "does the garden feel like a paradise?", "are the fangs nightmare fuel?").
_JUDGED_LIKENESS = re.compile(
    r"(?:\b(?:like|is|are|'s|be) (?:it |this |that )?(?:a |an |another |the |pure |straight |total |absolute "
    r"|real )?"
    r"(?:[\w-]+ )?(?:paradise|heaven|dream|nightmare|fairy ?tale|other world|another world|horror (?:film|"
    r"movie|show)|postcard|masterpiece|adrenaline|vibe|omen|nightmare fuel)|\b(?:straight|pure|absolute) "
    r"fire)\b[^?.!]{0,40}\?+\s*$"
)
_LIKENESS_WORDS = frozenset(
    "paradise heaven dream nightmare fairy fairytale world horror postcard masterpiece adrenaline fire vibe "
    "omen fuel".split()
)
# The mood of a part ("what's the mood of the sky?"; not of a person: "what's the mood of the old man?"),
# a shiver given to anyone ("does the dark doorway give chills?"), a liking put for agreement ("don't
# you just love the quilts?").
_MOOD_OF_PART = re.compile(
    r"\bwhat(?:'s| is|s) the (?:overall |general )?(?:mood|feeling|vibe|atmosphere|emotion) (?:of|in) "
    r"(?P<part>(?:the|this|that) [^?.!]{1,40}?)\s*\?"
)
_GIVES_SHIVERS = re.compile(
    r"\b(?:gives?|giving|send|sends) (?:anyone |people |one |the viewer )?(?:the )?"
    r"(?:chills|shivers|goosebumps|creeps)\b[^.!]*\?"
    rf"|\b(?:don't|dont|didn't) {_YOU} (?:just |really |simply )?(?:love|like|adore|hate|enjoy)\b"
)
_LAUGHS = frozenset("lol lmao haha omg wow".split())
_ASKING_START = frozenset(
    "is are was were isn't aren't does do did doesn't don't would wouldn't so and but ok okay you u".split()
)
# An "or" offering a plain alternative asks which state it is ("is the sea gloomy grey or bright blue?").
_OR_NEXT = re.compile(r"\s*(?:,? or (?:a |an |more |just )?(?P<alt>[\w-]+))?")


def _judges_part(ctx: Context) -> bool:
    """A mood or verdict asked of the artwork or a part of it (not of what a depicted being shows)."""
    words = ctx.wordset
    opening = [w for w in ctx.words[:2] if w not in _LAUGHS][:1]
    if not ("?" in ctx.text or opening and opening[0] in _ASKING_START):
        return False
    lower = ctx.lower
    if not words.isdisjoint(_LIKENESS_WORDS) and _JUDGED_LIKENESS.search(lower):
        return True
    if not words.isdisjoint(_SHIVER_WORDS) and _GIVES_SHIVERS.search(lower):
        return True
    if not words.isdisjoint(_MOOD_NOUNS):
        part = _MOOD_OF_PART.search(lower)
        if part and not BEING_WORD.search(part.group("part")):
            return True
    if words.isdisjoint(_PART_TRIGGERS):
        return False
    for rx in _JUDGED_PART:
        for m in rx.finditer(lower):
            adj = m.group("adj")
            alt = _OR_NEXT.match(lower, m.end()).group("alt")  # type: ignore[union-attr]
            if alt and alt not in _JUDGEMENT_WORDS and alt not in ("not", "nah", "no", "what"):
                continue
            found = m.groupdict()
            said_of = f"{lower[: m.start('adj')]} {found.get('after') or ''} {found.get('noun') or ''}"
            if adj in SCENE_MOOD_WORDS and adj not in EVALUATIVE_WORDS and BEING_WORD.search(said_of):
                continue
            if found.get("liken") and BEING_WORD.search(found["liken"]):
                continue  # "do the kids feel like having a happy time?": what they feel
            if (
                adj not in _RESPONSE_WORDS
                and adj not in BEAUTY_WORDS
                and _FEATURE_WORD.search(said_of)
                and not _TO_YOU.search(lower)
            ):
                continue
            noun = found.get("noun")
            if noun in _CHAT_NOUNS or (
                adj in _MILD and noun and _ARTWORK_NOUNS.isdisjoint(T.words(m.group(0)))
            ):
                continue
            if adj in BEAUTY_WORDS and BEING_WORD.search(said_of) and not _TO_YOU.search(lower):
                continue
            if "rest" in m.groupdict() and m.group("rest") and _NEW_QUESTION.search(m.group("rest")):
                continue
            return True
    return False


# Generic questions are matched on the whole message after trimming politeness and naming the
# artwork one way, so "what is the man in the picture holding?" never matches "what is in IMG".
_POLITE_START = re.compile(
    r"(?:(?:ok|okay|alright|so|and|then|now|well|great|cool|nice|interesting|thanks|thank you|i see|got it|"
    r"hi+|hello+|hey+|hiya|yo|hi+ there|hello there|hey there|good (?:morning|afternoon|evening|day)|sorry|"
    r"fine(?: thanks| thank you)?|mmm*|hmm+|anyway|right|eh+|wah+)[,.! ]+)*"
    r"(?:(?:can|could|would|will) (?:you|u) (?:please |pls |plz |kindly )?|please |pls |plz |kindly )?"
)
_POLITE_END = tuple(
    sep + tail
    for tail in (
        "please",
        "pls",
        "plz",
        "for me",
        "in detail",
        "in general",
        "overall",
        "briefly",
        "now",
        "tho",
        "though",
        "then",
        # honorifics and tags of Filipino and Indian English ("what else is there po?", "tell ji")
        "po",
        "ji",
        "na",
        # sentence particles of Singlish, Malaysian and Nigerian English ("what else got ah?", "tell me lah")
        "ah",
        "lah",
        "leh",
        "lor",
        "meh",
        # "sorry, what else was there again"
        "again",
    )
    for sep in (", ", " ")
)
_END_PUNCT = " ?.!,"
_CHAT_WHAT = re.compile(r"\b(?:whats|wats|wots|what s)\b")
_CHAT_WHAT_WORD = re.compile(r"\b(?:wat|wot|wut|wht|whit)\b")
# Spoken forms of regional and hurried English: "goin on", "happenin'", "whatcha got".
_SPOKEN = re.compile(r"\b(go|happen|show)in'?(?=\s|$)|\bwh?[ao]tcha (got|see)\b")
_SPOKEN_AS = {"got": "what have you got", "see": "what do you see"}
# Words that add emphasis but no subject: "what the hell is going on", "what exactly is it about".
_FILLER_WORDS = frozenset(
    "hell heck earth world exactly actually basically really just even generally roughly precisely overall "
    "general short briefly quickly please then all know far damn freaking".split()
)
_FILLER = re.compile(
    r"\b(?:the hell|the heck|on earth|in the world|exactly|actually|basically|really|just|even|generally|"
    r"damn|freaking|"
    r"roughly|precisely|overall|in general|in short|briefly|quickly|please|then|all|you know|so far)\b ?"
)
_IMG = re.compile(
    r"\b(?:the|this|that|your) (?:whole |overall |entire )?(?:painting|picture|image|artwork|art piece|art|"
    r"piece|work|scene|photo|photograph|canvas|drawing|one|pic|pics|composition|sketch|print|etching|"
    r"engraving|woodcut|lithograph|illustration|watercolou?r|poster|mural|fresco|tapestry|sculpture|"
    # the sheet of paper a drawing or watercolour is on, when it shows or depicts
    r"sheet(?= (?:show|depict|contain|have)))\b|\bthis wall\b|\bit\b"
)
# the artwork named with a determiner ("this one", "the painting"), not by "it"
_ART_NAMED = re.compile(_IMG.pattern.removesuffix(r"|\bit\b"))
_HERE = r"(?: (?:in|on|inside) IMG| here| there)?"
_SIZE = r"(?:(?:quick|brief|short|general|rough|overall|basic|full|complete|detailed) )?"
_GENERIC = re.compile(
    "^(?:"
    + "|".join(
        [
            rf"(?:describe|explain|summari[sz]e|tell me about|tell about|talk about|tell me|tell|let me know|"
            r"say|show me|"
            rf"give me (?:an? |the )?{_SIZE}(?:description|overview|summary|idea|rundown|sense|picture)"
            r"(?: of)?|"
            r"tell me (?:more|everything|something)(?: about)?|"
            r"i (?:just |only |really |simply )?(?:want|wish|need) to know|"
            r"i(?:'d| would) (?:just )?like to know) (?:IMG|what you see|what you can see|"
            rf"everything|what(?:'s| is) (?:in|on) IMG|what(?:'s| is) going on{_HERE}|"
            rf"what(?:'s| is) happening{_HERE}|what IMG (?:is about|is of|shows|depicts|is showing|contains|"
            r"looks like)|what(?:'s| is| are) (?:being )?(?:depicted|shown|portrayed)(?: in IMG)?|"
            r"what(?:'s| is| are) (?:painted|drawn|pictured) (?:in|on) IMG)",
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
            r"what(?:'s| does) IMG look like",
            r"how (?:would|do|can|could|will) (?:you|u) describe IMG",
            r"what(?:'s| is) (?:the )?(?:general |main |overall |basic |big )?(?:idea|gist|point|premise)"
            r"(?: (?:of|behind) IMG)?",
            r"what do (?:we|i) have here|what(?:'ve| have) (?:we|you) got(?: here)?|"
            r"what (?:are we|am i) (?:looking at|seeing)(?: here| in IMG)?",
            # "what is this supposed to be?"
            r"what(?:'s| is| are) (?:this|that|IMG|these|those) (?:supposed|meant) to (?:be|show|depict)",
            # everything but one thing: "what (else) is there besides the statue?"
            r"what(?: else)?(?:'s| is| are) there(?: in IMG)? "
            r"(?:besides|apart from|other than|except(?: for)?) (?:the |this |that |these |those )?[\w'-]+"
            r"(?: [\w'-]+)?",
            # "anything else apart from the boat and the pier?"
            r"(?:is there )?(?:anything|something) (?:else|more)(?: (?:in IMG|to see|you see))? "
            r"(?:besides|apart from|other than|except(?: for)?) (?:the |this |that |these |those )?[\w'-]+"
            r"(?: [\w'-]+)?(?: (?:and|or) (?:the |this |that |these |those )?[\w'-]+(?: [\w'-]+)?)?",
            r"what (?:do|can|did) (?:you|u) (?:notice|observe)(?: in IMG)?",
            r"(?:describe|explain|tell me more|tell me everything|tell me something|what else|anything else|"
            r"something else|more|go on|continue|keep going|next|and(?: then| next| so| what else)?)",
            r"what(?:'s| is| was) IMG(?: about| of| showing| depicting| all about)?",
            r"what(?:'s| is) (?:in|on) IMG",
            # "so what is actually painted on it?"
            r"what(?:'s| is| are) (?:painted|drawn|pictured) (?:in|on) IMG",
            rf"what(?:'s| is| are) (?:being )?(?:depicted|shown|portrayed|happening|going on){_HERE}",
            # "what you see?", "what else got?": without the auxiliary, as Singlish and many Englishes ask
            r"what (?:(?:do|can|did) )?(?:you|u) (?:see|got)(?: in IMG)?|what else got(?: in IMG)?",
            r"what does IMG (?:show|depict|look like|contain|portray|represent|have)",
            r"how does IMG look",
            r"what(?:'s| is) (?:the )?(?:main )?(?:subject|topic|theme|content|story)(?: of IMG)?",
            r"(?:is there )?(?:anything|something) (?:else|more)(?: (?:you can tell me|to add|i should know|"
            r"in IMG|worth mentioning|to say|you see|to know|interesting))?",
            r"what else(?: (?:(?:is|are|was|were) there(?: in IMG)?|can you tell me|do you see|is in IMG|"
            r"is going on|should i know|is (?:important|interesting)|does IMG (?:show|depict|contain|have)|"
            r"(?:is|are) (?:shown|depicted|visible)(?: in IMG)?))?",
            r"(?:any|anymore|any more|some more|more|any other|other) (?:details?|information|info|"
            r"questions?|things?|description|features?)(?: (?:about|in|on) IMG)?",
            r"(?:give me|provide|share) (?:(?:some|more|proper|real|better|actual|good|a few|any) )*"
            r"(?:details?|information|info|description)(?: about IMG)?",
            r"(?:describe|explain|say|tell me|tell us|write|give me) (?:a (?:bit|little|lot) |some |much )?"
            r"more(?: (?:about|of) IMG| than that)?",
            r"what(?:'s| is| are) the (?:main|first|biggest|most important|key) (?:things?|parts?|scene)"
            r"(?: (?:in|on|of) IMG)?(?: again)?",
            # "that's it?", "is that all?": asking for more without saying what
            r"(?:that's|is that)(?: IMG| all)?",
            # handing the choice to the partner: "anything you want", "whatever you can see"
            r"(?:(?:just )?(?:anything|whatever)"
            r"(?: (?:you|u) (?:want|like|see|can see|notice|think)| at all)?(?:,? )?)+",
            r"what (?:can|could) (?:you|u) tell me(?: about IMG)?",
            r"(?:what|how) about IMG",
        ]
    )
    + r")$"
)


def _misspellings(nouns: str) -> dict[str, str]:
    """Each noun by its letters in any order ("pitcure", "pictrue") and with one letter dropped ("pictre",
    "paintng"), as dyslexic and hurried typists write it: the key is the sorted letters."""
    keys: dict[str, str] = {}
    for noun in nouns.split():
        keys.setdefault("".join(sorted(noun)), noun)
        for i in range(len(noun)):
            keys.setdefault("".join(sorted(noun[:i] + noun[i + 1 :])), noun)
    return keys


_ART_BY_LETTERS = _misspellings("painting picture image artwork photo drawing")
_AFTER_THE = re.compile(r"\b(the|this|that|your) ([a-z]{5,})\b")


def _art_respelt(m: re.Match[str]) -> str:
    word = m[2]
    if word in T.ENGLISH_WORDS:
        return m[0]
    return f"{m[1]} {_ART_BY_LETTERS.get(''.join(sorted(word)), word)}"


def generic_form(lower: str) -> str:
    """The message reduced to its core: politeness trimmed, the artwork named IMG, no end punctuation."""
    core = lower.rstrip(_END_PUNCT)
    core = core[_POLITE_START.match(core).end() :]  # type: ignore[union-attr]  # can match empty
    while core.endswith(_POLITE_END):
        core = core.rsplit(" ", 2 if core.endswith(("for me", "in detail", "in general")) else 1)[0]
        core = core.rstrip(_END_PUNCT)
    core = _CHAT_WHAT.sub("what's", core)
    if "w" in core:
        core = _CHAT_WHAT_WORD.sub("what", core)
    if "in" in core or "tcha" in core:
        core = _SPOKEN.sub(lambda m: m[1] + "ing" if m[1] else _SPOKEN_AS[m[2]], core)
    if not _FILLER_WORDS.isdisjoint(core.split()):
        core = _FILLER.sub("", core).strip(" ,")
    core = _AFTER_THE.sub(_art_respelt, core)  # "what is in the pitcure"
    return _IMG.sub("IMG", core).strip()


# Words of a question that asks for more without naming anything ("anything else worth knowing?",
# "walk me through it", "what's the first thing you notice?"); a question made only of these, the
# stopwords and chat courtesy is generic.
_GENERIC_CUES = frozenset(
    """
    describe describing description tell telling say more else rest everything anything something things
    stuff details detail elements element items objects features going happening happens show showing shows
    see seeing notice spot missing missed miss remaining further continue carry keep elaborate expand
    overview summary story deal fill walk talk paint spill nutshell besides apart whatever
    """.split()
)
_GENERIC_VOCAB = _GENERIC_CUES | frozenset(
    """
    thing object item whole general overall main important interesting first next add share sense
    idea words sentences sentence few bit little visible left-out catches catch eye stand stands break
    drawn draw depict depicts depicting broadly terms scratch beginning start full fuller picture own
    know knowing worth ought asked ask help helps picture type blind person someone never laid eyes
    front standing imagine round things off told heard yet far already once again now
    """.split()
)
_SOCIAL = frozenset(
    """
    hi hii hiii hello hey hiya nice meet how are r u doing okay ok good great thanks thank right so hmm well
    alright cool understood got i see lol again yes yeah helpful start vivid thorough please pls plz kindly
    mind would could can wat whats wats pic whole lot struggling lost bit mind's grateful fine go
    """.split()
)
# Words that point at something specific: a person, a place in the picture, a count.
_SPECIFIC = frozenset(
    """
    who whom whose where when why which he she him her his hers they them their many above below under
    beneath behind beside near left right middle center centre corner top bottom background foreground
    sky how's lot lots
    """.split()
)
# Openers of a request that has no question word ("anything else?", "walk me through it").
_REQUEST_OPENERS = frozenset("anything something any more other and next still spill".split())
_SENTENCES = re.compile(r"[^.!?;:]+[.!?;:]*")
_ALLOWED = T.STOPWORDS | _GENERIC_VOCAB | _SOCIAL


def _asks_for_anything(sentence: str) -> bool:
    words = T.words(_LEAD_IN.sub("", sentence))
    return (
        0 < len(words) <= 20
        and (sentence.endswith("?") or words[0] in INTERROGATIVES or words[0] in _REQUEST_OPENERS)
        and not _GENERIC_CUES.isdisjoint(words)
        and _SPECIFIC.isdisjoint(words)
        and all(w in _ALLOWED for w in words)
    )


_CLAUSES = re.compile(r"[^,.;:!?]+[,.;:!?]*")


# Greetings and courtesy before a request ("Hello po, good evening! What is the picture?").
_COURTESY = _SOCIAL | frozenset(
    "hiya heyy heyyy hey there po day evening morning afternoon namaste hope having sorry mate bro not "
    "really no nope y'all yall folks everyone g'day howdy howya howzit sir madam ma maam ma'am oga".split()
)
# Words that point back at something named before ("and the bank, what is on it").
_POINTS_BACK = frozenset("it this that there them they".split())


# A clause naming a place in the picture ("below the saint", "behind the house", "on the left").
_PLACE_OPENERS = frozenset(
    "above below under underneath beneath behind beside near next inside outside around between left right "
    "top bottom background foreground corner".split()
)


def _names_place(words: list[str]) -> bool:
    """The clause opens on a place in the picture ("below the saint", "on the left", "in the corner")."""
    if not words:
        return False
    if words[0] in _PLACE_OPENERS:
        return True
    return words[0] in ("on", "in", "at", "to") and not _PLACE_OPENERS.isdisjoint(words[1:3])


def _generic_last_clause(lower: str) -> bool:
    """A generic request after courtesy, a complaint or a remark ("Hello, good day! What is in it?",
    "your answers are too short, tell me more"); not after a question ("is the dog black? what else?")
    nor about something named before it ("and the bank, what is on it")."""
    clauses = [c.strip() for c in _CLAUSES.findall(lower) if any(ch.isalnum() for ch in c)]
    if len(clauses) < 2 or not _GENERIC.match(generic_form(clauses[-1])):
        return False
    pointing = not _POINTS_BACK.isdisjoint(T.words(_ART_NAMED.sub("IMG", clauses[-1])))
    for clause in clauses[:-1]:
        words = T.words(_LEAD_IN.sub("", clause))
        if all(w in _COURTESY or w in T.STOPWORDS for w in words):
            continue
        if _names_place(words):  # "And below the saint, what's happening?": asks about that place
            return False
        if pointing or clause.endswith("?") or words[0] in INTERROGATIVES or _REQUEST.search(clause):
            return False
    return True


# The bare request in the languages workers switch into ("Que hay en la pintura?", "Cosa vedi nel
# quadro?", "Was siehst du?", "Ano pa?", "Painting mein kya hai?"): generic as well as non_english. The
# whole message must be the request, after greetings and politeness of those languages.
_FOREIGN_ART = (
    r"(?:(?:el|la|le|il|lo|l'|o|a|das|dem|den|ang|sa|na|no|nel|nella|nell'|nello|en|dans|auf|im|in|die|de|"
    r"het|op|ar an|на|w|kwenye|katika) ?)*"
    r"(?:pintura|pinturas|cuadro|imagen|foto|obra|dibujo|tableau|peinture|image|photo|quadro|dipinto|"
    r"immagine|pittura|bild|gem[aä]lde|foto|quadro|imagem|larawan|litrato|painting|picture|pic|tasveer|"
    r"tasvir|chitra|photo|prent|skildery|schilderij|beeld|kunswerk|b?ph?icti[uú]r|"
    # the artwork as a tapestry, fresco or sculpture: "Cosa rappresenta l'arazzo?"
    r"arazzo|affresco|scultura|statua|tapiz|fresco|escultura|estatua|tapisserie|fresque|skulptur|statue|"
    # or a poster: "Was ist auf dem Plakat zu sehen?"
    r"plakat|poster|affiche|cartel|afiche|cartaz|manifesto|"
    # Russian, Polish, Swahili
    r"картин[еау]|картинк[еау]|фото(?:графии)?|изображении|рисунке|obraz(?:ie|ku)?|zdj[eę]ci[eu]|"
    r"picha(?: hii)?)"
)
_FOREIGN_GENERIC = re.compile(
    r"^(?:(?:ciao|salve|buongiorno|buonasera|hola|buenas|buenos d[ií]as|buenas tardes|ol[aá]|oi|"
    r"tudo bem|bonjour|salut|hallo|guten tag|kumusta|kamusta|magandang (?:umaga|hapon|gabi)|namaste|"
    r"scusi|perdon|perd[oó]n|grazie|gracias|obrigad[oa]|merci|danke|po|ji|goeie m[oô]re|goeiedag|hoi|"
    r"dia duit|xin ch[aà]o|ch[aà]o b[aạ]n|привет|здравствуйте|добрый день|dzie[nń] dobry|cze[sś][cć]|"
    r"habari|jambo|hujambo|niambie|boa noite|boa tarde|bom dia|merhaba|selam|bhai|yaar|arre|"
    r"magandang gabi)[,.!? ]+)*¿?"
    r"(?:(?:potrebbe|puoi|pu[oò]|podr[ií]as?|puedes|puede|pode|podes|pouvez|peux|k[oö]nnen sie|kannst du)"
    r"(?: (?:gentilmente|por favor|per favore|s'il vous pla[iî]t|bitte))? "
    r"(?:dirmi|decirme|me dizer|dizer|me dire|dire|mir sagen|sagen|describir|descrivere|descrever|"
    r"d[ée]crire|beschreiben) )?"
    r"(?:"
    # Italian
    rf"(?:che )?(?:cosa|cos') ?(?:vedi|vede|c'[eè]|ce|si vede|rappresenta|mostra|c'[eè] di)(?: (?:in|nel|"
    rf"nella|nell') ?{_FOREIGN_ART})?|(?:che )?(?:cosa|cos') ?(?:rappresenta|mostra) {_FOREIGN_ART}|"
    rf"che altro(?: c'[eè])?|cos'altro|cos'[eè](?: {_FOREIGN_ART})?|"
    rf"descrivi(?:mi)?(?: {_FOREIGN_ART})?|"
    # Spanish and Portuguese
    rf"qu[eé] (?:hay|ves|se ve|m[aá]s|otra cosa|muestra|representa)(?: (?:en|hay en) {_FOREIGN_ART})?(?: "
    rf"(?:hay|ves))?|algo m[aá]s|describe(?: {_FOREIGN_ART})?|"
    rf"o que (?:tem|h[aá]|voc[eê] v[eê]|mais|se v[eê]|mostra)(?: (?:em|na|no|nesta|neste) ?{_FOREIGN_ART})?|"
    r"mais alguma coisa|"
    # French and German
    rf"qu'est-ce (?:qu'il y a|que tu vois|que vous voyez)(?: (?:dans|sur) {_FOREIGN_ART})?|"
    rf"que (?:vois-tu|voyez-vous)|qu'y a-t-il(?: (?:dans|sur) {_FOREIGN_ART})?|quoi d'autre|"
    rf"was (?:ist|siehst du|sehen sie|gibt es)(?: noch)?(?: (?:auf|in) {_FOREIGN_ART})?"
    r"(?: (?:zu sehen|drauf))?|"
    r"was noch|"
    # Afrikaans and Dutch, Irish, Vietnamese
    rf"wat (?:is|sien jy|zie je|zie jij|staat)(?: (?:daar|er))?(?: (?:in|op) {_FOREIGN_ART})?"
    r"(?: te zien)?|"
    r"wat nog|wat anders|"
    rf"cad (?:at[aá]|a fheiceann t[uú])(?: (?:sa|ar an) {_FOREIGN_ART})?|cad eile|"
    r"(?:trong )?(?:b[uứ]c )?(?:tranh|[aả]nh|h[iì]nh)(?: n[aà]y)? c[oó] (?:g[iì]|nh[uữ]ng g[iì])"
    r"(?: v[aậ]y| th[eế])?|"
    r"b[aạ]n th[aấ]y g[iì]|"
    # Tagalog and Hindi in Latin letters
    # ("ba" only marks the question: "Ano ba ang nakikita mo sa painting?")
    rf"ano (?:ba )?(?:pa|ang (?:nasa|makikita|meron|laman|nakikita mo)(?: sa {_FOREIGN_ART})?"
    r"|ang nakikita mo)|"
    rf"ano (?:ba )?pa (?:ba )?ang (?:nakikita mo|makikita|meron|nasa)(?: sa {_FOREIGN_ART})?|"
    # Russian, Polish, Swahili: "Что изображено на картине?", "Co widać na obrazie?", "Picha hii ina nini?"
    rf"что (?:изображено|нарисовано|ты видишь|вы видите|есть|видно)(?: на {_FOREIGN_ART})?|"
    rf"что (?:на|в) {_FOREIGN_ART}|что (?:ещ[её]|другое)(?: (?:есть|видно|изображено))?"
    rf"(?: (?:на|в) {_FOREIGN_ART})?|"
    # Turkish: "Resimde ne var?", "Başka ne var?"
    r"(?:(?:resimde|fotoğrafta|fotografta|tabloda|afişte|posterde|görselde) )?(?:başka |baska )?ne "
    r"(?:var|görüyorsun|goruyorsun|görünüyor|gorunuyor)|"
    rf"co (?:jest|widzisz|wida[cć]|przedstawia)(?: (?:na|w) {_FOREIGN_ART})?|co jeszcze|"
    rf"picha hii ina nini|kuna nini(?: (?:kwenye|katika) {_FOREIGN_ART})?|unaona nini|nini kingine|"
    rf"(?:{_FOREIGN_ART} (?:mein|me|mai) )?kya(?: kya)? (?:hai|dikh raha hai|dikhta hai)"
    rf"(?: (?:is|iss) {_FOREIGN_ART} (?:mein|me))?|aur kya(?: hai)?|"
    r"aur kuch(?: (?:dikh raha hai|dikhta hai|hai))?"
    r")(?:[,.! ]+(?:po|ji|por favor|per favore|bitte|s'il (?:te|vous) pla[iî]t))?[?.! ]*$"
)
_FOREIGN_GENERIC_TRIGGERS = frozenset(
    "cosa cos che qué que hay ves algo describe descrivi descrivimi tem há ha mais qu'est-ce qu'y quoi was "
    "ano kya aur otra cos'è cos'e cos'altro wat cad có gì thấy что co picha nini unaona ne".split()
)
# The same request in Japanese and Chinese ("この絵には何がありますか？", "这幅画里有什么？"), whose words
# are not split by spaces.
_CJK_GENERIC = re.compile(
    r"^(?:(?:この|その)?(?:絵|写真|画像|作品)(?:の中)?(?:には|に|は|で)?(?:何|なに)が"
    r"(?:あります|描かれています|描かれてます|見えます|写っています)か?|(?:何|なに)が見えますか|"
    r"(?:这|這)?(?:幅|张|張)?(?:画|畫|图|圖|照片)(?:里|裡|上|中)?(?:有|画了|畫了)(?:什么|什麼)|"
    r"你?(?:看到|看见|看見)了?(?:什么|什麼))(?:呢|吗|嗎)?[？?。!！ ]*$"
)


# "Ok thanks, that's all." closes the dialog; "that's all?" asks for more.
_THATS_ALL = re.compile(r"(?:^|[,.!;] ?)that'?s (?:all|it)(?: (?:from me|for me|for now))?\s*[.!]*$")


def detect_generic_question(ctx: Context, cfg: GenericQuestionConfig) -> bool:
    if "?" not in ctx.text and "that's" in ctx.lower and _THATS_ALL.search(ctx.lower):
        return False
    if len(ctx.words) <= 14 and _GENERIC.match(generic_form(ctx.lower)):
        return True
    if (
        len(ctx.words) <= 14
        and not ctx.wordset.isdisjoint(_FOREIGN_GENERIC_TRIGGERS)
        and _FOREIGN_GENERIC.match(ctx.lower.strip(" ¿¡"))
    ):
        return True
    if len(ctx.words) <= 3 and not ctx.lower.isascii() and _CJK_GENERIC.match(ctx.text.strip()):
        return True
    if len(ctx.words) <= 30 and _generic_last_clause(ctx.lower):
        return True
    if _GENERIC_CUES.isdisjoint(ctx.wordset) or len(ctx.words) > 40:
        return False
    # the last sentence asks for anything more; what comes before is courtesy or an acknowledgement
    sentences = [x.strip() for x in _SENTENCES.findall(ctx.lower) if any(c.isalnum() for c in x)]
    if not sentences or not _asks_for_anything(sentences[-1]):
        return False
    return all(
        not x.endswith("?") or all(w in _SOCIAL or w in T.STOPWORDS for w in T.words(x))
        for x in sentences[:-1]
    )


# A question either carries '?' or starts one of its clauses with a question word or a request.
INTERROGATIVES = frozenset(
    """
    what what's whats where where's when which who who's whom whose why how how's is isn't are aren't
    was wasn't were weren't do does doesn't did didn't don't can can't could couldn't will won't would
    wouldn't should shouldn't shall may might hasn't haven't am describe tell explain name
    list mention say give please pls plz let share elaborate any anything anyone anybody
    wat wut wht whr wher hw continue walk paint keep go summarize summarise sum sketch talk run fill break
    wtf wth whats wats wot wots whos hows wheres whr r carry waht whta hwat wich wat's wot's wut's
    estimate compare identify specify
    whit whit's
    """.split()
)
_CLAUSE_START = re.compile(
    # an emoji ends a clause too: "chill lol 😂 is there a crocodile"
    # and so does a text emoticon: "hii :) hows ur day" (session 17)
    "(?:^|[:;]-?[()pd]\\s+|[,.;:!\U0001f300-\U0001faff\u2600-\u27bf]\\s*|\\b(?:and|but|so|also|then|now|ok|okay)\\s+)"
    r"(?:(?:just|kindly|simply|so|and|but|ok|okay|well|then|now|anyway|mm+|hmm+|hi+|hey+|hello|hiya|yo|ya|yeah|"
    # chat openers before the question word: "wait where does it go", "omg is that a bunny"
    r"wait|omg|oh|ah|lol|um+|uh+|btw|bro|dude|last question|one more question|quick question|"
    r"hang on|kk|k|ugh+|soz|sry|sorry|quick one|"
    # laughter and "like" as a filler: "lmao is that a cake", "ok but like is it funny"
    r"lmao|lmfao|rofl|(?:ha){2,}|like|"
    # a polite address first: "sir please revert with the name of the plant"
    r"sir|madam|ma'am|maam|mam|dear|friend|partner|buddy|mate|boss|"
    r"final question)\s+)*"
    r"([a-z']+)(?= ([a-z']+)|)"
)
# "wtf is that", not "wtf flying fish": a chat question word asks when a verb or pronoun follows.
_CHAT_ASKERS = frozenset({"wtf", "wth"})
_ASKER_NEXT = frozenset(
    "is are was were do does did can could would will has have happened happening going 's s r it that this "
    "they he she".split()
)
# "what a mess", "tell you what": exclamations and idioms, not questions
_NOT_ASKING = frozenset({("what", "a"), ("what", "an"), ("tell", "you")})
# "What the hell, it's just a painting": an exclamation standing alone, not a question.
_EXCLAIMED = re.compile(r"\bwhat the (?:hell|heck|fuck|devil)\s*[,.!]")
# "have" asks only when a subject follows ("have you...", "has the dog..."), unlike "have a nice day".
_HAVE_SUBJECTS = frozenset("you u they we he she it i there any the his her their its".split())
_REQUEST = re.compile(
    r"\b(?:i(?:'d| would) (?:like|love) (?:to (?:know|hear)|an? (?:description|idea|overview|summary))|"
    r"i (?:just |really |only )?(?:want|wish|need) to know|i(?:'m| am)? wondering|i wonder|"
    r"i(?:'m| am) curious|i was wondering|"
    r"can you tell|could you tell|if (?:you|u) (?:could|would|can)|would (?:you|u) mind|"
    r"i(?:'d| would) be grateful)\b(?! about (?:that|it|this)\b)"
)


# "wtf, more detail pls": a request ending in please in chat spelling ("english plz" asks about the chat).
_PLS_END = (" pls", " plz", " plss", " plzz", " pleaseee", " pleasee")


# Words a question may open with before its question word ("so what is...", "btw is the...").
_LEAD_IN = re.compile(
    # stretched as in chat ("sooo is it crowded", "ohhh") and the interjections of other Englishes ("eh",
    # "wah", "aiyo")
    r"^(?:(?:so+|and|but|also|then|now|ok+|okay|alright|right|great|cool|nice|well|hmm+|btw|oh+|ah+|um+|"
    r"uh+|eh+|wah+|aiyo+)[,.!]*\s+)+"
)


# Question marks of other scripts: full-width (Chinese, Japanese), Arabic, Greek, Armenian, Ethiopic.
_QUESTION_MARKS = ("?", "\uff1f", "\u061f", "\u037e", "\u055e", "\u1367")


# Question words and tags of Indian English in mid-sentence: "dog is which colour", "r there or not".
# The question word last: "the man in red robe how old", "her dress what colour", "he is holding what".
_MID_QUESTION = re.compile(
    r"\b(?:is|are|r|was|were) (?:which|how many|how much|whose)\b|\bor not\s*$"
    r"|(?<!know )(?<!sure )(?<!idea )(?<!tell )(?<!say )\bhow (?:old|many|much|big|tall|long|far|large|wide|"
    r"high)\s*[.!]*$|(?<!know )(?<!sure )(?<!idea )(?<!tell )(?<!say )\b(?:what|which) colou?rs?\s*[.!]*$"
    r"|\b(?:is|are|doing|wearing|holding) what\s*[.!]*$"
)


# Question words of other languages, asked without "?" or "¿": "que raza de perro es", "y la botella como
# es", "qu'est-ce qu'il y a...". At the start of a clause (after "y"/"e"/"et"/"und" too) or, for "what
# is it like" ("como es", "qué es"), at the end; with its accent anywhere. Their non-English is the
# non_english rule's to flag.
_FOREIGN_ASKERS = frozenset(
    """
    que qué como cómo cual cuál cuales cuáles donde dónde quien quién quiénes cuanto cuánto cuantos cuántos
    cuantas cuántas qu'est-ce quel quelle quels quelles combien pourquoi est-ce wie wer welche welcher welches
    warum cosa quanti quante quanto qual quais quantos porquê perché hoe waar welke
    """.split()
)
# "Qué bonito, gracias.", "que lindo!": "what" and one word ending the sentence exclaims.
_NOT_EXCLAIMED = r"(?! [^\W\d_]+(?:\s*[,.!;]|\s*$))"
_FOREIGN_ASK = re.compile(
    rf"(?:^|[,.;:!]\s*|\b(?:y|e|et|und|en)\s+)(?:qu[eé]{_NOT_EXCLAIMED}|c[oó]mo|cu[aá]l(?:es)?|d[oó]nde|"
    rf"qui[eé]n|"
    r"cu[aá]nt[oa]s?|qu'est-ce|quel(?:le)?s?|combien|pourquoi|est-ce|wie|wer|welche[rs]?|warum|cosa|"
    r"quant[ieo]|qual|quais|quantos|porquê|perché|hoe|waar|welke)\b"
    r"|\b(?:c[oó]mo|qu[eé]|d[oó]nde) (?:es|est[aá]|son|hay)\s*$"
    # written with its accent, the Spanish word asks wherever it stands: "de qué color es"
    rf"|(?:^|\s)(?:qué{_NOT_EXCLAIMED}|cómo|dónde|cuál|cuáles|quién|quiénes|cuántos|cuántas|cuánto)(?=\s|$)"
)


# "Dime más del mural, por favor.": a request ending in another language's "please" asks, like " please".
_FOREIGN_PLEASE = (" por favor", " per favore", " s'il vous plaît", " s'il te plaît", " bitte")


# Greek asks with ";" (U+037E, which Unicode folds into the semicolon): "Τι φοράει;" ends with a Greek word.
_GREEK_ASKED = re.compile(r"[\u0370-\u03ff\u1f00-\u1fff]\s*[;\u037e]\s*$")


# "Eyes open or closed.", "funny or gross overall": a few words offering a choice ask which one holds,
# with or without "?" (every such line of the labelled batches is a question). Not when the questioner
# speaks of themselves ("I'd say red or orange.") or writes more than one sentence.
_CHOICE_WORDS = 6
_SELF = frozenset("i i'd i'm i'll i've me my we".split())


# "reckon he was a hunter or what lol": a guess put up for an answer (session 17)
_OR_WHAT = re.compile(r"\bor what(?: (?:lol|lmao|haha+|eh|then|like))*$")


def _offers_choice(ctx: Context) -> bool:
    words = ctx.words
    return (
        3 <= len(words) <= _CHOICE_WORDS
        and "or" in words[1:-1]
        and _SELF.isdisjoint(words)
        and not any(mark in ctx.text.rstrip(" .!") for mark in ".!;")
    )


def is_question(ctx: Context) -> bool:
    text = ctx.text
    if "?" in text or (
        not text.isascii()
        and (any(mark in text for mark in _QUESTION_MARKS) or _GREEK_ASKED.search(text) is not None)
    ):
        return True
    if _MID_QUESTION.search(ctx.lower):
        return True
    if not ctx.wordset.isdisjoint(_FOREIGN_ASKERS) and _FOREIGN_ASK.search(ctx.lower):
        return True
    lower = _EXCLAIMED.sub(",", _LEAD_IN.sub("", ctx.lower))
    end = lower.rstrip(" .!")
    if _REQUEST.search(lower) or end.endswith(" please") or (end.endswith(_PLS_END) and "english" not in end):
        return True
    if end.endswith(_FOREIGN_PLEASE):
        return True
    for m in _CLAUSE_START.finditer(lower):
        first, second = m.group(1), m.group(2)
        if (first, second) in _NOT_ASKING or (first in _CHAT_ASKERS and second not in _ASKER_NEXT):
            continue
        if first in INTERROGATIVES or (first in ("have", "has", "had") and second in _HAVE_SUBJECTS):
            return True
    return "or" in ctx.wordset and (_offers_choice(ctx) or _OR_WHAT.search(end) is not None)


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
        classifier_spared_by=_asks_about_content,
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
