"""Text helpers shared by the rules: one normalisation, one tokenizer, word lists, a light stemmer.

Everything here is computed once at import (regexes compiled, sets built) because the rules run
on every chat message and, in bulk QC, on millions of them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib.util import find_spec
from pathlib import Path

from server.rules.prefix import endings_by_length

_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "`": "'"})
# Letters or digits, keeping inner apostrophes and hyphens ("don't", "u-shaped", "r8").
_WORD = re.compile(r"[^\W_]+(?:['\-][^\W_]+)*")


def normalise(text: str) -> str:
    """Lower case, straight apostrophes, single spaces."""
    if not text.isascii() or "`" in text:  # translate costs twice the rest: skip it when it changes nothing
        text = text.translate(_APOSTROPHES)
    return " ".join(text.split()).lower()


def words(lower: str) -> list[str]:
    """Word tokens of an already normalised text."""
    return _WORD.findall(lower)


# Function words plus question words and the words every message about an artwork uses; what is
# left ("content words") says what a message is about.
STOPWORDS = frozenset(
    """
    a about above after again against all also am an and any anything are aren't around as at be
    because been before being below between both but by can can't cannot could couldn't did didn't do
    does doesn't doing don't down during each else even ever every few for from further get gets got
    had hadn't has hasn't have haven't having he he'd he'll he's her here here's hers herself him
    himself his how how's i i'd i'll i'm i've if in into is isn't it it's its itself just kind kinds
    let's like look looks looking lot lots many may maybe me might more most much must mustn't my
    myself no nor not now of off on once one only or other others ought our ours ourselves out over
    own please quite rather really same see seem seems shan't she she'd she'll she's should
    shouldn't so some something sort such tell than that that's the their theirs them themselves then
    there there's these they they'd they'll they're they've thing things this those through to too
    under until up upon us very was wasn't we we'd we'll we're we've were weren't what what's when
    when's where where's whether which while who who's whom whose why why's will with won't would
    wouldn't yes you you'd you'll you're you've your yours yourself yourselves
    painting paintings picture pictures image images artwork artworks art piece photo photograph
    canvas scene work depicted shown show shows describe
    """.split()
)

# British spellings mapped to one form so that "colour" repeats "color".
_SPELLING = {
    "colour": "color",
    "colours": "colors",
    "coloured": "colored",
    "grey": "gray",
    "centre": "center",
}


# Near-synonyms questioners swap when they repeat themselves ("is the ship large?" / "big?").
_SYNONYMS = {
    "large": "big", "huge": "big", "enormous": "big", "giant": "big", "massive": "big",
    "little": "small", "tiny": "small",
    "persons": "people", "figures": "people", "ppl": "people", "peeps": "people",
    "human": "people", "humans": "people",
    "colorful": "color", "colourful": "color",
}  # fmt: skip


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A deliberately crude stemmer: "gives"/"giving", "trees"/"tree", "colours"/"color" share a stem.

    Suffixes go first, then a final "e" and a doubled last consonant, so that "give"/"giving" and
    "stop"/"stopped" meet at "giv" and "stop".
    """
    word = _SPELLING.get(word, word)
    word = _SYNONYMS.get(word, word)
    if word.endswith("'s"):
        word = word[:-2]
    n = len(word)
    if n > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if n > 5 and word.endswith("ful") or n > 5 and word.endswith("ing"):
        word = word[:-3]
    elif n > 4 and word.endswith("y") and word[-2] not in "aeiouy":
        word = word[:-1]
    elif n > 4 and word.endswith("ed") or n > 3 and word.endswith(("ches", "shes", "sses", "xes")):
        word = word[:-2]
    elif n > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    if len(word) > 3 and word.endswith("e") and not word.endswith("ee"):
        word = word[:-1]
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "aeiouls":
        word = word[:-1]
    return word


_LITERAL_WORD = re.compile(r"[a-z][a-z'\-]*")


def literal_words(*alternations: str) -> frozenset[str]:
    """The words named in regex alternations of plain words, e.g. ``(?:sad|happy|at peace)``."""
    return frozenset(
        w for alt in alternations for part in _LITERAL_WORD.findall(alt) for w in part.split("-")
    )


def content_stems(tokens: list[str]) -> set[str]:
    """Stems of the content words (stopwords and numbers dropped)."""
    return {stem(w) for w in tokens if w not in STOPWORDS and not w.isdigit()}


def _load_english_vocabulary() -> frozenset[str]:
    """Common English words from TextBlob's shipped spelling list (word and corpus count per line).

    Words seen at least twice in that corpus, plus the stopwords and art vocabulary below and the
    profanity model's vocabulary; function words of other languages that also appear in English
    texts are taken out again.
    """
    vocab: set[str] = set()
    # Located without importing textblob, whose import pulls in nltk and scipy (seconds).
    spec = find_spec("textblob")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("textblob is not installed")
    path = Path(spec.submodule_search_locations[0]) / "en" / "en-spelling.txt"
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line or line.startswith(";"):
            continue
        word, _, count = line.partition(" ")
        if count.strip().isdigit() and int(count) >= 2:
            vocab.add(word.lower())
    vocab |= STOPWORDS | ART_WORDS
    # Present-day words ("graffiti", "billboard", "neon") from the vocabulary of the shipped
    # profanity model, which was fitted on English online comments.
    try:
        from profanity_check.profanity_check import vectorizer

        vocab.update(w for w in vectorizer.vocabulary_ if w.isalpha())
    except (ImportError, AttributeError):
        pass
    return frozenset(vocab - FOREIGN_FUNCTION_WORDS)


# Words every description of an artwork may use that an old-books corpus lacks.
ART_WORDS = frozenset(
    """
    artwork artist brushstroke brushstrokes brushwork impressionist impressionism abstract cubist
    cubism surreal surrealist realistic backdrop foreground midground background turquoise teal beige
    magenta maroon navy pastel pastels silhouette silhouettes ok okay hmm yeah yep nope colors colour
    colours gray grey grayish greyish bluish reddish greenish yellowish brownish pinkish purplish
    orangey watercolor watercolour acrylic canvas sketch sketches portrait portraits landscape
    landscapes seascape cityscape monochrome vibrant hues hue texture textures textured detailed
    blurry blurred shading shadows strokes outfit outfits hairstyle jeans shirt tshirt t-shirt
    cartoon cartoonish photo photograph photos selfie rooftop rooftops skyscraper skyscrapers
    """.split()
)

# Function words and the commonest words of Spanish, French, German, Italian, Portuguese and Dutch
# that are not English words, or are only rarely used as words in English chat ("de", "la", "un",
# the single letters "e", "y", "o"). They are taken out of the English vocabulary below.
FOREIGN_FUNCTION_WORDS = frozenset(
    """
    el los las una unos unas del al es está están esta este estos muy pero porque como con sin
    sobre también hay mujer hombre cielo casa qué cuál dónde
    le les une des est sont avec pour dans sur mais très aussi il elle ils elles nous vous je tu
    c'est qu'est-ce pas
    der die das und ist nicht mit ein eine einen dem den auf für auch sehr ich sie wir ihr es gibt
    wie was welche
    il lo gli della delle che sono non con per molto anche questo questa c'è
    os um uma não são com muito também isso ela ele
    het een niet zijn ook maar met voor
    para por entre cuando donde muy estoy estás
    du au aux cette ces qui très sont
    zu von bei nach aus oder aber noch schon nur kein keine auch
    di nel nella sul sulla degli
    dos das em uma são
    muchas muchos mucho mucha debajo encima detrás delante junto tiene tienen lleva llevan están estan
    ellos ella sus algo pequeño pequeno pequeña pequena tres cuatro niño nino niños perro gato barco nubes
    blanco rojo azul verde bonito bonita triste feliz claro sí
    uno hanno dello dei alla sotto sopra dietro davanti accanto vicino piccolo piccola lei loro suo sua tre
    cosa quando perché perche uomo nave barca gatto bello bella capelli vestito nero bianco rosso certo
    esatto poco quello quella
    ce que ou où tres beaucoup petit petite deux trois quatre femme homme ciel mer bateau chien voilà voila
    oui sous derrière devant
    ja
    sind einem einer unter über hinter neben zwei drei vier schön schoen haben trägt frau himmel meer
    schiff hund katze nein groß genau natürlich
    naast achter twee mooi groot vrouw lucht zee hond
    sao tem mulher homem céu cão cachorro nao
    de la un e y o ha
    """.split()
) - {"die", "was", "den", "pour", "per", "con", "sin", "non", "um", "met", "hay"}  # also English words

ENGLISH_WORDS = _load_english_vocabulary()


# --- required literals: skip a regex that cannot match ----------------------------------------------


def _required(items: list, flags: int) -> frozenset[str] | None:
    """Strings of which every match of the parsed regex ``items`` contains one (None: no such set).

    Conservative: runs of literal characters (zero-width anchors such as ``\\b`` do not break them),
    groups, alternations and repeats taken at least once; anything else only ends a run.
    """
    from re import _constants as C  # type: ignore[attr-defined]

    if flags & re.IGNORECASE:
        return None
    candidates: list[frozenset[str]] = []
    run: list[str] = []

    def end_run() -> None:
        if run:
            candidates.append(frozenset(["".join(run)]))
            run.clear()

    for op, av in items:
        if op is C.LITERAL:
            run.append(chr(av))
            continue
        if op is C.AT:
            continue  # zero width: the characters around it are neighbours in the text
        if op in _REPEATS and av[0] >= 1 and _one_literal(av[2]):
            # a character repeated (``f+u+c+k+``): its first copy ends the run before it and its last
            # starts the next, so every match holds "fu", "uc" and "ck", not only single letters
            c = chr(av[2][0][1])
            run.append(c)
            end_run()
            run.append(c)
            continue
        end_run()
        if op is C.SUBPATTERN:
            _group, add_flags, del_flags, sub = av
            sub_req = _required(list(sub), (flags | add_flags) & ~del_flags)
            if sub_req is not None:
                candidates.append(sub_req)
        elif op is C.BRANCH:
            union: set[str] = set()
            for branch in av[1]:
                branch_req = _required(list(branch), flags)
                if branch_req is None:
                    break
                union |= branch_req
            else:
                candidates.append(frozenset(union))
        elif op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT) and av[0] >= 1:
            sub_req = _required(list(av[2]), flags)
            if sub_req is not None:
                candidates.append(sub_req)
        elif op in (C.GROUPREF, C.GROUPREF_EXISTS):
            return None  # a branch alone would number its groups differently: never split such a regex
    end_run()
    if not candidates:
        return None
    # the most selective: the longest shortest string, then the fewest strings
    return max(candidates, key=lambda c: (min(map(len, c)), -len(c)))


_REPEATS = (re._constants.MAX_REPEAT, re._constants.MIN_REPEAT, re._constants.POSSESSIVE_REPEAT)  # type: ignore[attr-defined]


def _one_literal(body: Iterable) -> bool:
    """Whether a repeat's parsed body is a single literal character."""
    from re import _constants as C  # type: ignore[attr-defined]

    items = list(body)
    return len(items) == 1 and items[0][0] is C.LITERAL


# Characters by how common they are in English chat, commonest first: a required string is looked up
# by its rarest three characters, so that the common groups of a text ("the", "ing") wake few strings.
_COMMON = " etaoinshrdlcumwfgypbvkjxqz"
_COMMONNESS = {c: len(_COMMON) - i for i, c in enumerate(_COMMON)}

Trigram = tuple[str, str, str]


def _rarest_trigram(need: str) -> Trigram:
    """The three neighbouring characters of ``need`` (three characters or more) least likely in a text."""
    grams = [(need[i], need[i + 1], need[i + 2]) for i in range(len(need) - 2)]
    return min(grams, key=lambda g: sum(_COMMONNESS.get(c, 0) for c in g))


_TEXT_TRIGRAMS: dict[str, frozenset[Trigram]] = {}


def text_trigrams(text: str) -> frozenset[Trigram]:
    """Every three neighbouring characters of ``text``; the last few texts' sets are kept (the rules
    ask about the same message many times in a row)."""
    grams = _TEXT_TRIGRAMS.get(text)
    if grams is None:
        if len(_TEXT_TRIGRAMS) >= 32:
            _TEXT_TRIGRAMS.clear()
        grams = _TEXT_TRIGRAMS[text] = frozenset(zip(text, text[1:], text[2:], strict=False))
    return grams


class LiteralGate:
    """A regex split into its top-level alternatives, each searched only when a string it needs is in
    the text: ``search`` is truthy exactly when ``pattern.search`` is (a match of ``a|b`` at a position
    is a match of ``a`` or of ``b`` there), and ``may_match`` is False only when the regex cannot match.

    The required strings of all alternatives are indexed by a three-character group of each, so a
    search looks only at the strings whose group the text has (one set intersection) instead of
    testing every string; an alternative's regex is compiled the first time it is needed.
    """

    def __init__(self, pattern: re.Pattern[str]) -> None:
        from re import _parser  # type: ignore[attr-defined]

        self.pattern = pattern
        parsed = list(_parser.parse(pattern.pattern, pattern.flags))
        # (source, required strings) of each top-level alternative, or None: the regex is kept whole
        self.branches = self._split(pattern, parsed)
        if self.branches is None:
            whole = _required(parsed, pattern.flags)
            self.needs = None if whole is None else tuple(sorted(whole))
            self._sources = [pattern.pattern]
            self._regexes: list[re.Pattern[str] | None] = [pattern]
            self._windows: list[EndWindow | None] = [end_window(pattern.pattern, pattern.flags)]
            self._index_needs([self.needs])
            return
        needs_of = [needs for _, needs in self.branches]
        self.needs = None if None in needs_of else tuple(sorted(set().union(*needs_of)))  # type: ignore[arg-type]
        # the alternatives that need no string are searched as one regex, after the others
        unneeded = [part for part, needs in self.branches if needs is None]
        self._sources = [part for part, needs in self.branches if needs is not None]
        if unneeded:
            self._sources.append("|".join(unneeded))
        self._regexes = [None] * len(self._sources)
        self._windows = [None] * len(self._sources)
        self._index_needs([needs for needs in needs_of if needs is not None] + [None] * bool(unneeded))

    @classmethod
    def _split(
        cls, pattern: re.Pattern[str], parsed: list
    ) -> tuple[tuple[str, tuple[str, ...] | None], ...] | None:
        """The top-level alternatives of the regex and their required strings (None: not split).

        The parser moves what every alternative starts with (often ``\\b``) out in front of them; it
        is put back before each alternative's own requirements are read.
        """
        from re import _constants as C  # type: ignore[attr-defined]

        plain = not pattern.flags & re.VERBOSE  # comments could hold a "|"
        if not plain or not parsed or parsed[-1][0] is not C.BRANCH or not cls._no_groups(parsed):
            return None
        prefix = parsed[:-1]
        alternatives = parsed[-1][1][1]
        parts = split_top(pattern.pattern)
        if parts is None or len(parts) != len(alternatives) or len(parts) < 2:
            return None
        out = []
        for part, alt in zip(parts, alternatives, strict=True):
            req = _required(prefix + list(alt), pattern.flags)
            out.append((part, None if req is None else tuple(sorted(req))))
        return tuple(out)

    def _index_needs(self, needs_of: list[tuple[str, ...] | None]) -> None:
        """Index each alternative's required strings by their rarest three characters."""
        always: list[int] = []
        short: list[tuple[str, int]] = []
        index: dict[Trigram, list[tuple[str, int]]] = {}
        for i, needs in enumerate(needs_of):
            if needs is None:
                always.append(i)
                continue
            for need in needs:
                if len(need) < 3:
                    short.append((need, i))
                else:
                    index.setdefault(_rarest_trigram(need), []).append((need, i))
        self._always = frozenset(always)
        self._always_sorted = tuple(sorted(always))
        self._short = tuple(short)
        self._index = {key: tuple(entries) for key, entries in index.items()}
        self._keys = frozenset(index)

    @staticmethod
    def _no_groups(parsed: list) -> bool:
        return "GROUPREF" not in repr(parsed)

    def may_match(self, text: str) -> bool:
        needs = self.needs
        if needs is None:
            return True
        for s in needs:  # noqa: SIM110  (a plain loop: a generator per call costs more than the look-ups)
            if s in text:
                return True
        return False

    def _candidates(self, text: str) -> Sequence[int]:
        """The alternatives that may match ``text`` (each holds a string it needs, or needs none).

        Most calls find none (62 % in bulk QC): the set and the sort are made only for those that do.
        """
        grams = _TEXT_TRIGRAMS.get(text)
        if grams is None:
            grams = text_trigrams(text)
        found = None
        keys = self._keys.intersection(grams)
        if keys:
            index = self._index
            found = {i for key in keys for need, i in index[key] if need in text}
        for need, i in self._short:
            if need in text:
                if found is None:
                    found = {i}
                else:
                    found.add(i)
        if found is None:
            return self._always_sorted
        if self._always:
            found.update(self._always)
        return sorted(found)

    def search(self, text: str) -> bool:
        """Whether ``pattern.search(text)`` finds a match; an alternative anchored at the end of the text
        is searched only from where a match of it could start (``end_window``)."""
        regexes = self._regexes
        for i in self._candidates(text):
            rx = regexes[i]
            if rx is None:
                rx = regexes[i] = re.compile(self._sources[i], self.pattern.flags)
                self._windows[i] = end_window(self._sources[i], self.pattern.flags)
            window = self._windows[i]
            if window is None:
                if rx.search(text) is not None:
                    return True
            elif (start := end_start(text, window)) is not None and rx.search(text, start) is not None:
                return True
        return False


@dataclass(frozen=True, slots=True)
class EndWindow:
    """What ``end_window`` knows of a regex that must end the text (see there)."""

    width: int  # the most characters the part before the trailing run consumes, besides ``runs``
    runs: tuple[str, ...]  # characters that part may repeat without bound (``a+``)
    trail: frozenset[str]  # the characters the trailing run may hold
    space: bool  # whether the trailing run may hold whitespace
    # per length n: the last n characters (reversed) of every match of that part; None: any
    endings: tuple[tuple[int, frozenset[str]], ...] | None


_UNBOUNDED = 1 << 62


def end_window(source: str, flags: int) -> EndWindow | None:
    """Where a regex that must end the text can match, or None when that is not simply known.

    A regex such as ``\\b(?:bye|see you)(?: now)?\\s*[!.]*$`` tried at every position of a long message
    costs far more than the few places it can match: its match is a part of bounded width followed by
    a run of whitespace or listed characters up to the end. So that part ends where the text does
    without such a run (or within that run), its last characters are among those the part can end
    with (``prefix.endings_by_length``, the mirror of the start-of-message gate), and its match starts
    no earlier than that end less the part's widest match (``end_start``). Searching from there with
    ``pattern.search(text, pos)`` keeps ``\\b`` and look-behinds reading the whole text, and ``^``
    still matches only at 0, so the answer is that of ``pattern.search(text)``.
    """
    from re import _constants as C  # type: ignore[attr-defined]
    from re import _parser  # type: ignore[attr-defined]

    if flags & (re.IGNORECASE | re.MULTILINE | re.VERBOSE) or "\U0010ffff" in source:
        return None
    try:
        items = list(_parser.parse(source, flags))
    except re.error:
        return None
    if not items or items[-1] != (C.AT, C.AT_END):
        return None
    items.pop()
    trail: set[str] = set()
    space = False
    while items and items[-1][0] in (C.MAX_REPEAT, C.MIN_REPEAT) and items[-1][1][0] == 0:
        body = list(items[-1][1][2])
        if len(body) != 1 or body[0][0] is not C.IN:
            break
        for op, av in body[0][1]:
            if op is C.LITERAL:
                trail.add(chr(av))
            elif op is C.CATEGORY and av in (C.CATEGORY_SPACE, C.CATEGORY_UNI_SPACE):
                space = True
            else:
                return None
        items.pop()
    runs: set[str] = set()
    width = _max_width(items, runs)
    if width >= _UNBOUNDED:
        return None
    return EndWindow(width, tuple(sorted(runs)), frozenset(trail), space, endings_by_length(items, 3))


def _max_width(items: Iterable, runs: set[str]) -> int:
    """The most characters a match of the parsed ``items`` consumes, not counting those of a single
    character repeated without bound (``a+``), which are added to ``runs``: a match holds no more of
    them than the text does. ``_UNBOUNDED`` when no bound is known."""
    from re import _constants as C  # type: ignore[attr-defined]

    total = 0
    for op, av in items:
        if op is C.BRANCH:
            total += max(_max_width(alt, runs) for alt in av[1])
        elif op is C.SUBPATTERN:
            total += _max_width(av[-1], runs)
        elif op is C.ATOMIC_GROUP:
            total += _max_width(av, runs)
        elif op in _REPEATS:
            lo, hi, body = av
            body = list(body)
            if hi == C.MAXREPEAT:
                if not _one_literal(body):
                    return _UNBOUNDED
                runs.add(chr(body[0][1]))
            else:
                total += hi * _max_width(body, runs)
        elif op in (C.LITERAL, C.NOT_LITERAL, C.ANY, C.IN, C.RANGE, C.CATEGORY):
            total += 1
        elif op not in (C.AT, C.ASSERT, C.ASSERT_NOT):
            return _UNBOUNDED
        if total >= _UNBOUNDED:
            return _UNBOUNDED
    return total


def end_start(text: str, window: EndWindow) -> int | None:
    """Where to search ``text`` for the regex of ``window`` (None: it cannot match). The part before
    the trailing run ends at some p with only trailing-run characters after it (and a final newline,
    which ``$`` skips), so p is at least where the text ends without them; its last characters must
    be among its endings at some such p; and its match starts at most its widest match before p."""
    trail, space = window.trail, window.space
    end = length = len(text)
    while end and ((c := text[end - 1]) in trail or c == "\n" or space and c.isspace()):
        end -= 1
    endings = window.endings
    if endings is not None:
        for p in range(end, length + 1):
            tail = text[max(0, p - 3) : p][::-1]
            for n, heads in endings:  # a plain loop: a generator per call costs more than the look-ups
                if tail[:n] in heads:
                    break
            else:
                continue
            break
        else:
            return None
    width = window.width
    for c in window.runs:
        width += text.count(c)
    return end - width if end > width else 0


class EndGate:
    """``search(text)`` is ``pattern.search(text) is not None`` for a regex that must end the text,
    skipping it when the text's last characters rule a match out and otherwise searching only from
    where a match can start (``end_window``; a regex it cannot read is searched whole)."""

    __slots__ = ("pattern", "window")

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern = pattern
        self.window = end_window(pattern.pattern, pattern.flags)

    def search(self, text: str) -> bool:
        window = self.window
        if window is None:
            return self.pattern.search(text) is not None
        start = end_start(text, window)
        return start is not None and self.pattern.search(text, start) is not None


def split_top(src: str) -> list[str] | None:
    """The source of a regex cut at its top-level ``|`` (None when unsure how to read it)."""
    parts, depth, start, i, in_class = [], 0, 0, 0, False
    while i < len(src):
        c = src[i]
        if c == "\\":
            i += 2
            continue
        if in_class:
            if c == "]":
                in_class = False
        elif c == "[":
            in_class = True
            if src[i + 1 : i + 2] == "^":
                i += 1
            if src[i + 1 : i + 2] == "]":
                i += 1  # "[]...]": a literal bracket first
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == "|" and depth == 0:
            parts.append(src[start:i])
            start = i + 1
        i += 1
    if depth != 0 or in_class:
        return None
    parts.append(src[start:])
    return parts


_GATES: dict[int, tuple[re.Pattern[str], LiteralGate]] = {}


def gate(pattern: re.Pattern[str]) -> LiteralGate:
    """The ``LiteralGate`` of a compiled regex, built at its first use and kept."""
    entry = _GATES.get(id(pattern))
    if entry is None or entry[0] is not pattern:
        entry = _GATES[id(pattern)] = (pattern, LiteralGate(pattern))
    return entry[1]
