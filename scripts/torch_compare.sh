#!/usr/bin/env bash
# Runs the PyTorch eager baseline of issue 11 and iree-llm graph-bench on the
# same model directory, one after the other in the same run, so the two sets
# of figures share the machine's state. torch and transformers go into a
# throwaway venv under /tmp (from PyPI), never into the repo; pass
# TORCH_VENV=/path to reuse one that already has them.
#
#   scripts/torch_compare.sh MODEL_DIR [--batch 4,8] [--position 128]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
model="${1:?usage: scripts/torch_compare.sh MODEL_DIR [--batch 4,8] [--position 128]}"
shift
batch=4,8
position=128
while [ $# -gt 0 ]; do
  case "$1" in
    --batch) batch="$2"; shift 2 ;;
    --position) position="$2"; shift 2 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done

venv="${TORCH_VENV:-/tmp/iree-llm-torch-venv}"
if ! "$venv/bin/python" -c "import torch, transformers" 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q torch transformers safetensors
fi

echo "== PyTorch eager ($("$venv/bin/python" -c 'import torch; print(torch.__version__)'))"
"$venv/bin/python" "$root/scripts/torch_decode_bench.py" --model "$model" \
  --batch "$batch" --position "$position" --threads 2
echo "== iree-llm graph-bench"
"$root/target/release/iree-llm" graph-bench --model "$model" --batch "$batch" \
  --position "$position" --prefill 256
