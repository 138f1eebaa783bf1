#!/usr/bin/env bash
# wrapper.sh: divopt-clang++ from the install-prefix test, on each kind of
# command it tells apart (wrapper.checks: what it adds to each, by
# --divopt-verbose), and an install without its plugin.
here=$(cd "$(dirname "$0")" && pwd)
source "$here/common.sh"
WORK=$WORK/wrapper
rm -rf "$WORK" && mkdir -p "$WORK" && cp "$here"/app/* "$WORK/"
cd "$WORK"
wrap=$PREFIX/bin/divopt-clang++

check() { # check PREFIX command...: runs it, FileChecks its stderr
  local prefix=$1
  shift
  "$@" 2> "$WORK/$prefix.log" > /dev/null || { cat "$WORK/$prefix.log"; fail "$prefix: $*"; }
  "$FILECHECK" "$here/wrapper.checks" --check-prefix="$prefix" --input-file="$WORK/$prefix.log" ||
    fail "$prefix: what divopt-clang++ added to: $*"
}
DIVOPT_CUDA_ARCH=sm_75 check COMPILE "$wrap" --divopt-verbose -c kernel.cu -o kernel.o
check CXX "$wrap" --divopt-verbose -c main.cpp -o main.o
check LINK "$wrap" --divopt-verbose main.o kernel.o -o app
[[ -x app ]] || fail "divopt-clang++ linked no program"
check OWN "$wrap" --divopt-verbose -c kernel.cu -o own.o --cuda-gpu-arch=sm_90 \
  "-fpass-plugin=$PREFIX/$LIBDIR/divopt/libDivOpt.so"
cp kernel.cu kernel.txt
check XCUDA "$wrap" --divopt-verbose -O1 -x cuda kernel.txt -x c++ main.cpp -o app-x
check SHARED "$wrap" --divopt-verbose kernel.cu main.cpp -lcudart -o app-shared
check QUERY "$wrap" --divopt-verbose --version

# A broken install says which file is missing.
cp -r "$PREFIX" "$WORK/broken"
rm "$WORK/broken/$LIBDIR/divopt/libDivOpt.so"
if "$WORK/broken/bin/divopt-clang++" -c kernel.cu -o k.o 2> "$WORK/MISSING.log"; then
  fail "divopt-clang++ compiled without its plugin"
fi
"$FILECHECK" "$here/wrapper.checks" --check-prefix=MISSING --input-file="$WORK/MISSING.log" ||
  fail "the missing-plugin error"

echo "divopt-clang++: every kind of command checked"
