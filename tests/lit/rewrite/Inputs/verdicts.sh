#!/usr/bin/env bash
# For each CUDA source: the plugin's remarks (a device-side compile as the
# suite is built, -O2 -gline-tables-only, the CCCL headers on the path) and
# divopt rewrite's diagnostics, then compare-verdicts.py on the two. Stops at
# the first source that differs.
#   verdicts.sh CLANG_CUDA PLUGIN DIVOPT CUDA_PATH WORK_DIR SOURCE...
set -euo pipefail
clang_cuda=$1 plugin=$2 divopt=$3 cuda=$4 work=$5
shift 5
here=$(dirname "$0")
mkdir -p "$work"
for source in "$@"; do
  name=$(basename "$source" .cu)
  $clang_cuda -O2 -gline-tables-only -fpass-plugin="$plugin" -Rpass=divopt -Rpass-missed=divopt \
    -I"$cuda/include/cccl" --cuda-device-only -S "$source" -o /dev/null 2> "$work/$name.plugin"
  "$divopt" rewrite "$source" --remarks > "$work/$name.cu" 2> "$work/$name.rewrite"
  echo "== $source"
  python3 "$here/compare-verdicts.py" "$work/$name.plugin" "$work/$name.rewrite" "$source"
done
