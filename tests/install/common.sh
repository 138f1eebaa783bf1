# Helpers of the install tests (tests/install/*.sh), sourced by them.
set -euo pipefail

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# readme_block NAME: the fenced block after README.md's "<!-- test: NAME -->",
# so that the tests run the README's own commands.
readme_block() {
  local readme=$DIVOPT_SOURCE_DIR/README.md
  awk -v mark="<!-- test: $1 -->" '
    $0 == mark { found = 1; next }
    found == 1 && /^```/ { found = 2; next }
    found == 2 && /^```/ { exit }
    found == 2 { print }' "$readme" > "$WORK/readme-$1.sh"
  [[ -s $WORK/readme-$1.sh ]] || fail "README.md has no block after <!-- test: $1 -->"
  echo "$WORK/readme-$1.sh"
}

# check_program APP: the instrumented program links divopt's runtime; where a
# GPU is usable it runs, profiles, and divopt reports on its kernel.
# DIVOPT_TEST_GPU=0|1 overrides the probe, as for lit.
check_program() {
  local app=$1
  # (grep on a saved listing: grep -q would end a pipe early, and pipefail fail it)
  nm "$app" > "$app.symbols"
  grep -q ' T __divopt_launch_kernel$' "$app.symbols" || fail "$app does not link divopt's runtime"
  local gpu=${DIVOPT_TEST_GPU:-}
  if [[ -z $gpu ]]; then
    gpu=0
    command -v nvidia-smi >/dev/null && [[ $(nvidia-smi -L 2>/dev/null || true) == *GPU* ]] && gpu=1
  fi
  if [[ $gpu != 1 ]]; then
    echo "no GPU: $app compiled and linked, not run"
    return 0
  fi
  local dir output report
  dir=$(dirname "$app")
  output=$(cd "$dir" && rm -f default.divprof && DIVOPT_MODE=profile "$app") ||
    fail "$app failed on the GPU: $output"
  [[ $output == *"results correct"* ]] || fail "$app: wrong results on the GPU: $output"
  report=$("$PREFIX/bin/divopt" report "$dir/default.divprof") || fail "divopt report on $app's profile"
  [[ $report == *stepsToOne* ]] || fail "divopt report does not name the kernel stepsToOne: $report"
  [[ $report =~ divergent\ warps\ +([0-9]+)\ / && ${BASH_REMATCH[1]} -gt 0 ]] ||
    fail "divopt report finds no divergent warp in stepsToOne: $report"
  echo "ran $app on the GPU with DIVOPT_MODE=profile; divopt report names its kernel, with divergent warps"
}
