#!/usr/bin/env bash
# Runs the GPU tests from an existing build, on a machine that has a GPU but
# no LLVM (the GPU programs were compiled with the plugin where it was built).
#   scripts/gpu-tests.sh [BUILD_DIR]        (default: build)
# lit comes from the build dir (copied there at configure time), or PATH.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader
# lit.site.cfg.py names the build by the path it was configured at.
# The sources first: a build configured inside them (SRC/build) is then
# found through them.
CONFIGURED=$(sed -n 's/^config.divopt_obj_root = "\(.*\)"/\1/p' "$BUILD/tests/lit/lit.site.cfg.py")
SRC=$(sed -n 's/.*load_config(config, os.path.join("\(.*\)\/tests\/lit", .*/\1/p' "$BUILD/tests/lit/lit.site.cfg.py")
if [[ -n "$SRC" && ! -e "$SRC" ]]; then
  mkdir -p "$(dirname "$SRC")"
  ln -s "$(pwd -P)" "$SRC"
fi
if [[ "$(cd "$BUILD" && pwd -P)" != "$CONFIGURED" && ! -e "$CONFIGURED" ]]; then
  mkdir -p "$(dirname "$CONFIGURED")"
  ln -s "$(cd "$BUILD" && pwd -P)" "$CONFIGURED"
fi
# FileCheck from build-gpu/tools (scripts/pack-gpu-build.sh) where the host has none.
if ! command -v FileCheck >/dev/null && [[ -x build-gpu/tools/FileCheck ]]; then
  for z in build-gpu/tools/*.xz; do [[ -e $z ]] && xz -dkf "$z"; done
  export PATH="$(pwd -P)/build-gpu/tools:$PATH" LD_LIBRARY_PATH="$(pwd -P)/build-gpu/tools${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
LIT="python3 $BUILD/lit-runner/lit.py"
[[ -e "$BUILD/lit-runner/lit.py" ]] || LIT=lit
DIVOPT_TEST_GPU=1 $LIT -sv "$BUILD/tests/lit" --filter 'gpu/'
