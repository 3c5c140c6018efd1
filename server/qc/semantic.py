"""The semantic QC stage: sentence embeddings catch what word overlap misses, in batches.

For each complete dialog it stores threshold-free similarity scores (``qc_semantic.scores``):

- every questioner question against every earlier one: the cosine of the two questions, and
  the cosine of the words each has that the other lacks (a rewording keeps those close: "is
  she indoors?" / "is the woman inside?"; a swapped object does not: "the man on the left" /
  "the man on the right", whose whole-question cosine is 0.96);
- every question against each of the two opinions shown (a question that restates one);
- each explanation against the centre of the dialog's messages (one that talks about
  something else is far from it);
- every message's probability under each per-rule classifier on embeddings
  (``server.qc.semantic_rules``), e.g. that it is off topic or asks for feelings.

``server.qc.semantic_flags`` turns scores into flags under the settings' thresholds, and the
verdict counts them. Idempotent and resumable: a dialog with scores from the same model and
flags under the same QC configuration is skipped; each batch commits on its own.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from sqlalchemy import and_, delete, select
from sqlalchemy.ext.asyncio import async_sessionmaker

from server.db.models import Dialog
from server.db.semantic_models import QcSemantic
from server.qc.flags import flag_turns
from server.qc.inclusion import STOPWORDS, inclusion_problems
from server.qc.pipeline import config_hash, run_qc
from server.qc.record import DialogRecord, load_records
from server.qc.semantic_flags import REPEAT_FLOOR, Thresholds, find
from server.settings import Settings

if TYPE_CHECKING:
    import numpy as np

    from server.qc.embedder import Embedder

# Bump when the scores mean something else (another formula): every dialog is scored again.
SCORE_VERSION = 2
PHASES = ("before_reveal", "after_reveal", "answerer")
_WORD = re.compile(r"[a-z]+")
# "is she indoors?" / "is the woman inside?": a pronoun in one question stands for a person noun
# in the other, so that noun is no difference between them
PRONOUNS = frozenset("she he her him his hers they them their theirs".split())
PERSON_NOUNS = frozenset(
    """woman women man men girl girls boy boys lady ladies child children kid kids person people
    figure figures gentleman""".split()
)


def scores_key(settings: Settings) -> str:
    """Model and scoring version, known without loading the model."""
    from server.qc.embedder import model_id
    from server.qc.semantic_rules_tuned import TUNED_ON

    # the rule classifiers' training data is part of what the scores mean
    return f"{model_id(settings.semantic_model_path)}/v{SCORE_VERSION}/r{TUNED_ON}"


def _stem(word: str) -> str:
    return word[:-1] if word.endswith("s") and len(word) > 3 else word


def _content(text: str) -> list[str]:
    return [w for w in _WORD.findall(text.lower()) if len(w) > 1 and w not in STOPWORDS]


def difference_phrases(a: str, b: str) -> tuple[str, str] | None:
    """The content words of each question that the other lacks; None when either adds nothing."""
    wa, wb = _content(a), _content(b)
    sa, sb = {_stem(w) for w in wa}, {_stem(w) for w in wb}
    only_a = [w for w in wa if _stem(w) not in sb]
    only_b = [w for w in wb if _stem(w) not in sa]
    if PRONOUNS.intersection(_WORD.findall(b.lower())):
        only_a = [w for w in only_a if w not in PERSON_NOUNS]
    if PRONOUNS.intersection(_WORD.findall(a.lower())):
        only_b = [w for w in only_b if w not in PERSON_NOUNS]
    if not only_a or not only_b:
        return None
    return " ".join(only_a), " ".join(only_b)


def _r(x: float) -> float:
    return round(float(x), 4)


def score_records(
    records: Sequence[DialogRecord], embedder: Embedder, encode_batch: int = 64, rule_model: Any = None
) -> dict[str, dict[str, Any]]:
    """Scores for many dialogs with two model passes in all: sentences, then differing words.

    ``rule_model``: the per-rule classifiers to use (default: the shipped ones, trained at first
    use); False leaves the rule scores out.
    """
    import numpy as np

    texts: list[str] = []
    for rec in records:
        texts += [t.text for t in rec.turns]
        texts += [o["text"] for o in rec.opinions]
        texts += [text for _, text in rec.responses.values()]
    vectors = embedder.encode(list(dict.fromkeys(texts)), batch_size=encode_batch)
    index = {text: i for i, text in enumerate(dict.fromkeys(texts))}

    def vec(items: Sequence[str]) -> np.ndarray:
        return vectors[[index[t] for t in items]] if items else np.zeros((0, embedder.dim), np.float32)

    partial: dict[str, dict[str, Any]] = {}
    pending: list[tuple[list[Any], str, str]] = []  # (repeat entry to complete, phrase a, phrase b)
    for rec in records:
        questions = [t for t in rec.turns if t.role == "questioner"]
        q = vec([t.text for t in questions])
        sims = q @ q.T
        opinions = q @ vec([o["text"] for o in rec.opinions]).T
        per_question: dict[str, Any] = {}
        for j, turn in enumerate(questions):
            repeats = []
            for i in range(j):
                if sims[i, j] < REPEAT_FLOOR:
                    continue
                entry = [questions[i].seq, _r(sims[i, j]), _r(sims[i, j])]
                phrases = difference_phrases(questions[i].text, turn.text)
                if phrases:
                    pending.append((entry, *phrases))
                repeats.append(entry)
            per_question[str(turn.seq)] = {"repeats": repeats, "opinions": [_r(s) for s in opinions[j]]}
        explanations: dict[str, float] = {}
        if rec.turns:
            centre = vec([t.text for t in rec.turns]).mean(axis=0)
            centre /= max(float(np.linalg.norm(centre)), 1e-9)
            for phase, (_, text) in sorted(rec.responses.items()):
                explanations[phase] = _r(vec([text])[0] @ centre)
        partial[rec.id] = {"questions": per_question, "explanations": explanations}
    if pending:
        a = embedder.encode([p[1] for p in pending], batch_size=encode_batch)
        b = embedder.encode([p[2] for p in pending], batch_size=encode_batch)
        for (entry, _, _), cosine in zip(pending, (a * b).sum(axis=1), strict=True):
            entry[2] = _r(cosine)
    if rule_model is not False:
        for rec in records:
            partial[rec.id]["rules"] = rule_scores(rec, partial[rec.id], vec, rule_model or embedder)
    return partial


def rule_scores(
    rec: DialogRecord, scores: dict[str, Any], vec: Any, model: Any
) -> dict[str, dict[str, float]]:
    """seq -> {rule: probability} of the per-rule classifiers (below ``SCORE_FLOOR`` left out).

    ``model`` is a trained ``semantic_rules.Model``, or the embedder to train the shipped one with.
    """
    import numpy as np

    from server.qc import semantic_rules as sr
    from server.rules.registry import check_dialog

    if not isinstance(model, sr.Model):
        model = sr.trained_model(model)
    if not rec.turns:
        return {}
    turns = [{"role": t.role, "round": t.round, "text": t.text} for t in rec.turns]
    hits = [r.rule_ids for r in check_dialog(turns, rec.opinions, sr.PLAIN)]
    vectors = vec([t.text for t in rec.turns])
    x = np.array(
        [sr.text_features(v, t.role, t.text, h) for v, t, h in zip(vectors, rec.turns, hits, strict=True)]
    )
    probs = model.text_probabilities(x)
    out: dict[str, dict[str, float]] = {}
    for k, (turn, h) in enumerate(zip(rec.turns, hits, strict=True)):
        row = {rule: _r(p[k]) for rule, p in probs.items() if turn.role in sr.ROLES_OF[rule]}
        if turn.role == "questioner":
            pairs = scores["questions"].get(str(turn.seq), {}).get("repeats", [])
            rows = [sr.pair_features(c, d, sr.PAIR_RULE in h) for _, c, d in pairs]
            if (p := model.pair_probability(rows)) is not None:
                row[sr.PAIR_RULE] = _r(p)
        row = {rule: p for rule, p in row.items() if p >= sr.SCORE_FLOOR}
        if row:
            out[str(turn.seq)] = row
    return out


async def pending_semantic(
    sessions: async_sessionmaker, settings: Settings, force: bool = False
) -> list[str]:
    """Complete dialogs of the study without current scores and flags (others cannot be accepted)."""
    query = select(Dialog.id).where(Dialog.study == settings.study, Dialog.status == "complete")
    if not force:
        current = select(QcSemantic.dialog_id).where(
            and_(QcSemantic.model == scores_key(settings), QcSemantic.config_hash == config_hash(settings))
        )
        query = query.where(Dialog.id.not_in(current))
    async with sessions() as db:
        return list((await db.execute(query.order_by(Dialog.id))).scalars())


async def run_semantic(
    sessions: async_sessionmaker,
    settings: Settings,
    dialog_ids: Sequence[str],
    embedder: Embedder | None = None,
    force: bool = False,
) -> Counter[str]:
    """Score (or only re-flag) one batch, store a row each, then refresh the batch's verdicts.

    The model is loaded only when some dialog needs embedding: re-flagging after a threshold
    change uses the stored scores.
    """
    key, digest = scores_key(settings), config_hash(settings)
    thresholds = Thresholds.from_settings(settings)
    counts: Counter[str] = Counter()
    async with sessions() as db:
        rows = {
            r.dialog_id: r
            for r in (
                await db.execute(select(QcSemantic).where(QcSemantic.dialog_id.in_(dialog_ids)))
            ).scalars()
        }
        records = [r for r in await load_records(db, list(dialog_ids)) if r.status == "complete"]
    todo = []
    for rec in records:
        row = rows.get(rec.id)
        if row is not None and not force and row.model == key and row.config_hash == digest:
            counts["skipped"] += 1
        else:
            todo.append(rec)
    embed = [rec for rec in todo if force or rec.id not in rows or rows[rec.id].model != key]
    scores: dict[str, dict[str, Any]] = {}
    if embed:
        if embedder is None:
            from server.qc.embedder import shared_embedder

            embedder = shared_embedder(settings.semantic_model_path, settings.semantic_device)
        scores = score_records(embed, embedder)
    counts["embedded"] += len(embed)
    counts["reflagged"] += len(todo) - len(embed)
    results = []
    for rec in todo:
        rec_scores = scores.get(rec.id) or rows[rec.id].scores
        _, review = inclusion_problems(
            rec, settings.qc_min_explanation_words, settings.qc_min_reference_overlap
        )
        found = find(rec_scores, flag_turns(rec, settings.rules), review, thresholds)
        counts["flagged"] += found.new > 0
        results.append(
            QcSemantic(dialog_id=rec.id, model=key, scores=rec_scores, flags=found.flags, config_hash=digest)
        )
    if results:
        async with sessions() as db:
            ids = [r.dialog_id for r in results]
            await db.execute(delete(QcSemantic).where(QcSemantic.dialog_id.in_(ids)))
            db.add_all(results)
            await db.commit()
        # the verdict reads these rows; recompute it for the batch (the lexical part is cheap)
        counts.update(await run_qc(sessions, settings, ids, force=True))
    return counts


def batches(ids: Sequence[str], size: int) -> Iterator[list[str]]:
    for start in range(0, len(ids), size):
        yield list(ids[start : start + size])
