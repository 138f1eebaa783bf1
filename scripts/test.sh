#!/usr/bin/env bash
# Quick start, part 2: install, build, and run every test (unit tests and
# lit; GPU tests run where a GPU is usable and report UNSUPPORTED elsewhere).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
ctest --test-dir build --output-on-failure -j "$(nproc)"
