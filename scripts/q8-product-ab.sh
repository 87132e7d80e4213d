#!/usr/bin/env bash
# Times two builds of the 8-bit product kernels side by side in one process
# (csrc/bench/q8_product_ab.c): A is csrc/kernels at a git revision, B the
# working tree's, rounds alternating so that both see the same phases of a
# noisy host. Needs gcc and a CPU with AVX512-VNNI.
#
#   scripts/q8-product-ab.sh [--base REV] [--rows N] [--rounds N] [--threads N]
#
# --base worktree builds A from the working tree too: with A_CFLAGS and
# B_CFLAGS (extra compiler flags for each build, e.g. -DSOME_KNOB=2) it
# compares two settings of one source, and with neither it is an A/A run,
# which shows how far apart two equal builds land on this host.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
base=HEAD rows=24 rounds=30
threads="$(nproc)"
while [ $# -gt 0 ]; do
  case "$1" in
    --base) base="$2"; shift 2 ;;
    --rows) rows="$2"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    --threads) threads="$2"; shift 2 ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) echo "unknown argument: $1 (see --help)" >&2; exit 2 ;;
  esac
done
if ! grep -q avx512_vnni /proc/cpuinfo; then
  echo "this CPU has no AVX512-VNNI: the kernels compared here do not run on it" >&2
  exit 1
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/a" "$tmp/b"
if [ "$base" = worktree ]; then
  cp "$here"/csrc/kernels/* "$tmp/a/"
else
  git -C "$here" archive "$base" csrc/kernels | tar -x -C "$tmp/a" --strip-components=2
fi
cp "$here"/csrc/kernels/* "$tmp/b/"
# The flags build.rs gives the VNNI kernels.
isa=(-mavx2 -mfma -mf16c -mavx512f -mavx512bw -mavx512vl -mavx512vnni)
common=(-O3 -std=c11 -ffreestanding -fno-stack-protector -fno-plt "${isa[@]}")
for side in a b; do
  extra="${A_CFLAGS:-}"
  [ "$side" = b ] && extra="${B_CFLAGS:-}"
  # shellcheck disable=SC2086
  gcc "${common[@]}" $extra -I"$tmp/$side" -c "$tmp/$side/x86_64_avx512_vnni.c" -o "$tmp/$side.o"
  # Every entry the object defines gets the build's prefix (a_, b_), so
  # that the two objects link side by side.
  renames=()
  for symbol in $(nm --defined-only --extern-only "$tmp/$side.o" | awk '{print $3}'); do
    renames+=(--redefine-sym "$symbol=${side}_$symbol")
  done
  objcopy "${renames[@]}" "$tmp/$side.o"
done
gcc -O2 -mavx512f -o "$tmp/ab" "$here/csrc/bench/q8_product_ab.c" "$tmp/a.o" "$tmp/b.o" \
  -lpthread
a_is="csrc/kernels at $base"
[ "$base" = worktree ] && a_is="the working tree"
echo "A: $a_is${A_CFLAGS:+ ($A_CFLAGS)}; B: the working tree${B_CFLAGS:+ ($B_CFLAGS)}"
"$tmp/ab" "$threads" "$rows" "$rounds"
