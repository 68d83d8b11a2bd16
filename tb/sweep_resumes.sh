#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# scripts/sweep.py runs a --grid of two axes, then a second call resumes without running anything,
# and it refuses --jobs 0. Argument: a scratch folder.
set -euo pipefail
out="$1/sweep_resumes"
rm -rf "$out"
sweep() { python3 "$(dirname "$0")/../scripts/sweep.py" --scenario reference_mesh --grid traffic.load=0.05,0.1 \
  --grid router.allocator_iterations=1,2 --out "$out" "$@"; }
sweep 2> "$out.log1" >/dev/null
[ "$(tail -n +2 "$out/summary.csv" | wc -l)" -eq 4 ] || { echo "expected 4 rows"; exit 1; }
sweep 2> "$out.log2" >/dev/null
grep -q "resuming, 4 of 4 runs already done" "$out.log2" || { cat "$out.log2"; exit 1; }
if sweep --jobs 0 2>/dev/null; then echo "--jobs 0 accepted"; exit 1; fi
echo "sweep_resumes: ok"
