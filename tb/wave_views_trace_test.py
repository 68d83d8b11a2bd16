#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""CTest: every signal a view of waves/ names is in a waveform of the scenario it is made for: a
short traced run of each, its FST read with fst2vcd. (wave_views_test.py checks the names against
the RTL; this checks the paths, which the simulator's top of each model decides: a model's ports
at <instance>.<port>, the controller inside at <instance>.icnsim.<top>.)
Usage: wave_views_trace_test.py ICNSIM"""
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
from vcd import declarations, fst_to_vcd_lines  # noqa: E402
SHORT = ["--set", "sim.warmup_cycles=0", "--set", "sim.measure_cycles=30"]
# view -> the run that traces what it shows (the view's own command, shortened)
RUNS = {
    "eee_port": ["default", "--trace-match", "nic0,r32_p0", *SHORT],
    "erapid_lc": ["erapid_p_b", "--trace-match", "b0,b7", *SHORT],
    "erapid_rc": ["erapid_p_b", "--trace-match", "b0,b7", *SHORT],
    "fattree_onoff": ["fattree_onoff_ramp", "--trace-match", "s32,s17", *SHORT],
    "perfbound": ["perfbound_megafly", "--trace-match", "nic0,r0_p0", "--set", "workload.max_cycles=30"],
    "photonic_ctrl": ["photonic_torus", "--set", "topology.dims=[12,4]", "--set", "photonic.channels=1",
                      "--set", "photonic.buffer.layout=every_2", "--set", "workload.mtu_bytes=524288",
                      "--set", "workload.kind=trace", "--set", "workload.trace=waves/photonic_segment.trace",
                      "--trace-match", "sw1,sw2,sw3,sw4,sw5", "--trace-window", "0:30"],
    "torus_swap": ["torus_swap_livermore", "--set", "torus_swap.variant=fixed", "--trace-match", "ring0",
                   "--set", "workload.livermore.k21_extent=5",
                   "--set", "workload.max_cycles=30"],
}


def traced_names(fst):
    """Every signal of the waveform as scope.path.name."""
    return {".".join(scopes + [name]) for scopes, _, _, name in declarations(fst_to_vcd_lines(fst))}


def view_signals(view):
    """The signals a view names (the members of a group of bits too), without their bit ranges."""
    signals = []
    for line in view.read_text().splitlines():
        if not line or line[0] in "[*@-^":
            continue
        members = line.split("}", 1)[1].split() if line.startswith("#{") else [line]
        signals += [re.sub(r"^\(\d+\)|\[\d+:\d+\]$", "", m) for m in members]
    return signals


def main(icnsim):
    problems = []
    views = sorted((ROOT / "waves").glob("*.gtkw"))
    if sorted(v.stem for v in views) != sorted(RUNS):
        problems.append(f"views {[v.stem for v in views]} but runs for {sorted(RUNS)}")
    with tempfile.TemporaryDirectory() as tmp:
        for view in views:
            if view.stem not in RUNS:
                continue
            fst = Path(tmp) / f"{view.stem}.fst"
            run = subprocess.run([icnsim, "run", *RUNS[view.stem], "--quiet", "--out", Path(tmp) / view.stem,
                                  "--trace", fst], cwd=ROOT, capture_output=True, text=True)
            if run.returncode not in (0, 4) or not fst.exists():  # (a shortened workload may end unfinished)
                problems.append(f"{view.name}: the run failed: {run.stderr.strip()[-300:]}")
                continue
            names = traced_names(fst)
            missing = [s for s in view_signals(view) if s not in names]
            if missing:
                problems.append(f"{view.name}: not in the waveform: {', '.join(missing[:5])}")
            elif not view_signals(view):
                problems.append(f"{view.name}: names no signal")
    for p in problems:
        print("wave_views_trace_test: " + p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
