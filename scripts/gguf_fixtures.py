#!/usr/bin/env python3
"""Writes the GGUF test fixtures in tests/fixtures/gguf/, using the PyPI `gguf`
package (llama.cpp's own Python library) as the independent reference.

Run once when the fixtures change, in a throwaway venv (never at build or test
time):
    python3 -m venv /tmp/gguf-venv && /tmp/gguf-venv/bin/pip install gguf numpy
    /tmp/gguf-venv/bin/python scripts/gguf_fixtures.py
With --check-export FILE.gguf it instead reads a GGUF written by
`iree-llm synth --format gguf` with the gguf package's reader and checks that it
is what llama.cpp expects of a llama file (prints a summary, exits non-zero on a
problem).

Fixtures:
- dequant/<type>.bin and <type>.f32: a few blocks of random bytes per type (the
  block scales set to sane f16 values so no block is NaN/inf), and the f32
  values gguf.quants.dequantize gives for them.
- tiny-llama.gguf (v3; the tests also read it with its version field set to 2,
  the only difference of a little-endian v2 file): a one-layer llama with GQA,
  untied embeddings, Q4_K/Q6_K/Q8_0/Q4_0/Q4_1/Q5_0/Q5_1/F16/F32 tensors,
  written with gguf.GGUFWriter; tiny-llama.json: the Hugging Face config it
  stands for, and tiny-llama-qk.json: the first four columns of layer 0's q_proj
  and k_proj in Hugging Face row order, dequantized by the gguf package and
  un-permuted here, for the un-permute check.
- tied-llama.gguf: a smaller one without output.weight (tied embeddings).
- quant/<type>.f32 and <type>.bin for Q8_0, Q4_0, Q4_1: f32 values (blocks of
  varied scale and sign, one all zero) and the blocks gguf.quants.quantize
  (llama.cpp's reference quantizers in numpy) makes of them, for the writer's
  quantizer. `--quant-only` writes just these.
- mistral.gguf: a file whose general.architecture is not llama.
"""
import argparse
import json
import os
import sys

import numpy as np
import gguf
from gguf import GGMLQuantizationType as T

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures", "gguf")
TYPES = ["F32", "F16", "BF16", "Q8_0", "Q4_0", "Q4_1", "Q5_0", "Q5_1", "Q4_K", "Q5_K", "Q6_K"]
# Byte offsets of f16 scale fields inside one block, per type.
SCALE_FIELDS = {
    "Q8_0": [0], "Q4_0": [0], "Q4_1": [0, 2], "Q5_0": [0], "Q5_1": [0, 2],
    "Q4_K": [0, 2], "Q5_K": [0, 2], "Q6_K": [208],
}


def random_blocks(rng, name, n_elements):
    qtype = T[name]
    block, size = gguf.GGML_QUANT_SIZES[qtype]
    n_blocks = n_elements // block
    if name == "F32":
        return rng.standard_normal(n_elements).astype("<f4").tobytes()
    if name == "F16":
        return rng.standard_normal(n_elements).astype("<f2").tobytes()
    if name == "BF16":
        return (rng.standard_normal(n_elements).astype("<f4").view("<u4") >> 16).astype("<u2").tobytes()
    raw = bytearray(rng.integers(0, 256, size=n_blocks * size, dtype=np.uint8).tobytes())
    for b in range(n_blocks):
        for off in SCALE_FIELDS[name]:
            scale = np.float16(rng.uniform(-0.05, 0.05))
            raw[b * size + off: b * size + off + 2] = scale.tobytes()
    return bytes(raw)


def dequant(name, raw, n_elements):
    qtype = T[name]
    block, size = gguf.GGML_QUANT_SIZES[qtype]
    arr = np.frombuffer(raw, dtype=np.uint8).reshape(-1, n_elements // block * size)
    return gguf.quants.dequantize(arr, qtype).astype("<f4").reshape(-1)


def write_dequant(rng):
    out = os.path.join(ROOT, "dequant")
    os.makedirs(out, exist_ok=True)
    n = 512  # two K-quant super-blocks, sixteen 32-element blocks
    for name in TYPES:
        raw = random_blocks(rng, name, n)
        values = dequant(name, raw, n)
        assert values.shape == (n,) and np.isfinite(values).all(), name
        with open(os.path.join(out, f"{name.lower()}.bin"), "wb") as f:
            f.write(raw)
        with open(os.path.join(out, f"{name.lower()}.f32"), "wb") as f:
            f.write(values.tobytes())
    print(f"wrote {len(TYPES)} dequantization fixtures of {n} elements to {out}")


QUANT_TYPES = ["Q8_0", "Q4_0", "Q4_1"]


def write_quant(rng):
    out = os.path.join(ROOT, "quant")
    os.makedirs(out, exist_ok=True)
    blocks = 24
    scales = rng.uniform(0.001, 2.0, size=(blocks, 1)).astype(np.float32)
    shifts = rng.uniform(-1.0, 1.0, size=(blocks, 1)).astype(np.float32)
    values = (rng.standard_normal((blocks, 32)).astype(np.float32) * scales + shifts * scales)
    values[5] = 0.0  # an all-zero block: scale 0, every value 0
    values[9] = np.abs(values[9])  # one-signed blocks: Q4_1's minimum is positive
    values[10] = -np.abs(values[10])
    values = values.astype("<f4").reshape(1, -1)
    for name in QUANT_TYPES:
        data = gguf.quants.quantize(values, T[name])
        with open(os.path.join(out, f"{name.lower()}.f32"), "wb") as f:
            f.write(values.tobytes())
        with open(os.path.join(out, f"{name.lower()}.bin"), "wb") as f:
            f.write(data.tobytes())
    print(f"wrote {len(QUANT_TYPES)} quantization fixtures of {values.size} elements to {out}")


def permute(w, n_head):
    """llama.cpp's converter's Q/K row order (the rotary halves interleaved)."""
    return (w.reshape(n_head, 2, w.shape[0] // n_head // 2, *w.shape[1:])
            .swapaxes(1, 2).reshape(w.shape))


# K-quant rows need 256 elements, hence the hidden size; one layer keeps the file small.
HP = dict(vocab=128, hidden=256, ffn=256, layers=1, heads=4, kv_heads=2, head_dim=64,
          ctx=512, theta=500000.0, eps=1e-5, bos=1, eos=2, eot=7)
# The tied variant uses only 32-element block types, so it can be smaller still.
HP_TIED = dict(HP, hidden=64, ffn=64, heads=2, kv_heads=1, head_dim=32)


def write_llama(rng, path, hp=HP, arch="llama", tied=False):
    w = gguf.GGUFWriter(path, arch)
    w.add_name("tiny-llama fixture")
    w.add_context_length(hp["ctx"])
    w.add_embedding_length(hp["hidden"])
    w.add_block_count(hp["layers"])
    w.add_feed_forward_length(hp["ffn"])
    w.add_head_count(hp["heads"])
    w.add_head_count_kv(hp["kv_heads"])
    w.add_rope_dimension_count(hp["head_dim"])
    w.add_rope_freq_base(hp["theta"])
    w.add_layer_norm_rms_eps(hp["eps"])
    w.add_vocab_size(hp["vocab"])
    w.add_bos_token_id(hp["bos"])
    w.add_eos_token_id(hp["eos"])
    w.add_eot_token_id(hp["eot"])
    h, d = hp["hidden"], hp["head_dim"]
    q_hf = k_hf = None

    def quant(name, hf, qname):
        qtype = T[qname]
        data = gguf.quants.quantize(hf, qtype) if qname not in ("F32", "F16") else hf.astype(
            np.float32 if qname == "F32" else np.float16)
        if qname in ("F32", "F16"):
            w.add_tensor(name, data)
        else:
            w.add_tensor(name, data, raw_dtype=qtype)
        return data

    def kquant(name, hf, qname):
        # The gguf package cannot quantize to K types: store random blocks and
        # return what they dequantize to (the reference for the reader).
        qtype = T[qname]
        rows, cols = hf.shape
        raw = random_blocks(rng, qname, rows * cols)
        arr = np.frombuffer(raw, dtype=np.uint8).reshape(rows, -1)
        w.add_tensor(name, arr, raw_dtype=qtype)
        return gguf.quants.dequantize(arr, qtype)

    quant("token_embd.weight", rng.standard_normal((hp["vocab"], h)).astype(np.float32), "Q8_0")
    for i in range(hp["layers"]):
        quant(f"blk.{i}.attn_norm.weight", 1 + 0.1 * rng.standard_normal(h).astype(np.float32), "F32")
        if h % 256 == 0:
            q = kquant(f"blk.{i}.attn_q.weight", np.zeros((hp["heads"] * d, h)), "Q4_K")
            k = kquant(f"blk.{i}.attn_k.weight", np.zeros((hp["kv_heads"] * d, h)), "Q6_K")
        else:
            q = quant(f"blk.{i}.attn_q.weight", rng.standard_normal((hp["heads"] * d, h)).astype(np.float32), "F32")
            k = quant(f"blk.{i}.attn_k.weight", rng.standard_normal((hp["kv_heads"] * d, h)).astype(np.float32), "F32")
        if i == 0:
            # The file holds permuted rows; un-permuting gives the HF order.
            q_hf = unpermute(q, hp["heads"])
            k_hf = unpermute(k, hp["kv_heads"])
            assert np.array_equal(permute(q_hf, hp["heads"]), q)
        quant(f"blk.{i}.attn_v.weight", rng.standard_normal((hp["kv_heads"] * d, h)).astype(np.float32), "Q5_0")
        quant(f"blk.{i}.attn_output.weight", rng.standard_normal((h, hp["heads"] * d)).astype(np.float32), "Q8_0")
        quant(f"blk.{i}.ffn_norm.weight", 1 + 0.1 * rng.standard_normal(h).astype(np.float32), "F32")
        quant(f"blk.{i}.ffn_gate.weight", rng.standard_normal((hp["ffn"], h)).astype(np.float32), "Q4_0")
        quant(f"blk.{i}.ffn_up.weight", rng.standard_normal((hp["ffn"], h)).astype(np.float32), "Q4_1")
        quant(f"blk.{i}.ffn_down.weight", rng.standard_normal((h, hp["ffn"])).astype(np.float32), "Q5_1")
    quant("output_norm.weight", 1 + 0.1 * rng.standard_normal(h).astype(np.float32), "F32")
    if not tied:
        quant("output.weight", rng.standard_normal((hp["vocab"], h)).astype(np.float32), "F16")
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    return q_hf, k_hf


def unpermute(w, n_head):
    return (w.reshape(n_head, w.shape[0] // n_head // 2, 2, *w.shape[1:])
            .swapaxes(1, 2).reshape(w.shape))


def write_models(rng):
    path = os.path.join(ROOT, "tiny-llama.gguf")
    q_hf, k_hf = write_llama(rng, path)
    # The first four columns of every row are enough to pin the row order down.
    rows = {"q_proj": q_hf[:, :4].astype(np.float32).tolist(),
            "k_proj": k_hf[:, :4].astype(np.float32).tolist()}
    with open(os.path.join(ROOT, "tiny-llama-qk.json"), "w") as f:
        json.dump(rows, f)
        f.write("\n")
    hp = HP
    config = {
        "architectures": ["LlamaForCausalLM"], "model_type": "llama",
        "vocab_size": hp["vocab"], "hidden_size": hp["hidden"], "intermediate_size": hp["ffn"],
        "num_hidden_layers": hp["layers"], "num_attention_heads": hp["heads"],
        "num_key_value_heads": hp["kv_heads"], "head_dim": hp["head_dim"],
        "rms_norm_eps": hp["eps"], "rope_theta": hp["theta"], "max_position_embeddings": hp["ctx"],
        "tie_word_embeddings": False, "bos_token_id": hp["bos"], "eos_token_id": [hp["eos"], hp["eot"]],
    }
    with open(os.path.join(ROOT, "tiny-llama.json"), "w") as f:
        json.dump(config, f, indent=2)
        f.write("\n")
    write_llama(rng, os.path.join(ROOT, "tied-llama.gguf"), hp=HP_TIED, tied=True)
    # Another architecture: only the metadata matters.
    w = gguf.GGUFWriter(os.path.join(ROOT, "mistral.gguf"), "mistral3")
    w.add_block_count(1)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    print(f"wrote tiny-llama.gguf, tied-llama.gguf, mistral.gguf to {ROOT}")


def check_export(path):
    r = gguf.GGUFReader(path)
    f = {k: v.contents() for k, v in r.fields.items() if not k.startswith("tokenizer.ggml.")}
    problems = []
    if f.get("general.architecture") != "llama":
        problems.append(f"architecture {f.get('general.architecture')}")
    for key in ["llama.block_count", "llama.embedding_length", "llama.feed_forward_length",
                "llama.attention.head_count", "llama.attention.head_count_kv",
                "llama.context_length", "llama.rope.freq_base",
                "llama.attention.layer_norm_rms_epsilon"]:
        if key not in f:
            problems.append(f"missing {key}")
    tokens = r.fields["tokenizer.ggml.tokens"].contents()
    merges = r.fields["tokenizer.ggml.merges"].contents()
    types = r.fields["tokenizer.ggml.token_type"].contents()
    n_layers = f["llama.block_count"]
    names = {t.name: t for t in r.tensors}
    want = ["token_embd.weight", "output_norm.weight"] + [
        f"blk.{i}.{p}.weight" for i in range(n_layers) for p in
        ["attn_norm", "attn_q", "attn_k", "attn_v", "attn_output", "ffn_norm", "ffn_gate", "ffn_up", "ffn_down"]]
    for n in want:
        if n not in names:
            problems.append(f"missing tensor {n}")
    embd = names["token_embd.weight"]
    if int(embd.shape[1]) != len(tokens):
        problems.append(f"{len(tokens)} tokens but the embedding has {embd.shape[1]} rows")
    for t in r.tensors:
        if len(t.shape) == 1 and t.tensor_type != T.F32:
            problems.append(f"1-D tensor {t.name} is {t.tensor_type.name}, llama.cpp expects F32")
        values = gguf.quants.dequantize(t.data, t.tensor_type)
        if not np.isfinite(values).all():
            problems.append(f"{t.name} has non-finite values")
    kinds = sorted({t.tensor_type.name for t in r.tensors})
    print(f"{path}: GGUF v{r.fields['GGUF.version'].contents()}, {len(r.tensors)} tensors ({', '.join(kinds)}), "
          f"{len(tokens)} tokens, {len(merges)} merges, {int(np.sum(np.array(types) == 3))} control tokens, "
          f"tied={'output.weight' not in names}, chat template={'tokenizer.chat_template' in r.fields}")
    for p in problems:
        print("PROBLEM:", p)
    return 1 if problems else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--check-export", metavar="FILE")
    ap.add_argument("--quant-only", action="store_true")
    args = ap.parse_args()
    if args.check_export:
        sys.exit(check_export(args.check_export))
    if args.quant_only:
        write_quant(np.random.default_rng(20261124))
        return
    rng = np.random.default_rng(20261123)
    os.makedirs(ROOT, exist_ok=True)
    write_dequant(rng)
    write_models(rng)
    write_quant(np.random.default_rng(20261124))


if __name__ == "__main__":
    main()
