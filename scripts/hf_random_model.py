#!/usr/bin/env python3
"""Writes a Hugging Face Llama directory with random weights in the shape of
a real model, for timing where the real weights cannot travel (a lent GPU
machine has no network, and the SmolLM2 GGUF is larger than what may be
carried there). A step's time depends on the shapes, not on the values, so
both `iree-llm graph-bench` and scripts/torch_decode_bench.py can time it.

    python scripts/hf_random_model.py --shape smollm2-135m --out DIR

Needs torch and transformers. The shapes are those of the real checkpoints
(SmolLM2-135M's are read off its GGUF's metadata: 30 layers, 576 wide,
9 query and 3 key/value heads of 64, MLP 1536, vocabulary 49152, tied
embeddings, rope theta 1e5).
"""
import argparse

import torch
from transformers import LlamaConfig, LlamaForCausalLM

SHAPES = {
    "smollm2-135m": dict(
        vocab_size=49152,
        hidden_size=576,
        intermediate_size=1536,
        num_hidden_layers=30,
        num_attention_heads=9,
        num_key_value_heads=3,
        head_dim=64,
        rms_norm_eps=1e-5,
        rope_theta=100000.0,
        max_position_embeddings=8192,
        tie_word_embeddings=True,
        bos_token_id=1,
        eos_token_id=2,
    ),
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shape", required=True, choices=sorted(SHAPES))
    ap.add_argument("--out", required=True)
    ap.add_argument("--dtype", default="bfloat16", choices=["bfloat16", "float32"])
    args = ap.parse_args()
    torch.manual_seed(0)
    config = LlamaConfig(**SHAPES[args.shape])
    model = LlamaForCausalLM(config).to(getattr(torch, args.dtype))
    model.save_pretrained(args.out)
    print(f"wrote a random {args.shape} ({args.dtype}) to {args.out}")


if __name__ == "__main__":
    main()
