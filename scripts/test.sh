#!/usr/bin/env bash
# Every test on a fresh machine: installs the host tools, runs the Rust test
# suite (unit, integration, numerical, engine and server tests) in release
# mode, the LeakSanitizer check of the C shim, and a build with the CUDA
# driver (`--features cuda`, in target-cuda/) whose runtime tests check that
# without a GPU, opening `cuda` is a clear error, and (on a CPU with
# AVX512-VNNI) one A/A round of the 8-bit kernels' side-by-side harness.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/bootstrap.sh" --cuda
cd "$root"
cargo test --release
# The tests that read the real SmolLM2 GGUF that bootstrap.sh fetched: its
# dequantization and tokenizer, its logits against the f64 reference, and its
# greedy streams against transformers' (tests/fixtures/smollm2/hf_greedy.json),
# and `serve --model FILE.gguf` answering a chat as transformers does.
cargo test --release --test gguf --test tokenizer_gguf --test gguf_smollm2 --test gguf_parity \
    --test gguf_serve -- --ignored
"$root/scripts/leakcheck.sh"
CARGO_TARGET_DIR="$root/target-cuda" cargo test --release --features cuda --test runtime_shim
# The kernel A/B harness still builds, and two builds of the same 8-bit
# kernels give the same bits (a one-round A/A run of the kernel this CPU's
# graphs use: AVX512-VNNI, else AVX2 with FMA and F16C).
has() { grep -qw "$1" /proc/cpuinfo; }
if has avx512_vnni || { has avx2 && has fma && has f16c; }; then
  ab="$("$root/scripts/q8-product-ab.sh" --base worktree --rows 8 --rounds 1 --head)"
  echo "$ab"
  grep "results the same bits" <<< "$ab" > /dev/null
else
  echo "no AVX512-VNNI and no AVX2 with FMA and F16C on this CPU: the kernel A/B harness is not run"
fi
