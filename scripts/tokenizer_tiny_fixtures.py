#!/usr/bin/env python3
"""Tiny GGUF tokenizers and their Hugging Face ids (issue 10 item 2).

SmolLM2 covers `gpt2` with the `smollm` split; these small files cover the
other paths the Rust loader has: a `llama` (SentencePiece-style, merges
recovered from scores, byte fallback, BOS added) vocabulary, and one byte-level
vocabulary under the `llama-bpe` and `default` splits. Each file is
written with the PyPI `gguf` package, read back by transformers'
`AutoTokenizer.from_pretrained(dir, gguf_file=...)`, and its ids on a small
corpus recorded. Run at fixture time only, in the venv of
scripts/tokenizer_fixtures.py:

    /tmp/fx/bin/python scripts/tokenizer_tiny_fixtures.py

Writes tests/fixtures/gguf_tokenizer/{tiny-spm,tiny-bpe-llama-bpe,tiny-bpe-default}.gguf and ids.json.
"""

import json
import os
from importlib.metadata import version

import gguf
from transformers import AutoTokenizer
from transformers.convert_slow_tokenizer import bytes_to_unicode

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures", "gguf_tokenizer")

WORDS = ["the", "cat", "sat", "on", "mat", "hello", "world", "then", "there", "in", "into", "at"]

CORPUS = [
    "the cat sat on the mat",
    "hello world",
    "  two leading spaces, then\nnew lines\n\nand tabs\t!",
    "Unknown letters: Zürich 日本 🤖 fall back to bytes",
    "numbers 1234567 and 12 3",
    "DON'T   stop\n\n   then  ",
    "there<tool>into<|eot|>then",
    "I'm here, you'll see",
    "",
]

BASE_KEYS = {
    "llama.context_length": 64,
    "llama.embedding_length": 8,
    "llama.block_count": 1,
    "llama.feed_forward_length": 16,
    "llama.attention.head_count": 2,
    "llama.attention.head_count_kv": 2,
    "llama.rope.dimension_count": 4,
    "llama.attention.layer_norm_rms_epsilon": 1e-5,
}


def writer(path):
    w = gguf.GGUFWriter(path, "llama")
    w.add_context_length(64)
    w.add_embedding_length(8)
    w.add_block_count(1)
    w.add_feed_forward_length(16)
    w.add_head_count(2)
    w.add_head_count_kv(2)
    w.add_rope_dimension_count(4)
    w.add_layer_norm_rms_eps(1e-5)
    return w


def finish(w):
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


def spm_file(path):
    tokens, scores, types = ["<unk>", "<s>", "</s>"], [0.0, 0.0, 0.0], [2, 3, 3]
    for b in range(256):
        tokens.append(f"<0x{b:02X}>")
        scores.append(0.0)
        types.append(6)  # BYTE
    pieces = {}
    for ch in "\u2581abcdefghijklmnopqrstuvwxyz',.!":
        pieces[ch] = -1000.0 - len(pieces)
    # Every prefix of each word (with its leading "▁"), better scored when longer.
    for rank, word in enumerate(WORDS):
        w = "\u2581" + word
        for end in range(2, len(w) + 1):
            pieces.setdefault(w[:end], -float(rank * 10 + (len(w) - end)))
    for p in ("he", "er", "in", "th"):
        pieces.setdefault(p, -50.0)
    for piece, score in pieces.items():
        tokens.append(piece)
        scores.append(score)
        types.append(1)
    tokens += ["<tool>", "<|eot|>"]
    scores += [0.0, 0.0]
    types += [4, 3]  # user-defined, control
    w = writer(path)
    w.add_tokenizer_model("llama")
    w.add_token_list(tokens)
    w.add_token_scores(scores)
    w.add_token_types(types)
    w.add_bos_token_id(1)
    w.add_eos_token_id(2)
    w.add_unk_token_id(0)
    w.add_add_bos_token(True)
    w.add_chat_template("{% for m in messages %}[{{ m['role'] }}] {{ m['content'] }}{{ eos_token }}{% endfor %}")
    finish(w)


def bpe_file(path, pre):
    spelling = bytes_to_unicode()
    tokens = [spelling[b] for b in range(256)]
    merges = []

    def merge(a, b):
        merges.append(f"{a} {b}")
        if a + b not in tokens:
            tokens.append(a + b)

    G = spelling[ord(" ")]
    for a, b in [("3", "4"), (G, G), (G, "t"), ("h", "e"), (G + "t", "he"), (G, "c"), ("a", "t"), (G + "c", "at"), ("1", "2"),
                 ("12", "3"), (G, "1"), (G + "1", "2"), ("i", "n"), (G, "in"), ("e", "r"), ("h", "er"), ("t", "her"),
                 ("t", "he"), ("r", "e"), ("the", "re")]:
        if a in tokens and b in tokens:
            merge(a, b)
    tokens += ["<|end|>", "<tool>"]
    types = [1] * (len(tokens) - 2) + [3, 4]
    w = writer(path)
    w.add_tokenizer_model("gpt2")
    w.add_tokenizer_pre(pre)
    w.add_token_list(tokens)
    w.add_token_types(types)
    w.add_token_merges(merges)
    w.add_bos_token_id(len(tokens) - 2)
    w.add_eos_token_id(len(tokens) - 2)
    w.add_add_bos_token(False)
    finish(w)


def main():
    os.makedirs(OUT, exist_ok=True)
    files = {"tiny-spm.gguf": spm_file}
    # Not `smollm`: transformers' loader splits it as plain GPT-2, unlike
    # SmolLM2's own tokenizer; tests/fixtures/smollm2 covers that split.
    for pre in ("llama-bpe", "default"):
        files[f"tiny-bpe-{pre}.gguf"] = lambda p, pre=pre: bpe_file(p, pre)
    result = {
        "about": "Ids of transformers' tokenizer for each tiny GGUF, made by scripts/tokenizer_tiny_fixtures.py",
        "versions": {p: version(p) for p in ("transformers", "tokenizers", "gguf")},
        "files": {},
    }
    for name, make in files.items():
        path = os.path.join(OUT, name)
        make(path)
        tok = AutoTokenizer.from_pretrained(OUT, gguf_file=name)
        result["files"][name] = {
            "bos_token": tok.bos_token,
            "eos_token": tok.eos_token,
            "cases": [
                {"text": t, "ids": tok.encode(t), "decoded": tok.decode(tok.encode(t), skip_special_tokens=True)}
                for t in CORPUS
            ],
        }
        print(name, [c["ids"] for c in result["files"][name]["cases"]][:2])
    with open(os.path.join(OUT, "ids.json"), "w", encoding="utf-8") as f:
        json.dump(result, f, ensure_ascii=False, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
