#!/usr/bin/env bash
# Configures and builds everything into build/ (icnsim and the test binary).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release > build.log 2>&1 || { cat build.log; exit 1; }
cmake --build build -j "$(nproc)" >> build.log 2>&1 || { tail -60 build.log; exit 1; }
rm -f build.log
