"""Offensive language: a word list for the unmistakable cases plus the shipped alt-profanity-check model.

The model (a linear classifier over word n-grams, shipped inside the package, no download) is
loaded once at import. It was trained on online comments, so words that are ordinary in art
descriptions ("a nude", "hell" in a Last Judgement, a "cock" crowing, an "ass" carrying Mary) or
that name identities ("a black man", "a gay couple") push it towards "offensive"; they are masked
before the model sees the text. Their abusive uses ("go to hell", "kiss my ass") are in the list.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

import profanity_check.profanity_check as _shipped
from profanity_check import predict_prob
from pydantic import Field

from server.rules.base import ROLES, Context, LearnedRuleConfig, Rule, Severity

_BLOCKLIST = re.compile(
    r"\b(?:"
    r"f+u+c+k+\w*|motherf\w*|f\*+k|fck\w*|fuk\w*|wtf|stfu|gtfo|"
    r"shit\w*|bullshit|sh\*t|crap(?:py)?|"
    r"bitch\w*|bastards?|cunts?|whores?|sluts?|dick(?:head|heads|s)|cocksucker\w*|twats?|wankers?|"
    r"ass(?:hole|holes|hat|wipe)s?|dumbass\w*|jackass\w*|"
    r"retard(?:ed|s)?|idiots?|morons?|imbeciles?|(?:you|such a|what a) (?:\w+ )?(?:loser|jerk|clown)|"
    r"nigg\w*|fag(?:s|got\w*)?|spic|kike|chink|tranny|"
    r"piss(?:ed)? off|screw (?:you|u|this|that|off)|suck(?:s)? (?:my|it)|shut (?:the \w+ )?up|"
    r"go to hell|(?:what|who|where|why|how) the (?:hell|heck)|hell (?:no|yes|yeah)|"
    r"damn(?:it| it| you)?|goddamn\w*|"
    r"i hate (?:you|u)|kiss my ass|your ass|(?:you|ur|u) dick|kill (?:yourself|urself|yourselves)|kys|"
    # the partner called blind or stupid without a swear word
    r"(?:are|r) (?:you|u) (?:\w+ )?(?:blind|deaf|stupid|dumb|dense|thick|brain-?dead|illiterate)|"
    r"(?:do|have) (?:you|u) (?:even )?(?:got |have )?(?:eyes|a brain)(?= *(?:[?!.,]|$))|"
    r"can'?t (?:you|u) (?:even )?read|learn (?:how )?to read|use your (?:eyes|brain)"
    r")\b"
    r"|(?<!\w)(?:f|sh|s|b|c|a)[*#@$%]{2,}"  # starred-out swearing ("f***")
)
# Art-ordinary and identity words hidden from the model (see the module docstring).
_MASK = re.compile(
    r"\b(?:hell|hells|damned|damnation|devils?|satan|demons?|ass|asses|cocks?|roosters?|naked|nudes?|"
    r"nudity|breasts?|bosoms?|nipples?|buttocks|bare|kill(?:s|ed|ing)?|killer|murder\w*|dead|death|"
    r"bloody|blood|corpses?|prostitutes?|brothel|rape|sexy|sexual|lovers?|kiss(?:es|ing)?|fat|ugly|"
    r"drunk(?:en)?|butt|balls?|screws?|suck(?:ing|les|led)|gay|jew(?:s|ish)?|black|muslims?|"
    r"africans?|indians?|gypsy|gypsies|slaves?|penis|genitals|dick|pee(?:ing)?|urinat\w*|executioner)\b"
)


class OffensiveConfig(LearnedRuleConfig):
    severity: Severity = "hard"
    use_model: bool = Field(True, description="Also ask the profanity model (besides the word list).")
    model_threshold: float = Field(0.9, gt=0, le=1, description="Model probability that counts as offensive.")
    extra_words: list[str] = Field(default_factory=list, description="More words or phrases to block.")


def model_input(lower: str) -> str:
    """The text the model scores: art-ordinary and identity words removed."""
    return _MASK.sub(" ", lower)


class _LinearScorer:
    """The shipped model's arithmetic without scikit-learn's per-call overhead.

    The package's model is a TF-IDF vectoriser (unigrams, l2 norm) feeding a
    ``CalibratedClassifierCV`` of linear SVMs with sigmoid calibration; its ``predict_prob`` costs
    ~13 ms per call whatever the batch size, which one chat message or one dialog cannot amortise.
    This class reads the same fitted numbers once and computes the same probability in pure
    Python (tests check it against ``predict_prob``).
    """

    def __init__(self) -> None:
        vec, model = _shipped.vectorizer, _shipped.model
        if vec.ngram_range != (1, 1) or vec.norm != "l2" or vec.sublinear_tf or vec.binary:
            raise ValueError("unexpected vectoriser settings")
        folds = model.calibrated_classifiers_
        self.token = re.compile(vec.token_pattern)
        self.intercepts = [float(f.estimator.intercept_[0]) for f in folds]
        self.sigmoids = [(float(f.calibrators[0].a_), float(f.calibrators[0].b_)) for f in folds]
        coefs = [f.estimator.coef_[0] for f in folds]
        idf = vec.idf_
        self.terms = {
            term: (float(idf[j]), tuple(float(c[j]) for c in coefs)) for term, j in vec.vocabulary_.items()
        }
        self.folds = range(len(folds))

    def __call__(self, text: str) -> float:
        counts: dict[str, int] = {}
        for tok in self.token.findall(text):
            if tok in self.terms:
                counts[tok] = counts.get(tok, 0) + 1
        decisions = list(self.intercepts)
        if counts:
            weights = [(n * self.terms[t][0], self.terms[t][1]) for t, n in counts.items()]
            norm = math.sqrt(sum(w * w for w, _ in weights))
            for w, coef in weights:
                for k in self.folds:
                    decisions[k] += w / norm * coef[k]
        total = 0.0
        for d, (a, b) in zip(decisions, self.sigmoids, strict=True):
            total += 1.0 / (1.0 + math.exp(a * d + b))
        return total / len(decisions)


try:
    _score: _LinearScorer | None = _LinearScorer()
except (AttributeError, IndexError, ValueError):  # a future package version shaped differently
    _score = None


def model_scores(lowers: Sequence[str]) -> list[float]:
    """Offensive-language probabilities for normalised texts, as the shipped model gives them."""
    if not lowers:
        return []
    if _score is not None:
        return [_score(model_input(t)) for t in lowers]
    return [float(p) for p in predict_prob([model_input(t) for t in lowers])]


_extra_cache: dict[tuple[str, ...], re.Pattern[str] | None] = {}


def _extra_pattern(extra: list[str]) -> re.Pattern[str] | None:
    key = tuple(extra)
    if key not in _extra_cache:
        alternatives = "|".join(re.escape(w.lower()) for w in extra if w.strip())
        _extra_cache[key] = re.compile(rf"\b(?:{alternatives})\b") if alternatives else None
    return _extra_cache[key]


def detect_offensive(ctx: Context, cfg: OffensiveConfig) -> bool:
    lower = ctx.lower
    if _BLOCKLIST.search(lower):
        return True
    if cfg.extra_words:
        extra = _extra_pattern(cfg.extra_words)
        if extra is not None and extra.search(lower):
            return True
    if not cfg.use_model:
        return False
    if ctx.profanity is None:  # kept: the learned classifiers read it too
        ctx.profanity = model_scores([lower])[0]
    return ctx.profanity >= cfg.model_threshold


RULES = [
    Rule(
        id="offensive",
        roles=frozenset(ROLES),
        explanation="Please keep it polite: no swearing, insults or slurs.",
        summary="Profanity, insults and slurs (word list plus the alt-profanity-check model).",
        config=OffensiveConfig,
        detect=detect_offensive,
    )
]
