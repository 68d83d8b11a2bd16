#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Set-up, build, and run the default scenario: prints a summary table and writes
# out/default/results.json and out/default/eee.fst (a 2000-cycle window of every controller).
# Extra arguments go to icnsim run (e.g. --set traffic.load=0.3).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
mkdir -p out/default
exec build/icnsim run default --out out/default --trace out/default/eee.fst --trace-window 2000:4000 "$@"
