#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# scripts/sweep.py --slurm on a real one-host Slurm cluster (scripts/slurm/cluster.sh): a small grid
# is submitted as a job array whose tasks run on 2 threads each (--cpus-per-task=2), waited for and
# gathered, and its summary must equal a local --jobs 2 --threads 1 run of the same sweep
# (the run folder column aside). Stops the daemons it started.
# Argument: a scratch folder. Needs root and scripts/setup.sh --slurm.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
scratch=$(mkdir -p "$1/slurm_sweep" && cd "$1/slurm_sweep" && pwd)
rm -rf "${scratch:?}"/*
conf=$("$root/scripts/slurm/cluster.sh" start "$scratch/cluster")
trap '"$root/scripts/slurm/cluster.sh" stop "$scratch/cluster"' EXIT
export "${conf?}"
sweep() {
  python3 "$root/scripts/sweep.py" --scenario reference_mesh --grid traffic.load=0.05,0.2,0.3 \
    --grid router.allocator_iterations=1,2 --seeds 2 --out "$@"
}
sweep "$scratch/slurm" --slurm --threads 2 2> "$scratch/slurm.log" > /dev/null || { cat "$scratch/slurm.log"; exit 1; }
sweep "$scratch/local" --jobs 2 --threads 1 2> "$scratch/local.log" > /dev/null || { cat "$scratch/local.log"; exit 1; }
grep -q "submitting 12 runs.*--cpus-per-task=2" "$scratch/slurm.log" || { echo "no job array of 2-CPU tasks submitted"; cat "$scratch/slurm.log"; exit 1; }
threads() { python3 -c 'import json, sys
print(sorted({json.load(open(p))["sim"]["threads"] for p in sys.argv[1:]}))' "$1"/runs/*/results.json; }
[ "$(threads "$scratch/slurm")" = "[2]" ] || { echo "Slurm runs used $(threads "$scratch/slurm") threads, expected [2]"; exit 1; }
[ "$(threads "$scratch/local")" = "[1]" ] || { echo "local runs used $(threads "$scratch/local") threads, expected [1]"; exit 1; }
without_run() { python3 -c 'import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
for r in rows: r.pop("run")
print(sorted(tuple(sorted(r.items())) for r in rows))' "$1"; }
[ "$(without_run "$scratch/slurm/summary.csv")" = "$(without_run "$scratch/local/summary.csv")" ] ||
  { echo "the Slurm sweep's summary differs from the local one"; diff "$scratch/slurm/summary.csv" "$scratch/local/summary.csv"; exit 1; }
[ "$(tail -n +2 "$scratch/slurm/summary.csv" | wc -l)" -eq 12 ] || { echo "expected 12 rows"; exit 1; }
# A second --slurm call resumes: nothing left to submit.
sweep "$scratch/slurm" --slurm --threads 2 2> "$scratch/resume.log" > /dev/null
grep -q "resuming, 12 of 12 runs already done" "$scratch/resume.log" || { cat "$scratch/resume.log"; exit 1; }
echo "slurm_sweep: ok (job array of 12 runs, summary equal to the local sweep)"
