#!/usr/bin/env python3
"""Greedy-continuation fixture for SmolLM2-135M-Instruct's GGUF (issue 10 item 4).

Run once, at fixture time, in the throwaway venv described in
scripts/tokenizer_fixtures.py (plus `accelerate`); nothing Python runs at run time:

    /tmp/fx/bin/python scripts/hf_greedy_fixtures.py /tmp/smollm2/SmolLM2-135M-Instruct.Q4_1.gguf

Hugging Face transformers loads the same GGUF, dequantized to float32 (Q4_1
values are not all exact in bf16), and continues each prompt greedily for
STEPS tokens without stopping at EOS. For every step the fixture keeps the
chosen id, the runner-up id and the top-1 minus top-2 logit margin, so that a
near-tie is recognisable when another engine picks the runner-up. Prompt ids
are those of tests/fixtures/smollm2/tokenizer.json's tokenizer (SmolLM2's own
pre-tokenizer), so an engine can be fed ids directly.
Writes tests/fixtures/smollm2/hf_greedy.json.
"""

import hashlib
import json
import os
import platform
import sys
from importlib.metadata import version

import torch
from transformers import AutoModelForCausalLM, AutoTokenizer

sys.path.insert(0, os.path.dirname(__file__))
from tokenizer_fixtures import smollm_own  # noqa: E402

STEPS = 32

RAW_PROMPTS = [
    "The capital of France is",
    "Once upon a time, in a small village by the sea,",
    "def fibonacci(n):\n",
    "The three primary colors are",
    "Water boils at a temperature of",
    "1, 2, 3, 4, 5,",
]

CHAT_PROMPTS = [
    [{"role": "user", "content": "What is the capital of Germany?"}],
    [{"role": "user", "content": "Write a haiku about the ocean."}],
    [
        {"role": "system", "content": "You are a concise assistant."},
        {"role": "user", "content": "Explain what a prime number is."},
    ],
    [{"role": "user", "content": "List three fruits."}],
]


@torch.no_grad()
def greedy(model, prompt_ids):
    """STEPS greedy tokens after prompt_ids, with each step's top-2 logits."""
    ids = torch.tensor([prompt_ids])
    out = model(input_ids=ids, use_cache=True)
    past = out.past_key_values
    logits = out.logits[0, -1]
    steps = []
    for _ in range(STEPS):
        top = torch.topk(logits.double(), 2)
        first, second = int(top.indices[0]), int(top.indices[1])
        steps.append(
            {
                "id": first,
                "runner_up": second,
                "logit": float(top.values[0]),
                "margin": float(top.values[0] - top.values[1]),
            }
        )
        out = model(input_ids=torch.tensor([[first]]), past_key_values=past, use_cache=True)
        past = out.past_key_values
        logits = out.logits[0, -1]
    return steps


def main():
    gguf_path = sys.argv[1] if len(sys.argv) > 1 else "/tmp/smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"
    out_path = os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures", "smollm2", "hf_greedy.json")
    with open(gguf_path, "rb") as f:
        sha = hashlib.sha256(f.read()).hexdigest()
    directory, name = os.path.dirname(gguf_path), os.path.basename(gguf_path)
    torch.manual_seed(0)
    torch.set_num_threads(2)
    hf_tok = AutoTokenizer.from_pretrained(directory, gguf_file=name)
    tok = smollm_own(hf_tok)
    model = AutoModelForCausalLM.from_pretrained(directory, gguf_file=name, dtype=torch.float32)
    model.eval()
    assert next(model.parameters()).dtype == torch.float32

    prompts = [{"kind": "text", "text": text} for text in RAW_PROMPTS]
    for messages in CHAT_PROMPTS:
        text = hf_tok.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
        prompts.append({"kind": "chat", "messages": messages, "text": text})

    cases = []
    for prompt in prompts:
        prompt_ids = tok.encode(prompt["text"], add_special_tokens=False).ids
        steps = greedy(model, prompt_ids)
        generated = [s["id"] for s in steps]
        case = dict(prompt)
        case.update(
            {
                "prompt_ids": prompt_ids,
                "ids": generated,
                "text_out": tok.decode(generated, skip_special_tokens=False),
                "steps": steps,
                "min_margin": min(s["margin"] for s in steps),
            }
        )
        cases.append(case)
        print(f"{prompt['text'][-40:]!r} -> {case['text_out']!r} (min margin {case['min_margin']:.4f})")

    fixture = {
        "about": "Greedy continuations of SmolLM2-135M-Instruct Q4_1 by Hugging Face transformers "
        "(GGUF dequantized to float32), made by scripts/hf_greedy_fixtures.py; generation does not stop at EOS",
        "gguf": {"file": name, "sha256": sha},
        "versions": {
            **{p: version(p) for p in ("torch", "transformers", "tokenizers", "gguf", "accelerate")},
            "python": platform.python_version(),
        },
        "dtype": "float32",
        "steps_per_prompt": STEPS,
        "eos_id": hf_tok.eos_token_id,
        "cases": cases,
    }
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump(fixture, f, ensure_ascii=False, indent=1)
        f.write("\n")
    print(f"wrote {len(cases)} prompts x {STEPS} tokens to {os.path.normpath(out_path)}")


if __name__ == "__main__":
    main()
