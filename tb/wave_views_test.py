#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""CTest: scripts/wave_views.py names every encoded trace of every view, with values from the RTL,
shows signed signals as signed decimals, and refuses a view that names a signal the RTL does not
declare."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Encoded traces every view must show by name: the line's signal name -> its filter.
ENCODED = {"power_o": "power_e", "hs_state_o": "hs_state_e", "ctl_tx_o": "ctl_msg_e", "ctl_rx_i": "ctl_msg_e",
           "state_q": None, "decision_o": "decision_e", "link_state_p": "seq_state_e"}


def generate(views, out):
    return subprocess.run([sys.executable, f"{ROOT}/scripts/wave_views.py", "--rtl", f"{ROOT}/rtl", "--views", views,
                           "--out", out], capture_output=True, text=True)


def main():
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        run = generate(f"{ROOT}/waves", f"{tmp}/out")
        if run.returncode != 0:
            sys.exit(run.stderr)
        filters = {}
        for name in os.listdir(f"{tmp}/out/filters"):
            with open(f"{tmp}/out/filters/{name}") as f:
                filters[name[:-6]] = dict(line.split() for line in f if not line.startswith("#"))
        # Values straight from the RTL (spot checks of each kind of declaration).
        if filters["power_e"] != {"0": "PowerWake", "1": "PowerTransition", "2": "PowerFastLpi", "3": "PowerDeepLpi"}:
            problems.append(f"power_e filter: {filters['power_e']}")
        if filters["ctl_msg_e"].get("4") != "MsgRefuse" or filters["seq_state_e"].get("2") != "StOff":
            problems.append("ctl_msg_e / seq_state_e filters do not match the RTL")
        for view in sorted(v for v in os.listdir(f"{tmp}/out") if v.endswith(".gtkw")):
            with open(f"{tmp}/out/{view}") as f:
                lines = f.read().splitlines()
            for i, line in enumerate(lines):
                name = re.sub(r"\[\d+:\d+\]$", "", line.split("}")[0].lstrip("#{")).split(".")[-1]
                key = next((k for k in ENCODED if name == k or name.startswith(k) and k.endswith("_p")), None)
                if key is None or line.startswith(("[", "@", "-", "^")):
                    continue
                if not lines[i - 1].startswith("^") or not int(lines[i - 2][1:], 16) & 0x2000:
                    problems.append(f"{view}: {line} has no translate filter")
                elif ENCODED[key] and not lines[i - 1].endswith(f"/{ENCODED[key]}.gtkwf"):
                    problems.append(f"{view}: {line} filtered by {lines[i - 1]}")
        # A signed register (the torus criterion's M) shows as a signed decimal, an unsigned one does not.
        with open(f"{tmp}/out/torus_swap.gtkw") as f:
            torus = f.read().splitlines()
        for signal, signed in (("criterion.m_q[", True), ("criterion.threshold_q[", False)):
            at = next((i for i, line in enumerate(torus) if signal in line and not line.startswith("#")), None)
            flags = next((int(line[1:], 16) for line in reversed(torus[:at]) if line.startswith("@")), 0) if at else 0
            if at is None or bool(flags & 0x400) != signed or signed and not flags & 0x4:
                problems.append(f"torus_swap.gtkw: {signal} shown with flags {flags:x}, signed expected: {signed}")
        # A view naming a signal the RTL lacks must fail, naming it.
        os.makedirs(f"{tmp}/stale")
        shutil.copy(f"{ROOT}/waves/eee_port.gtkw", f"{tmp}/stale/eee_port.gtkw")
        with open(f"{tmp}/stale/eee_port.gtkw", "a") as f:
            f.write("nic0.icnsim.eee_port.u_seq.no_such_q[1:0]\n")
        run = generate(f"{tmp}/stale", f"{tmp}/stale_out")
        if run.returncode == 0 or "no_such_q" not in run.stderr:
            problems.append(f"a stale view passed: {run.returncode} {run.stderr}")
    for p in problems:
        print(p)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
