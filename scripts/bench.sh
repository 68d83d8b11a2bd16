#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Cycles per second (median of 5 runs) of the reference cases; see scripts/bench.py --help.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x build/icnsim ] || { scripts/setup.sh; scripts/build.sh; }
exec python3 scripts/bench.py "$@"
