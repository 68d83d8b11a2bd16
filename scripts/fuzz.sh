#!/usr/bin/env bash
# Builds the libFuzzer targets (tb/fuzz/) with clang, AddressSanitizer and UBSan, and runs each on
# its seed corpus (tb/fuzz/corpus/) for RUNS inputs (default 20000). Crashes, sanitizer reports
# and uncaught exceptions fail; the inputs that caused them are left in build/fuzz/.
# Usage: scripts/fuzz.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-20000}"
out=build/fuzz
mkdir -p "$out"
flags=(-std=c++17 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -Isysc)
build() {  # target, sources...
  local target=$1
  shift
  if [ ! -x "$out/$target" ] || [ -n "$(find "$@" sysc/core/*.h sysc/traffic/*.h -newer "$out/$target" 2>/dev/null)" ]; then
    clang++ "${flags[@]}" "$@" -lyaml-cpp -o "$out/$target"
  fi
}
build fuzz_scenario tb/fuzz/fuzz_scenario.cpp sysc/core/scenario.cpp
build fuzz_trace tb/fuzz/fuzz_trace.cpp sysc/traffic/workload.cpp sysc/traffic/collectives.cpp sysc/traffic/program_stream.cpp sysc/traffic/livermore.cpp sysc/traffic/random_messages.cpp sysc/core/scenario.cpp
for target in fuzz_scenario fuzz_trace; do
  corpus="$out/corpus_${target#fuzz_}"
  mkdir -p "$corpus"
  cp -n tb/fuzz/corpus/"${target#fuzz_}"/* "$corpus"/
  (cd "$out" && ./"$target" -runs="$runs" -max_len=4096 -timeout=10 "corpus_${target#fuzz_}" 2>&1 | tail -3)
done
echo "fuzz: $runs inputs each, no crash"
