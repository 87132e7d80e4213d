#!/usr/bin/env python3
"""iree-llm next to llama.cpp on the same GGUF file (issue 10 item 6).

Run by scripts/peer_llamacpp.sh inside the venv that holds llama-cpp-python;
not imported by anything else. For each GGUF file given:

- llama.cpp (llama-cpp-python, n_threads = n_threads_batch = --threads):
  prompt processing of a 128-token prompt (one eval call, median of --reps)
  and B=1 generation (single-token evals after that prompt, timed from Python);
- iree-llm `graph-bench` on local-task: prefill of 128 tokens and one decode
  step at B=1, 4 and 8 at position 128 (medians of --reps x 32 calls, as
  many steps as llama.cpp's generation timing evaluates), as tokens/s;
- greedy streams of both engines from the same prompt ids (llama.cpp's own
  tokenization of a few plain prompts): identical, or the first divergence
  with llama.cpp's top-2 logit margin at that step.

Prompt processing and decode cost do not depend on the token values, so both
engines are timed on their own prompt of the same length. Prints a table.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import llama_cpp.llama
import numpy as np
from llama_cpp import Llama

# IREE_LLM_PEER_EXTRA_BUFTS=0 loads models without llama.cpp's extra buffer
# types (its AMX and repacked weight layouts): llama-cpp-python 0.3.36 built
# with AMX_INT8 crashed in llama_decode (SIGSEGV) on SmolLM2 Q4_1 on a Xeon
# guest with AMX, and ran with them off.
if os.environ.get("IREE_LLM_PEER_EXTRA_BUFTS") == "0":
    _default_model_params = llama_cpp.llama.llama_cpp.llama_model_default_params

    def _without_extra_bufts():
        params = _default_model_params()
        params.use_extra_bufts = False
        return params

    llama_cpp.llama.llama_cpp.llama_model_default_params = _without_extra_bufts

PROMPT_TOKENS = 128
GEN_TOKENS = 32
TEXT = (
    "The history of the river towns began with the ferry crossings, where traders "
    "met farmers and fishermen to exchange grain, salt, cloth and news. "
)
GREEDY_PROMPTS = [
    "The capital of France is",
    "Once upon a time, in a small village by the sea,",
    "def fibonacci(n):\n",
    "Water boils at a temperature of",
]


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def last_logits(llm):
    """The logits of the last token evaluated (llama-cpp-python keeps
    `scores` only with logits_all, so they are read from the context)."""
    return np.ctypeslib.as_array(llm._ctx.get_logits(), shape=(llm.n_vocab(),)).astype(np.float64)


def prompt_ids(llm, n):
    """n token ids of repeated English text, in the file's own tokenizer."""
    ids = []
    while len(ids) < n:
        ids += llm.tokenize(TEXT.encode(), add_bos=False, special=False)
    return ids[:n]


def llama_speed(llm, reps):
    """(prompt tok/s, generation tok/s at B=1) of llama.cpp."""
    prompt = prompt_ids(llm, PROMPT_TOKENS)
    llm.reset()
    llm.eval(prompt[:8])  # warm-up
    pp = []
    for _ in range(reps):
        llm.reset()
        t = time.perf_counter()
        llm.eval(prompt)
        pp.append(time.perf_counter() - t)
    gen = []
    for _ in range(reps):
        llm.reset()
        llm.eval(prompt)
        token = int(np.argmax(last_logits(llm)))
        t = time.perf_counter()
        for _ in range(GEN_TOKENS):
            llm.eval([token])
            token = int(np.argmax(last_logits(llm)))
        gen.append(time.perf_counter() - t)
    return PROMPT_TOKENS / statistics.median(pp), GEN_TOKENS / statistics.median(gen)


def llama_greedy(llm, ids):
    """GEN_TOKENS greedy ids after ids, and the top-2 margin at each step."""
    llm.reset()
    llm.eval(ids)
    out, margins = [], []
    for _ in range(GEN_TOKENS):
        logits = last_logits(llm)
        second, first = np.argpartition(logits, -2)[-2:]
        if logits[second] > logits[first]:
            first, second = second, first
        out.append(int(first))
        margins.append((int(second), float(logits[first] - logits[second])))
        llm.eval([int(first)])
    return out, margins


def iree_speed(iree, model, context, reps):
    """iree-llm graph-bench's JSON report (prefill 128, decode B=1,4,8)."""
    cmd = [
        iree, "graph-bench", "--model", model, "--device", "local-task",
        "--context", str(context), "--batch", "1,4,8",
        "--prefill", str(PROMPT_TOKENS), "--position", str(PROMPT_TOKENS),
        # As many steps as llama.cpp's timing above evaluates (reps runs of
        # GEN_TOKENS): a median of 3 single steps caught this VM's 4 ms
        # scheduler tick in one run of four, where llama.cpp's 32-step
        # means smooth it out.
        "--iterations", str(reps * GEN_TOKENS),
    ]
    log("$ " + " ".join(cmd))
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode != 0:
        raise SystemExit(f"graph-bench failed:\n{res.stderr[-3000:]}")
    for line in reversed(res.stdout.splitlines() + res.stderr.splitlines()):
        line = line.strip()
        if line.startswith("{"):
            return json.loads(line)
    raise SystemExit(f"no JSON report from graph-bench:\n{res.stdout[-2000:]}")


def iree_greedy(iree, model, context, ids):
    """iree-llm's greedy ids (generate --ids; the engine stops at EOS)."""
    cmd = [
        iree, "generate", "--model", model, "--device", "local-task",
        "--context", str(context), "--max-tokens", str(GEN_TOKENS), "--ids",
        "--prompt-ids", ",".join(map(str, ids)),
    ]
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode != 0:
        raise SystemExit(f"generate failed:\n{res.stderr[-3000:]}")
    return [int(t) for t in res.stdout.split()]


def compare(name, prompt, ref_ids, ref_margins, got):
    """One line: identical, or the first divergence and llama.cpp's margin there."""
    n = min(len(got), len(ref_ids))
    for i in range(n):
        if got[i] != ref_ids[i]:
            runner_up, margin = ref_margins[i]
            swap = " (llama.cpp's runner-up)" if got[i] == runner_up else ""
            return (
                f"{name} {prompt!r}: first divergence at step {i}: llama.cpp {ref_ids[i]}, "
                f"iree-llm {got[i]}{swap}; llama.cpp's top-2 margin there {margin:.4f}"
            ), False
    note = "" if len(got) == len(ref_ids) else f" (iree-llm stopped at EOS after {len(got)})"
    return f"{name} {prompt!r}: {n} greedy tokens identical{note}", True


def run_model(args, name, path):
    """The table rows and greedy-stream lines of one GGUF file."""
    rows, streams = [], []
    log(f"== {name}: {path} ({os.path.getsize(path) / 1e6:.0f} MB)")
    if os.environ.get("IREE_LLM_PEER_EXTRA_BUFTS") == "0":
        log("llama.cpp without its extra buffer types (IREE_LLM_PEER_EXTRA_BUFTS=0)")
    llm = Llama(
        model_path=path,
        n_ctx=args.context,
        n_batch=PROMPT_TOKENS,
        n_ubatch=PROMPT_TOKENS,
        n_threads=args.threads,
        n_threads_batch=args.threads,
        verbose=False,
    )
    llama_pp, llama_gen = llama_speed(llm, args.reps)
    log(f"llama.cpp: prompt {llama_pp:.1f} tok/s, generation {llama_gen:.1f} tok/s")
    for text in GREEDY_PROMPTS[: args.greedy_prompts]:
        ids = llm.tokenize(text.encode(), add_bos=False, special=False)
        ref, margins = llama_greedy(llm, ids)
        got = iree_greedy(args.iree, path, args.context, ids)
        line, _ = compare(name, text, ref, margins, got)
        log(line)
        streams.append(line)
    del llm

    report = iree_speed(args.iree, path, args.context, args.reps)
    prefill_ms = dict(report["prefill_ms"])[PROMPT_TOKENS]
    step_ms = dict((b, ms) for b, ms in report["decode_step_ms"])
    rows.append((name, "llama.cpp", llama_pp, {1: llama_gen}))
    rows.append(
        (name, "iree-llm", PROMPT_TOKENS * 1e3 / prefill_ms,
         {b: b * 1e3 / step_ms[b] for b in (1, 4, 8) if b in step_ms})
    )
    return rows, streams


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--iree", required=True, help="the iree-llm binary")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--context", type=int, default=256)
    ap.add_argument("--greedy-prompts", type=int, default=len(GREEDY_PROMPTS))
    ap.add_argument("models", nargs="+", help="NAME=FILE.gguf")
    args = ap.parse_args()

    rows, streams = [], []
    load_before = os.getloadavg()[0]
    failures = []
    for spec in args.models:
        name, path = spec.split("=", 1)
        try:
            model_rows, model_streams = run_model(args, name, path)
        except (SystemExit, Exception) as e:  # one model failing must not hide the others
            log(f"{name}: FAILED: {e}")
            failures.append(f"{name}: {str(e).strip().splitlines()[-1] if str(e).strip() else type(e).__name__}")
            continue
        rows += model_rows
        streams += model_streams

    # Both engines slow down sharply when other processes hold the cores, so
    # the figures are only comparable on an otherwise idle machine: say how busy it was.
    print(f"\nSame file, {args.threads} threads, {PROMPT_TOKENS}-token prompt, "
          f"generation at position {PROMPT_TOKENS}; llama.cpp: median of {args.reps} runs "
          f"(generation: each the mean of {GEN_TOKENS} steps), iree-llm: median of "
          f"{args.reps * GEN_TOKENS} calls; tokens/s "
          f"(1-minute load average {load_before:.1f} before, {os.getloadavg()[0]:.1f} after, "
          f"on {os.cpu_count()} cores):")
    print(f"| model | engine | prompt {PROMPT_TOKENS} | gen B=1 | gen B=4 | gen B=8 |")
    print("|---|---|---:|---:|---:|---:|")
    for name, engine, pp, gen in rows:
        cells = [f"{gen[b]:.1f}" if b in gen else "-" for b in (1, 4, 8)]
        print(f"| {name} | {engine} | {pp:.1f} | " + " | ".join(cells) + " |")
    print("\nGreedy streams (same prompt ids, 32 tokens):")
    for line in streams:
        print("- " + line)
    if failures:
        print("\nFailed (no figures for these):")
        for line in failures:
            print("- " + line)
        sys.exit(1)


if __name__ == "__main__":
    main()
