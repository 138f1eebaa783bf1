#!/usr/bin/env bash
# Installs what divopt needs from Debian (when missing) and configures and
# builds it in ./build. Safe to run again: it installs and rebuilds only
# what is missing or out of date.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(clang-22 llvm-22-dev libclang-22-dev libclang-cpp22-dev llvm-22-tools libeigen3-dev libgtest-dev
          nlohmann-json3-dev libcli11-dev libzstd-dev cmake ninja-build python3
          libbenchmark-dev make pkgconf dpkg-dev)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  [[ $(id -u) -ne 0 ]] && SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if ! command -v nvcc >/dev/null && [[ ! -e "${CUDA_PATH:-/usr/local/cuda}/include/cuda_runtime_api.h" ]]; then
  echo "setup: the CUDA 13 toolkit is missing (looked for nvcc, CUDA_PATH, /usr/local/cuda)." >&2
  echo "setup: install it from NVIDIA's packages, then run this again." >&2
  exit 1
fi

# cuobjdump and nvdisasm check the latency suite's SASS (tests/lit/latency);
# the toolkit here may lack them, PyPI has NVIDIA's own builds.
if ! command -v cuobjdump >/dev/null && [[ ! -x build/cuda-tools/nvidia/cu13/bin/cuobjdump ]]; then
  echo "setup: installing cuobjdump and nvdisasm from PyPI into build/cuda-tools"
  python3 -m pip install --quiet --disable-pip-version-check --target build/cuda-tools \
    "nvidia-cuda-cuobjdump>=13,<14" "nvidia-cuda-nvdisasm>=13,<14"
fi

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$(nproc)"
