"""QC of a batch of dialogs: idempotent (same config, same result, skipped) and resumable."""

from __future__ import annotations

import hashlib
import json
from collections import Counter

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import async_sessionmaker

from server.db.models import Dialog, QcResult
from server.db.semantic_models import QcSemantic
from server.qc.flags import flag_turns
from server.qc.inclusion import inclusion_problems
from server.qc.record import load_records
from server.qc.scores import explanation_scores
from server.qc.semantic_flags import Thresholds, find
from server.qc.verdict import decide
from server.settings import Settings


def config_hash(settings: Settings) -> str:
    """Results computed under the same thresholds and rules are reused; a change recomputes."""
    relevant = {k: v for k, v in settings.model_dump(mode="json").items() if k.startswith("qc_")}
    relevant["rules"] = settings.rules
    return hashlib.sha256(json.dumps(relevant, sort_keys=True).encode()).hexdigest()[:16]


async def pending_dialogs(sessions: async_sessionmaker, settings: Settings, force: bool = False) -> list[str]:
    """Final dialogs of the study without a verdict under the current configuration."""
    digest = config_hash(settings)
    query = select(Dialog.id).where(Dialog.study == settings.study, Dialog.status != "in_progress")
    if not force:
        done = select(QcResult.dialog_id).where(QcResult.config_hash == digest)
        query = query.where(Dialog.id.not_in(done))
    async with sessions() as db:
        return list((await db.execute(query.order_by(Dialog.id))).scalars())


async def run_qc(
    sessions: async_sessionmaker, settings: Settings, dialog_ids: list[str], force: bool = False
) -> Counter[str]:
    """Judge the dialogs and store one QcResult each; returns counts by verdict."""
    digest = config_hash(settings)
    counts: Counter[str] = Counter()
    async with sessions() as db:
        if not force:
            fresh = select(QcResult.dialog_id).where(
                QcResult.dialog_id.in_(dialog_ids), QcResult.config_hash == digest
            )
            skip = set((await db.execute(fresh)).scalars())
            counts["skipped"] = len(skip)
            dialog_ids = [d for d in dialog_ids if d not in skip]
        records = await load_records(db, dialog_ids)
        # scores of the optional semantic stage (`avd qc semantic`), when it has run
        stored = select(QcSemantic.dialog_id, QcSemantic.scores).where(QcSemantic.dialog_id.in_(dialog_ids))
        semantic_scores = {dialog_id: scores for dialog_id, scores in (await db.execute(stored)).all()}
        thresholds = Thresholds.from_settings(settings)
        results = []
        for rec in records:
            reject, review = inclusion_problems(
                rec, settings.qc_min_explanation_words, settings.qc_min_reference_overlap
            )
            flags = flag_turns(rec, settings.rules)
            semantic: list[str] = []
            if rec.id in semantic_scores:
                semantic = find(semantic_scores[rec.id], flags, review, thresholds).reasons
            decision = decide(
                reject,
                review,
                flags,
                settings.qc_hard_flags_for_reject,
                settings.qc_soft_flags_for_review,
                semantic,
            )
            counts[decision.verdict] += 1
            results.append(
                QcResult(
                    dialog_id=rec.id,
                    verdict=decision.verdict,
                    reasons=decision.reasons,
                    summary=decision.summary,
                    flags=flags,
                    scores=explanation_scores(rec),
                    config_hash=digest,
                )
            )
        await db.execute(delete(QcResult).where(QcResult.dialog_id.in_([r.dialog_id for r in results])))
        db.add_all(results)
        await db.commit()
    return counts
