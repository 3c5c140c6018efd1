"""Every rule in one ordered list, and the functions that run them on messages.

``check`` judges one message (the live chat); ``check_many`` judges many at once (QC and the CLI),
resolving the configuration once; ``check_dialog`` builds each message's history from the messages
before it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from server.rules import answers, language, learned, offensive, overlap, prefix, questions, smalltalk
from server.rules.base import Context, Hit, Rule, RuleResult
from server.rules.config import RulesConfig

RULES: list[Rule] = [
    *smalltalk.RULES,
    *offensive.RULES,
    *language.RULES,
    *questions.RULES[:2],
    *overlap.RULES,
    *answers.RULES[:2],
    questions.RULES[2],
    answers.RULES[2],
]
RULES_BY_ID: dict[str, Rule] = {rule.id: rule for rule in RULES}
DEFAULT_CONFIG = RulesConfig()
_BATCH = 4096  # texts scored per call of the profanity model
_CACHE_SIZE = 100_000  # entries per cache below; emptied when full (bulk QC sees millions of texts)

# The profanity model's score is a pure function of a message's normalised text, cached because
# bulk QC and a chat's stock phrases ("Yes.", "What colours are there?") repeat texts (the
# classifiers keep their own log-odds per text: ``learned.Model.logit_cache``).
_profanity: dict[str, float] = {}


def _profanity_scores(lowers: Sequence[str]) -> list[float]:
    """The profanity model's scores, computing only the texts not seen before (in one batch)."""
    cache = _profanity
    new = list(dict.fromkeys(t for t in lowers if t not in cache))
    if new:
        if len(cache) + len(new) > _CACHE_SIZE:
            cache.clear()  # then every text of this call is new again, the seen ones included
            new = list(dict.fromkeys(lowers))
        cache.update(zip(new, offensive.model_scores(new), strict=True))
    return [cache[t] for t in lowers]


def _config(config: RulesConfig | Mapping[str, Any] | None) -> RulesConfig:
    if config is None:
        return DEFAULT_CONFIG
    if isinstance(config, RulesConfig):
        return config
    return RulesConfig.model_validate(dict(config))


def _learned_logit(ctx: Context, rule_id: str, model: learned.Model, fired: Sequence[str] = ()) -> float:
    """The classifier's log-odds that the message breaks ``rule_id``.

    ``fired`` are the rules whose own detectors hit the message (a feature of the text models: a
    greeting or an insult is not also chitchat just because it addresses "you").
    """
    if rule_id == "repeated_question":
        return model.pair_logit(rule_id, learned.repeat_vectors(ctx.lower, ctx.history))
    if rule_id == "copies_opinion":
        return model.pair_logit(rule_id, learned.copy_vectors(ctx.text, ctx.opinions, ctx.words))
    if ctx.learned is None:
        if ctx.profanity is None:
            ctx.profanity = _profanity_scores([ctx.lower])[0]
        ctx.learned = model.text_logits(ctx.role, ctx.text, ctx.words, ctx.profanity, fired)
    return ctx.learned[learned.TEXT_INDEX[rule_id]]


def learned_score(ctx: Context, rule_id: str, model: learned.Model, fired: Sequence[str] = ()) -> float:
    """The classifier's probability that the message breaks ``rule_id`` (for tuning and reports)."""
    return learned.sigmoid(_learned_logit(ctx, rule_id, model, fired))


Active = list[tuple[Rule, Any, float | None]]
# Per list of active rules (one per configuration and role, kept alive here so that its id stays
# unique): (role, text) -> each detector's verdict when it judged the text alone, else None.
_verdicts: dict[int, tuple[Active, dict[tuple[str, str], tuple[bool | None, ...]]]] = {}


def _text_verdicts(active: Active) -> dict[tuple[str, str], tuple[bool | None, ...]]:
    entry = _verdicts.get(id(active))
    if entry is None or entry[0] is not active:
        if len(_verdicts) >= 16:
            _verdicts.clear()
        entry = _verdicts[id(active)] = (active, {})
    if len(entry[1]) >= _CACHE_SIZE:
        entry[1].clear()
    return entry[1]


def _detect(ctx: Context, active: Active) -> list[bool]:
    """Every active rule's own detector on the message.

    A detector that read neither the round, the history nor the opinions judged the text alone; its
    verdict is kept for the next message with the same role and text (bulk QC meets the same
    questions and answers again and again), and only the others run again.
    """
    memo = _text_verdicts(active)
    key = (ctx.role, ctx.text)
    known = memo.get(key)
    if known is not None:
        return [
            rule.detect(ctx, cfg) if hit is None else hit
            for (rule, cfg, _), hit in zip(active, known, strict=True)
        ]
    detected: list[bool] = []
    alone: list[bool | None] = []
    for rule, cfg, _ in active:
        ctx.read_surroundings = False
        hit = bool(rule.detect(ctx, cfg))
        detected.append(hit)
        alone.append(None if ctx.read_surroundings else hit)
    memo[key] = tuple(alone)  # a tuple of bools leaves the garbage collector's lists; a list never does
    return detected


def _judge(ctx: Context, active: Active, model: learned.Model | None) -> RuleResult:
    """Every rule's own detector first; then, for the rules that did not hit, their classifiers."""
    detected = _detect(ctx, active)
    severity = [cfg.severity for _, cfg, _ in active]
    if model is not None:
        fired = [rule.id for (rule, _, _), hit in zip(active, detected, strict=True) if hit]
        for i, (rule, cfg, threshold) in enumerate(active):
            if (
                threshold is not None
                and not detected[i]
                and rule.classifier_defers_to.isdisjoint(fired)
                and (rule.classifier_spared_by is None or not rule.classifier_spared_by(ctx))
            ):
                detected[i] = _learned_logit(ctx, rule.id, model, fired) >= threshold
                if detected[i] and not cfg.classifier_bounces:  # the classifier alone: a warning
                    severity[i] = "soft"
    hits = [
        Hit(rule.id, sev, cfg.message or rule.explanation)
        for (rule, cfg, _), hit, sev in zip(active, detected, severity, strict=True)
        if hit
    ]
    if not hits:
        return RuleResult("accept", hits)
    return RuleResult("bounce" if any(h.severity == "hard" for h in hits) else "warn", hits)


def _model(cfg: RulesConfig, model: learned.Model | None) -> learned.Model | None:
    """The classifiers to use: none when the configuration runs none, else the given or shipped ones."""
    if not cfg.uses_classifiers():
        return None
    return model or learned.default_model()


def prepare(config: RulesConfig | Mapping[str, Any] | None = None) -> None:
    """Train the classifiers the configuration uses now, not at the first message (1-3 s once), and
    list the openings of the rules' start-of-message gates (``prefix.PrefixGate``, about a second).

    The chat server calls it at start-up, so that no worker's first message waits for training.
    """
    _model(_config(config), None)
    prefix.build_all()


def check(
    role: str,
    round: int,
    text: str,
    history: Sequence[Mapping[str, Any]] = (),
    opinions: Sequence[Mapping[str, Any]] = (),
    config: RulesConfig | Mapping[str, Any] | None = None,
    model: learned.Model | None = None,
) -> RuleResult:
    """Judge one chat message; ``history`` holds the earlier accepted messages ({role, text}).

    ``model`` replaces the shipped classifiers (cross-validation trains its own).
    """
    if role not in ("questioner", "answerer"):
        raise ValueError(f"role must be 'questioner' or 'answerer', not {role!r}")
    cfg = _config(config)
    active = cfg.active(role)
    if not active:  # nothing to judge: skip the message's tokens and the classifiers
        return RuleResult("accept", [])
    ctx = Context(role, round, text, history, opinions)
    ctx.profanity = _profanity.get(ctx.lower)  # a score seen before; else computed when a rule needs it
    return _judge(ctx, active, _model(cfg, model))


def check_many(
    messages: Iterable[Mapping[str, Any]],
    config: RulesConfig | Mapping[str, Any] | None = None,
    model: learned.Model | None = None,
) -> list[RuleResult]:
    """Judge many messages ({role, round, text, history?, opinions?}); same results as ``check``."""
    cfg = _config(config)
    contexts: list[Context] = []
    for m in messages:
        role = m["role"]
        if role not in ("questioner", "answerer"):
            raise ValueError(f"role must be 'questioner' or 'answerer', not {role!r}")
        contexts.append(
            Context(
                role, int(m.get("round") or 0), m["text"], m.get("history") or (), m.get("opinions") or ()
            )
        )
    offensive_cfg = cfg.rule_config("offensive")
    if offensive_cfg.enabled and offensive_cfg.use_model and cfg.is_enabled("offensive"):
        for start in range(0, len(contexts), _BATCH):
            chunk = contexts[start : start + _BATCH]
            for ctx, score in zip(chunk, _profanity_scores([c.lower for c in chunk]), strict=True):
                ctx.profanity = score
    active = {role: cfg.active(role) for role in ("questioner", "answerer")}
    fitted = _model(cfg, model)
    return [_judge(ctx, active[ctx.role], fitted) for ctx in contexts]


def check_dialog(
    turns: Sequence[Mapping[str, Any]],
    opinions: Sequence[Mapping[str, Any]] = (),
    config: RulesConfig | Mapping[str, Any] | None = None,
) -> list[RuleResult]:
    """Judge every message of a dialog in order ({role, text}); each sees the ones before as history.

    Rounds are counted from the questioner's messages when a turn carries none.
    """
    messages = []
    round_no = 0
    for i, turn in enumerate(turns):
        if turn["role"] == "questioner":
            round_no += 1
        messages.append(
            {
                "role": turn["role"],
                "round": turn.get("round") or max(round_no, 1),
                "text": turn["text"],
                "history": turns[:i],
                "opinions": opinions,
            }
        )
    return check_many(messages, config)
