#!/usr/bin/env python3
"""PyTorch eager baseline for issue 11: the shapes `iree-llm graph-bench`
times, run by Hugging Face transformers on the CPU.

Loads a Hugging Face Llama directory (a real checkpoint, or one written by
`iree-llm synth`) in the dtype asked for, on the CPU or a CUDA GPU, then times
  - a decode step of B rows, every row at position P (a cache of P tokens per
    row is filled first; the step appends one token to each row), and
  - prefill of one prompt of T tokens and of B prompts of T/B tokens, as
    `generate()` runs it: the head on each prompt's last token only
    (`logits_to_keep=1`, what transformers' generate passes), as iree-llm's
    prompt graphs do. The plain forward, which also multiplies every other
    token's row by the output head (on the 1B preset a fifth more
    multiply-adds), is timed beside it and printed as such; before the
    sixtieth session only that one was timed (docs/performance.md).
Medians of N repetitions are printed as text and as one JSON line. On CUDA
it first measures the GPU's memory bandwidth with a device-to-device copy of
a buffer far larger than the L2 (bytes read plus bytes written over the
time), the figure iree-llm graph-bench then takes for its memory floor.
Needs torch and transformers; scripts/torch_compare.sh installs them into a
throwaway venv under /tmp, or uses the python given in TORCH_PYTHON.

    python scripts/torch_decode_bench.py --model DIR --batch 4,8 --position 128
"""
import argparse
import json
import statistics
import time

import torch
from transformers import AutoModelForCausalLM


def median_ms(fn, reps, sync=lambda: None):
    fn()  # warm-up
    sync()
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        sync()
        times.append((time.perf_counter() - t) * 1e3)
    return statistics.median(times)


def copy_bandwidth_gb_s(device, gib=2, reps=10):
    """Device-to-device copy of `gib` GiB: (read + written bytes) / median time."""
    n = gib << 30
    src = torch.empty(n, dtype=torch.uint8, device=device).random_()
    dst = torch.empty_like(src)
    ms = median_ms(lambda: dst.copy_(src), reps, torch.cuda.synchronize)
    assert torch.equal(dst[:1 << 20], src[:1 << 20])
    del src, dst
    torch.cuda.empty_cache()
    return 2 * n / (ms * 1e-3) / 1e9


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", required=True)
    ap.add_argument("--dtype", default="bfloat16", choices=["bfloat16", "float32"])
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--batch", default="4,8")
    ap.add_argument("--position", type=int, default=128)
    ap.add_argument("--prefill", type=int, default=256)
    ap.add_argument("--iterations", type=int, default=5)
    ap.add_argument("--device", default="cpu", choices=["cpu", "cuda"])
    args = ap.parse_args()

    torch.set_num_threads(args.threads)
    dtype = getattr(torch, args.dtype)
    out = {"model": args.model, "dtype": args.dtype, "threads": args.threads,
           "device": args.device}
    sync = lambda: None
    if args.device == "cuda":
        sync = torch.cuda.synchronize
        out["gpu"] = torch.cuda.get_device_name(0)
        out["copy_gb_s"] = copy_bandwidth_gb_s(args.device)
        print(f"GPU {out['gpu']}: device-to-device copy {out['copy_gb_s']:.0f} GB/s "
              f"(bytes read plus written)")
    model = AutoModelForCausalLM.from_pretrained(args.model, dtype=dtype).to(args.device)
    model.eval()
    vocab = model.config.vocab_size
    gen = torch.Generator().manual_seed(0)
    ids = lambda b, t: torch.randint(10, vocab - 10, (b, t), generator=gen).to(args.device)

    with torch.inference_mode():
        steps = {}
        for b in [int(x) for x in args.batch.split(",")]:
            prefix = model(ids(b, args.position), use_cache=True).past_key_values
            token = ids(b, 1)

            # Each timed step starts from the same P-token cache: crop back
            # after the step so every repetition is at position P.
            def step():
                model(token, past_key_values=prefix, use_cache=True)
                prefix.crop(-1)

            ms = median_ms(step, args.iterations, sync)
            steps[b] = ms
            print(f"decode B={b} at position {args.position}: {ms:.2f} ms per step, "
                  f"{b * 1e3 / ms:.1f} tokens/s")
        out["decode_step_ms"] = steps

        t = args.prefill
        b = max(int(x) for x in args.batch.split(","))
        prompts = {"one": (ids(1, t), f"1 prompt of {t} tokens"),
                   "batched": (ids(b, t // b), f"{b} prompts of {t // b} tokens")}
        for key, (tokens, what) in prompts.items():
            last = median_ms(lambda: model(tokens, use_cache=True, logits_to_keep=1),
                             args.iterations, sync)
            every = median_ms(lambda: model(tokens, use_cache=True), args.iterations, sync)
            print(f"prefill {what}: {last:.1f} ms ({t * 1e3 / last:.0f} tokens/s) with the "
                  f"head on the last token as generate() runs it; {every:.1f} ms with "
                  f"every token's logits")
            out[f"prefill_{key}_ms"] = last
            out[f"prefill_{key}_all_logits_ms"] = every
    print(json.dumps(out))


if __name__ == "__main__":
    main()
