#!/usr/bin/env python3
"""Tokenizer fixtures for SmolLM2-135M-Instruct's GGUF (issue 10 item 2).

Run once, at fixture time, in a throwaway venv (never at run time):

    python3 -m venv /tmp/fx && /tmp/fx/bin/pip install --no-deps torch \
        && /tmp/fx/bin/pip install transformers gguf tokenizers sentencepiece protobuf \
           numpy filelock typing-extensions sympy networkx jinja2 fsspec
    /tmp/fx/bin/python scripts/tokenizer_fixtures.py /tmp/smollm2/SmolLM2-135M-Instruct.Q4_1.gguf

The vocabulary, merges and special tokens come from Hugging Face's loader for
the file (`AutoTokenizer.from_pretrained(dir, gguf_file=...)`), and the ids
from Hugging Face `tokenizers` with the pre-tokenizer SmolLM2's own
tokenizer.json uses (`Digits(individual_digits)` then GPT-2 `ByteLevel`).
transformers' GGUF loader does not set that for `tokenizer.ggml.pre = smollm`
(it keeps plain GPT-2 splitting), which differs on non-ASCII numerals such
as "½"; the cases where it differs are recorded, not used. As a cross-check the
same vocabulary is also run through the split as llama.cpp spells `smollm`
(`\p{N}` isolated, then the GPT-2 regex); the script refuses to write a
fixture if the two disagree. Writes tests/fixtures/smollm2/tokenizer.json.
"""

import hashlib
import json
import os
import sys
from importlib.metadata import version

from tokenizers import Regex, Tokenizer, pre_tokenizers
from transformers import AutoTokenizer

# Each case is tokenized on its own; the whole corpus joined by "\n" is one more case.
CORPUS = [
    "",
    "Hello, world!",
    "The quick brown fox jumps over the lazy dog.",
    "  leading spaces and trailing spaces   ",
    "tabs\tand\t\tmore\ttabs",
    "line one\nline two\n\nline four\n\n\n\nend",
    "windows\r\nline\r\nendings\r\n",
    "many     spaces      between         words",
    "\n\n\n",
    "   \n \t \n",
    "Numbers: 0 7 42 2024 3.14159 -17 1,000,000 0x1F 1e-5 123456789012",
    "I'm sure you'll see they've done it; it's what we'd do. DON'T SHOUT, Y'ALL'D",
    "Café, naïve, résumé, façade, coöperate, Ångström, Straße, ÆØÅ æøå",
    "Ελληνικά, Русский текст, Українська, Български",
    "日本語のテキストと漢字、中文文本，한국어 텍스트",
    "العربية نص مكتوب، עברית, हिन्दी पाठ, ภาษาไทย",
    "Combining: e\u0301 a\u0308 n\u0303, NFC é ä ñ, zero\u200bwidth, nbsp\u00a0here",
    "Emoji: 😀 😂 🤖 🚀 ❤️ 👍🏽 👨‍👩‍👧‍👦 🏳️‍🌈 🇫🇷 🇯🇵 ✅ 🧪",
    "Math: ∑ᵢ xᵢ² ≤ ∞, ∀x ∈ ℝ, α β γ → λ, ½ ¾ ⅓",
    "fn main() {\n    let v: Vec<u32> = (0..10).map(|x| x * 2).collect();\n    println!(\"{:?}\", v);\n}\n",
    "def f(x):\n    if x > 0:\n        return x ** 2  # square\n    return -x\n\n\nprint(f(3))\n",
    "<html><body class=\"main\"><p>Hi &amp; bye</p></body></html>",
    "{\"key\": [1, 2, 3], \"nested\": {\"a\": null, \"b\": true}}",
    "SELECT id, name FROM users WHERE age >= 18 ORDER BY name;",
    "https://example.com/path?query=1&x=y#frag user@example.org",
    "<|im_start|>user\nWhat is 2+2?<|im_end|>\n<|im_start|>assistant\nIt is 4.<|im_end|>\n",
    "text<|im_start|>glued<|im_end|>text <|endoftext|> after",
    "<|im_sta partial special <|im_end and <| |> pieces",
    "Punctuation!!! ??? ... --- *** ### @@@ $$$ %%% ^^^ &&& ((( ))) [[[ ]]] {{{ }}}",
    "a" * 40 + " " + "ab" * 20 + " " + "!" * 30,
    "CamelCaseIdentifier snake_case_identifier kebab-case-id SCREAMING_CASE",
    "end with spaces and newline  \n",
]


def smollm_own(hf_tokenizer):
    """The same vocabulary and merges with SmolLM2's own pre-tokenizer."""
    tok = Tokenizer.from_str(hf_tokenizer.backend_tokenizer.to_str())
    tok.pre_tokenizer = pre_tokenizers.Sequence(
        [
            pre_tokenizers.Digits(individual_digits=True),
            pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True),
        ]
    )
    return tok


def smollm_llama_cpp(hf_tokenizer):
    """The same vocabulary and merges with llama.cpp's `smollm` split."""
    tok = Tokenizer.from_str(hf_tokenizer.backend_tokenizer.to_str())
    tok.pre_tokenizer = pre_tokenizers.Sequence(
        [
            pre_tokenizers.Split(Regex(r"\p{N}"), behavior="isolated"),
            pre_tokenizers.Split(
                Regex(r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"),
                behavior="isolated",
            ),
            pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
        ]
    )
    return tok


def main():
    gguf_path = sys.argv[1] if len(sys.argv) > 1 else "/tmp/smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"
    out = os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures", "smollm2", "tokenizer.json")
    with open(gguf_path, "rb") as f:
        sha = hashlib.sha256(f.read()).hexdigest()
    tok = AutoTokenizer.from_pretrained(os.path.dirname(gguf_path), gguf_file=os.path.basename(gguf_path))
    own = smollm_own(tok)
    ref = smollm_llama_cpp(tok)

    texts = CORPUS + ["\n".join(CORPUS)]
    cases = []
    for text in texts:
        ids = own.encode(text, add_special_tokens=False).ids
        ref_ids = ref.encode(text, add_special_tokens=False).ids
        if ids != ref_ids:
            sys.exit(f"SmolLM2's split and llama.cpp's smollm split disagree on {text!r}:\n{ids}\n{ref_ids}")
        # A round trip through decode guards against a lossy corpus string.
        if own.decode(ids, skip_special_tokens=False) != text:
            sys.exit(f"decode does not round-trip {text!r}")
        case = {"text": text, "ids": ids}
        loader_ids = tok.encode(text)
        if loader_ids != ids:
            case["transformers_gguf_loader_ids"] = loader_ids
        cases.append(case)

    conversations = [
        [{"role": "user", "content": "What is the capital of France?"}],
        [
            {"role": "system", "content": "You answer in one word."},
            {"role": "user", "content": "Name a colour."},
            {"role": "assistant", "content": "Blue."},
            {"role": "user", "content": "Another one, with emoji 🎨?"},
        ],
    ]
    chats = []
    for messages in conversations:
        for add_generation_prompt in (True, False):
            prompt = tok.apply_chat_template(messages, tokenize=False, add_generation_prompt=add_generation_prompt)
            ids = own.encode(prompt, add_special_tokens=False).ids
            chats.append(
                {"messages": messages, "add_generation_prompt": add_generation_prompt, "prompt": prompt, "ids": ids}
            )

    fixture = {
        "about": "Token ids of SmolLM2-135M-Instruct's own tokenizer (Hugging Face tokenizers; vocabulary and merges loaded from the GGUF by transformers) "
        "on a corpus, and ChatML renderings of short conversations; made by scripts/tokenizer_fixtures.py",
        "gguf": {"file": os.path.basename(gguf_path), "sha256": sha},
        "versions": {p: version(p) for p in ("transformers", "tokenizers", "gguf")},
        "pre_tokenizer": "Digits(individual_digits=True), ByteLevel(add_prefix_space=False, use_regex=True)",
        "bos_token": tok.bos_token,
        "eos_token": tok.eos_token,
        "add_bos_token": bool(getattr(tok, "add_bos_token", False)),
        "vocab_size": len(tok),
        "cases": cases,
        "chat": chats,
    }
    with open(out, "w", encoding="utf-8") as f:
        json.dump(fixture, f, ensure_ascii=False, indent=1)
        f.write("\n")
    differ = sum("transformers_gguf_loader_ids" in c for c in cases)
    print(f"transformers' GGUF loader differs on {differ} of {len(cases)} cases")
    print(f"wrote {len(cases)} cases, {len(chats)} chats to {os.path.normpath(out)}")


if __name__ == "__main__":
    main()
