"""Tiny random models built from configs: the way to exercise model code with no model hub.

Each builder trains a small byte-level BPE tokenizer on the given texts, builds a model with
a few hundred thousand random weights from a config, and saves both with
``save_pretrained`` so the real loaders in :mod:`server.evaluation.models` read them back.
``llava`` adds a tiny CLIP vision tower and a processor (image size 32, 16 patches) with a
small chat template, saved the way a LLaVA checkpoint is.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

SPECIALS = ["<pad>", "<s>", "</s>", "<unk>", "<mask>"]  # ids 0..4
PAD, BOS, EOS, UNK, MASK = range(5)
KINDS = ("gpt2", "bart", "t5", "roberta", "roberta-classifier", "sentence-embedder", "llava")
IMAGE_TOKEN = "<image>"
IMAGE_SIZE, PATCH = 32, 8  # 16 patches: 16 image positions in the prompt


def _tokenizer(texts: Iterable[str], vocab_size: int):
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    tok = Tokenizer(models.BPE(unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size, special_tokens=SPECIALS, initial_alphabet=pre_tokenizers.ByteLevel.alphabet()
    )
    tok.train_from_iterator(list(texts), trainer=trainer)
    return PreTrainedTokenizerFast(
        tokenizer_object=tok,
        pad_token="<pad>",
        bos_token="<s>",
        eos_token="</s>",
        unk_token="<unk>",
        mask_token="<mask>",
    )


def build_tiny_model(kind: str, out: str | Path, texts: Iterable[str], seed: int = 0) -> Path:
    """Build and save a tiny random model of ``kind`` (one of :data:`KINDS`) under ``out``."""
    import torch
    import transformers as tf

    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}")
    out = Path(out)
    torch.manual_seed(seed)
    texts = list(texts) or ["an empty corpus"]
    tok = _tokenizer(texts, vocab_size=400)
    vocab = len(tok)
    ids = {"pad_token_id": PAD, "bos_token_id": BOS, "eos_token_id": EOS}
    if kind == "llava":
        return _build_tiny_llava(out, tok)
    if kind == "gpt2":
        cfg = tf.GPT2Config(vocab_size=vocab, n_positions=512, n_embd=32, n_layer=2, n_head=2, **ids)
        model = tf.GPT2LMHeadModel(cfg)
    elif kind == "bart":
        cfg = tf.BartConfig(
            vocab_size=vocab,
            d_model=32,
            encoder_layers=1,
            decoder_layers=1,
            encoder_attention_heads=2,
            decoder_attention_heads=2,
            encoder_ffn_dim=64,
            decoder_ffn_dim=64,
            max_position_embeddings=512,
            decoder_start_token_id=EOS,
            forced_eos_token_id=EOS,
            **ids,
        )
        model = tf.BartForConditionalGeneration(cfg)
    elif kind == "t5":
        cfg = tf.T5Config(
            vocab_size=vocab,
            d_model=32,
            d_kv=16,
            d_ff=64,
            num_layers=1,
            num_decoder_layers=1,
            num_heads=2,
            decoder_start_token_id=PAD,
            pad_token_id=PAD,
            eos_token_id=EOS,
        )
        model = tf.T5ForConditionalGeneration(cfg)
    else:
        cfg = tf.RobertaConfig(
            vocab_size=vocab,
            hidden_size=32,
            num_hidden_layers=2,
            num_attention_heads=2,
            intermediate_size=64,
            max_position_embeddings=520,
            type_vocab_size=1,
            **ids,
        )
        if kind == "roberta-classifier":
            from server.evaluation.labels import EMOTIONS

            cfg.num_labels = len(EMOTIONS)
            cfg.id2label = dict(enumerate(EMOTIONS))
            cfg.label2id = {e: i for i, e in enumerate(EMOTIONS)}
            model = tf.RobertaForSequenceClassification(cfg)
        else:
            model = tf.RobertaModel(cfg)
    out.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(out)
    tok.save_pretrained(out)
    if kind == "sentence-embedder":
        _write_sentence_transformer_files(out, cfg.hidden_size)
    return out


# One user turn (image placeholder, then text) and the assistant's cue: the shape of the
# templates instruction-tuned VLMs ship, written out small.
TINY_CHAT_TEMPLATE = (
    "{% for m in messages %}{% if m['role'] == 'user' %}USER: {% for c in m['content'] %}"
    "{% if c['type'] == 'image' %}<image>\n{% else %}{{ c['text'] }}{% endif %}{% endfor %}\n"
    "{% else %}ASSISTANT: {{ m['content'][0]['text'] }}\n{% endif %}{% endfor %}"
    "{% if add_generation_prompt %}ASSISTANT:{% endif %}"
)


def _build_tiny_llava(out: Path, tok) -> Path:
    """LLaVA: a 2-layer CLIP vision tower, a projector and a 2-layer Llama, plus its processor."""
    import transformers as tf

    tok.add_special_tokens({"additional_special_tokens": [IMAGE_TOKEN]})
    image_id = tok.convert_tokens_to_ids(IMAGE_TOKEN)
    # the PIL image processor needs no torchvision; transformers 4.x has only the one class
    image_cls = getattr(tf, "CLIPImageProcessorPil", None) or tf.CLIPImageProcessor
    image_processor = image_cls(
        size={"shortest_edge": IMAGE_SIZE}, crop_size={"height": IMAGE_SIZE, "width": IMAGE_SIZE}
    )
    processor = tf.LlavaProcessor(
        image_processor=image_processor,
        tokenizer=tok,
        patch_size=PATCH,
        vision_feature_select_strategy="default",
        num_additional_image_tokens=1,  # CLIP's class token, dropped by the "default" strategy
        chat_template=TINY_CHAT_TEMPLATE,
        image_token=IMAGE_TOKEN,
    )
    vision = tf.CLIPVisionConfig(
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=2,
        image_size=IMAGE_SIZE,
        patch_size=PATCH,
        projection_dim=32,
    )
    text = tf.LlamaConfig(
        vocab_size=len(tok),
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=2,
        num_key_value_heads=2,
        max_position_embeddings=1024,
        pad_token_id=PAD,
        bos_token_id=BOS,
        eos_token_id=EOS,
    )
    config = tf.LlavaConfig(
        vision_config=vision,
        text_config=text,
        image_token_index=image_id,
        image_seq_length=(IMAGE_SIZE // PATCH) ** 2,
        vision_feature_layer=-1,
        vision_feature_select_strategy="default",
    )
    model = tf.LlavaForConditionalGeneration(config)
    out.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(out)
    processor.save_pretrained(out)
    return out


def _write_sentence_transformer_files(out: Path, dim: int) -> None:
    """The two small JSON files that make a plain encoder a sentence-transformers model."""
    import json

    (out / "modules.json").write_text(
        json.dumps(
            [
                {"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
                {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"},
            ]
        )
    )
    (out / "1_Pooling").mkdir(exist_ok=True)
    (out / "1_Pooling" / "config.json").write_text(
        json.dumps({"word_embedding_dimension": dim, "pooling_mode_mean_tokens": True})
    )
    (out / "sentence_bert_config.json").write_text(
        json.dumps({"max_seq_length": 256, "do_lower_case": False})
    )
