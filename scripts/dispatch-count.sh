#!/usr/bin/env bash
# Counts the dispatches of emitted graphs: compiles each to IREE's flow
# level for the host CPU and counts `flow.dispatch` ops, the number of
# kernels one call of the graph launches (issue 11: a decode step's fixed
# cost). Extra iree-compile flags come from IREE_LLM_COMPILE_FLAGS, as for
# the module cache.
#
#   iree-llm emit --model M --out DIR --context 2048 --batch 1,4,8
#   scripts/dispatch-count.sh DIR/decode_ragged_logits_b{1,4,8}_w256.mlir
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
compiler="${IREE_COMPILE:-$here/.venv/bin/iree-compile}"
[ -x "$compiler" ] || compiler=iree-compile
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
for mlir in "$@"; do
  # shellcheck disable=SC2086
  "$compiler" --iree-input-type=stablehlo --iree-hal-target-device=local \
    --iree-hal-local-target-device-backends=llvm-cpu --iree-llvmcpu-target-cpu=host \
    ${IREE_LLM_COMPILE_FLAGS:-} --compile-to=flow "$mlir" -o "$tmp/flow.mlir"
  printf '%s\t%s\n' "$(grep -c 'flow.dispatch @' "$tmp/flow.mlir")" "$(basename "$mlir" .mlir)"
done
