#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Random valid configurations over every mechanism and data plane, each run three times and checked.

  scripts/soak.py [--count N] [--seed S] [--jobs J] [--out DIR]

Each configuration is drawn from one family (wormhole with EEE or PerfBound, the fat tree's on/off
links, E-RAPID, the torus swaps, packet-step, photonic circuits and segments, Megafly workloads),
with its keys in ranges that keep runs short (a few thousand cycles, workloads capped by
workload.max_cycles). `icnsim check` must accept it: a draw it refuses is drawn again, and counted,
and `icnsim run` must refuse that draw too (exit 2), as it must accept what check accepted. A few draws
that break rules between keys (BROKEN) come first: both must refuse them.
Then it runs three times: on one thread; again on 2 or 3 threads; and with sim.clock_jumps off.
A configuration passes when every run keeps the census (nothing lost, reordered or corrupted), ends
with verdict ok or saturated (no deadlock, starvation, crash or internal error), and the three
results are equal (the machine's fields aside, as in the golden results). Failures are listed with
their commands; <out>/soak.json records every configuration and its outcome. Exit 1 on any failure.
Progress on stderr."""
import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from golden import without_machine_fields  # noqa: E402  (the fields that may differ between equal runs)

ROOT = Path(__file__).resolve().parent.parent
ICNSIM = ROOT / "build" / "icnsim"
SHORT = ["sim.warmup_cycles=300", "sim.measure_cycles=1500", "sim.drain_limit_cycles=20000"]
CAPPED = ["workload.max_cycles=200000"]


def bernoulli(r):
    return [f"traffic.load={r.choice([0.01, 0.05, 0.2, 0.5, 0.9])}",
            f"traffic.packet_flits={r.choice([1, 4, 8, 16])}",
            f"traffic.pattern={r.choice(['uniform', 'hotspot', 'tornado', 'neighbor'])}"] + SHORT


def router(r):
    return [f"router.vcs={r.randint(1, 4)}", f"router.vc_buffer_flits={r.choice([1, 2, 4, 8])}",
            f"router.pipeline_cycles={r.randint(1, 4)}", f"link.latency_cycles={r.randint(1, 3)}"]


def topology(r):
    return r.choice([["topology.kind=kary_ntree", f"topology.k={r.choice([2, 4])}", f"topology.n={r.choice([2, 3])}"],
                     ["topology.kind=torus", f"topology.dims={r.choice(['[4,4]', '[3,5]', '[2,2,4]'])}"],
                     ["topology.kind=mesh", f"topology.dims={r.choice(['[4,4]', '[3,5]'])}"],
                     ["topology.kind=megafly"]])


def wormhole_eee(r):
    mode = r.choice(["off", "fast_wake", "deep_sleep"])
    policy = "fixed" if mode == "off" else r.choice(["fixed", "perfbound", "perfbound_correct"])
    return "default", topology(r) + router(r) + bernoulli(r) + [
        f"eee.mode={mode}", f"eee.policy={policy}", f"eee.pdt_ns={r.choice([0, 20, 200])}",
        "eee.perfbound.period_ns=3000"]


def fattree(r):
    u_off = r.choice([0.1, 0.2, 0.3])
    return "default", [f"topology.k={r.choice([2, 3, 4])}", f"topology.n={r.choice([2, 3])}", "eee.mode=off",
                       "fattree_onoff.enabled=true", f"fattree_onoff.u_off={u_off}",
                       f"fattree_onoff.u_on={u_off + r.choice([0.2, 0.4])}",
                       f"fattree_onoff.check_cycles={r.choice([200, 500])}",
                       f"fattree_onoff.t_on_cycles={r.choice([0, 50, 200])}",
                       f"fattree_onoff.t_off_cycles={r.choice([0, 50, 200])}",
                       f"fattree_onoff.meter={r.choice(['occupancy', 'flits'])}"] + router(r) + bernoulli(r)


def erapid(r):
    return "erapid_p_b", [f"erapid.mode={r.choice(['np_nb', 'p_nb', 'np_b', 'p_b'])}", "erapid.rw_cycles=400",
                          f"erapid.degree={r.randint(1, 8)}", f"traffic.load={r.choice([0.05, 0.3, 0.9])}",
                          f"traffic.pattern={r.choice(['uniform', 'complement', 'butterfly'])}"] + SHORT


def torus_swap(r):
    period = r.choice([32, 64, 256])
    return "torus_swap_livermore", [
        f"topology.dims={r.choice(['[4,4]', '[4,4,4]'])}", "workload.iterations=1",
        "workload.livermore.k21_extent=5", f"torus_swap.enabled={r.choice(['true', 'false'])}",
        f"torus_swap.variant={r.choice(['fixed', 'randomised', 'adaptive'])}",
        f"torus_swap.threshold={r.choice([0, 10, 100])}", f"torus_swap.period_cycles={period}",
        f"torus_swap.block_cycles={r.randint(1, period - 1)}",
        f"torus_swap.protocol={r.choice(['paper', 'drain'])}"] + CAPPED


def packet_step(r):
    return "default", ["network.switching=packet_step", "topology.kind=torus", "eee.mode=off",
                       f"topology.dims={r.choice(['[4,6]', '[3,3,3]', '[5,5]'])}"] + bernoulli(r)


def photonic(r):
    scenario = r.choice(["photonic_torus", "photonic_fattree"])
    channels = r.randint(1, 5)
    layout = r.choice(["none", "all", "every_2"] if scenario == "photonic_torus" else ["none", "all", "top_1"])
    return scenario, [
        f"photonic.mode={r.choice(['circuit', 'packetised', 'segment'])}", f"photonic.channels={channels}",
        f"photonic.source_channels={r.randint(0, channels)}", f"photonic.buffer.layout={layout}",
        f"photonic.buffer.channels={r.randint(0, channels)}",
        f"photonic.buffer.bytes={r.choice([0, 16384, 1048576])}",
        f"photonic.on_failure={r.choice(['wait', 'retry', 'backoff'])}",
        f"photonic.requests_per_cycle={r.choice([0, 1, 4])}", f"workload.messages_per_node={r.randint(1, 3)}",
        f"workload.large_bytes={r.choice([16384, 65536])}", "workload.mtu_bytes=4096", "workload.flit_bytes=64",
        f"workload.release={r.choice(['at_zero', 'poisson'])}"] + CAPPED


def megafly_workload(r):
    return "perfbound_megafly", [
        f"workload.kind={r.choice(['bsp_allreduce', 'silent_bursts', 'small_collectives', 'layered_allreduce'])}",
        "workload.iterations=1", f"workload.compute_scale={r.choice([0.01, 0.1])}",
        f"eee.mode={r.choice(['off', 'fast_wake'])}", "eee.policy=fixed",
        f"router.vc_buffer_flits={r.choice([1, 4, 8])}"] + CAPPED


FAMILIES = [wormhole_eee, fattree, erapid, torus_swap, packet_step, photonic, megafly_workload]

# Draws that break a rule between keys: check and run must both refuse each (exit 2).
BROKEN = [("photonic_torus", ["topology.kind=mesh", "topology.dims=[4,4]", "photonic.buffer.layout=every_2"]),
          ("photonic_torus", ["photonic.channels=2", "photonic.source_channels=3"]),
          ("default", ["photonic.mode=circuit"]),
          ("erapid_p_b", ["erapid.b_max=0.6"]),
          ("erapid_p_b", ["erapid.degree=9"]),
          ("photonic_torus", ["workload.mtu_bytes=1"]),
          ("torus_swap_livermore", ["torus_swap.block_cycles=300"])]


def icnsim(args, out=None):
    cmd = [str(ICNSIM)] + args + (["--quiet", "--out", str(out)] if out else [])
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600)
    return cmd, done


def soak_one(index, scenario, sets, seed, scratch):
    """The configuration's outcome: its problems (empty: it passed) and the commands run."""
    base = ["run", scenario, "--seed", str(seed)] + [a for s in sets for a in ("--set", s)]
    variants = {"one thread": ["--set", "sim.threads=1"],
                "more threads": ["--set", f"sim.threads={2 + index % 2}"],
                "no clock jumps": ["--set", "sim.threads=1", "--set", "sim.clock_jumps=false"]}
    problems, results, commands = [], {}, []
    for name, extra in variants.items():
        out = scratch / f"{index}_{name.replace(' ', '_')}"
        cmd, done = icnsim(base + extra, out)
        commands.append(" ".join(cmd))
        if done.returncode != 0 or not (out / "results.json").exists():  # (exit 2: run refused what check accepted)
            problems.append(f"{name}: exit {done.returncode}: {done.stderr.strip()[-300:]}")
            continue
        r = json.loads((out / "results.json").read_text())
        if not r["check"]["ok"]:
            problems.append(f"{name}: census: {r['check']['problems'][:3]}")
        if r["verdict"] not in ("ok", "saturated"):
            problems.append(f"{name}: verdict {r['verdict']}: {r.get('verdict_reason')}")
        results[name] = without_machine_fields(r)
    if len(results) == 3:
        for name in ("more threads", "no clock jumps"):
            if results[name] != results["one thread"]:
                problems.append(f"{name}: results differ from one thread's")
    return problems, commands


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=10, help="configurations (10)")
    parser.add_argument("--seed", type=int, default=1, help="of the draws (1); each run's sim.seed is drawn too")
    parser.add_argument("--jobs", type=int, default=2, help="configurations at once (2)")
    parser.add_argument("--out", type=Path, default=ROOT / "out" / "soak", help="folder of soak.json (out/soak)")
    parser.add_argument("--icnsim", type=Path, default=ICNSIM, help="the simulator (build/icnsim)")
    args = parser.parse_args()
    globals()["ICNSIM"] = args.icnsim.resolve()
    r = random.Random(args.seed)
    configs, refused, disagreements = [], [], []
    draws = [(scenario, sets, 0) for scenario, sets in BROKEN]
    with tempfile.TemporaryDirectory() as tmp:
        while len(configs) < args.count and len(refused) < 10 * args.count + len(BROKEN):
            family = FAMILIES[len(configs) % len(FAMILIES)]
            scenario, sets, seed = draws.pop(0) if draws else (*family(r), r.randint(1, 10**6))
            _, done = icnsim(["check", scenario] + [a for s in sets for a in ("--set", s)])
            if done.returncode != 0:  # run must refuse it too, before the first cycle
                cmd, ran = icnsim(["run", scenario] + [a for s in sets for a in ("--set", s)], Path(tmp) / "refused")
                refused.append(done.stderr.strip())
                if ran.returncode != 2:
                    disagreements.append(f"check refused, run exited {ran.returncode}: {' '.join(cmd)}")
            elif seed == 0:
                disagreements.append(f"check accepted a draw that breaks a rule: {scenario} {sets}")
            else:
                configs.append((family.__name__, scenario, sets, seed))
    if len(configs) < args.count:
        disagreements.append(f"only {len(configs)} of {args.count} draws were accepted (see refused_draws)")
    start, failed, records = time.monotonic(), 0, []
    with tempfile.TemporaryDirectory() as tmp, ThreadPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(soak_one, i, scenario, sets, seed, Path(tmp))
                   for i, (_, scenario, sets, seed) in enumerate(configs)]
        for i, future in enumerate(futures):
            problems, commands = future.result()
            family, scenario, sets, seed = configs[i]
            records.append({"family": family, "scenario": scenario, "seed": seed, "sets": sets,
                            "problems": problems, "commands": commands})
            failed += bool(problems)
            print(f"[soak] {i + 1}/{len(configs)} {family}: {'FAILED' if problems else 'ok'}", file=sys.stderr)
            for p in problems:
                print(f"  {p}\n  {commands[0]}", file=sys.stderr)
    for d in disagreements:
        print(f"[soak] {d}", file=sys.stderr)
    failed += len(disagreements)
    args.out.mkdir(parents=True, exist_ok=True)
    summary = {"count": len(configs), "failed": failed, "refused_draws": refused, "seed": args.seed,
               "wall_s": round(time.monotonic() - start, 1), "configurations": records}
    (args.out / "soak.json").write_text(json.dumps(summary, indent=1) + "\n")
    print(f"soak: {len(configs) - failed} of {len(configs)} configurations passed; {len(BROKEN)} that break rules "
          f"and {len(refused) - len(BROKEN)} random draws refused by check and run alike; {len(disagreements)} "
          f"disagreements; {summary['wall_s']} s; {args.out / 'soak.json'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
