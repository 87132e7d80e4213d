#!/usr/bin/env bash
# Installs the host tools iree-llm needs into the project-local .venv:
# iree-compile (PyPI iree-base-compiler 3.13.0), CMake >= 3.26, Ninja and
# libclang for bindgen. With --cuda also what the IREE CUDA driver builds
# against: cuda.h (PyPI nvidia-cuda-runtime-cu12), crt/ headers and libdevice
# (nvidia-cuda-nvcc-cu12), nv/ headers (nvidia-cuda-cccl-cu12). Idempotent and quiet when
# everything is already there. Downloads only from PyPI.
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
