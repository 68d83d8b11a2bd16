#!/usr/bin/env bash
# Configures and builds everything into build/ (icnsim and the test binary).
set -euo pipefail
cd "$(dirname "$0")/.."
# Ninja for a new build folder: it compiles one target's files while another's finish (Make waits
# for each target whole); a folder configured before keeps its generator.
generator=()
[ -f build/CMakeCache.txt ] || generator=(-G Ninja)
cmake -S . -B build "${generator[@]}" -DCMAKE_BUILD_TYPE=Release > build.log 2>&1 || { cat build.log; exit 1; }
cmake --build build -j "$(nproc)" >> build.log 2>&1 || { tail -60 build.log; exit 1; }
rm -f build.log
