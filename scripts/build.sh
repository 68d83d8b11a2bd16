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
# Progress goes to stderr, one line per step with Ninja's count: the project's own configure
# messages, then what is verilated, compiled and linked; the whole output is kept in DIR.log and
# shown from its end when a step fails.
progress() {
  awk '/^\[[0-9]+\/[0-9]+\] Generating verilated\/V[^\/]+\/V[^ ,]+\.cpp/ {
         match($0, /verilated\/V[^\/]+/); print $1, "verilating", substr($0, RSTART + 11, RLENGTH - 11); fflush(); next }
       /^\[[0-9]+\/[0-9]+\] Generating verilated\/.*_copy\.cmake$/ { next }
       /^\[[0-9]+\/[0-9]+\] Building CXX object / {
         file = $5; sub(/^CMakeFiles\/[^\/]+\.dir\//, "", file); sub(/\.o$/, "", file); print $1, "compiling", file; fflush(); next }
       /^\[[0-9]+\/[0-9]+\] Linking / { print $1, "linking", $NF; fflush(); next }
       /^\[[0-9]+\/[0-9]+\] / { print substr($0, 1, 120); fflush(); next }
       /^-- Configuring done|^[a-z_]+: / { print; fflush() }' >&2
}
: > "$dir.log"
if [ ! -f "$dir/CMakeCache.txt" ] || ! configured || [ $# -gt 0 ]; then
  echo "build: configuring $dir (CMake; Yosys reads every model's top)" >&2
  cmake -S . -B "$dir" "${args[@]}" 2>&1 | tee -a "$dir.log" | progress || { tail -60 "$dir.log"; exit 1; }
fi
echo "build: building $dir on $(nproc) cores" >&2
cmake --build "$dir" -j "$(nproc)" 2>&1 | tee -a "$dir.log" | progress || { tail -60 "$dir.log"; exit 1; }
rm -f "$dir.log"
