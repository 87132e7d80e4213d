#!/usr/bin/env bash
# Runs the PyTorch eager baseline of issue 11 and iree-llm graph-bench on the
# same model directory, one after the other in the same run, so the two sets
# of figures share the machine's state. torch and transformers go into a
# throwaway venv under /tmp (from PyPI), never into the repo; pass
# TORCH_VENV=/path to reuse one that already has them.
#
#   scripts/torch_compare.sh MODEL_DIR [--batch 4,8] [--position 128]
#       [--prefill 256] [--iterations 5] [--dtypes bfloat16,float32] [--context 2048]
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
while [ $# -gt 0 ]; do
  case "$1" in
    --batch) batch="$2"; shift 2 ;;
    --position) position="$2"; shift 2 ;;
    --prefill) prefill="$2"; shift 2 ;;
    --iterations) iterations="$2"; shift 2 ;;
    --dtypes) dtypes="$2"; shift 2 ;;
    --context) context="$2"; shift 2 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done

export TRANSFORMERS_VERBOSITY=error HF_HUB_DISABLE_PROGRESS_BARS=1
venv="${TORCH_VENV:-/tmp/iree-llm-torch-venv}"
if ! "$venv/bin/python" -c "import torch, transformers" 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q torch transformers safetensors
fi

echo "CPU: $(lscpu | sed -n 's/^Model name: *//p'); bf16 flags: $(grep -o -w -E 'avx512_bf16|amx_bf16' /proc/cpuinfo | sort -u | tr '\n' ' ')"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for dtype in ${dtypes//,/ }; do
  echo "== PyTorch eager $dtype ($("$venv/bin/python" -c 'import torch; print(torch.__version__)'))"
  "$venv/bin/python" "$root/scripts/torch_decode_bench.py" --model "$model" --dtype "$dtype" \
    --batch "$batch" --position "$position" --prefill "$prefill" \
    --iterations "$iterations" --threads 2
done
echo "== iree-llm graph-bench"
"$root/target/release/iree-llm" graph-bench --model "$model" --context "$context" --batch "$batch" \
  --position "$position" --prefill "$prefill" --iterations "$iterations"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
