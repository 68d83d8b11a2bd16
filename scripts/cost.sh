#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Hardware cost of every controller with Yosys: writes cost/cost.json and cost/cost.md.
# --check: only verify that every controller synthesises without inferring a latch.
set -euo pipefail
here="$(dirname "$0")"
if ! command -v yosys >/dev/null; then
  [ -x "$here/setup.sh" ] || { echo "cost: Yosys is not installed (Debian: apt-get install yosys)" >&2; exit 2; }
  "$here/setup.sh"
fi
exec python3 "$here/cost.py" "$@"
