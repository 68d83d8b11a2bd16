#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Simulation speed in cycles per second: the median of N runs of each case (sim.cycles_per_s,
the clocked loop only, from results.json), and the run's peak memory (maximum resident set of the
process), and the process's CPU time (user + system, setup included). Writes out/bench/bench.json
and prints a table. With --baseline OTHER_ICNSIM (a build of another revision or configuration)
each case also runs OTHER_ICNSIM, alternating with this one so that both see the same machine,
and the table adds the ratio of the medians.

Rows on networks that sim.threads = 0 would split (the 8x8x8 torus, the 4,160-node Megafly) pin
sim.threads=1 unless their name gives a thread count; on the others it gives one thread anyway.
With more than one thread, cycles/s (wall time of the clocked loop) is the scaling figure and
CPU-s what it costs."""
import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ICNSIM = ROOT / "build" / "icnsim"

# The reference simulator's setup (../shared/reference/speed.md), measured long enough to time: at
# least a second without controllers.
FAT_TREE = ["topology.kind=kary_ntree", "topology.k=4", "topology.n=3", "router.vcs=3", "router.vc_buffer_flits=4",
            "traffic.packet_flits=16", "traffic.pattern=uniform", "sim.warmup_cycles=10000"]
FAT_TREE_CYCLES = {"0.001": 10_000_000, "0.01": 2_000_000, "0.05": 1_000_000, "0.2": 300_000, "0.4": 200_000}
TORUS = ["topology.kind=torus", "topology.dims=[8, 8, 8]", "router.vcs=3", "router.vc_buffer_flits=4",
         "traffic.packet_flits=16", "traffic.pattern=uniform", "sim.warmup_cycles=1000", "sim.measure_cycles=3000",
         "sim.threads=1"]
EEE_OFF = ["eee.mode=off"]
EEE_ON = ["eee.mode=fast_wake", "eee.pdt_ns=1000"]
ONOFF = EEE_OFF + ["fattree_onoff.enabled=true", "fattree_onoff.u_off=0.3", "fattree_onoff.u_on=0.65"]

# (name, bundled scenario, overrides)
LOADS = ("0.001", "0.01", "0.05", "0.2", "0.4")
def fat_tree(load):
    return FAT_TREE + [f"traffic.load={load}", f"sim.measure_cycles={FAT_TREE_CYCLES[load]}"]


CASES = [(f"4-ary 3-tree, load {load}, EEE {name}", "default", fat_tree(load) + eee)
         for load in LOADS for name, eee in (("off", EEE_OFF), ("fast_wake PDT 1us", EEE_ON))]
CASES += [(f"4-ary 3-tree, load {load}, fat-tree on/off", "default", fat_tree(load) + ONOFF) for load in LOADS]
CASES += [(f"8x8x8 torus, load 0.1, EEE {name}", "default", TORUS + ["traffic.load=0.1"] + eee)
          for name, eee in (("off", EEE_OFF), ("fast_wake PDT 1us", EEE_ON))]
# E-RAPID with the static assignment (sim/scenarios/erapid_static.yaml): 64 nodes, and 512 (B = 16, D = 32).
CASES += [(f"E-RAPID {name}, uniform 0.5, static", "erapid_static", sets + ["traffic.pattern=uniform", "traffic.load=0.5"])
          for name, sets in (("64 nodes", []),
                             ("512 nodes", ["topology.erapid.boards=16", "topology.erapid.nodes_per_board=32",
                                            "sim.warmup_cycles=1000", "sim.measure_cycles=4000"]))]
# E-RAPID with its controllers (sim/scenarios/erapid_p_b.yaml), 64 nodes, uniform 0.5, per mode.
CASES += [(f"E-RAPID 64 nodes, uniform 0.5, {mode}", "erapid_p_b",
           [f"erapid.mode={mode}", "traffic.pattern=uniform", "traffic.load=0.5"]) for mode in ("p_nb", "np_b", "p_b")]
# The reconfigurable torus (sim/scenarios/torus_swap_livermore.yaml): 8x8x8 packet-step torus,
# Livermore kernels, static and with the node-swap controllers (adaptive threshold, R 100 at start);
# kernel 21 cut to k, i = 1..5, the drain protocol and the ring credit of F'_ba, as measured before
# the paper's setup became the default (figures stay comparable across versions).
CASES += [(f"8x8x8 packet-step torus, Livermore, {name}", "torus_swap_livermore",
           sets + ["workload.livermore.k21_extent=5", "torus_swap.protocol=drain", "torus_swap.back_credit=ring"])
          for name, sets in (("static", ["torus_swap.enabled=false"]), ("swaps adaptive", []))]
# Photonic circuit switching at the paper's scale (1728 nodes: 12x12x12 torus, 12-ary 3-tree),
# Segment Switching with a 1 MB buffer at every 2nd switch / the top level, 2 messages per node, one
# thread; and the torus with the scenario's 100 messages per node on two (about 3 minutes a run).
CASES += [(f"1728-node photonic {name}, segment, 2 messages per node", scenario,
           sets + ["workload.messages_per_node=2", "sim.threads=1"])
          for name, scenario, sets in (("torus 12x12x12", "photonic_torus", ["topology.dims=[12,12,12]"]),
                                       ("12-ary 3-tree", "photonic_fattree", ["topology.k=12"]))]
CASES += [("1728-node photonic torus 12x12x12, segment, 100 messages per node, 2 threads", "photonic_torus",
           ["topology.dims=[12,12,12]", "sim.threads=2"])]
# The PerfBound experiment's network and LAMMPS-like workload (sim/scenarios/perfbound_megafly.yaml).
CASES += [(f"40-node Megafly, bsp_allreduce, {name}", "perfbound_megafly", ["workload.kind=bsp_allreduce"] + sets)
          for name, sets in (("EEE off", ["eee.mode=off", "eee.policy=fixed"]),
                             ("deep_sleep PDT 1us", ["eee.policy=fixed", "eee.pdt_ns=1000"]),
                             ("PerfBoundCorrect 1%", []))]
# The PerfBound paper's 4,160-node Megafly, the whole 40-iteration LAMMPS-like preset with MPICH's
# allreduce choice (about 8 minutes a run): its peak memory is the point (docs/performance.md).
MEGAFLY_4160 = ["topology.megafly.groups=65", "topology.megafly.leaves=8", "topology.megafly.spines=8",
                "topology.megafly.nodes_per_leaf=8", "topology.megafly.global_per_spine=8"]
# Thread scaling: the first 20,000 cycles of that preset, whose collectives keep most links busy
# (about 35 s on one thread; the run ends there, verdict saturated).
CASES += [(f"4160-node Megafly, first 20,000 cycles, PerfBoundCorrect 1%, MPICH, {threads} thread{'s' * (threads > 1)}",
           "perfbound_megafly", MEGAFLY_4160 + ["workload.kind=bsp_allreduce", "workload.allreduce=mpich",
                                                "workload.max_cycles=20000", f"sim.threads={threads}"])
          for threads in (1, 2)]
CASES += [("4160-node Megafly, bsp_allreduce, PerfBoundCorrect 1%, MPICH allreduce", "perfbound_megafly",
           MEGAFLY_4160 + ["workload.kind=bsp_allreduce", "workload.allreduce=mpich", "sim.threads=1"])]
# The same, 256 iterations: 99.8 ms simulated (100 X for a PerfBound period X of 1 ms; the
# scenario's X is 100 us), meant to finish within the hour on one core (about 39 minutes a run).
CASES += [("4160-node Megafly, bsp_allreduce 256 iterations (99.8 ms), PerfBoundCorrect 1%, MPICH", "perfbound_megafly",
           MEGAFLY_4160 + ["workload.kind=bsp_allreduce", "workload.allreduce=mpich", "workload.iterations=256",
                           "sim.threads=1"])]


def run(icnsim, scenario, sets, seed):
    out = ROOT / "out" / "bench" / "run"
    cmd = [str(icnsim), "run", scenario, "--quiet", "--out", str(out), "--seed", str(seed)]
    for s in sets:
        cmd += ["--set", s]
    child = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise subprocess.CalledProcessError(os.waitstatus_to_exitcode(status), cmd)
    results = json.loads((out / "results.json").read_text())
    return results, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime  # MB, CPU-s


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5, help="runs per case (median reported)")
    parser.add_argument("--match", default="", help="only cases whose name contains this text")
    parser.add_argument("--icnsim", default=str(ICNSIM), help="the binary to measure (e.g. a build of another revision)")
    parser.add_argument("--baseline", help="a second binary, run alternately with --icnsim: the ratio of the medians")
    args = parser.parse_args()
    rows = []
    print(f"{'case':<50} {'cycles/s (median)':>18} {'min':>9} {'max':>9} {'peak MB':>8} {'CPU-s':>8}"
          + (f" {'baseline':>10} {'ratio':>6}" if args.baseline else ""))
    for name, scenario, sets in CASES:
        if args.match not in name:
            continue
        rates, memory, cpu, baseline = [], [], [], []
        for i in range(args.repeat):
            print(f"  {name}: run {i + 1}/{args.repeat}", file=sys.stderr, end="\r" if sys.stderr.isatty() else "\n")
            results, peak_mb, cpu_s = run(args.icnsim, scenario, sets, seed=1)
            rates.append(results["sim"]["cycles_per_s"])
            memory.append(peak_mb)
            cpu.append(cpu_s)
            if args.baseline:
                baseline.append(run(args.baseline, scenario, sets, seed=1)[0]["sim"]["cycles_per_s"])
        median = statistics.median(rates)
        row = {"case": name, "scenario": scenario, "params": sets, "repeat": args.repeat, "cycles_per_s_median": median,
               "cycles_per_s_all": rates, "peak_rss_mb_median": statistics.median(memory),
               "cpu_s_median": statistics.median(cpu), "cpu_s_all": cpu}
        line = (f"{name:<50} {median:>18,.0f} {min(rates):>9,.0f} {max(rates):>9,.0f} {statistics.median(memory):>8,.0f}"
                f" {statistics.median(cpu):>8.1f}")
        if args.baseline:
            row.update(baseline=args.baseline, baseline_cycles_per_s_all=baseline,
                       ratio=median / statistics.median(baseline))
            line += f" {statistics.median(baseline):>10,.0f} {row['ratio']:>6.3f}"
        rows.append(row)
        print(line)
    out = ROOT / "out" / "bench"
    out.mkdir(parents=True, exist_ok=True)
    (out / "bench.json").write_text(json.dumps(rows, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
