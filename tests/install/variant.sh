#!/usr/bin/env bash
# variant.sh NAME: builds tests/install/app the way README.md's "Use it in
# your project" block NAME says (<!-- test: NAME -->), against the divopt
# installed in $PREFIX by the install-prefix test, then checks the plugin's
# remarks in the build output (remarks.check) and the program (common.sh).
# A block NAME-lists, where the README has one, is the project's CMakeLists.txt.
# Environment (tests/install/CMakeLists.txt): DIVOPT_SOURCE_DIR, PREFIX,
# LIBDIR, WORK, FILECHECK.
here=$(cd "$(dirname "$0")" && pwd)
source "$here/common.sh"
name=$1

WORK=$WORK/$name
rm -rf "$WORK"
mkdir -p "$WORK/project"
cp "$here"/app/* "$WORK/project/"
commands=$(readme_block "$name")
if grep -qxF "<!-- test: $name-lists -->" "$DIVOPT_SOURCE_DIR/README.md"; then
  cp "$(readme_block "$name-lists")" "$WORK/project/CMakeLists.txt"
fi

# The README's commands as a user runs them in the project, with P the prefix.
(cd "$WORK/project" && P=$PREFIX LIBDIR=$LIBDIR bash -euo pipefail "$commands") \
  > "$WORK/build.log" 2>&1 || { cat "$WORK/build.log"; fail "README block '$name' failed"; }
"$FILECHECK" "$here/remarks.check" --input-file="$WORK/build.log" ||
  fail "the remarks of README block '$name' (build output: $WORK/build.log)"
app=$WORK/project/app
[[ -x $app ]] || app=$WORK/project/build/app
[[ -x $app ]] || fail "README block '$name' built no program app"
check_program "$app"
echo "README block '$name': built, remarks checked"
