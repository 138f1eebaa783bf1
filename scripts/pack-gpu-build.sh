#!/usr/bin/env bash
# Packs what the GPU machine needs from a build (programs, plugin, lit
# configuration) into build-gpu/build.tar.xz, small enough to carry there;
# object files, static libraries and the PyPI CUDA tools stay behind. The GPU
# machines have no LLVM, so FileCheck (and the shared libraries it needs that
# a bare machine may lack) go beside it in build-gpu/tools.
#   scripts/pack-gpu-build.sh [BUILD_DIR]      then, on the GPU machine:
#   tar -xJf build-gpu/build.tar.xz            (restores BUILD_DIR in place)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
mkdir -p build-gpu
# The install tests' scratch prefixes and packages (tests/install/work) are
# copies of what is already here, and the GPU tests do not use them.
tar -cJf build-gpu/build.tar.xz --exclude='*.o' --exclude='*.a' --exclude=CMakeFiles \
  --exclude=cuda-tools --exclude=Testing --exclude='.ninja*' \
  --exclude="$BUILD/tests/install/work" "$BUILD"
mkdir -p build-gpu/tools
FILECHECK=$(sed -n 's/^config.llvm_bin = "\(.*\)"/\1/p' "$BUILD/tests/lit/lit.site.cfg.py")/FileCheck
cp "$FILECHECK" build-gpu/tools/
ldd "$FILECHECK" | awk '/libz3/ {print $3}' | xargs -r -I{} cp {} build-gpu/tools/
xz -f -T0 build-gpu/tools/libz3* 2>/dev/null || true
ls -lh build-gpu/build.tar.xz build-gpu/tools
