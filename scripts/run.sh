#!/usr/bin/env bash
# The main job on a fresh machine: installs the host tools (scripts/bootstrap.sh),
# builds iree-llm, and generates text with the built-in `tiny` model on the CPU.
# Extra arguments are passed to `iree-llm generate`, e.g. --temperature 0.8.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/bootstrap.sh"
cd "$root"
cargo build --release --quiet
exec ./target/release/iree-llm generate --model tiny --prompt "Once upon a time" --max-tokens 48 "$@"
