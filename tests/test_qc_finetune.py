"""The fine-tuning experiment (``server.qc.finetune``) end to end on a tiny BERT built from a config.

No hub download and no real model: a two-layer encoder with a twenty-word vocabulary is enough to
show that training, scoring, thresholds and the exact-match count fit together.
"""

from __future__ import annotations

import pytest

pytest.importorskip("torch", reason="the ml extra is not installed")
pytest.importorskip("transformers", reason="the ml extra is not installed")

WORDS = "hello hi there what colour is the car sky red blue questioner answerer opinions earlier question"


@pytest.fixture(scope="module")
def tiny_encoder(tmp_path_factory):
    import torch
    from transformers import BertConfig, BertModel, BertTokenizerFast

    folder = tmp_path_factory.mktemp("tiny-bert")
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", ":", "|", "/", "?", *WORDS.split()]
    (folder / "vocab.txt").write_text("\n".join(vocab) + "\n")
    BertTokenizerFast(vocab_file=str(folder / "vocab.txt")).save_pretrained(str(folder))
    torch.manual_seed(0)
    config = BertConfig(
        vocab_size=len(vocab),
        hidden_size=16,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=32,
        max_position_embeddings=160,
    )
    BertModel(config).save_pretrained(str(folder))
    return folder


def _line(role: str, text: str, labels: list[str]) -> dict:
    return {"role": role, "round": 1, "text": text, "history": [], "opinions": [], "labels": labels}


def test_training_and_scoring_on_a_tiny_bert(tiny_encoder):
    import torch

    from server.qc import finetune as f

    torch.set_num_threads(1)
    lines = [
        _line("questioner", "hello there", ["greeting"]),
        _line("questioner", "hi there", ["greeting"]),
        _line("questioner", "what colour is the car?", []),
        _line("questioner", "what colour is the sky?", []),
    ] * 8
    tokenizer, model, stats = f.train(lines, tiny_encoder, epochs=30, batch_size=8, head_lr=5e-2, freeze=1)
    assert stats["steps"] == 120 and stats["lines"] == 32
    test = [_line("questioner", "hello", ["greeting"]), _line("questioner", "what colour is the car?", [])]
    probs = f.score(tokenizer, model, test)
    # the questioner's rules only: never an answerer rule such as short_answer
    assert "short_answer" not in probs[0] and "greeting" in probs[0]
    assert probs[0]["greeting"] > 0.55 > 0.5 > probs[1]["greeting"]
    # thresholds from the tuning lines, then the exact matches they give
    thresholds = f.tune(test, probs, None)
    assert "greeting" in thresholds
    assert f.measure(test, f.predictions(probs, thresholds, None))["exact"] == 2
    # OR with the live rules' hits: a live false alarm stays one
    measured = f.measure(test, f.predictions(probs, thresholds, [[], ["off_topic"]]))
    assert measured["exact"] == 1 and measured["rules"]["off_topic"] == [0, 1, 0]


def test_context_segment_carries_opinions_and_earlier_questions():
    from server.qc.finetune import segments

    line = {
        "role": "questioner",
        "text": "Is the sky blue?",
        "history": [
            {"role": "questioner", "text": "Is the car red?"},
            {"role": "answerer", "text": "Yes."},
            {"role": "questioner", "text": "Is it old?"},
        ],
        "opinions": [{"emotion": "awe", "text": "The sky is huge."}],
    }
    first, context = segments(line)
    assert first == "questioner: Is the sky blue?"
    assert context.startswith("opinions: The sky is huge. | earlier: ")
    assert context.index("it old") < context.index("car red")  # most recent first
    answer = {"role": "answerer", "text": "Blue.", "history": line["history"][:1]}
    assert segments(answer) == ("answerer: Blue.", "question: Is the car red?")
