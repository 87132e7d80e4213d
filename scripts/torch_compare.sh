#!/usr/bin/env bash
# Runs the PyTorch eager baseline of issue 11 and iree-llm graph-bench on the
# same model directory, one after the other in the same run, so the two sets
# of figures share the machine's state. torch and transformers go into a
# throwaway venv under /tmp (from PyPI), never into the repo; pass
# TORCH_VENV=/path to reuse one that already has them, or TORCH_PYTHON=/path
# to a python that has them (a GPU machine's own PyTorch, say).
#
#   scripts/torch_compare.sh MODEL_DIR [--batch 4,8] [--position 128]
#       [--prefill 256] [--iterations 5] [--dtypes bfloat16,float32] [--context 2048]
#       [--device cuda]
#
# With --device cuda both run on the GPU: PyTorch first measures the GPU's
# copy bandwidth, and graph-bench takes that figure for its memory floor
# (--bandwidth-gbps), since its own probe reads host memory. IREE_LLM may name
# the iree-llm binary (a --features cuda build, say); the default is
# target/release/iree-llm.
#
# PyTorch runs once per dtype in --dtypes. On a CPU without native bf16
# arithmetic (no avx512_bf16 / amx_bf16, e.g. Zen 3) torch's bf16 path is far
# slower than its f32 one, so both are worth printing there; the CPU's bf16
# flags are printed first.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
model="${1:?usage: scripts/torch_compare.sh MODEL_DIR [--batch 4,8] [--position 128] [--prefill 256] [--iterations 5] [--dtypes bfloat16,float32]}"
shift
batch=4,8
position=128
prefill=256
iterations=5
dtypes=bfloat16,float32
context=2048
device=cpu
while [ $# -gt 0 ]; do
  case "$1" in
    --batch) batch="$2"; shift 2 ;;
    --position) position="$2"; shift 2 ;;
    --prefill) prefill="$2"; shift 2 ;;
    --iterations) iterations="$2"; shift 2 ;;
    --dtypes) dtypes="$2"; shift 2 ;;
    --context) context="$2"; shift 2 ;;
    --device) device="$2"; shift 2 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done

export TRANSFORMERS_VERBOSITY=error HF_HUB_DISABLE_PROGRESS_BARS=1
if [ -n "${TORCH_PYTHON:-}" ]; then
  python="$TORCH_PYTHON"
else
  venv="${TORCH_VENV:-/tmp/iree-llm-torch-venv}"
  if ! "$venv/bin/python" -c "import torch, transformers" 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q torch transformers safetensors
  fi
  python="$venv/bin/python"
fi
iree_llm="${IREE_LLM:-$root/target/release/iree-llm}"

echo "CPU: $(lscpu | sed -n 's/^Model name: *//p'); bf16 flags: $(grep -o -w -E 'avx512_bf16|amx_bf16' /proc/cpuinfo | sort -u | tr '\n' ' ')"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
floor=()
for dtype in ${dtypes//,/ }; do
  echo "== PyTorch eager $dtype on $device ($("$python" -c 'import torch; print(torch.__version__)'))"
  "$python" "$root/scripts/torch_decode_bench.py" --model "$model" --dtype "$dtype" \
    --batch "$batch" --position "$position" --prefill "$prefill" \
    --iterations "$iterations" --threads 2 --device "$device" | tee /tmp/torch_compare.$$.out
  if [ "$device" = cuda ] && [ ${#floor[@]} -eq 0 ]; then
    gbps="$(tail -n 1 /tmp/torch_compare.$$.out | "$python" -c 'import json,sys; print(json.load(sys.stdin)["copy_gb_s"])')"
    floor=(--bandwidth-gbps "$gbps")
  fi
  rm -f /tmp/torch_compare.$$.out
done
# PyTorch names the CPU `cpu`; iree-llm's device for it is local-task.
iree_device="$device"
[ "$device" = cpu ] && iree_device=local-task
echo "== iree-llm graph-bench on $iree_device"
"$iree_llm" graph-bench --model "$model" --device "$iree_device" --context "$context" --batch "$batch" \
  --position "$position" --prefill "$prefill" --iterations "$iterations" "${floor[@]}"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
