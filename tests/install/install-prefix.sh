#!/usr/bin/env bash
# install-prefix.sh BUILD: `cmake --install BUILD --prefix $PREFIX` into a
# fresh prefix, which the variant.sh tests then build against; checks that
# every installed piece is there and that the CLI runs.
here=$(cd "$(dirname "$0")" && pwd)
source "$here/common.sh"
build=$1

rm -rf "$PREFIX"
cmake --install "$build" --prefix "$PREFIX" > "$WORK/install.log" ||
  { cat "$WORK/install.log"; fail "cmake --install $build"; }
for f in bin/divopt bin/divopt-clang++ "$LIBDIR/divopt/libDivOpt.so" "$LIBDIR/libdivopt_rt.a" \
         "$LIBDIR/libdivopt_rt.so" include/divopt/Runtime.h "$LIBDIR/cmake/divopt/divopt-config.cmake" \
         "$LIBDIR/cmake/divopt/DivOptInstrument.cmake" "$LIBDIR/pkgconfig/divopt.pc" \
         share/divopt/latency-tables/sm_90.json share/divopt/examples/divergent.cu \
         share/doc/divopt/README.md share/doc/divopt/architecture.md \
         share/man/man1/divopt.1 share/man/man1/divopt-clang++.1 libexec/divopt/bench-latency \
         libexec/divopt/divopt-rewrite include/divopt/launch.h; do
  [[ -e $PREFIX/$f ]] || fail "cmake --install did not install $f"
done
[[ $("$PREFIX/bin/divopt" --version) == "divopt $VERSION" ]] || fail "$PREFIX/bin/divopt --version"
# The man page names every subcommand the CLI has.
"$PREFIX/bin/divopt" --help | sed -n '/^Subcommands:/,$p' | awk 'NR > 1 && NF {print $1}' > "$WORK/subcommands.txt"
[[ -s $WORK/subcommands.txt ]] || fail "divopt --help lists no subcommands"
while read -r sub; do
  grep -q "^\.B $sub\b" "$PREFIX/share/man/man1/divopt.1" || fail "divopt.1 does not describe divopt $sub"
done < "$WORK/subcommands.txt"
# divopt rewrite runs from the install: its program, and the header the
# rewritten source includes, found relative to it.
"$PREFIX/bin/divopt" rewrite "$PREFIX/share/divopt/examples/divergent.cu" > "$WORK/rewritten.cu" \
  2> "$WORK/rewrite.log" || { cat "$WORK/rewrite.log"; fail "installed divopt rewrite"; }
grep -q "::divopt::launch(collatzSteps, " "$WORK/rewritten.cu" || fail "installed divopt rewrite did not rewrite the example's launch"
# The shared runtime carries every object it needs (it links with --no-undefined).
[[ $(ldd "$PREFIX/$LIBDIR/libdivopt_rt.so") == *libcudart.so* ]] || fail "libdivopt_rt.so does not link libcudart.so"
echo "installed into $PREFIX"
