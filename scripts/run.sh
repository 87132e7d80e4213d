#!/usr/bin/env bash
# The main job on a fresh machine: installs the host tools and fetches the
# SmolLM2-135M-Instruct GGUF (scripts/bootstrap.sh), builds iree-llm, and asks
# the real model a question on the CPU, rendered with its own chat template.
#   ./scripts/run.sh                          # asks "What is the capital of France?"
#   ./scripts/run.sh "Name three colors."     # asks your question
#   ./scripts/run.sh "Hi" --temperature 0.7   # further arguments go to `iree-llm generate`
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/bootstrap.sh"
cd "$root"
cargo build --release --quiet
question="What is the capital of France?"
if [[ $# -gt 0 && "$1" != -* ]]; then
    question="$1"
    shift
fi
exec ./target/release/iree-llm generate --model smollm2-135m --chat "$question" --max-tokens 96 "$@"
