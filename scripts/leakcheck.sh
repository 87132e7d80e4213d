#!/usr/bin/env bash
# Builds csrc/tests/shim_leakcheck.c with AddressSanitizer (which includes
# LeakSanitizer) against the IREE runtime archive that `cargo build --release`
# produced, and runs it over the hand-written test module on local-task and
# local-sync. Any leak, sanitizer error or failed expectation fails the run.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
"$root/scripts/bootstrap.sh"
cargo build --release --quiet

# The most recent runtime build and the eerie-sys sources it came from.
cache=$(ls -t target/release/build/iree-llm-*/out/build/CMakeCache.txt | head -1)
build=$(dirname "$cache")
iree=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$cache")/iree
# The shim reports the runtime's package version, as build.rs passes it.
version=$(sed -n 's/.*"package-version": *"\([^"]*\)".*/\1/p' "$iree/runtime/version.json")
out="$root/target/leakcheck"
mkdir -p "$out"

cc=${CC:-gcc}
"$cc" -std=gnu11 -g -O1 -fsanitize=address -fno-omit-frame-pointer \
  -DIREE_ALLOCATOR_SYSTEM_CTL=iree_allocator_libc_ctl \
  -DILL_RUNTIME_VERSION="\"$version\"" \
  -I csrc -isystem "$iree/runtime/src" -isystem "$build/iree/runtime/src" \
  -isystem "$iree/third_party/flatcc/include" \
  csrc/iree_llm_shim.c csrc/tests/shim_leakcheck.c \
  "$build/libeerie_runtime.a" "$build/iree/build_tools/third_party/flatcc/libflatcc_parsing.a" \
  -lpthread -ldl -lm -o "$out/shim_leakcheck"

"$root/.venv/bin/iree-compile" --iree-input-type=stablehlo \
  --iree-hal-target-device=local --iree-hal-local-target-device-backends=llvm-cpu \
  --iree-llvmcpu-target-cpu=host tests/fixtures/shim_test.mlir -o "$out/shim_test.vmfb"

ASAN_OPTIONS=detect_leaks=1:halt_on_error=1 "$out/shim_leakcheck" "$out/shim_test.vmfb" "$out"
echo "LeakSanitizer: no leaks reported"
