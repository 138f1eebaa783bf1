#!/usr/bin/env bash
# Compiles each benchmark app (device side, with the divopt plugin
# and its remarks) and checks that divopt can regroup its kernels; see
# apps-regroupable.test.
#   apps-regroupable.sh OUT_DIR APPS_DIR PLUGIN CLANG_CUDA_COMMAND...
set -euo pipefail
OUT=$1 APPS=$2 PLUGIN=$3
shift 3
rm -rf "$OUT" && mkdir -p "$OUT"
for app in mc sw nw ec mum sl sm mandelbrot spmv bfs matpow walk kepler primes raymarch md binomial dfa bvh \
           quad join tri queens rabin parse knn ode pow huff ksort bloom bisect \
           pip spgemm jacobi rho \
           roots sat lz sph \
           flatten tsp lpm isect \
           ssa ik voxel cdc sudoku viterbi pull range \
           poisson lm ufind chain; do
  src=$APPS/$app/$app.cu
  [[ -f $src ]] || { echo "FAIL $app: no $src"; exit 1; }
  "$@" -O2 -fpass-plugin="$PLUGIN" --cuda-device-only -S -emit-llvm -o /dev/null \
    -Rpass=divopt -Rpass-missed=divopt "$src" 2> "$OUT/$app.remarks" \
    || { cat "$OUT/$app.remarks"; echo "FAIL $app: does not compile"; exit 1; }
  if grep -h "will not be regrouped" "$OUT/$app.remarks"; then
    echo "FAIL $app: a kernel divopt cannot regroup"
    exit 1
  fi
  # Mangled names an app writes into its JSON as literals.
  for name in $(grep -rhoE '"_Z[A-Za-z0-9_]+"' "$APPS/$app" | tr -d '"'); do
    grep -q "redirected clone ${name}__divopt_redirect" "$OUT/$app.remarks" \
      || { echo "FAIL $app: names kernel $name, which has no redirected clone"; exit 1; }
  done
  echo "ok $app: $(grep -c 'can be regrouped at launch' "$OUT/$app.remarks") kernels regroupable"
done
