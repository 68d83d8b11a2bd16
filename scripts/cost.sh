#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Hardware cost of every controller with Yosys: writes cost/cost.json and cost/cost.md.
# --check: only verify that every controller synthesises without inferring a latch.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v yosys >/dev/null || scripts/setup.sh
exec python3 scripts/cost.py "$@"
