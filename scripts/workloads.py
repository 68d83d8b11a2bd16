#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Each workload preset of the perfbound experiment set against what Sánchez de la Rosa et al. state
of the application it stands in for (sim/experiments/perfbound/applications.yaml): run length,
communication pattern, message sizes and the share of time nodes compute. Ours come from the
experiment's EEE-off runs (its bundled summary: run length, node utilisation, injected load, mean
and 95 % interval over the seeds) and from each preset's trace (`icnsim workload`: messages and
their sizes). Writes sim/results/perfbound/workloads.csv, which docs/eee.md shows.

  scripts/workloads.py [--icnsim PATH]   rewrite the bundled workloads.csv
  scripts/workloads.py --check           exit 1 if it is not what the data makes (CTest workloads_table)"""
import argparse
import csv
import io
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

import figure
from experiment import Experiment
from seed_stats import describe

ROOT = Path(__file__).resolve().parent.parent
APPLICATIONS = ROOT / "sim" / "experiments" / "perfbound" / "applications.yaml"
OUT = ROOT / "sim" / "results" / "perfbound" / "workloads.csv"


def paper_side(app, system):
    """The run length and node utilisation the paper's figures give or imply, each with how."""
    nodes, idle, busy = system["nodes"], system["node_idle_w"], system["node_busy_w"]
    run, run_how = app.get("run_s"), "stated"
    if run is None and "system_j" in app:  # with EEE off the network draws its nominal power throughout
        run, run_how = (app["system_j"] - app["nodes_j"]) / system["network_w"], "(system − node energy) / network power"
    node_w = None
    if "nodes_j" in app and run:
        node_w = app["nodes_j"] / run / nodes
    elif "system_w" in app:
        node_w = (app["system_w"] - system["network_w"]) / nodes
    utilisation = (node_w - idle) / (busy - idle) if node_w is not None else None
    return run, run_how, utilisation


def size(n):
    for unit, scale in (("MiB", 2**20), ("KiB", 2**10)):
        if n >= scale:
            return f"{n / scale:.3g} {unit}"
    return f"{n} B"


def trace_stats(icnsim, scenario, sets):
    """Messages per rank and the sizes of a preset's messages, from the trace icnsim writes."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "w.trace"
        cmd = [str(icnsim), "workload", scenario, "--out", str(path)] + [a for s in sets for a in ("--set", s)]
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(f"workloads: {' '.join(cmd)} failed: {done.stderr.strip()}")
        rows = [line.split() for line in path.read_text().splitlines() if line and not line.startswith("#")]
    sizes = [int(r[3]) for r in rows]
    ranks = len({r[1] for r in rows} | {r[2] for r in rows})
    return len(rows) / ranks, sum(sizes) / ranks, sizes


def ours(summary, preset, field):
    values = [float(r[field]) for r in summary if r["workload"] == preset and r["mode"] == "off"]
    if not values:
        raise SystemExit(f"workloads: the summary has no EEE-off runs of {preset} with {field}")
    return describe(values)


def interval(stats, scale=1.0, digits=2):
    n, mean, _, half = stats
    return f"{mean * scale:.{digits}f}" + (f" ± {half * scale:.{digits}f}" if n > 1 else "")


def table(icnsim):
    spec = yaml.safe_load(APPLICATIONS.read_text())
    experiment = Experiment.load("perfbound")
    summary = figure.read_rows(experiment.results)
    off_runs = {labels["workload"]: (scenario, sets) for labels, scenario, sets in experiment.plan
                if labels["mode"] == "off"}
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["application", "the paper's run", "the paper's node utilisation", "the paper's traffic",
                     "preset", "our run (ms)", "our node utilisation", "our injected load (% of a link)",
                     "our messages per rank", "our bytes per rank", "our message sizes (min / median / max)"])
    for app in spec["applications"]:
        run, run_how, utilisation = paper_side(app, spec["system"])
        preset = app["preset"]
        per_rank, bytes_per_rank, sizes = trace_stats(icnsim, *off_runs[preset])
        scenario = off_runs[preset][0]
        cycle_ns = yaml.safe_load((ROOT / "sim" / "scenarios" / f"{scenario}.yaml").read_text())["sim"]["cycle_ns"]
        writer.writerow([
            f"{app['name']} ({app['section']})",
            "not stated" if run is None else
            f"{run:g} s" if run_how == "stated" else f"{run:.4g} s ({run_how})",
            "not stated" if utilisation is None else f"{utilisation:.3f}",
            app["pattern"],
            f"`{preset}`",
            interval(ours(summary, preset, "exec_cycles"), cycle_ns * 1e-6),
            interval(ours(summary, preset, "node_utilisation"), digits=3),
            interval(ours(summary, preset, "accepted"), 100, 1),
            f"{per_rank:,.0f}",
            size(round(bytes_per_rank)),
            " / ".join(size(s) for s in (min(sizes), int(statistics.median(sizes)), max(sizes))),
        ])
    return out.getvalue()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--icnsim", type=Path, default=ROOT / "build" / "icnsim", help="the icnsim that writes the traces")
    parser.add_argument("--check", action="store_true", help="exit 1 if the bundled workloads.csv differs")
    args = parser.parse_args()
    made = table(args.icnsim)
    if args.check:
        if OUT.read_text() != made:
            print(f"workloads: {OUT.relative_to(ROOT)} is not what the data makes (scripts/workloads.py rewrites it)",
                  file=sys.stderr)
            return 1
        return 0
    OUT.write_text(made)
    print(f"workloads: wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
