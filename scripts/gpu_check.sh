#!/usr/bin/env bash
# Issue 11's CUDA figures in one run on a lent GPU machine, where nothing can
# be downloaded: the same shapes as on the CPU, timed by PyTorch eager and by
# iree-llm on the same GPU, each step next to the floor of the GPU's measured
# copy bandwidth, then engine throughput and greedy parity between the CPU
# (local-task) and CUDA.
#
# Prepared here, after `CARGO_TARGET_DIR=target-cuda cargo build --release
# --features cuda`, by `scripts/gpu_check.sh --pack` into .gpu/ (git-ignored;
# about 50 MB, under the 64 MiB a device call carries with the tree):
#   iree-llm.xz             a `--features cuda` release build, stripped
#   cuda_rows_test.xz       tests/cuda_rows.rs built the same way: the CUDA
#                           few-row kernel's outputs against an f64 product
#   cuda_graphs_test.xz     tests/cuda_graphs.rs: decode steps through CUDA's
#                           attention kernel, and prompts with bf16 rows,
#                           against the f64 reference
#   iree-compile, iree-lld, libIREECompiler.so.xz   the compiler of .venv
#                           (its library stripped) and the linker of CPU modules, so
#                           the GPU machine compiles the modules for its own
#                           CPU (local-task) and for CUDA itself
# Run there from the repository root with .gpu carried:
#   scripts/gpu_check.sh [--quick | --attention | --decode | --prompts | --rows-split | --smollm2]
# Everything printed goes to $OUT/gpu_check.log (or /tmp/gpu-out), written as
# it runs, so a run cut short still returns what it finished. The machine's own
# python3 provides torch and transformers.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

if [ "${1:-}" = --pack ]; then
  set -e
  mkdir -p .gpu
  grep -qx '/.gpu/' .git/info/exclude 2>/dev/null || echo '/.gpu/' >> .git/info/exclude
  target="${CARGO_TARGET_DIR:-$root/target-cuda}"
  strip -o .gpu/iree-llm "$target/release/iree-llm"
  xz -T2 -6 -f .gpu/iree-llm
  # The CUDA kernel's test against an f64 product (tests/cuda_rows.rs),
  # which only a GPU can run.
  # The CUDA kernels' tests (tests/cuda_rows.rs, tests/cuda_graphs.rs),
  # which only a GPU can run.
  for t in cuda_rows cuda_graphs; do
    CARGO_TARGET_DIR="$target" cargo test --release --features cuda --test "$t" --no-run
    test_bin="$(ls -t "$target"/release/deps/"$t"-* | grep -v '\.d$' | head -1)"
    strip -o ".gpu/${t}_test" "$test_bin"
    xz -T2 -6 -f ".gpu/${t}_test"
  done
  libs="$(echo .venv/lib/python3*/site-packages/iree/compiler/_mlir_libs)"
  cp "$libs/iree-compile" "$libs/iree-lld" .gpu/
  strip -o .gpu/libIREECompiler.so "$libs/libIREECompiler.so"
  xz -T2 -9 -f .gpu/libIREECompiler.so
  du -sh .gpu/*
  exit 0
fi

out="${OUT:-/tmp/gpu-out}"
work=/tmp/iree-llm-gpu
logs="$work/logs"
mkdir -p "$out" "$work/bin" "$work/cache" "$logs"
# The device tool returns at most 8 files from $OUT: everything printed goes
# to one log there, beside ncu's table.
exec > >(tee -a "$out/gpu_check.log") 2>&1
step() { echo "== $(date +%T) $*"; }

step unpack
xz -dc .gpu/iree-llm.xz > "$work/bin/iree-llm"
xz -dc .gpu/libIREECompiler.so.xz > "$work/bin/libIREECompiler.so"
cp .gpu/iree-compile .gpu/iree-lld "$work/bin/"
chmod +x "$work/bin/iree-llm" "$work/bin/iree-compile" "$work/bin/iree-lld"
# IREE's CUDA driver opens `libcuda.so`; a driver mounted into a container
# often provides only `libcuda.so.1`.
if ! ldconfig -p | grep -q 'libcuda\.so '; then
  so1="$(ldconfig -p | awk '/libcuda\.so\.1 /{print $NF; exit}')"
  [ -n "$so1" ] || so1="$(find / -name 'libcuda.so.1' -not -path '/proc/*' 2>/dev/null | head -1)"
  if [ -n "$so1" ]; then
    mkdir -p "$work/cudalib" && ln -sf "$so1" "$work/cudalib/libcuda.so"
    export LD_LIBRARY_PATH="$work/cudalib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    echo "libcuda.so -> $so1"
  fi
fi
export IREE_LLM="$work/bin/iree-llm" IREE_COMPILE="$work/bin/iree-compile"
export IREE_LLM_CACHE_DIR="$work/cache" TORCH_PYTHON=python3
B="$IREE_LLM"

{
  nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.sm,clocks.mem --format=csv
  echo "CPU: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) threads"
  "$IREE_COMPILE" --version | head -2
  "$B" devices
}

# First the cheapest end-to-end proof that the CUDA path runs at all: the
# hand-written kernels against f64 references. A kernel that fails its test
# stops the run (its figures would mean nothing).
# (SKIP_TESTS=1 skips them, for a second mode in the same call.)
for t in cuda_rows cuda_graphs; do
  [ -f ".gpu/${t}_test.xz" ] && [ -z "${SKIP_TESTS:-}" ] || continue
  step "tests/$t.rs on the GPU"
  xz -dc ".gpu/${t}_test.xz" > "$work/bin/${t}_test" && chmod +x "$work/bin/${t}_test"
  (cd "$work" && timeout 240 "$work/bin/${t}_test" --ignored --test-threads=1 --nocapture) 2>&1 | tail -8
  [ "${PIPESTATUS[0]}" -eq 0 ] || { step "tests/$t.rs failed: stopping"; exit 1; }
done

# `--attention`: only the decode attention's forms, decode alone at both
# windows of context 2048, alternating (broadcast copies each head's cached
# rows g times, which grows with the window; split does not copy them but
# takes 2 g products a layer), then greedy parity with every window split
# (the engine's short requests would otherwise only meet broadcast windows).
if [ "${1:-}" = --attention ]; then
  "$B" synth --preset llama-3.2-1b --out "$work/llama-1b" 2>&1
  step "llama-3.2-1b: the decode attention's forms, context 2048, alternating"
  for form in ${ATTENTION_FORMS:-by-window broadcast}; do
    echo "-- IREE_LLM_GPU_ATTENTION=$form"
    IREE_LLM_GPU_ATTENTION=$form timeout 60 "$B" graph-bench --model "$work/llama-1b" --device cuda \
      --context 2048 --batch 1,8 --prefill --iterations 5 2>&1 | grep -E '^(loaded|decode)'
  done
  form="${PARITY_FORM:-split}"
  step "llama-3.2-1b, attention form $form: greedy parity local-task against cuda"
  IREE_LLM_GPU_ATTENTION=$form timeout 120 "$B" bench --model "$work/llama-1b" \
    --devices local-task,cuda --batch 8 --requests 16 --max-tokens 32 2>&1 | grep -E 'parity|cross-device'
  step done
  exit 0
fi

# `--prompts`: the prompt products' forms (IREE_LLM_GPU_WIDE_ROWS: the
# exact bf16 terms, CUDA's default, against bf16 rows, opt-in), alternating,
# then the engine at saturation in each (prefill calls are its overhead).
if [ "${1:-}" = --prompts ]; then
  "$B" synth --preset llama-3.2-1b --out "$work/llama-1b" 2>&1
  step "llama-3.2-1b: prompt products' forms, alternating"
  for form in ${WIDE_FORMS:-bf16-terms bf16 bf16-terms bf16}; do
    echo "-- IREE_LLM_GPU_WIDE_ROWS=$form"
    IREE_LLM_GPU_WIDE_ROWS=$form timeout 90 "$B" graph-bench --model "$work/llama-1b" --device cuda \
      --context 2048 --batch 8 --prefill 16,256 --iterations 5 2>&1 | grep -E '^(loaded|prefill|decode)'
  done
  for form in bf16-terms bf16; do
    step "engine on cuda, B=8 at saturation, IREE_LLM_GPU_WIDE_ROWS=$form"
    IREE_LLM_GPU_WIDE_ROWS=$form timeout 120 "$B" bench --model "$work/llama-1b" --device cuda --batch 8 \
      --requests 32 --max-tokens 128 --no-parity 2>&1 | grep -E 'at saturation|where the time|prefill chunks'
  done
  step done
  exit 0
fi

# `--rows-split`: the few-row kernel's splits (IREE_LLM_GPU_ROWS_SPLIT),
# decode alone, alternating.
if [ "${1:-}" = --rows-split ]; then
  "$B" synth --preset llama-3.2-1b --out "$work/llama-1b" 2>&1
  step "llama-3.2-1b: the few-row kernel's splits, alternating"
  for split in ${SPLITS:-by-outputs warp by-outputs warp}; do
    echo "-- IREE_LLM_GPU_ROWS_SPLIT=$split"
    IREE_LLM_GPU_ROWS_SPLIT=$split timeout 60 "$B" graph-bench --model "$work/llama-1b" --device cuda \
      --context 2048 --batch 1,8 --prefill --iterations 10 2>&1 | grep -E '^(loaded|decode)'
  done
  step done
  exit 0
fi

# `--smollm2`: SmolLM2-135M's shape (random bf16 weights), PyTorch eager
# beside graph-bench.
if [ "${1:-}" = --smollm2 ]; then
  python3 scripts/hf_random_model.py --shape smollm2-135m --out "$work/smollm2" 2>&1 \
    | grep -v 'Writing model shards'
  step "SmolLM2-135M shape: PyTorch eager and graph-bench on cuda"
  timeout 150 scripts/torch_compare.sh "$work/smollm2" --device cuda --dtypes bfloat16 --context 2048 \
    --batch 1,4,8 --position 128 --prefill 128 --iterations 5 2>&1 | grep -v '^{'
  step done
  exit 0
fi

# `--decode`: the 1B preset's decode steps only: PyTorch eager beside
# graph-bench (5 iterations; prompts of 256 too, since the script times
# both), the step as the engine runs it (sampled on the device, token ids
# read back) against the logits step, and a B=8 decode step's kernels under
# ncu, where the step's time beyond B=1's goes.
if [ "${1:-}" = --decode ]; then
  "$B" synth --preset llama-3.2-1b --out "$work/llama-1b" 2>&1
  step "llama-3.2-1b: PyTorch eager and graph-bench on cuda"
  timeout 200 scripts/torch_compare.sh "$work/llama-1b" --device cuda --dtypes bfloat16 --context 2048 \
    --batch 1,4,8 --position 128 --prefill 256 --iterations 5 2>&1
  step "llama-3.2-1b: logits read back against sampled on the device"
  timeout 120 "$B" graph-bench --model "$work/llama-1b" --device cuda --context 2048 --batch 1,8 \
    --prefill --sampling --iterations 10 2>&1 | grep -E '^(decode|sampling|  host)'
  NCU="$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)"
  if [ -n "$NCU" ]; then
    step "llama-3.2-1b: B=8 decode steps' kernels under ncu"
    timeout 150 "$NCU" --clock-control none --metrics gpu__time_duration.sum --csv \
      "$B" graph-bench --model "$work/llama-1b" --device cuda --context 256 --batch 8 --prefill \
      --iterations 1 2> "$logs/ncu_decode.err" | grep -E '^"' > "$out/ncu_decode8.csv"
    python3 scripts/ncu_summary.py "$out/ncu_decode8.csv" --top 25 2>&1
  fi
  step "engine on cuda, B=8 at saturation"
  timeout 120 "$B" bench --model "$work/llama-1b" --device cuda --batch 8 --requests 32 --max-tokens 128 \
    --no-parity 2>&1
  step done
  exit 0
fi

step "tiny preset: greedy parity local-task against cuda"
timeout 120 "$B" bench --model tiny --devices local-task,cuda --batch 4 --requests 8 \
  --max-tokens 32 2>&1

step models
"$B" synth --preset llama-3.2-1b --out "$work/llama-1b" 2>&1
python3 scripts/hf_random_model.py --shape smollm2-135m --out "$work/smollm2" 2>&1 \
  | grep -v 'Writing model shards'

iters=5
[ "${1:-}" = --quick ] && iters=2

step "llama-3.2-1b: PyTorch eager and graph-bench on cuda"
timeout 200 scripts/torch_compare.sh "$work/llama-1b" --device cuda --dtypes bfloat16 --context 2048 \
  --batch 1,4,8 --position 128 --prefill 256 --iterations "$iters" 2>&1

step "engine on cuda, B=8 at saturation"
timeout 120 "$B" bench --model "$work/llama-1b" --device cuda --batch 8 --requests 32 --max-tokens 128 \
  --no-parity 2>&1

step "greedy parity local-task against cuda"
timeout 150 "$B" bench --model "$work/llama-1b" --devices local-task,cuda --batch 8 --requests 16 \
  --max-tokens 32 2>&1

# Where a 256-token prompt's time goes, kernel by kernel under Nsight Compute,
# with weights and caches in device memory as graph-bench keeps them (not
# iree-run-module, whose parsed inputs are host-visible). Decode steps of
# B=1 are in the same run and are summed apart, by graph.
NCU="$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)"
if [ -n "$NCU" ]; then
  step "llama-3.2-1b: a 256-token prompt's kernels under ncu"
  timeout 150 "$NCU" --clock-control none --metrics gpu__time_duration.sum --csv \
    "$B" graph-bench --model "$work/llama-1b" --device cuda --context 2048 --batch 1 --prefill 256 \
    --iterations 1 2> "$logs/ncu_prefill.err" | grep -E '^"' > "$out/ncu_prefill.csv"
  python3 scripts/ncu_summary.py "$out/ncu_prefill.csv" 2>&1
else
  step "no ncu on this machine: the prompt's kernels are not profiled"
fi
step "SmolLM2-135M shape: PyTorch eager and graph-bench on cuda"
timeout 120 scripts/torch_compare.sh "$work/smollm2" --device cuda --dtypes bfloat16 --context 2048 \
  --batch 1,4,8 --position 128 --prefill 128 --iterations "$iters" 2>&1

step done
