#!/usr/bin/env bash
# Quick start, part 1: install, build, and run `divopt demo`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
exec build/bin/divopt demo "$@"
