#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Configures and builds everything (icnsim and the test binary).
#   scripts/build.sh                     the release build in build/
#   scripts/build.sh DIR CMAKE_ARGS...   into DIR, configured with CMAKE_ARGS (scripts/test.sh --sanitize)
set -euo pipefail
cd "$(dirname "$0")/.."
dir="${1:-build}"
[ $# -gt 0 ] && shift
args=("$@")
[ ${#args[@]} -gt 0 ] || args=(-DCMAKE_BUILD_TYPE=Release)
# Ninja for a new build folder: it compiles one target's files while another's finish (Make waits
# for each target whole); a folder configured before keeps its generator.
[ -f "$dir/CMakeCache.txt" ] || args=(-G Ninja "${args[@]}")
# A folder configured before is configured again only when given arguments or when its last
# configure failed (no build files): the build re-runs CMake by itself when a file it read
# changed, and a configure runs Yosys on every model (a minute).
configured() { [ -f "$dir/build.ninja" ] || [ -f "$dir/Makefile" ]; }
if [ ! -f "$dir/CMakeCache.txt" ] || ! configured || [ $# -gt 0 ]; then
  cmake -S . -B "$dir" "${args[@]}" > "$dir.log" 2>&1 || { cat "$dir.log"; exit 1; }
fi
cmake --build "$dir" -j "$(nproc)" >> "$dir.log" 2>&1 || { tail -60 "$dir.log"; exit 1; }
rm -f "$dir.log"
