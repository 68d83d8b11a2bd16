#!/usr/bin/env python3
"""Runs a named experiment, or any grid (--scenario NAME --grid key=v1,v2 ...), as icnsim runs
(bundled scenario + --set overrides), in a local process pool by default, or as a Slurm job array
with --slurm (submitted with sbatch, waited for, then gathered; the sweep folder and the build must
be on a file system the compute nodes share). Each run writes its own results.json; the sweep
merges them into <out>/summary.csv (one row per run, with the parameters that vary, the seed and
the main results). A second call resumes: runs whose results are there from the same command are
not run again (--fresh runs everything). Needs only the standard library (any python3)."""
import argparse
import csv
import itertools
import json
import os
import shlex
import shutil
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ICNSIM = ROOT / "build" / "icnsim"


PAPER_PAIRS = [(round(u_avg - hyst / 2, 3), round(u_avg + hyst / 2, 3))  # U_avg x hysteresis: nine pairs
               for u_avg in (0.5, 0.6, 0.7) for hyst in (0.3, 0.4, 0.5)]
LOW_PENALTY_PAIRS = [(u_off, u_on) for u_off in (0.05, 0.1, 0.15, 0.2) for u_on in (0.3, 0.4, 0.5)]
FATTREE_LOADS = [0.02, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5]


def fattree_grid():
    """The mechanism off at each load (the reference of every ratio); the paper's nine U_off-U_on
    pairs with both utilisation meters; lower pairs with the default (occupancy) meter, where
    scripts/plot.py looks for the low-penalty operating point. Loads 0.02-0.5."""
    def runs(label, meter, sets):
        return [({"config": label, "meter": meter, "load": load}, "fattree_onoff_load", sets + [f"traffic.load={load}"])
                for load in FATTREE_LOADS]
    plan = runs("off", "", ["fattree_onoff.enabled=false"])
    for (u_off, u_on), meters in [(pair, ("flits", "occupancy")) for pair in PAPER_PAIRS] + \
                                 [(pair, ("occupancy",)) for pair in LOW_PENALTY_PAIRS]:
        for meter in meters:
            plan += runs(f"{u_off}-{u_on}", meter,
                         [f"fattree_onoff.u_off={u_off}", f"fattree_onoff.u_on={u_on}", f"fattree_onoff.meter={meter}"])
    return plan


def fattree_ramp():
    return [({"config": label}, "fattree_onoff_ramp", sets)
            for label, sets in (("on", []), ("off", ["fattree_onoff.enabled=false"]))]


PDT_NS = [0, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e9]  # 0 .. 1 s, the paper's nine values
WORKLOADS = ["bsp_allreduce", "silent_bursts", "small_collectives", "layered_allreduce"]


def perfbound():
    """Per workload preset: EEE off; fixed t_PDT x {fast_wake, deep_sleep}; PerfBound and
    PerfBoundCorrect at bounds 1, 2, 5 % x the three histogram strategies x both LPI depths."""
    runs = []
    for w in WORKLOADS:
        base = {"workload": w, "mode": "off", "policy": "off", "pdt_ns": "", "bound": "", "strategy": ""}
        runs.append((base, "perfbound_megafly", [f"workload.kind={w}", "eee.mode=off", "eee.policy=fixed"]))
        for mode in ("fast_wake", "deep_sleep"):
            for pdt in PDT_NS:
                labels = dict(base, mode=mode, policy="fixed", pdt_ns=f"{pdt:g}")
                runs.append((labels, "perfbound_megafly",
                             [f"workload.kind={w}", f"eee.mode={mode}", "eee.policy=fixed", f"eee.pdt_ns={pdt:g}"]))
            for policy in ("perfbound", "perfbound_correct"):
                for bound in (0.01, 0.02, 0.05):
                    for strategy in ("self_clearing", "sliding", "unbounded"):
                        labels = dict(base, mode=mode, policy=policy, bound=bound, strategy=strategy)
                        runs.append((labels, "perfbound_megafly",
                                     [f"workload.kind={w}", f"eee.mode={mode}", f"eee.policy={policy}",
                                      f"eee.bound={bound}", f"eee.hist.strategy={strategy}"]))
    return runs


# The reference simulator's four networks (sim/scenarios/reference_*.yaml): loads around and past
# each one's saturation (up to 1.5 times it, or 1), with the reference's rules and with this
# project's defaults where they differ (torus: balanced datelines; tree: least-occupied up port).
REFERENCE_LOADS = {
    "mesh": [0.05, 0.1, 0.2, 0.3, 0.35, 0.37, 0.38, 0.39, 0.4, 0.41, 0.42, 0.45, 0.5, 0.6],
    "torus8": [0.1, 0.2, 0.3, 0.4, 0.45, 0.48, 0.5, 0.51, 0.52, 0.53, 0.54, 0.56, 0.6, 0.7, 0.77, 0.85],
    "torus444": [0.1, 0.3, 0.5, 0.6, 0.7, 0.72, 0.75, 0.78, 0.8, 0.82, 0.85, 0.9, 1.0],
    "tree": [0.05, 0.2, 0.3, 0.35, 0.38, 0.4, 0.41, 0.42, 0.43, 0.44, 0.45, 0.5, 0.63],
}
REFERENCE_VARIANTS = {
    "mesh": [("reference", [])],
    "torus8": [("reference", []), ("balanced", ["topology.dateline=balanced"])],
    "torus444": [("reference", []), ("balanced", ["topology.dateline=balanced"])],
    "tree": [("reference", []), ("least_occupied", ["topology.up_port=least_occupied"])],
}


def reference():
    return [({"network": net, "rules": rules, "load": load}, f"reference_{net}", sets + [f"traffic.load={load}"])
            for net, loads in REFERENCE_LOADS.items() for rules, sets in REFERENCE_VARIANTS[net] for load in loads]


ERAPID_MODES = ["np_nb", "p_nb", "np_b", "p_b"]
ERAPID_PATTERNS = ["uniform", "complement", "butterfly", "perfect_shuffle"]
ERAPID_LOADS = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]


def erapid_load():
    """The paper's Figures 7-9: throughput, latency and power of the four modes against load (0.1-0.9
    of a node's injection bandwidth) under its four patterns, 64 nodes."""
    return [({"pattern": pattern, "mode": mode, "load": load}, "erapid_p_b",
             [f"traffic.pattern={pattern}", f"erapid.mode={mode}", f"traffic.load={load}"])
            for pattern in ERAPID_PATTERNS for mode in ERAPID_MODES for load in ERAPID_LOADS]


def erapid_rw():
    """Figure 5: the window Rw from 500 to 4000 cycles, complement at loads 0.2 and 0.5, P-B."""
    return [({"rw": rw, "load": load}, "erapid_p_b", [f"erapid.rw_cycles={rw}", f"traffic.load={load}"])
            for load in (0.2, 0.5) for rw in (500, 1000, 1500, 2000, 3000, 4000)]


def erapid_degree():
    """Figure 10: degree of re-allocation N = 2, 4, 8 for complement and butterfly at loads 0.1,
    0.5 and 0.9, NP-B (re-allocation alone)."""
    return [({"pattern": pattern, "degree": n, "load": load}, "erapid_p_b",
             [f"traffic.pattern={pattern}", "erapid.mode=np_b", f"erapid.degree={n}", f"traffic.load={load}"])
            for pattern in ("complement", "butterfly") for load in (0.1, 0.5, 0.9) for n in (2, 4, 8)]


def erapid_step():
    """Figure 6: lasers and power levels per link over the windows of a load step, P-B and P-NB."""
    return [({"mode": mode}, "erapid_step", [f"erapid.mode={mode}"]) for mode in ("p_b", "p_nb")]


TORUS_THRESHOLDS = [0, 10, 25, 50, 75, 100, 150, 200, 300, 400]


def torus_swap():
    """Paper 001's Figure 3: Livermore kernels on the 8x8x8 packet-step torus without swaps (the
    reference of each seed's speed-up), then each threshold variant at each R (the adaptive one's
    starting value)."""
    plan = [({"variant": "none", "threshold": ""}, "torus_swap_livermore", ["torus_swap.enabled=false"])]
    for variant in ("fixed", "randomised", "adaptive"):
        plan += [({"variant": variant, "threshold": r}, "torus_swap_livermore",
                  [f"torus_swap.variant={variant}", f"torus_swap.threshold={r}"]) for r in TORUS_THRESHOLDS]
    return plan


def torus_swap_p():
    """The same on smaller tori (P = 4 and 6 nodes per cycle; P = 8 is torus_swap): which P shows
    the paper's shape."""
    plan = []
    for p in (4, 6):
        dims = f"topology.dims=[{p},{p},{p}]"
        plan.append(({"p": p, "variant": "none", "threshold": ""}, "torus_swap_livermore",
                     [dims, "torus_swap.enabled=false"]))
        for variant in ("fixed", "randomised", "adaptive"):
            plan += [({"p": p, "variant": variant, "threshold": r}, "torus_swap_livermore",
                      [dims, f"torus_swap.variant={variant}", f"torus_swap.threshold={r}"])
                     for r in (0, 25, 50, 100, 200, 400)]
    return plan


PHOTONIC_BYTES = [32768, 131072, 524288, 1048576, 4194304, 16777216, 0]  # 32 KB .. 16 MB, 0 = unlimited


def photonic(scenario, layouts):
    """Paper 004's Figures 4-9 at reduced scale: circuit switching (the reference of each seed's
    speed-up), packetised circuits, then Segment Switching with each buffer layout and size; two
    ablations at 1 MB in the second layout: a one-channel buffer port (Figure 2 taken literally) and
    a control plane answering one request per switch per cycle."""
    plan = [({"mode": mode, "layout": "none", "bytes": ""}, scenario,
             [f"photonic.mode={mode}", "photonic.buffer.layout=none"]) for mode in ("circuit", "packetised")]
    for layout in layouts:
        plan += [({"mode": "segment", "layout": layout, "bytes": b}, scenario,
                  ["photonic.mode=segment", f"photonic.buffer.layout={layout}", f"photonic.buffer.bytes={b}"])
                 for b in PHOTONIC_BYTES]
    base = ["photonic.mode=segment", f"photonic.buffer.layout={layouts[1]}", "photonic.buffer.bytes=1048576"]
    plan.append(({"mode": "segment_1ch", "layout": layouts[1], "bytes": 1048576}, scenario,
                 base + ["photonic.buffer.channels=1"]))
    plan.append(({"mode": "segment_1req", "layout": layouts[1], "bytes": 1048576}, scenario,
                 base + ["photonic.requests_per_cycle=1"]))
    return plan


def photonic_torus():
    return photonic("photonic_torus", ["all", "every_2", "every_4"])


def photonic_fattree():
    return photonic("photonic_fattree", ["top_1", "top_2", "top_3"])


def photonic_paper_scale(scenario, shape, layouts):
    """The paper's 1728 nodes and 100 messages per node (its 20 seeds: --seeds 20, on a cluster:
    --slurm): circuit, packetised, and Segment Switching in each layout at 1 MB, the first layout
    also at 32 KB and 4 MB. Measured here with --set workload.messages_per_node=20, one seed."""
    sets = [shape]
    plan = [({"mode": mode, "layout": "none", "bytes": ""}, scenario, sets + [f"photonic.mode={mode}",
                                                                           "photonic.buffer.layout=none"])
            for mode in ("circuit", "packetised")]
    points = [(layout, 1048576) for layout in layouts] + [(layouts[0], 32768), (layouts[0], 4194304)]
    plan += [({"mode": "segment", "layout": layout, "bytes": b}, scenario,
              sets + ["photonic.mode=segment", f"photonic.buffer.layout={layout}", f"photonic.buffer.bytes={b}"])
             for layout, b in points]
    return plan


def photonic_torus_1728():
    return photonic_paper_scale("photonic_torus", "topology.dims=[12,12,12]", ["all", "every_2", "every_4"])


def photonic_fattree_1728():
    return photonic_paper_scale("photonic_fattree", "topology.k=12", ["top_1", "top_2", "top_3"])


EXPERIMENTS = {"fattree_grid": fattree_grid, "fattree_ramp": fattree_ramp, "perfbound": perfbound,
               "reference": reference, "erapid_load": erapid_load, "erapid_rw": erapid_rw,
               "erapid_degree": erapid_degree, "erapid_step": erapid_step, "torus_swap": torus_swap,
               "torus_swap_p": torus_swap_p, "photonic_torus": photonic_torus, "photonic_fattree": photonic_fattree,
               "photonic_torus_1728": photonic_torus_1728, "photonic_fattree_1728": photonic_fattree_1728}


def command(scenario, sets, seed, out):
    cmd = [str(ICNSIM), "run", scenario, "--quiet", "--seed", str(seed), "--out", str(out)]
    for s in sets:
        cmd += ["--set", s]
    return cmd


def grid(scenario, axes):
    """The cartesian product of --grid key=v1,v2 axes over a bundled scenario."""
    keys = [key for key, _ in axes]
    return [(dict(zip(keys, values)), scenario, [f"{k}={v}" for k, v in zip(keys, values)])
            for values in itertools.product(*(values for _, values in axes))]


def grid_axis(text):
    key, eq, values = text.partition("=")
    if not eq or not key or not values or "" in values.split(","):
        raise argparse.ArgumentTypeError(f"'{text}': expected key=value1,value2,...")
    return key, values.split(",")


def at_least_one(text):
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value}: must be at least 1")
    return value


def run_one(cmd, folder):
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode == 0:
        (folder / "command.txt").write_text(shlex.join(cmd) + "\n")  # marks the run complete
    return done.returncode, done.stderr


def run_locally(pending, jobs):
    """Runs in a process pool; returns a line per failed run."""
    failed = []
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = {pool.submit(run_one, cmd, folder): folder for _, folder, cmd in pending}
        for i, future in enumerate(as_completed(futures), 1):
            code, err = future.result()
            folder = futures[future]
            print(f"[sweep] {i}/{len(pending)} {folder.name}" + (f" failed ({code})" if code else ""), file=sys.stderr)
            if code:
                failed.append(f"{folder.name}: exit {code}: {err.strip()[-300:]}")
    return failed


def run_on_slurm(pending, out, name, jobs, sbatch_args):
    """One array task per pending run: the task runs the command and, if it succeeds, leaves the
    same completion marker as a local run. sbatch --wait returns when every task has ended.
    Returns a line per failed run (its task's log is in <out>/slurm/)."""
    if not pending:
        return []
    if not shutil.which("sbatch"):
        sys.exit("sweep: --slurm needs sbatch (Debian: slurm-client; scripts/setup.sh --slurm installs a test cluster's)")
    logs = out / "slurm"
    logs.mkdir(parents=True, exist_ok=True)
    folders, commands = logs / "folders.txt", logs / "commands.txt"  # line i: task i's
    folders.write_text("".join(f"{folder}\n" for _, folder, _ in pending))
    commands.write_text("".join(shlex.join(cmd) + "\n" for _, _, cmd in pending))
    script = logs / "task.sh"
    script.write_text(
        "#!/bin/bash\n"
        "# One run of the sweep: line SLURM_ARRAY_TASK_ID of folders.txt and commands.txt.\n"
        f'folder=$(sed -n "${{SLURM_ARRAY_TASK_ID}}p" {shlex.quote(str(folders))})\n'
        f'command=$(sed -n "${{SLURM_ARRAY_TASK_ID}}p" {shlex.quote(str(commands))})\n'
        'eval "set -- $command"\n'
        'mkdir -p "$folder"\n'
        '"$@" || exit $?\n'
        'printf \'%s\\n\' "$command" > "$folder/command.txt"  # the completion marker of a local run\n')
    array = f"1-{len(pending)}" + (f"%{jobs}" if jobs else "")
    cmd = ["sbatch", "--wait", "--parsable", f"--job-name=icnsim-{name}", f"--array={array}", "--cpus-per-task=1",
           f"--output={logs}/%A_%a.out", *sbatch_args, str(script)]
    print(f"sweep: submitting {len(pending)} runs: {shlex.join(cmd)}", file=sys.stderr)
    done = subprocess.run(cmd, capture_output=True, text=True)
    job = done.stdout.strip().split(";")[0]
    if not job:
        sys.exit(f"sweep: sbatch failed ({done.returncode}): {done.stderr.strip()}")
    print(f"sweep: job {job} ended (sbatch exit {done.returncode})", file=sys.stderr)
    return [f"{folder.name}: no results from Slurm job {job} (log {logs}/{job}_{i}.out)"
            for i, (_, folder, cmd) in enumerate(pending, 1) if not finished(cmd, folder)]


def finished(cmd, folder):
    """Whether this exact command already ran to completion into `folder`."""
    marker = folder / "command.txt"
    return (folder / "results.json").exists() and marker.exists() and marker.read_text() == shlex.join(cmd) + "\n"


def summary_row(labels, out):
    r = json.loads((out / "results.json").read_text())
    row = dict(labels)
    row.update({"seed": r["seed"], "latency_avg": r["latency"]["avg"], "latency_p99": r["latency"]["p99"],
                "offered": r["throughput"]["offered"], "accepted": r["throughput"]["accepted"],
                "links_relative": r["energy"]["links_relative"], "controllers_j": r["energy"]["controllers_j"],
                "net_saving_j": r["energy"]["net_saving_j"], "verdict": r["verdict"],
                "lost": r["packets"]["lost"], "run": os.path.relpath(out, ROOT)})
    for key, value in r.get("fattree_onoff", {}).items():
        row[f"fattree_onoff.{key}"] = value
    for key, value in r.get("erapid", {}).items():
        row[f"erapid.{key}"] = value
    for key, value in r.get("torus_swap", {}).items():
        row[f"torus_swap.{key}"] = value
    for key, value in r.get("photonic", {}).items():
        if not isinstance(value, list):
            row[f"photonic.{key}"] = value
    if r["topology"].endswith("packet step"):
        row["hops_avg"] = r["latency"]["hops_avg"]
    if "laser" in r["energy"].get("groups", {}):  # E-RAPID: power over the measurement, W
        row["laser_power_w"] = r["energy"]["links_j"] / (r["sim"]["measure_cycles"] * r["params"]["sim"]["cycle_ns"] * 1e-9)
    if "workload" in r:
        row.update({"exec_cycles": r["workload"]["exec_cycles"], "links_j": r["energy"]["links_j"],
                    "misses": r["eee"]["predictions"]["misses"] if "predictions" in r.get("eee", {}) else "",
                    "pdt_median_cycles": r["eee"]["final_pdt_cycles"]["median"]
                    if "final_pdt_cycles" in r.get("eee", {}) else ""})
    return row


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("experiment", nargs="?", choices=sorted(EXPERIMENTS),
                        help="a named experiment; leave out with --scenario and --grid")
    parser.add_argument("--scenario", help="bundled scenario of a --grid sweep")
    parser.add_argument("--grid", type=grid_axis, action="append", default=[],
                        help="key=value1,value2,... (repeatable: the runs are every combination)")
    parser.add_argument("--seeds", type=at_least_one, default=1, help="seeds per point (1, 2, ...)")
    parser.add_argument("--set", dest="sets", action="append", default=[], metavar="KEY=VALUE",
                        help="added to every run of the sweep, after the experiment's own (repeatable)")
    parser.add_argument("--jobs", type=at_least_one,
                        help="runs at once (default: this machine's cores; with --slurm: no limit)")
    parser.add_argument("--out", type=Path, help="sweep folder (default out/sweeps/<experiment or grid>)")
    parser.add_argument("--fresh", action="store_true", help="run everything again instead of resuming")
    parser.add_argument("--slurm", action="store_true",
                        help="run the pending runs as a Slurm job array (sbatch --wait), then merge")
    parser.add_argument("--sbatch-arg", action="append", default=[], metavar="ARG",
                        help="passed to sbatch with --slurm, e.g. --sbatch-arg=--partition=long (repeatable)")
    args = parser.parse_args()
    if bool(args.experiment) == bool(args.grid or args.scenario):
        parser.error("give an experiment, or --scenario with at least one --grid")
    if args.grid and not args.scenario or args.scenario and not args.grid:
        parser.error("--scenario and --grid go together")
    if not ICNSIM.exists():
        parser.error(f"{ICNSIM} not found: run scripts/build.sh first")

    name = args.experiment or "grid"
    out = (args.out or ROOT / "out" / "sweeps" / name).resolve()
    plan = EXPERIMENTS[args.experiment]() if args.experiment else grid(args.scenario, args.grid)
    runs = []
    for labels, scenario, sets in plan:
        for seed in range(1, args.seeds + 1):
            run_name = "_".join(f"{v}" for v in labels.values() if v != "") + f"_s{seed}"
            folder = out / "runs" / run_name.replace("/", "-")
            runs.append((labels, folder, command(scenario, sets + args.sets, seed, folder)))

    pending = [(labels, folder, cmd) for labels, folder, cmd in runs if args.fresh or not finished(cmd, folder)]
    if len(pending) < len(runs):
        print(f"sweep: resuming, {len(runs) - len(pending)} of {len(runs)} runs already done", file=sys.stderr)
    if args.slurm:
        failed = run_on_slurm(pending, out, name, args.jobs, args.sbatch_arg)
    else:
        failed = run_locally(pending, args.jobs or os.cpu_count())
    rows = [summary_row(labels, folder) for labels, folder, _ in runs if (folder / "results.json").exists()]
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "summary.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(dict.fromkeys(k for row in rows for k in row)))
        writer.writeheader()
        writer.writerows(rows)
    print(f"sweep: {len(rows)} runs merged into {out / 'summary.csv'}")
    for f in failed:
        print("sweep: " + f, file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
