#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""CTest: scripts/sim_models.py refuses a controller its one-eval edge would not clock exactly (a
flip-flop on another edge, a latch, clk_i used as data, no rst_ni), one that fails Yosys's netlist
check (a combinational loop, two drivers) or whose registers it could not all count, each with a
message naming the cause, and counts every bit of an array that is only partly a register.
Usage: sim_models_test.py"""
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PORTS = "input logic clk_i, input logic rst_ni, input logic [5:0] a_i, output logic [5:0] y_o"
# name -> (body, what the refusal must say; None: accepted)
CASES = {
    "on_negedge": ("always_ff @(negedge clk_i) y_o <= a_i;", "other than clk_i's rising edge"),
    "latch": ("logic [5:0] q_q;\n  always_ff @(posedge clk_i) q_q <= a_i;\n  always_latch if (a_i[0]) y_o = q_q;",
              "a latch"),
    "clock_as_data": ("logic [5:0] q_q;\n  always_ff @(posedge clk_i) q_q <= a_i;\n  assign y_o = q_q & {6{clk_i}};",
                      "clk_i used as data"),
    "no_flip_flop": ("assign y_o = a_i;", "has no flip-flop"),
    "comb_loop": ("logic [5:0] q_q, w;\n  always_ff @(posedge clk_i) q_q <= a_i;\n  assign w = q_q ^ {w[4:0], w[5]};\n"
                  "  assign y_o = w;", "netlist check"),
    "two_drivers": ("logic [5:0] q_q;\n  always_ff @(posedge clk_i) q_q <= a_i;\n  assign y_o = q_q;\n  assign y_o = a_i;",
                    "netlist check"),
    # arr_q[3] is only half a register: the array stays flip-flops, all 3 x 6 + 3 bits of them.
    "part_array": ("logic [5:0] arr_q [4];\n  always_ff @(posedge clk_i) begin\n    arr_q[0] <= a_i;\n"
                   "    arr_q[1] <= arr_q[0];\n    arr_q[2] <= arr_q[1];\n    arr_q[3][2:0] <= arr_q[2][2:0];\n  end\n"
                   "  assign y_o = {3'b0, arr_q[3][2:0]};", None),
}


def main():
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        rtl, out = Path(tmp) / "rtl", Path(tmp) / "out"
        rtl.mkdir()
        for name, (body, _) in CASES.items():
            (rtl / f"{name}.sv").write_text(f"module {name} ({PORTS});\n  {body}\nendmodule\n")
        (rtl / "no_reset.sv").write_text("module no_reset (input logic clk_i, input logic a_i, output logic y_o);\n"
                                         "  always_ff @(posedge clk_i) y_o <= a_i;\nendmodule\n")
        cases = {**CASES, "no_reset": (None, "has no rst_ni")}
        for name, (_, refusal) in cases.items():
            run = subprocess.run([sys.executable, ROOT / "scripts" / "sim_models.py", "--out", out, "--rtl", rtl,
                                  f"V{name}={name}"], capture_output=True, text=True)
            if refusal is None:
                info = (out / f"V{name}_info.h").read_text() if run.returncode == 0 else run.stderr
                if "kRegisterBits = 21;" not in info:
                    problems.append(f"{name}: expected 21 register bits: {info.strip()[-300:]}")
            elif run.returncode == 0 or refusal not in run.stderr or name not in run.stderr:
                problems.append(f"{name}: expected a refusal naming '{refusal}', got exit {run.returncode}: "
                                f"{run.stderr.strip()[-300:]}")
        bad = subprocess.run([sys.executable, ROOT / "scripts" / "sim_models.py", "--out", out,
                              "Vx=no_such_module"], capture_output=True, text=True)
        if bad.returncode == 0 or "no_such_module" not in bad.stderr:
            problems.append(f"an unknown top: exit {bad.returncode}: {bad.stderr.strip()}")
    for p in problems:
        print("sim_models_test: " + p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
