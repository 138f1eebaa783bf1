#!/usr/bin/env bash
# cmake-options.sh: divopt_instrument's options and refusals on the
# README's CMake project (tests/install/app), against the install-prefix
# test's prefix: ARCHITECTURES reaches every CUDA compile, a target whose
# CUDA_RUNTIME_LIBRARY is Shared links libdivopt_rt.so with libcudart.so,
# and a C++ compiler that is not Clang 22 is refused at configure time with
# what to do.
here=$(cd "$(dirname "$0")" && pwd)
source "$here/common.sh"
WORK=$WORK/cmake-options
rm -rf "$WORK" && mkdir -p "$WORK"

project() { # project NAME EDIT...: the README's project, its last line replaced by EDIT
  mkdir -p "$WORK/$1" && cp "$here"/app/* "$WORK/$1/"
  local lists
  lists=$(readme_block cmake-lists)
  grep -v '^divopt_instrument(app' "$lists" > "$WORK/$1/CMakeLists.txt"
}

# Two architectures and the shared CUDA runtime.
project shared
printf '%s\n' 'set_target_properties(app PROPERTIES CUDA_RUNTIME_LIBRARY Shared)' \
  'divopt_instrument(app ARCHITECTURES sm_80 sm_90)' >> "$WORK/shared/CMakeLists.txt"
(cmake -S "$WORK/shared" -B "$WORK/shared/build" -DCMAKE_CXX_COMPILER="$CLANG" \
   -DCMAKE_PREFIX_PATH="$PREFIX" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON &&
 cmake --build "$WORK/shared/build") > "$WORK/shared.log" 2>&1 ||
  { cat "$WORK/shared.log"; fail "the project with ARCHITECTURES and a shared CUDA runtime"; }
commands=$(cat "$WORK/shared/build/compile_commands.json")
[[ $commands == *--cuda-gpu-arch=sm_80* && $commands == *--cuda-gpu-arch=sm_90* ]] ||
  fail "ARCHITECTURES sm_80 sm_90 did not reach the CUDA compile: $commands"
libs=$(ldd "$WORK/shared/build/app")
[[ $libs == *libdivopt_rt.so* && $libs == *libcudart.so* ]] ||
  fail "CUDA_RUNTIME_LIBRARY Shared: app does not link libdivopt_rt.so and libcudart.so: $libs"
nm "$WORK/shared/build/app" > "$WORK/shared/app.symbols"
if grep -q ' T cudaLaunchKernel$' "$WORK/shared/app.symbols"; then
  fail "CUDA_RUNTIME_LIBRARY Shared: app carries the static CUDA runtime too"
fi

# g++ as the C++ compiler: a configure error that names the fix.
project gxx
echo 'divopt_instrument(app)' >> "$WORK/gxx/CMakeLists.txt"
if cmake -S "$WORK/gxx" -B "$WORK/gxx/build" -DCMAKE_CXX_COMPILER=g++ \
     -DCMAKE_PREFIX_PATH="$PREFIX" > "$WORK/gxx.log" 2>&1; then
  fail "divopt_instrument accepted g++"
fi
grep -q "divopt_instrument(app): the C++ compiler is GNU" "$WORK/gxx.log" &&
  grep -q "DCMAKE_CXX_COMPILER=$CLANG" "$WORK/gxx.log" ||
  { cat "$WORK/gxx.log"; fail "divopt_instrument's error for g++"; }

# A target without CUDA sources.
project nocuda
printf '%s\n' 'add_executable(plain main.cpp)' 'divopt_instrument(plain)' >> "$WORK/nocuda/CMakeLists.txt"
if cmake -S "$WORK/nocuda" -B "$WORK/nocuda/build" -DCMAKE_CXX_COMPILER="$CLANG" \
     -DCMAKE_PREFIX_PATH="$PREFIX" > "$WORK/nocuda.log" 2>&1; then
  fail "divopt_instrument accepted a target without CUDA sources"
fi
grep -q "divopt_instrument(plain): plain has no CUDA sources" "$WORK/nocuda.log" ||
  { cat "$WORK/nocuda.log"; fail "divopt_instrument's error for a target without CUDA sources"; }
echo "divopt_instrument: ARCHITECTURES, CUDA_RUNTIME_LIBRARY Shared, and its two refusals checked"
