"""Fine-tuning all-MiniLM-L6-v2 as one multi-label classifier over the 13 rules (session 11).

The semantic stage's per-rule classifiers (``semantic_rules``) sit on a frozen encoder. This asks
whether training the encoder itself carries over to an unseen author better. Input: a role marker
and the message; a second segment gives the context the pair rules need (for the questioner the
opinions and the earlier questions, for the answerer the question being answered). One sigmoid
per rule, the loss masked to the rules of the line's role.

``python -m server.qc.finetune experiment --out DIR`` is the leave-author-out experiment of
``docs/semantic.md`` ("Fine-tuned encoder"): train on every labeled file except batches 16 and
17, choose thresholds on batch 16, report batch 17. Weights go to ``DIR`` (outside the repository).
CPU is enough; ``--threads`` keeps it polite on a shared machine.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from server.rules import learned
from server.rules.config import RULE_IDS
from server.rules.registry import RULES_BY_ID

DATA_DIR = learned.DATA_DIR
# everything labeled except the two batches the experiment holds out (16: tuning, 17: report)
TRAIN_FILES = (
    DATA_DIR / "labeled_messages.jsonl",
    DATA_DIR / "train_messages.jsonl",
    *(DATA_DIR / f"train_more_{c}.jsonl" for c in "abcdefghi"),
    *(DATA_DIR / f"heldout_batch{n}.jsonl" for n in range(4, 16)),
)
TUNE_FILE = DATA_DIR / "heldout_batch16.jsonl"
TEST_FILE = DATA_DIR / "heldout_batch17.jsonl"
RULES = RULE_IDS
SEGMENT_TOKENS = 64  # per segment: the message, then its context
PRECISION = 0.95


# --- input ------------------------------------------------------------------------------------------


def segments(record: Mapping[str, Any]) -> tuple[str, str]:
    """(role marker + message, context): what the pair rules compare the message with."""
    role, history = record["role"], record.get("history") or ()
    first = f"{role}: {record['text']}"
    if role == "questioner":
        opinions = " / ".join(
            o.get("text", "") for o in record.get("opinions") or () if isinstance(o, Mapping)
        )
        earlier = " / ".join(reversed(learned.earlier_questions(history)))
        return first, f"opinions: {opinions} | earlier: {earlier}"
    asked = [h["text"] for h in history if isinstance(h, Mapping) and h.get("role") == "questioner"]
    return first, f"question: {asked[-1] if asked else ''}"


def applies(record: Mapping[str, Any]) -> list[float]:
    """1 for the rules of the line's role (the others are never labeled there)."""
    return [1.0 if record["role"] in RULES_BY_ID[r].roles else 0.0 for r in RULES]


def targets(record: Mapping[str, Any]) -> list[float]:
    labels = set(record.get("labels", ()))
    return [1.0 if r in labels else 0.0 for r in RULES]


def encode(tokenizer: Any, records: Sequence[Mapping[str, Any]]) -> list[tuple[list[int], list[int]]]:
    """Token ids and segment ids, each segment cut to ``SEGMENT_TOKENS``."""
    out = []
    for r in records:
        a, b = segments(r)
        ia = tokenizer(a, add_special_tokens=False, truncation=True, max_length=SEGMENT_TOKENS - 2)[
            "input_ids"
        ]
        ib = tokenizer(b, add_special_tokens=False, truncation=True, max_length=SEGMENT_TOKENS - 1)[
            "input_ids"
        ]
        cls, sep = tokenizer.cls_token_id, tokenizer.sep_token_id
        ids = [cls, *ia, sep, *ib, sep]
        out.append((ids, [0] * (len(ia) + 2) + [1] * (len(ib) + 1)))
    return out


def _batch(items: Sequence[tuple[list[int], list[int]]], pad: int) -> tuple[Any, Any, Any]:
    import torch

    n = max(len(ids) for ids, _ in items)
    ids = torch.full((len(items), n), pad, dtype=torch.long)
    types = torch.zeros((len(items), n), dtype=torch.long)
    mask = torch.zeros((len(items), n), dtype=torch.long)
    for k, (i, t) in enumerate(items):
        ids[k, : len(i)] = torch.tensor(i)
        types[k, : len(t)] = torch.tensor(t)
        mask[k, : len(i)] = 1
    return ids, types, mask


# --- model ------------------------------------------------------------------------------------------


def build_model(encoder_dir: Path | str) -> tuple[Any, Any]:
    """(tokenizer, module): the encoder with mean pooling and one linear output per rule."""
    import torch
    from transformers import AutoModel, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(encoder_dir), local_files_only=True)
    encoder = AutoModel.from_pretrained(str(encoder_dir), local_files_only=True)

    class RuleModel(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.encoder = encoder
            self.dropout = torch.nn.Dropout(0.1)
            self.head = torch.nn.Linear(encoder.config.hidden_size, len(RULES))

        def forward(self, ids: Any, types: Any, mask: Any) -> Any:
            hidden = self.encoder(input_ids=ids, token_type_ids=types, attention_mask=mask).last_hidden_state
            m = mask.unsqueeze(-1).to(hidden.dtype)
            pooled = (hidden * m).sum(1) / m.sum(1).clamp(min=1.0)
            return self.head(self.dropout(pooled))

    return tokenizer, RuleModel()


def train(
    records: Sequence[Mapping[str, Any]],
    encoder_dir: Path | str,
    epochs: float = 3.0,
    batch_size: int = 32,
    lr: float = 5e-5,
    head_lr: float = 2e-3,
    seed: int = 0,
    max_minutes: float | None = None,
    max_steps: int | None = None,
    freeze: int = 2,
    log: Any = print,
) -> tuple[Any, Any, dict[str, Any]]:
    """Fine-tune on ``records``; deterministic for a seed, thread count and step count.

    The word embeddings and the lowest ``freeze`` layers stay as they are: they cost most of the
    optimiser's work (a 30,000-word table) and the upper layers carry the wording a rule needs.
    With ``max_minutes`` the step count is planned from the first steps' pace, so the learning rate
    still decays to zero inside the time box. Returns (tokenizer, model, stats).
    """
    import torch

    random.seed(seed)
    torch.manual_seed(seed)
    tokenizer, model = build_model(encoder_dir)
    frozen = [model.encoder.embeddings, *model.encoder.encoder.layer[:freeze]]
    for part in frozen:
        for p in part.parameters():
            p.requires_grad_(False)
    data = encode(tokenizer, records)
    y = torch.tensor([targets(r) for r in records])
    w = torch.tensor([applies(r) for r in records])
    rng = random.Random(seed)
    steps_per_epoch = math.ceil(len(data) / batch_size)
    planned = max(1, int(steps_per_epoch * epochs))
    total = min(planned, max_steps) if max_steps else planned
    head = list(model.head.parameters())
    body = [p for n, p in model.named_parameters() if not n.startswith("head.") and p.requires_grad]
    opt = torch.optim.AdamW([{"params": body, "lr": lr}, {"params": head, "lr": head_lr}], weight_decay=0.01)
    warm = max(1, planned // 16)  # of the epochs asked for, whatever caps the steps
    plan = {"total": total}
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: min((s + 1) / warm, max(0.0, (plan["total"] - s) / max(1, plan["total"] - warm)))
    )
    loss_fn = torch.nn.BCEWithLogitsLoss(reduction="none")
    model.train()
    start, step, running = time.monotonic(), 0, 0.0
    while step < plan["total"]:
        # length buckets: shuffle, sort chunks by length, shuffle the batches (less padding)
        order = list(range(len(data)))
        rng.shuffle(order)
        batches = []
        for c in range(0, len(order), batch_size * 50):
            chunk = sorted(order[c : c + batch_size * 50], key=lambda i: len(data[i][0]))
            batches += [chunk[k : k + batch_size] for k in range(0, len(chunk), batch_size)]
        rng.shuffle(batches)
        for rows in batches:
            if step >= plan["total"]:
                break
            ids, types, mask = _batch([data[i] for i in rows], tokenizer.pad_token_id)
            logits = model(ids, types, mask)
            weight = w[rows]
            loss = (loss_fn(logits, y[rows]) * weight).sum() / weight.sum().clamp(min=1.0)
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            sched.step()
            step += 1
            running = 0.98 * running + 0.02 * loss.item() if step > 1 else loss.item()
            elapsed = time.monotonic() - start
            if step % 25 == 0 or step == 1:
                log(f"step {step}/{plan['total']} loss {running:.4f} {elapsed / step:.2f} s/step", flush=True)
            if max_minutes is not None and step == 20:
                fits = int(60 * max_minutes / (elapsed / step))
                if fits < plan["total"]:
                    log(f"time box: {plan['total']} steps planned, {fits} fit", flush=True)
                    plan["total"] = max(fits, step + 1)
            if max_minutes is not None and elapsed > 75 * max_minutes:  # the machine got slower
                log(f"time box overrun: stopping at step {step}", flush=True)
                plan["total"] = step  # ends the epoch loop too
    model.eval()
    stats = {"steps": step, "seconds": round(time.monotonic() - start, 1), "lines": len(data)}
    return tokenizer, model, stats


def score(
    tokenizer: Any, model: Any, records: Sequence[Mapping[str, Any]], batch_size: int = 64
) -> list[dict[str, float]]:
    """Per line, the probability of every rule of its role."""
    import torch

    data = encode(tokenizer, records)
    out: list[dict[str, float]] = [{} for _ in records]
    order = sorted(range(len(data)), key=lambda i: len(data[i][0]))
    with torch.no_grad():
        for k in range(0, len(order), batch_size):
            rows = order[k : k + batch_size]
            probs = torch.sigmoid(model(*_batch([data[i] for i in rows], tokenizer.pad_token_id))).tolist()
            for i, p in zip(rows, probs, strict=True):
                roles = applies(records[i])
                out[i] = {r: round(v, 5) for r, v, a in zip(RULES, p, roles, strict=True) if a}
    return out


def save(tokenizer: Any, model: Any, out: Path, meta: Mapping[str, Any]) -> None:
    """Encoder and tokenizer as Hugging Face files, the head as a small torch file, and the metadata."""
    import torch

    out.mkdir(parents=True, exist_ok=True)
    model.encoder.save_pretrained(str(out / "encoder"))
    tokenizer.save_pretrained(str(out / "encoder"))
    torch.save(model.head.state_dict(), out / "head.pt")
    (out / "meta.json").write_text(json.dumps({"rules": list(RULES), **meta}, indent=1))


# --- the experiment ---------------------------------------------------------------------------------


def _load(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def threshold_for(rows: Sequence[tuple[bool, bool, float]], target: float = PRECISION) -> float | None:
    """The threshold at which "hit OR p >= t" finds the most within the precision target (``tune``'s grid)."""
    from server.rules.tune import best_threshold

    tp = sum(g and h for g, h, _ in rows)
    fp = sum(not g and h for g, h, _ in rows)
    if tp + fp and tp / (tp + fp) < target:
        target = tp / (tp + fp)  # the live rule is already below: the model may not lower it
    best = best_threshold(rows, target)
    return None if best is None or best[1] <= tp else best[0]


def tune(
    records: Sequence[Mapping[str, Any]],
    probs: Sequence[Mapping[str, float]],
    live: Sequence[Sequence[str]] | None,
) -> dict[str, float]:
    """Per rule, a threshold from the tuning lines; with ``live`` None the model is judged alone."""
    out = {}
    for rule in RULES:
        rows = [
            (rule in r["labels"], live is not None and rule in h, p.get(rule, 0.0))
            for r, h, p in zip(records, live or [[]] * len(records), probs, strict=True)
            if r["role"] in RULES_BY_ID[rule].roles
        ]
        t = threshold_for(rows)
        if t is not None:
            out[rule] = t
    return out


def measure(records: Sequence[Mapping[str, Any]], predicted: Sequence[set[str]]) -> dict[str, Any]:
    """Exact matches and per-rule (tp, fp, fn)."""
    per = {rule: [0, 0, 0] for rule in RULES}
    exact = 0
    for r, p in zip(records, predicted, strict=True):
        gold = set(r["labels"])
        exact += gold == p
        for rule in RULES:
            if rule in p and rule in gold:
                per[rule][0] += 1
            elif rule in p:
                per[rule][1] += 1
            elif rule in gold:
                per[rule][2] += 1
    return {"messages": len(records), "exact": exact, "rules": per}


def predictions(
    probs: Sequence[Mapping[str, float]],
    thresholds: Mapping[str, float],
    live: Sequence[Sequence[str]] | None,
) -> list[set[str]]:
    out = []
    for k, p in enumerate(probs):
        found = {rule for rule, t in thresholds.items() if p.get(rule, 0.0) >= t}
        out.append(found | set(live[k]) if live is not None else found)
    return out


def aucs(records: Sequence[Mapping[str, Any]], probs: Sequence[Mapping[str, float]]) -> dict[str, float]:
    """Per rule, how well the probabilities rank positives above the other lines of the role."""
    from sklearn.metrics import roc_auc_score

    out = {}
    for rule in RULES:
        rows = [(rule in r["labels"], p[rule]) for r, p in zip(records, probs, strict=True) if rule in p]
        if rows and 0 < sum(g for g, _ in rows) < len(rows):
            out[rule] = round(float(roc_auc_score([g for g, _ in rows], [q for _, q in rows])), 3)
    return out


def _semantic_probs(records: Sequence[Mapping[str, Any]]) -> list[dict[str, float]]:
    """The shipped semantic per-rule classifiers (frozen encoder), as the QC stage runs them."""
    from server.qc import semantic_rules as sr
    from server.qc.embedder import shared_embedder

    embedder = shared_embedder()
    model = sr.trained_model(embedder)
    return sr.predict(model, sr.prepare(records, embedder))


def render(results: Mapping[str, Mapping[str, Any]]) -> str:
    """A Markdown table: exact matches, then per rule P / R of every method."""
    names = list(results)
    lines = ["| | " + " | ".join(names) + " |", "| --- |" + " ---: |" * len(names)]
    lines.append(
        "| exact | "
        + " | ".join(
            f"{m['exact']}/{m['messages']} ({m['exact'] / m['messages']:.1%})" for m in results.values()
        )
        + " |"
    )
    for rule in RULES:
        cells = []
        for m in results.values():
            tp, fp, fn = m["rules"][rule]
            p = f"{tp / (tp + fp):.2f}" if tp + fp else "–"
            rr = f"{tp / (tp + fn):.2f}" if tp + fn else "–"
            cells.append(f"{p} / {rr} ({fp} fp, {fn} fn)")
        lines.append(f"| `{rule}` | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def experiment(args: argparse.Namespace) -> None:
    import torch

    from server.qc import semantic_rules_tuned
    from server.qc.embedder import default_model_path
    from server.qc.semantic_rules import live_hits

    torch.set_num_threads(args.threads)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    tune_set, test_set = _load(TUNE_FILE), _load(TEST_FILE)
    cached = out / "probs.json"
    if cached.exists() and not args.retrain:
        saved = json.loads(cached.read_text())
        p_tune, p_test, stats = saved["tune"], saved["test"], saved["stats"]
    else:
        pool = learned.load_training(TRAIN_FILES)
        pool = pool[: args.limit] if args.limit else pool
        tokenizer, model, stats = train(
            pool,
            default_model_path(),
            epochs=args.epochs,
            seed=args.seed,
            max_minutes=args.max_minutes,
            max_steps=args.max_steps,
            freeze=args.freeze,
        )
        stats |= {"epochs": args.epochs, "seed": args.seed, "threads": args.threads, "freeze": args.freeze}
        t0 = time.monotonic()
        p_tune, p_test = score(tokenizer, model, tune_set), score(tokenizer, model, test_set)
        stats["score_seconds"] = round(time.monotonic() - t0, 1)
        save(tokenizer, model, out, stats)
        cached.write_text(json.dumps({"tune": p_tune, "test": p_test, "stats": stats}))
    print("training:", json.dumps(stats))
    live_tune, live_test = live_hits(tune_set), live_hits(test_set)
    sem_test = _semantic_probs(test_set)
    t_either = tune(tune_set, p_tune, live_tune)
    t_alone = tune(tune_set, p_tune, None)
    print("thresholds, live OR fine-tuned (batch 16):", json.dumps(t_either))
    print("thresholds, fine-tuned alone (batch 16):", json.dumps(t_alone))
    sem_t = dict(semantic_rules_tuned.THRESHOLDS)
    results = {
        "(a) live": measure(test_set, [set(h) for h in live_test]),
        "(b) live OR semantic": measure(test_set, predictions(sem_test, sem_t, live_test)),
        "(c) live OR fine-tuned": measure(test_set, predictions(p_test, t_either, live_test)),
        "(d) fine-tuned alone": measure(test_set, predictions(p_test, t_alone, None)),
        "(d') fine-tuned at 0.5": measure(test_set, predictions(p_test, dict.fromkeys(RULES, 0.5), None)),
    }
    tune_results = {
        "(a) live": measure(tune_set, [set(h) for h in live_tune]),
        "(c) live OR fine-tuned": measure(tune_set, predictions(p_tune, t_either, live_tune)),
        "(d) fine-tuned alone": measure(tune_set, predictions(p_tune, t_alone, None)),
    }
    print("\nbatch 17, ROC AUC of the fine-tuned model:", json.dumps(aucs(test_set, p_test)))
    print("batch 17, ROC AUC of the frozen-embedding classifiers:", json.dumps(aucs(test_set, sem_test)))
    print("\nbatch 16 (tuning):\n" + render(tune_results))
    print("\nbatch 17 (report):\n" + render(results))
    (out / "results.json").write_text(
        json.dumps({"thresholds_either": t_either, "thresholds_alone": t_alone, "batch17": results}, indent=1)
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    ex = sub.add_parser(
        "experiment", help="leave-author-out: train without batches 16-17, tune 16, report 17"
    )
    ex.add_argument("--out", required=True, help="directory for weights and probabilities (outside the repo)")
    ex.add_argument("--epochs", type=float, default=3.0)
    ex.add_argument("--seed", type=int, default=0)
    ex.add_argument("--threads", type=int, default=2)
    ex.add_argument("--max-minutes", type=float, default=None, help="stop training after this long")
    ex.add_argument("--max-steps", type=int, default=None, help="at most this many steps (reproducible)")
    ex.add_argument("--freeze", type=int, default=2, help="encoder layers kept frozen, from the bottom")
    ex.add_argument("--limit", type=int, default=0, help="train on the first N lines only (a smoke test)")
    ex.add_argument("--retrain", action="store_true", help="train again although DIR has probabilities")
    args = parser.parse_args(argv)
    if args.command == "experiment":
        experiment(args)


if __name__ == "__main__":
    main()
