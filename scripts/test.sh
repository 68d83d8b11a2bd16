#!/usr/bin/env bash
# Set-up, build, then every test through CTest (unit, network, CLI, golden results, RTL lint,
# synthesis check, C++ style).
# Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
cd build
ctest --no-tests=error --output-on-failure -j "$(nproc)" "$@"
