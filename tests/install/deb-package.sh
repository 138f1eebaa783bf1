#!/usr/bin/env bash
# deb-package.sh BUILD: CPack's .deb of BUILD; checks its control fields
# (Debian dependencies) and contents, unpacks it into a scratch root
# (dpkg-deb -x, no root needed) and runs divopt --version, divopt-clang++,
# divopt demo and divopt latency from there.
here=$(cd "$(dirname "$0")" && pwd)
source "$here/common.sh"
build=$1

rm -rf "$WORK/deb" && mkdir -p "$WORK/deb"
(cd "$WORK/deb" && cpack --config "$build/CPackConfig.cmake" -G DEB) > "$WORK/deb/cpack.log" 2>&1 ||
  { cat "$WORK/deb/cpack.log"; fail "cpack -G DEB"; }
deb=$(ls "$WORK"/deb/divopt_*.deb)
dpkg-deb --info "$deb" > "$WORK/deb/info.txt"
depends=$(sed -n 's/^ Depends: //p' "$WORK/deb/info.txt")
tr ',' '\n' <<< "$depends" | sed 's/^ *//; s/ .*//' > "$WORK/deb/depends.txt"
for d in clang-22 libc6 libstdc++6 libgcc-s1; do
  grep -qxF "$d" "$WORK/deb/depends.txt" || fail "$deb does not depend on $d (Depends: $depends)"
done
grep -qx " Package: divopt" "$WORK/deb/info.txt" || fail "$deb: Package is not divopt"
grep -qx " Version: $VERSION" "$WORK/deb/info.txt" || fail "$deb: Version is not $VERSION"

dpkg-deb --contents "$deb" | awk '{print $NF}' > "$WORK/deb/contents.txt"
for f in ./usr/bin/divopt ./usr/bin/divopt-clang++ ./usr/lib/divopt/libDivOpt.so \
         ./usr/lib/libdivopt_rt.a ./usr/lib/libdivopt_rt.so ./usr/include/divopt/Runtime.h \
         ./usr/lib/cmake/divopt/divopt-config.cmake ./usr/lib/pkgconfig/divopt.pc \
         ./usr/share/divopt/latency-tables/sm_90.json ./usr/share/doc/divopt/README.md; do
  grep -qx -- "$f" "$WORK/deb/contents.txt" || fail "$deb lacks $f"
done

root=$WORK/deb/root
dpkg-deb -x "$deb" "$root"
"$root/usr/bin/divopt" --version | tee "$WORK/deb/version.txt"
grep -qx "divopt $VERSION" "$WORK/deb/version.txt" || fail "divopt --version from the package"
# The wrapper from the unpacked package builds the example program.
(cd "$WORK/deb" && "$root/usr/bin/divopt-clang++" -O2 -Rpass=divopt \
   "$here/app/kernel.cu" "$here/app/main.cpp" -o app) > "$WORK/deb/build.log" 2>&1 ||
  { cat "$WORK/deb/build.log"; fail "divopt-clang++ from the package"; }
"$FILECHECK" "$here/remarks.check" --input-file="$WORK/deb/build.log" || fail "remarks of the package's wrapper"
# divopt demo from the package compiles with the package's plugin and runtime.
"$root/usr/bin/divopt" demo --no-gpu --work-dir "$WORK/deb/demo" > "$WORK/deb/demo.log" 2>&1 ||
  { cat "$WORK/deb/demo.log"; fail "divopt demo --no-gpu from the package"; }
for piece in "-fpass-plugin='$root/usr/lib/divopt/libDivOpt.so'" "'$root/usr/lib/libdivopt_rt.a'" \
             "remark: kernel 'collatzSteps"; do
  grep -qF -- "$piece" "$WORK/deb/demo.log" || fail "divopt demo from the package: no $piece"
done
# divopt latency from the package runs the package's latency suite (which
# stops at once on an unknown group, GPU or not).
if "$root/usr/bin/divopt" latency --out "$WORK/deb/latency" --only nosuchgroup \
     > "$WORK/deb/latency.log" 2>&1; then
  fail "divopt latency accepted an unknown group"
fi
grep -qF "\$ $root/usr/libexec/divopt/bench-latency --out" "$WORK/deb/latency.log" &&
  grep -qF "unknown group 'nosuchgroup'" "$WORK/deb/latency.log" ||
  { cat "$WORK/deb/latency.log"; fail "divopt latency from the package did not run its suite"; }
echo "$deb: Depends: $depends"
