#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks that docs/results.md's results.json table lists every field icnsim writes, and nothing else.

Fields come from the golden results (tb/golden/*.json: every mechanism, topology and workload) and
from runs made here for what the golden results strip or never reach: provenance, wall time, a
trace, a starved run's stalled packet (one of a workload's message); and LIBRARY_ONLY, which icnsim never writes.
Usage: check_results_doc.py ICNSIM. Exit 1 with the fields missing on either side.
"""
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

RUNS = [
    # (bundled scenario, extra arguments, allowed exit codes)
    ("default", ["--set", "sim.measure_cycles=2000", "--trace", "{tmp}/t.fst", "--trace-window", "100:200"], {0}),
    ("default", ["--set", "topology.kind=mesh", "--set", "topology.dims=[4,4]", "--set", "eee.mode=off",
                 "--set", "traffic.load=0.9", "--set", "sim.starvation_limit_cycles=3000"], {4}),
    # a workload's packet stopped by the watchdog: its message
    ("perfbound_megafly", ["--set", "workload.kind=silent_bursts", "--set", "router.vc_buffer_flits=1",
                           "--set", "sim.starvation_limit_cycles=5000"], {4}),
]

# Written only when a program of one's own attaches traffic (run/nic_ports.h: examples/systemc_traffic).
LIBRARY_ONLY = {"external_traffic.packets", "external_traffic.written", "external_traffic.in_network",
                "external_traffic.waiting_to_enter", "external_traffic.not_read"}

# Names chosen by the run, not by the code: one table row stands for all of them.
GENERIC_ROWS = [(re.compile(r"^params\..*"), "params.<key>"),
                (re.compile(r"^energy\.groups\.[^.]+\.(components|powered_mean|powered_relative)$"),
                 r"energy.groups.<group>.\1"),
                (re.compile(r"^energy\.groups\.[^.]+\.state_cycles\.[^.]+$"),
                 "energy.groups.<group>.state_cycles.<state>"),
                (re.compile(r"^energy\.controllers\.[^.]+\.(\w+)$"), r"energy.controllers.<model>.\1")]


def fields(tree, prefix=""):
    """Dotted names of the leaves (lists are leaves)."""
    if not isinstance(tree, dict):
        return {prefix}
    names = set()
    for key, value in tree.items():
        names |= fields(value, prefix + "." + key if prefix else key)
    return names


def generalised(name):
    for pattern, row in GENERIC_ROWS:
        if pattern.match(name):
            return pattern.sub(row, name)
    return name


def documented(readme):
    """Field names of the table under '## results.json'; `.x` after `a.b` in a cell means `a.x`."""
    section = readme.split("## results.json", 1)[1].split("\n#", 1)[0]
    names = set()
    for line in section.splitlines():
        if not line.startswith("| `"):
            continue
        last = ""
        for token in re.findall(r"`([^`]+)`", line.split("|")[1]):
            name = last.rsplit(".", 1)[0] + token if token.startswith(".") else token
            names.add(name)
            last = name
    return names


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: check_results_doc.py ICNSIM")
    icnsim = os.path.abspath(sys.argv[1])
    os.chdir(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    written = set()
    for path in glob.glob("tb/golden/*.json"):
        with open(path) as f:
            written |= fields(json.load(f))
    with tempfile.TemporaryDirectory() as tmp:
        for i, (scenario, extra, codes) in enumerate(RUNS):
            out = f"{tmp}/run{i}"
            args = [icnsim, "run", scenario, "--quiet", "--out", out] + [a.format(tmp=tmp) for a in extra]
            code = subprocess.run(args).returncode
            if code not in codes:
                sys.exit(f"{' '.join(args)}: exit {code}, expected {sorted(codes)}")
            with open(f"{out}/results.json") as f:
                written |= fields(json.load(f))
    written = {generalised(n) for n in written} | LIBRARY_ONLY
    with open("docs/results.md") as f:
        table = documented(f.read())
    undocumented = sorted(written - table)
    never_written = sorted(table - written)
    for name in undocumented:
        print(f"written but not in docs/results.md's results.json table: {name}")
    for name in never_written:
        print(f"in docs/results.md's results.json table but no run writes it: {name}")
    if undocumented or never_written:
        sys.exit(1)
    print(f"{len(table)} results.json fields documented, each written by a run")


if __name__ == "__main__":
    main()
