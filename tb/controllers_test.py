#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""CTest: scripts/controllers.py takes the examples' manifests (a link end, a switch, a node) and
refuses broken ones with exit 2 and a message naming the field: each case below breaks one rule in a
copy of an example.
Usage: controllers_test.py"""
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ("sleepy_link", "drowsy_switch", "paced_node")
# (what is broken, file, text replaced, replacement, what the message must say), in sleepy_link
CASES = [
    ("an unknown field", "controller.yaml", "link_wide: false", "link_wide: false\nlinkwide: true",
     "unknown field linkwide"),
    ("a name already taken", "controller.yaml", "name: sleepy_link ", "name: eee ", "name"),
    ("an unknown contract", "controller.yaml", "contract: link_end", "contract: router", "contract"),
    ("a default outside its range", "controller.yaml", "default: 500,", "default: -1,", "keys[0]"),
    ("a power state without a watts key", "controller.yaml", "watts: asleep_w", "watts: sleeping_w",
     "power_states[2]"),
    ("a strap no port takes", "controller.yaml", "strap: wake_cycles_i", "strap: wake_i", "strap wake_i"),
    ("an input neither the contract's nor a key's", "controller.yaml", ", strap: wake_cycles_i", "",
     "input wake_cycles_i"),
    ("a contract port of the wrong width", "sleepy_link.sv", "input  logic [15:0] tx_queue_i",
     "input  logic [7:0] tx_queue_i", "needs input tx_queue_i of 16 bit(s)"),
    ("no deadline", "sleepy_link.sv", "deadline_valid_o", "deadline_ok_o", "needs output deadline_valid_o"),
    ("a help of two lines", "controller.yaml", 'help: "time from asleep to awake"',
     'help: "time from asleep\\nto awake"', "keys[1]: help"),
    ("a key twice", "controller.yaml", "name: wake_ns", "name: idle_ns", "keys[1]"),
    ("a key strapping what the harness drives", "controller.yaml", "strap: wake_cycles_i", "strap: latency_i",
     "the harness drives it"),
    ("a count the harness reports", "controller.yaml", "wake_requests: 2", "sleeps: 2", "counted_messages"),
    ("a name of a results.json section", "controller.yaml", "name: sleepy_link ", "name: energy ", "name"),
    ("an asleep awake state", "controller.yaml", "{name: awake, watts: awake_w}",
     "{name: awake, watts: awake_w, asleep: true}", "power_states[0]"),
    ("a view that is not there", "controller.yaml", "view: sleepy_link.gtkw", "view: other.gtkw", "view"),
]
# The same, in drowsy_switch: the switch and node contracts.
SWITCH_CASES = [
    ("a link end's field on a switch", "controller.yaml", "contract: switch ", "link_wide: true\ncontract: switch ",
     "link_wide"),
    ("a node of 8 ports", "controller.yaml", "contract: switch ", "contract: node ", "a node controller has one port"),
    ("a port mask of another width", "drowsy_switch.sv", "[Ports-1:0]    ports_i", "[Ports:0]      ports_i",
     "ports_i is 8 bit(s) wide"),
    ("the link end's messages", "drowsy_switch.sv", "input  logic [Ports-1:0]    rx_busy_i,",
     "input  logic [Ports-1:0]    rx_busy_i,\n  input  logic [2:0] ctl_rx_i,", "input ctl_rx_i"),
]


def run(folder, out):
    return subprocess.run([sys.executable, ROOT / "scripts" / "controllers.py", "--out", out, folder],
                          capture_output=True, text=True)


def main():
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        for example in EXAMPLES:
            good = run(ROOT / "examples" / example, Path(tmp) / example)
            registration = Path(tmp) / example / f"{example}_registration.cpp"
            if good.returncode != 0 or f"V{example}" not in registration.read_text():
                problems.append(f"examples/{example} was refused: {good.stderr.strip()}")
        cases = [("sleepy_link", *c) for c in CASES] + [("drowsy_switch", *c) for c in SWITCH_CASES]
        for i, (example, what, name, old, new, says) in enumerate(cases):
            folder = Path(tmp) / f"case{i}"
            shutil.copytree(ROOT / "examples" / example, folder)
            text = (folder / name).read_text()
            if old not in text:
                problems.append(f"{what}: the example has no {old!r} to break")
                continue
            (folder / name).write_text(text.replace(old, new))
            result = run(folder, Path(tmp) / f"out{i}")
            if result.returncode != 2 or not re.search(re.escape(says), result.stderr):
                problems.append(f"{what}: exit {result.returncode}, {result.stderr.strip()[-300:]!r} "
                                f"(expected exit 2 naming {says!r})")
    for p in problems:
        print("controllers_test: " + p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
