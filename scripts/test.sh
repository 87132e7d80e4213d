#!/usr/bin/env bash
# Every test on a fresh machine: installs the host tools, runs the Rust test
# suite (unit, integration, numerical, engine and server tests) in release
# mode, then the LeakSanitizer check of the C shim.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/bootstrap.sh"
cd "$root"
cargo test --release
"$root/scripts/leakcheck.sh"
