"""Dialog-based answer retrieval (VisDial protocol): rank 100 candidate answers per round.

Input per round: the question, optionally the two opinions, the caption and the dialog
history before this round. Scorers by model kind:

- ``random``: seeded uniform scores (the floor; R@1 ~ 0.01, R@10 ~ 0.10, mean rank ~ 50.5);
- embedder: cosine similarity between the query (the question, or context + question with
  ``embed_context``) and each candidate;
- causal / seq2seq LM: log-likelihood of the candidate after the prompt
  ``<context>\\nQ: <question>\\nA:``, averaged per token (``reduce=sum`` for the total);
- vision-language model: the same likelihood, with the artwork given too when ``image=true``
  (the answerer saw it while answering).

Ranks use the pessimistic tie rule of :mod:`server.evaluation.metrics`. A split can hold
a million rounds, so the runner's accumulator keeps one rank, round and failure flag per
round (a few bytes each) rather than the samples.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Sequence
from typing import Any, Literal

import numpy as np

from server.evaluation import metrics
from server.evaluation.tasks.base import Accumulator, Sample, Task, TaskConfig, context_text, image_inputs


class RetrievalConfig(TaskConfig):
    opinions: bool = True
    history: bool = True
    caption: bool = False
    reduce: Literal["mean", "sum"] = "mean"
    embed_context: bool = False
    image: bool = False


class RetrievalTask(Task):
    name = "retrieval"
    Config = RetrievalConfig
    model_kinds = ("random", "embedder", "encoder", "causal", "seq2seq", "vlm")
    config: RetrievalConfig

    def samples(self) -> Iterator[Sample]:
        c = self.config
        for n, item in enumerate(self.data.retrieval(self.split)):
            if c.limit is not None and n >= c.limit:
                return
            d = self.data.dialogs[item.dialog_id]
            question = d.rounds[item.round - 1][0]
            context = context_text(d, item.round, opinions=c.opinions, dialog=c.history, caption=c.caption)
            inputs = {"context": context, "question": question, "candidates": list(item.candidates)}
            if c.image:
                inputs.update(image_inputs(d))
            yield Sample(
                id=f"{item.dialog_id}:{item.round}",
                inputs=inputs,
                target=item.gt_index,
                meta={"dialog_id": item.dialog_id, "round": item.round},
            )

    def predict(self, model: Any, samples: Sequence[Sample]) -> list[list[float]]:
        if model.kind == "random":
            return [model.np_rng(s.hash).random(len(s.inputs["candidates"])).tolist() for s in samples]
        if model.kind in ("embedder", "encoder"):
            return self._embedding_scores(model, samples)
        out = []
        for s, image in zip(samples, self.images(samples), strict=True):
            prompt = (
                s.inputs["context"] + "\n" if s.inputs["context"] else ""
            ) + f"Q: {s.inputs['question']}\nA:"
            out.append(
                model.loglik(
                    prompt,
                    s.inputs["candidates"],
                    reduce=self.config.reduce,
                    batch_size=self.config.batch_size,
                    image=image,
                )
            )
        return out

    def _embedding_scores(self, model: Any, samples: Sequence[Sample]) -> list[list[float]]:
        texts: dict[str, int] = {}
        for s in samples:
            for t in s.inputs["candidates"]:
                texts.setdefault(t, len(texts))
        queries = [
            (s.inputs["context"] + "\n" + s.inputs["question"])
            if self.config.embed_context
            else s.inputs["question"]
            for s in samples
        ]
        cand = model.encode(list(texts), batch_size=self.config.batch_size)
        query = model.encode(queries, batch_size=self.config.batch_size)
        out = []
        for i, s in enumerate(samples):
            idx = np.fromiter((texts[t] for t in s.inputs["candidates"]), dtype=np.int64)
            out.append((cand[idx] @ query[i]).astype(float).tolist())
        return out

    def count(self) -> int | None:
        """Answered rounds of the split's dialogs: the exporter writes one retrieval round for each."""
        n = sum(len(d.rounds) for d in self.data.split(self.split))
        return n if self.config.limit is None else min(n, self.config.limit)

    def score_batch(self, samples: Sequence[Sample], outputs: Sequence[Any]) -> list[dict[str, Any]]:
        """All rounds of a batch in one comparison when they have as many candidates (the usual case)."""
        if len({len(o) for o in outputs}) != 1:
            return super().score_batch(samples, outputs)
        scores = np.asarray(outputs, dtype=np.float64)
        ranks = metrics.retrieval_ranks(scores, np.array([s.target for s in samples]))
        failed = np.isnan(scores).any(axis=1)
        return [{"rank": r, "failed": f} for r, f in zip(ranks.tolist(), failed.tolist(), strict=True)]

    def accumulator(self) -> Accumulator:
        return RankAccumulator()

    def score(self, sample: Sample, output: list[float]) -> dict[str, Any]:
        scores = np.asarray(output, dtype=np.float64)
        rank = int(metrics.retrieval_ranks(scores[None, :], np.array([sample.target]))[0])
        return {"rank": rank, "failed": bool(np.isnan(scores).any())}

    def aggregate(self, samples: Sequence[Sample], outputs: Sequence[Any], scores: Sequence[dict]) -> dict:
        n_candidates = max((len(s.inputs["candidates"]) for s in samples), default=100)
        return metrics.retrieval_report(
            [s["rank"] for s in scores],
            [smp.meta["round"] for smp in samples],
            failed=[s["failed"] for s in scores],
            n_candidates=n_candidates,
        )


class RankAccumulator(Accumulator):
    """Per round only its rank, round number and failure flag, in compact arrays."""

    def __init__(self) -> None:
        self.ranks = array("i")
        self.rounds = array("i")
        self.failed = array("b")
        self.n_candidates: int | None = None

    def add(self, sample: Sample, output: Any, score: dict[str, Any]) -> None:
        self.ranks.append(score["rank"])
        self.rounds.append(sample.meta["round"])
        self.failed.append(bool(score["failed"]))
        n = len(sample.inputs["candidates"])
        self.n_candidates = n if self.n_candidates is None else max(self.n_candidates, n)

    def result(self) -> dict[str, Any]:
        return metrics.retrieval_report(
            np.asarray(self.ranks, dtype=np.int64),
            np.asarray(self.rounds, dtype=np.int64),
            failed=np.asarray(self.failed, dtype=bool),
            n_candidates=100 if self.n_candidates is None else self.n_candidates,
        )
