#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""CTest sweep_experiments: the experiment engine (scripts/experiment.py, scripts/sweep.py).
- Short sweeps (tb/sweeps/*.yaml, one per kind of results: E-RAPID, torus, photonic, PerfBound,
  fat tree) give summaries equal, cell for cell, to tb/golden/sweeps/ (first made by the
  experiment-free sweep.py from the same runs as --grid sweeps; `--update` stores new ones when a
  change is meant to alter results, like scripts/golden.py update). The run column is left out.
- points.csv holds each point's mean, standard deviation and 95 % half-width over the seeds
  (checked against the summary with Student's t for one degree of freedom, 12.7062).
- A --grid sweep's --field columns are what they name.
- Every bundled experiment loads with the number of runs it had when its file was written, and so
  does the example of docs/experiments.md.
- A malformed file is refused before any run: exit 2 and a message naming the place.
Usage: sweep_test.py SCRATCH [--update]"""
import csv
import math
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
from experiment import Experiment  # noqa: E402
from sweep import grid_experiment  # noqa: E402

GOLDEN = ROOT / "tb" / "golden" / "sweeps"
# Points of every bundled experiment as written (sim/experiments/): an edit that changes
# a plan shows here.
PLANS = {"erapid_degree": 18, "erapid_load": 144, "erapid_load_flit32": 80, "erapid_queue": 60, "erapid_rw": 18,
         "erapid_step": 2, "erapid_thresholds": 4, "fattree_grid": 341,
         "fattree_ramp": 2, "perfbound": 220, "photonic_fattree": 26, "photonic_fattree_1728": 7,
         "photonic_load": 8, "photonic_torus": 26, "photonic_torus_1728": 7, "reference": 111, "torus_swap": 18,
         "torus_swap_kernels": 14, "torus_swap_keys": 11, "torus_swap_p": 32}
T_975_DF1 = 12.7062


def read(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def without_run(rows):
    return [{k: v for k, v in row.items() if k != "run"} for row in rows]


def sweep(*args):
    return subprocess.run([sys.executable, ROOT / "scripts" / "sweep.py", *map(str, args)],
                          capture_output=True, text=True)


def check_points(summary, points, labels):
    problems = []
    for point in points:
        runs = [r for r in summary if all(r[name] == point[name] for name in labels)]
        if int(point["seeds"]) != len(runs) or len(runs) != 2:
            problems.append(f"point {[point[n] for n in labels]}: seeds {point['seeds']}, {len(runs)} runs")
            continue
        a, b = (float(r["latency_avg"]) for r in runs)
        mean, std = (a + b) / 2, abs(a - b) / math.sqrt(2)
        for name, want in (("mean", mean), ("std", std), ("ci95", T_975_DF1 * std / math.sqrt(2))):
            got = float(point[f"latency_avg_{name}"])
            if not math.isclose(got, want, rel_tol=1e-6, abs_tol=1e-12):
                problems.append(f"point {[point[n] for n in labels]}: latency_avg_{name} {got}, expected {want}")
    return problems


def short_sweeps(scratch, update):
    problems = []
    for spec in sorted((ROOT / "tb" / "sweeps").glob("*.yaml")):
        out = scratch / spec.stem
        done = sweep(spec, "--out", out, "--fresh", "--jobs", 2)
        if done.returncode != 0:
            problems.append(f"{spec.name}: sweep failed ({done.returncode}): {done.stderr.strip()[-400:]}")
            continue
        summary = read(out / "summary.csv")
        golden = GOLDEN / f"{spec.stem}.summary.csv"
        if update:
            with open(golden, "w", newline="") as f:
                writer = csv.DictWriter(f, fieldnames=[k for k in summary[0] if k != "run"])
                writer.writeheader()
                writer.writerows(without_run(summary))
            print(f"sweep_test: stored {golden}")
        elif without_run(summary) != read(golden):
            problems.append(f"{spec.name}: summary.csv differs from {golden.relative_to(ROOT)}")
        labels = Experiment.load(str(spec)).labels
        problems += [f"{spec.name}: {p}" for p in check_points(summary, read(out / "points.csv"), labels)]
    return problems


def fields():
    """A --grid sweep's --field columns: a spread object keeps its scalars, an expression its value,
    "" where a run lacks a path."""
    grid = grid_experiment("default", [("traffic.load", ["0.1", "0.2"])],
                           ["eee.*", "lat=latency.avg", "twice=2 * latency.avg - 1", "gone=no.such.path"])
    row = grid.row(grid.plan[1][0], {"eee": {"sleeps": 3, "list": [1], "sub": {}}, "latency": {"avg": 2.5}}, "r")
    expected = {"traffic.load": "0.2", "seed": "", "run": "r", "eee.sleeps": 3, "lat": 2.5, "twice": 4.0, "gone": ""}
    wrong = {k: row.get(k) for k, v in expected.items() if row.get(k) != v}
    extra = [k for k in row if k.startswith("eee.") and k != "eee.sleeps"]
    return [f"--field row: {wrong}, unexpected {extra}"] if wrong or extra or len(grid.plan) != 2 else []


def plans():
    problems = []
    for name, runs in PLANS.items():
        got = len(Experiment.load(name).plan)
        if got != runs:
            problems.append(f"experiment {name}: {got} points, expected {runs}")
    page = (ROOT / "docs" / "experiments.md").read_text()
    example = re.search(r"## Experiments\n.*?```yaml\n(.*?)```", page, re.S)
    with tempfile.NamedTemporaryFile("w", suffix=".yaml") as f:
        f.write(example.group(1) if example else "")
        f.flush()
        try:
            got = len(Experiment.load(f.name).plan)
        except Exception as e:  # (any failure of the example is the finding)
            got = f"an error: {e}"
    if got != 6:
        problems.append(f"docs/experiments.md's example experiment: {got} points, expected 6")
    return problems


BAD = {  # file text -> what the refusal must name
    "scenario: default\nlabels: [load]\naxes: [{label: load, key: traffic.load, values: [0.1]}]\nseed: 2\n":
        "unknown key 'seed'",
    "scenario: default\nlabels: [load, mode]\naxes: [{label: load, key: traffic.load, values: [0.1]}]\n":
        "gives no value to label 'mode'",
    "scenario: default\nlabels: [load]\naxes: [{label: load, key: traffic.load, values: [0.1]}]\n"
    "fields: [{x: __import__('os').system('true')}]\n": "fields: x",
    "scenario: default\nlabels: [load]\naxes: [{label: load, key: traffic.load, values: []}]\n":
        "axes[0]: needs label, key and a non-empty list of values",
    "scenario: default\nlabels: [load]\nseeds: 0\naxes: [{label: load, key: traffic.load, values: [0.1]}]\n":
        "seeds: 0",
    "scenario: default\nlabels: []\nruns: [{set: {traffic.load: 0.1}}, {set: {traffic.load: 0.2}}]\n":
        "two points are both named",
    "scenario: default\nlabels: [load]\naxes: [{label: [load], key: traffic.load, values: [0.1]}]\n":
        "label and key are names",
    "scenario: default\nlabels: [dims]\naxes: [{label: dims, key: topology.dims, values: [[4, 4]]}]\n":
        "quote a list",
}


def refusals(scratch):
    problems = []
    for i, (text, expected) in enumerate(BAD.items()):
        path = scratch / f"bad{i}.yaml"
        path.write_text(text)
        done = sweep(path, "--out", scratch / f"bad{i}")
        if done.returncode != 2 or expected not in done.stderr or (scratch / f"bad{i}").exists():
            problems.append(f"bad file {i}: exit {done.returncode}, stderr {done.stderr.strip()!r}; "
                            f"expected exit 2 naming {expected!r} before any run")
    return problems


def main():
    if (len(sys.argv) not in (2, 3) or sys.argv[1].startswith("-")
            or len(sys.argv) == 3 and sys.argv[2] != "--update"):
        sys.exit(__doc__)  # "--help" is no scratch folder
    scratch = Path(sys.argv[1]) / "sweep_experiments"
    shutil.rmtree(scratch, ignore_errors=True)
    scratch.mkdir(parents=True)
    problems = fields() + plans() + refusals(scratch) + short_sweeps(scratch, len(sys.argv) == 3)
    for p in problems:
        print("sweep_test: " + p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
