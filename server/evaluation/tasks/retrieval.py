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

Ranks use the pessimistic tie rule of :mod:`server.evaluation.metrics`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, Literal

import numpy as np

from server.evaluation import metrics
from server.evaluation.tasks.base import Sample, Task, TaskConfig, context_text, image_inputs


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
