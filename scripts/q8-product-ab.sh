#!/usr/bin/env bash
# Times two builds of the 8-bit product kernels side by side in one process
# (csrc/bench/q8_product_ab.c): A is csrc/kernels at a git revision, B the
# working tree's, rounds alternating so that both see the same phases of a
# noisy host. Needs gcc; compares the kernel the graphs use on this CPU:
# x86_64_avx512_vnni.c with AVX512-VNNI, else its twin x86_64_avx2_q8.c
# (the same exports) with AVX2, FMA and F16C; --kernel picks one.
#
#   scripts/q8-product-ab.sh [--base REV] [--rows N] [--rounds N] [--threads N]
#                            [--kernel vnni|avx2] [--head]
#
# --head adds the model's output head (Q8_0, 30 MB) to the 120 layer
# products (Q4_1, 66 MB), as a decode step multiplies it.
#
# --base worktree builds A from the working tree too: with A_CFLAGS and
# B_CFLAGS (extra compiler flags for each build, e.g. -DSOME_KNOB=2) it
# compares two settings of one source, and with neither it is an A/A run,
# which shows how far apart two equal builds land on this host.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
base=HEAD rows=24 rounds=30 kernel= head=0
threads="$(nproc)"
while [ $# -gt 0 ]; do
  case "$1" in
    --base) base="$2"; shift 2 ;;
    --rows) rows="$2"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    --threads) threads="$2"; shift 2 ;;
    --kernel) kernel="$2"; shift 2 ;;
    --head) head=1; shift ;;
    -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
    *) echo "unknown argument: $1 (see --help)" >&2; exit 2 ;;
  esac
done
has() { grep -qw "$1" /proc/cpuinfo; }
if [ -z "$kernel" ]; then
  if has avx512_vnni; then
    kernel=vnni
  elif has avx2 && has fma && has f16c; then
    kernel=avx2
  fi
fi
# The flags build.rs gives each kernel.
case "$kernel" in
  vnni)
    source=x86_64_avx512_vnni.c
    isa=(-mavx2 -mfma -mf16c -mavx512f -mavx512bw -mavx512vl -mavx512vnni)
    if ! has avx512_vnni; then
      echo "this CPU has no AVX512-VNNI: the VNNI kernel does not run on it" >&2
      exit 1
    fi ;;
  avx2)
    source=x86_64_avx2_q8.c
    isa=(-mavx2 -mfma -mf16c)
    if ! { has avx2 && has fma && has f16c; }; then
      echo "this CPU lacks AVX2, FMA or F16C: the AVX2 kernel does not run on it" >&2
      exit 1
    fi ;;
  "")
    echo "no AVX512-VNNI and no AVX2 with FMA and F16C on this CPU: no 8-bit kernel runs here" >&2
    exit 1 ;;
  *) echo "--kernel is vnni or avx2, not $kernel" >&2; exit 2 ;;
esac
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/a" "$tmp/b"
if [ "$base" = worktree ]; then
  cp "$here"/csrc/kernels/* "$tmp/a/"
else
  git -C "$here" archive "$base" csrc/kernels | tar -x -C "$tmp/a" --strip-components=2
fi
cp "$here"/csrc/kernels/* "$tmp/b/"
common=(-O3 -std=c11 -ffreestanding -fno-stack-protector -fno-plt "${isa[@]}")
for side in a b; do
  extra="${A_CFLAGS:-}"
  [ "$side" = b ] && extra="${B_CFLAGS:-}"
  # shellcheck disable=SC2086
  gcc "${common[@]}" $extra -I"$tmp/$side" -c "$tmp/$side/$source" -o "$tmp/$side.o"
  # Every entry the object defines gets the build's prefix (a_, b_), so
  # that the two objects link side by side.
  renames=()
  for symbol in $(nm --defined-only --extern-only "$tmp/$side.o" | awk '{print $3}'); do
    renames+=(--redefine-sym "$symbol=${side}_$symbol")
  done
  objcopy "${renames[@]}" "$tmp/$side.o"
done
gcc -O2 -o "$tmp/ab" "$here/csrc/bench/q8_product_ab.c" "$tmp/a.o" "$tmp/b.o" \
  -lpthread
a_is="csrc/kernels at $base"
[ "$base" = worktree ] && a_is="the working tree"
echo "$source. A: $a_is${A_CFLAGS:+ ($A_CFLAGS)}; B: the working tree${B_CFLAGS:+ ($B_CFLAGS)}"
"$tmp/ab" "$threads" "$rows" "$rounds" "$head"
