#!/usr/bin/env python3
"""Cross-checks the f64 reference forward pass and the synthesized preset
directories against Hugging Face transformers (an optional developer check;
needs torch and transformers, which the project itself does not install).

For several tiny variants (untied/tied, llama3/default RoPE, f32/bf16/f16,
GQA/MHA) it synthesizes a model with the `synth_model` example, asks the
`reference_logits` example for last-token logits and a greedy continuation,
and compares them with LlamaForCausalLM run in float64. It also loads the
synthesized tokenizer with AutoTokenizer and checks round trips, special ids
and the chat template.

    cargo build --release --examples
    python scripts/check_reference_against_hf.py
"""
import json
import os
import subprocess
import sys
import tempfile

import torch
from transformers import AutoTokenizer, LlamaForCausalLM

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = os.path.join(ROOT, "target", "release", "examples")


def run(*args):
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


def tiny_config():
    out = tempfile.mkdtemp()
    run(os.path.join(EXAMPLES, "synth_model"), "tiny", out, "f32")
    with open(os.path.join(out, "config.json")) as f:
        return json.load(f)


VARIANTS = [
    ("tiny f32 (untied, GQA, llama3 rope)", {}, "f32"),
    ("tied bf16", {"tie_word_embeddings": True}, "bf16"),
    ("default rope f16 MHA", {"rope_scaling": None, "rope_theta": 500000.0, "num_key_value_heads": 4}, "f16"),
    ("one kv head, 3 layers", {"num_key_value_heads": 1, "num_hidden_layers": 3}, "f32"),
]

# Longer than tiny's original RoPE context (64), so all llama3 bands matter.
PROMPT = [501, 17, 300, 42, 42, 499, 0, 255] + [(i * 37 + 11) % 500 for i in range(92)]


def check_model(name, edits, dtype):
    cfg = tiny_config()
    cfg.update(edits)
    work = tempfile.mkdtemp()
    cfg_path = os.path.join(work, "config.json")
    with open(cfg_path, "w") as f:
        json.dump(cfg, f)
    model_dir = os.path.join(work, "model")
    run(os.path.join(EXAMPLES, "synth_model"), cfg_path, model_dir, dtype, "3")
    ours = json.loads(run(os.path.join(EXAMPLES, "reference_logits"), model_dir,
                          ",".join(map(str, PROMPT)), "16"))

    torch_dtype = {"f32": torch.float32, "bf16": torch.bfloat16, "f16": torch.float16}[dtype]
    model = LlamaForCausalLM.from_pretrained(model_dir, dtype=torch_dtype, attn_implementation="eager")
    model = model.double().eval()
    ids = torch.tensor([PROMPT])
    with torch.no_grad():
        hf_logits = model(ids).logits[0, -1].numpy()
        # Plain greedy loop (no EOS stop, argmax takes the lowest id on ties).
        seq = ids
        for _ in range(16):
            nxt = model(seq).logits[0, -1].argmax().view(1, 1)
            seq = torch.cat([seq, nxt], dim=1)
        hf_greedy = seq[0, len(PROMPT):].tolist()
    ref = torch.tensor(ours["logits"]).numpy()
    diff = abs(ref - hf_logits).max()
    spread = ref.std()
    ok = diff < 1e-4 and ours["greedy"] == hf_greedy
    print(f"{'OK  ' if ok else 'FAIL'} {name}: max |ref - hf| = {diff:.2e} (logit std {spread:.2f}); "
          f"greedy equal: {ours['greedy'] == hf_greedy}")
    if ours["greedy"] != hf_greedy:
        print("   ours", ours["greedy"], "\n   hf  ", hf_greedy)
    return ok


def check_tokenizer():
    d = tempfile.mkdtemp()
    run(os.path.join(EXAMPLES, "synth_model"), "tiny", d, "f32")
    tok = AutoTokenizer.from_pretrained(d)
    ok = len(tok) == 512
    for text in ["Hello, world!", "naïve café 🦙 日本語", "  spaces\tand\nlines  ", ""]:
        ids = tok.encode(text, add_special_tokens=False)
        ok &= tok.decode(ids) == text
    ok &= tok.encode("hi")[0] == 501 == tok.bos_token_id
    ok &= tok.eos_token == "<|eot_id|>" and tok.convert_tokens_to_ids("<|eot_id|>") == 510
    rendered = tok.apply_chat_template([{"role": "user", "content": "Hi!"}], tokenize=False,
                                       add_generation_prompt=True)
    ok &= rendered == ("<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\nHi!<|eot_id|>"
                       "<|start_header_id|>assistant<|end_header_id|>\n\n")
    print(f"{'OK  ' if ok else 'FAIL'} tokenizer loads in transformers, round-trips, chat template renders")
    return ok


def main():
    torch.manual_seed(0)
    results = [check_model(*v) for v in VARIANTS] + [check_tokenizer()]
    print(f"{sum(results)} passed, {len(results) - sum(results)} failed")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
