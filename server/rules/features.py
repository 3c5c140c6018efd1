"""What the learned classifiers see of a message: sparse text features and small pair features.

Kept apart from the training code so that the live path imports only this (no scikit-learn): the
same functions make the features when the classifiers are trained and when a message is judged.

Text features are strings (the role, whether the message asks with "?", its first word, its words,
word pairs, and letter groups inside words, which carry a judgement over to unseen forms such as
"gloominess" or a misspelt swear word). Pair features compare a question with one earlier question
or one shown opinion: shares of common content words, letter-group overlap of those words (which
sees "cloth" in "tablecloth"), and whether both are asked the same way.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterable
from functools import lru_cache
from importlib.util import find_spec
from pathlib import Path

from server.rules import text as T
from server.rules.overlap import question_terms


def _load_lexicon() -> dict[str, tuple[bool, int]]:
    """TextBlob's shipped adjective lexicon: word -> (subjective?, polarity sign).

    A general list of evaluative words lets a judgement in a word no training line used ("cheerful",
    "bleak") count like one that did. Located without importing textblob (slow to import).
    """
    spec = find_spec("textblob")
    if spec is None or not spec.submodule_search_locations:
        return {}
    path = Path(spec.submodule_search_locations[0]) / "en" / "en-sentiment.xml"
    scores: dict[str, list[tuple[float, float]]] = {}
    for node in ET.parse(path).getroot().iter("word"):
        form = (node.get("form") or "").lower()
        scores.setdefault(form, []).append(
            (float(node.get("polarity") or 0), float(node.get("subjectivity") or 0))
        )
    out = {}
    for form, values in scores.items():
        polarity = sum(p for p, _ in values) / len(values)
        subjectivity = sum(s for _, s in values) / len(values)
        sign = 1 if polarity >= 0.3 else -1 if polarity <= -0.3 else 0
        if subjectivity >= 0.6 or sign:
            out[form] = (subjectivity >= 0.6, sign)
    return out


LEXICON = _load_lexicon()
# Who or what can have a feeling of its own in a picture: an emotion said of these describes.
ANIMATE = frozenset(
    """
    he she they him her his them their hers man men woman women boy boys girl girls child children kid kids
    baby babies people person persons lady ladies gentleman guy guys mother father mum mom dad son daughter
    sister brother wife husband family couple bride groom king queen prince princess soldier soldiers sailor
    sailors farmer fisherman merchant clown clowns rider dancer dancers musician musicians singer waiter
    waitress worker workers crowd figure figures face faces expression eyes smile audience keeper hunter
    hunters skater skaters beggar monk nurse teacher student students old young dog dogs cat cats horse
    horses bird birds fox tiger lion animal animals cow cows sheep goat pig puppy puppies kitten wolf wolves
    """.split()
)
# Words that name the artwork or its overall effect: an emotion said of these imposes or asks a feeling.
ARTWORK = frozenset(
    """
    it it's this that painting picture image artwork art piece work scene canvas portrait landscape
    overall whole mood atmosphere vibe vibes tone feel feeling colours colors palette
    """.split()
)
YOU = frozenset("you your yours yourself u ur".split())
ME = frozenset("i i'm i've i'd my me mine myself".split())


def text_features(
    role: str, text: str, words: list[str], profanity: float = 0.0, fired: Iterable[str] = ()
) -> list[str]:
    """Feature strings of a message: ``message_features``, ``word_pairs`` and every word's
    ``word_features`` (the live path computes the same three parts, caching the last two)."""
    feats = message_features(role, text, words, profanity, fired)
    prev = "<s>"
    for w in [*words, "</s>"]:
        feats.append(word_pair(prev, w))
        prev = w
    for w in words:
        feats.extend(word_features(w))
    return feats


def word_pair(first: str, second: str) -> str:
    """Two neighbouring words ("<s>" and "</s>" mark the ends: the first word is one pair)."""
    return "b:" + first + " " + second


@lru_cache(maxsize=65536)
def word_features(word: str) -> tuple[str, ...]:
    """What one word contributes whatever its neighbours: itself and its groups of 3 and 4 letters.

    Letter groups (edges marked: " gloo", "omy ") carry a judgement over to unseen forms such as
    "gloominess" or a misspelt swear word. The live path caches these per word.
    """
    padded = " " + word + " "
    n = len(padded)
    return (
        ("w:" + word,)
        + tuple("c:" + padded[i : i + 3] for i in range(n - 2))
        + tuple("c:" + padded[i : i + 4] for i in range(n - 3))
    )


def message_features(
    role: str, text: str, words: list[str], profanity: float = 0.0, fired: Iterable[str] = ()
) -> list[str]:
    """The features that depend on the whole message (not on single words or pairs of them).

    ``profanity`` is the shipped offensive-language model's probability for the message, ``fired``
    the rules whose own detectors hit it.
    """
    feats = ["r:" + role[0]]
    feats.extend("h:" + rule_id for rule_id in fired)
    for cut in (0.2, 0.4, 0.6, 0.8):
        if profanity >= cut:
            feats.append(f"p:{cut}")
    if text.rstrip().endswith("?"):
        feats.append("?end")
    elif "?" in text:
        feats.append("?in")
    if not words:
        return feats
    feats.append("n:" + (str(len(words)) if len(words) < 6 else "6+" if len(words) < 15 else "15+"))
    wordset = set(words)
    present = [name for name, group in _GROUPS if not group.isdisjoint(wordset)]
    feats.extend("g:" + name for name in present)
    if not ME.isdisjoint(wordset) or "our" in wordset or "we" in wordset:
        feats.extend(_personal(words))
    kinds = {"L:s" if subj else "L:o" for subj, _ in (LEXICON[w] for w in words if w in LEXICON)}
    if kinds:
        signs = {sign for w in words if w in LEXICON and (sign := LEXICON[w][1])}
        feats.extend("L:+" if sign > 0 else "L:-" for sign in signs)
        # sorted: a set of strings iterates in an order PYTHONHASHSEED sets, and the features' order is
        # the order their weights are summed in: two processes differed in a logit's last bit
        ordered = sorted(kinds)
        feats.extend(ordered)
        feats.extend(k + "&" + name for name in present for k in ordered)
    return feats


_GROUPS = (("animate", ANIMATE), ("artwork", ARTWORK), ("you", YOU), ("me", ME))
# The worker's own life: "my uncle", "our garden", "I grew up...", "we went...". A depicted person's
# family is "her son", so these mark an aside about the worker, whatever the topic.
OWN_LIFE = frozenset(
    """
    daughter son sons kids kid children child baby wife husband mum mom dad mother father parents brother
    sister brothers sisters uncle aunt grandma grandmother grandpa grandfather grandparents granny cousin
    family friend friends boyfriend girlfriend partner neighbour neighbor neighbours dog dogs cat cats pet
    pets puppy house home flat apartment town city country village job boss work office school class
    teacher garden car holiday holidays vacation trip childhood
    """.split()
)
PAST_LIFE = frozenset(
    """
    was went used grew had visited lived worked played got saw remember remembered once spent took rode
    been met learned learnt studied bought stayed
    """.split()
)


def _personal(words: list[str]) -> list[str]:
    """Features of the worker's life: a possessive before a life word, "I"/"we" before a past verb."""
    out = set()
    for first, second, third in zip(words, words[1:] + [""], words[2:] + ["", ""], strict=True):
        if first in ("my", "our") and (second in OWN_LIFE or third in OWN_LIFE):
            out.add("P:own")
        elif first in ("i", "we") and (second in PAST_LIFE or third in PAST_LIFE):
            out.add("P:past")
        elif first in ("i", "we", "i'm", "i've") and second in ("have", "am", "do", "play", "live", "love"):
            out.add("P:me-now")
    return sorted(out)


@lru_cache(maxsize=65536)
def _trigrams(terms: frozenset[str]) -> frozenset[str]:
    out: set[str] = set()
    for t in terms:
        padded = " " + t.strip("<>") + " "
        out.update(padded[i : i + 3] for i in range(len(padded) - 2))
    return frozenset(out)


def _jaccard(a: frozenset[str] | set[str], b: frozenset[str] | set[str]) -> float:
    union = len(a | b)
    return len(a & b) / union if union else 0.0


REPEAT_FEATURES = (
    "jaccard",
    "covers_mine",
    "covers_theirs",
    "same_kind",
    "letters",
    "letters_covers_mine",
    "same_frame",
    "identical",
    "few_terms",
    "jaccard_same_kind",
    "one_shared_term_only",
)


@lru_cache(maxsize=16384)
def _question(lower: str) -> tuple[frozenset[str], str, frozenset[str], frozenset[str]]:
    terms, kind, key = question_terms(lower)
    return terms, kind, key, _trigrams(terms)


def repeat_pair(lower: str, earlier_lower: str) -> tuple[float, ...]:
    """How much a question (normalised) repeats one earlier question (normalised)."""
    mine, kind, key, grams = _question(lower)
    theirs, their_kind, their_key, their_grams = _question(earlier_lower)
    shared = len(mine & theirs)
    return (
        _jaccard(mine, theirs),
        shared / len(mine) if mine else 0.0,
        shared / len(theirs) if theirs else 0.0,
        1.0 if kind == their_kind else 0.0,
        _jaccard(grams, their_grams),
        len(grams & their_grams) / len(grams) if grams else 0.0,
        1.0 if not mine and key and key == their_key else 0.0,
        1.0 if lower == earlier_lower else 0.0,
        1.0 / (1 + len(mine)),
        _jaccard(mine, theirs) if kind == their_kind else 0.0,
        1.0 if shared == 1 and len(mine | theirs) == 1 else 0.0,
    )


COPY_FEATURES = ("covers_mine", "shared", "letters", "letters_covers_mine", "pairs", "few_terms")


Terms = tuple[frozenset[str], frozenset[str], frozenset[tuple[str, str]]]


def copy_terms(words: list[str]) -> Terms:
    """(content stems, their letter groups, pairs of neighbouring stems) of a normalised text's words."""
    stems = [T.stem(w) for w in words if w not in T.STOPWORDS and not w.isdigit()]
    return frozenset(stems), _trigrams(frozenset(stems)), frozenset(zip(stems, stems[1:], strict=False))


@lru_cache(maxsize=16384)
def opinion_terms(text: str) -> Terms:
    """``copy_terms`` of an opinion: every question of the dialog is compared with the same two."""
    return copy_terms(T.words(T.normalise(text)))


def copy_pair(text: str, opinion_text: str) -> tuple[float, ...]:
    """How much a question (raw text) takes its content from one opinion (raw text)."""
    return copy_features(opinion_terms(text), opinion_terms(opinion_text))


def copy_features(question: Terms, opinion: Terms) -> tuple[float, ...]:
    """``copy_pair`` of a question's and an opinion's ``copy_terms``."""
    mine, grams, pairs = question
    theirs, their_grams, their_pairs = opinion
    shared = len(mine & theirs)
    return (
        shared / len(mine) if mine else 0.0,
        min(shared, 6) / 6,
        _jaccard(grams, their_grams),
        len(grams & their_grams) / len(grams) if grams else 0.0,
        len(pairs & their_pairs) / len(pairs) if pairs else 0.0,
        1.0 / (1 + len(mine)),
    )
