#!/usr/bin/env bash
# iree-llm side by side with llama.cpp on the same GGUF files (issue 10 item 6):
# prompt processing (128 tokens) and generation tokens/s at the same thread
# count, and the first divergence of the two engines' greedy streams.
#
#   ./scripts/peer_llamacpp.sh            # SmolLM2-135M Q4_1 and the llama-3.2-1b preset as Q4_1 GGUF
#   ./scripts/peer_llamacpp.sh --smollm2  # SmolLM2 only (the 1B part takes long on 2 cores)
#   ./scripts/peer_llamacpp.sh --1b-only  # the 1B preset only
#
# IREE_LLM_PEER_EXTRA_BUFTS=0 loads llama.cpp's models without its extra buffer
# types (AMX and repacked layouts), for builds whose AMX path crashes.
#
# IREE_LLM_PEER_1B picks the 1B file's weights: q4_1 (default), q4_0, q8_0
# (quantized by `iree-llm synth --quant`, every matrix and the embedding) or
# f16. The file is written once under ~/.cache/iree-llm/peer and reused.
#
# llama.cpp comes from PyPI's llama-cpp-python, which compiles it from source
# (about 10 minutes on 2 cores) for this CPU (GGML_NATIVE); it is installed once
# into a throwaway venv outside the repository, $IREE_LLM_PEER_VENV (default
# ~/.cache/iree-llm/peer-venv), and reused on later runs. Threads: llama.cpp
# gets THREADS (default 2); iree-llm's local-task driver runs one worker per
# physical core, which is 2 on the machines this was written for: the script
# prints both so a mismatch is visible.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
threads="${THREADS:-2}"
venv="${IREE_LLM_PEER_VENV:-$HOME/.cache/iree-llm/peer-venv}"
cache="$HOME/.cache/iree-llm"
llama_cpp_version=0.3.36

"$root/scripts/bootstrap.sh"
cd "$root"
cargo build --release --quiet
iree="$root/target/release/iree-llm"

if ! "$venv/bin/python" -c "import llama_cpp" 2>/dev/null; then
    echo "installing llama-cpp-python $llama_cpp_version into $venv (compiles llama.cpp)" >&2
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --upgrade pip
    CMAKE_ARGS="-DGGML_NATIVE=ON" "$venv/bin/pip" install --quiet --no-cache-dir \
        "llama-cpp-python==$llama_cpp_version" numpy
fi

models=()
if [[ "${1:-}" != "--1b-only" ]]; then
    models+=("smollm2-135m-q4_1=$cache/models/SmolLM2-135M-Instruct.Q4_1.gguf")
fi
if [[ "${1:-}" != "--smollm2" ]]; then
    weights="${IREE_LLM_PEER_1B:-q4_1}"
    case "$weights" in
        q4_1|q4_0|q8_0) synth_args=(--quant "$weights") ;;
        f16) synth_args=(--dtype f16) ;;
        *) echo "IREE_LLM_PEER_1B must be q4_1, q4_0, q8_0 or f16, got $weights" >&2; exit 2 ;;
    esac
    onebee="$cache/peer/llama-3.2-1b-$weights.gguf"
    if [[ ! -f "$onebee" ]]; then
        mkdir -p "$cache/peer"
        "$iree" synth --preset llama-3.2-1b --format gguf "${synth_args[@]}" --out "$onebee.partial"
        mv "$onebee.partial" "$onebee"
    fi
    models+=("llama-3.2-1b-$weights=$onebee")
fi

echo "CPU: $(nproc) logical cores, $(lscpu -p=core | grep -v '^#' | sort -u | wc -l) physical; llama.cpp threads: $threads" >&2
"$venv/bin/python" -c "import llama_cpp; print('llama-cpp-python', llama_cpp.__version__, llama_cpp.llama_print_system_info().decode())" >&2
exec "$venv/bin/python" "$root/scripts/peer_llamacpp.py" --iree "$iree" --threads "$threads" "${models[@]}"
