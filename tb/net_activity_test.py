#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""CTest: scripts/net_activity.py on a traced photonic run (one request per switch per cycle, so
every edge shows in the waveform) counts exactly the register toggles the run's adapters counted
(results.json energy.controllers), and more net toggles than register toggles.
Usage: net_activity_test.py ICNSIM"""
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main(icnsim):
    with tempfile.TemporaryDirectory() as tmp:
        run = Path(tmp) / "run"
        subprocess.run([icnsim, "run", "photonic_torus", "--out", run, "--quiet", "--set", "topology.dims=[4,4]",
                        "--set", "workload.messages_per_node=2", "--set", "photonic.requests_per_cycle=1",
                        "--trace", run / "t.fst"], check=True)
        subprocess.run([sys.executable, ROOT / "scripts" / "net_activity.py", run], check=True, capture_output=True)
        counted = json.loads((run / "results.json").read_text())["energy"]["controllers"]["Vphotonic_switch_ctrl5"]
        traced = json.loads((run / "net_activity.json").read_text())
        problems = []
        if len(traced["controllers"]) != counted["models"]:
            problems.append(f"{len(traced['controllers'])} traced scopes, {counted['models']} models")
        if traced["total"]["register_toggles"] != counted["register_toggles"]:
            problems.append(f"register toggles: waveform {traced['total']['register_toggles']}, "
                            f"adapters {counted['register_toggles']}")
        if any(c["register_bits"] != counted["register_bits"] for c in traced["controllers"]):
            problems.append("a scope's register bits differ from the adapters'")
        if not traced["total"]["net_toggles"] > traced["total"]["register_toggles"] > 0:
            problems.append(f"net toggles {traced['total']['net_toggles']} not above register toggles")
    for p in problems:
        print("net_activity_test: " + p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
