#!/usr/bin/env bash
# Packs what the GPU machine needs from a build (programs, plugin, lit
# configuration) into build-gpu/build.tar.xz, small enough to carry there;
# object files, static libraries and the PyPI CUDA tools stay behind.
#   scripts/pack-gpu-build.sh [BUILD_DIR]      then, on the GPU machine:
#   tar -xJf build-gpu/build.tar.xz            (restores BUILD_DIR in place)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
mkdir -p build-gpu
tar -cJf build-gpu/build.tar.xz --exclude='*.o' --exclude='*.a' --exclude=CMakeFiles \
  --exclude=cuda-tools --exclude=Testing --exclude='.ninja*' "$BUILD"
ls -lh build-gpu/build.tar.xz
