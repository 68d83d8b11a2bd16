#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""CTest: scripts/cost.py's gate equivalents and logic depth equal the hand count on small modules,
its latch check refuses a latch, its options refuse what they cannot do, and its assumptions are
the simulator's defaults.
Usage: cost_test.py ICNSIM"""
import importlib.util
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))  # (cost.py imports rtl_models)
spec = importlib.util.spec_from_file_location("cost", ROOT / "scripts" / "cost.py")
cost = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cost)
import rtl_models  # noqa: E402 (after the path above)
N = 8

# name -> (RTL, hand count of GE, hand count of depth). A flip-flop is cost.FLIP_FLOP_GE; ABC's
# NAND mapping writes AND2 as NAND2 + NOT (2 GE, 2 levels) and XOR2 as
# NAND(NAND(a, !b), NAND(!a, b)) (3 NAND2 + 2 NOT = 5 GE, 3 levels).
HAND = {
    "hand_register": ("logic [N-1:0] q_q;\n  always_ff @(posedge clk_i) q_q <= a_i;\n  assign y_o = q_q;",
                      N * cost.FLIP_FLOP_GE, 0),
    "hand_xor": ("logic [N-1:0] q_q;\n  always_ff @(posedge clk_i) q_q <= a_i ^ b_i;\n  assign y_o = q_q;",
                 N * (cost.FLIP_FLOP_GE + 5), 3),
    # An N-input AND as a balanced tree of N - 1 AND2, log2(N) deep, into one flip-flop.
    "hand_and_tree": ("logic q_q;\n  always_ff @(posedge clk_i) q_q <= &a_i;\n  assign y_o = {N{q_q}};",
                      (N - 1) * 2 + cost.FLIP_FLOP_GE, 2 * (N.bit_length() - 1)),
}


def module(name, body):
    return (f"module {name} #(parameter int N = 4) (input logic clk_i, input logic [N-1:0] a_i, b_i,\n"
            f"  output logic [N-1:0] y_o);\n  {body}\nendmodule\n")


def main(icnsim):
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        files = {}
        for name, (body, _, _) in HAND.items():
            files[name] = Path(tmp) / f"{name}.sv"
            files[name].write_text(module(name, body))
        for name, (_, ge, depth) in HAND.items():
            row = {"controller": name, "top": name, "params": {"N": N}, "scenarios": [], "storage_formula": ""}
            result, error = cost.cost_of(row, files, cost.GATE_DELAY_PS)
            if result is None:
                problems.append(f"{name}: {error}")
                continue
            if (result["ge"], result["logic_depth"]) != (ge, depth):
                problems.append(f"{name}: {result['ge']} GE, depth {result['logic_depth']}; by hand {ge} GE, "
                                f"depth {depth}")
        # Only documented non-logic cells may be left beside the mapping's.
        if cost.unmapped({"$_NAND_": 3, "$_DFF_P_": 1, "$scopeinfo": 2}) or cost.unmapped({"$_XOR_": 1}) != ["$_XOR_"]:
            problems.append("the NAND mapping's leftover rule: $scopeinfo must pass, $_XOR_ must not")
        # The check (scripts/cost.sh --check) refuses a latch.
        files["hand_latch"] = Path(tmp) / "hand_latch.sv"
        files["hand_latch"].write_text(module("hand_latch", "always_comb if (b_i[0]) y_o = a_i;"))
        row = {"controller": "hand_latch", "top": "hand_latch", "params": {}, "scenarios": [], "storage_formula": ""}
        if cost.check_of(row, files)[0] is not None:
            problems.append("hand_latch: a latch passed the check")
        # --only and --out: one row into a folder of its own; unknown names are refused.
        run = subprocess.run([sys.executable, ROOT / "scripts" / "cost.py", "--only", "eee_port", "--out", tmp],
                             capture_output=True, text=True)
        version = subprocess.run(["yosys", "-V"], capture_output=True, text=True).stdout
        report = Path(tmp) / cost.report_name(version)  # (cost.json from the reference Yosys only)
        written = json.loads(report.read_text()) if run.returncode == 0 else {"controllers": []}
        if [r["controller"] for r in written["controllers"]] != ["eee_port"] or not (Path(tmp) / "cost.md").exists():
            problems.append(f"--only eee_port --out: {run.returncode} {run.stderr[-300:]}")
        # The committed rows of this Yosys version are what it makes, exactly (cost/cost.json for
        # 0.23, cost/cost.yosys-<X.Y>.json for the others; the versions differ, docs/hardware-cost.md says how).
        committed = ROOT / "cost" / cost.report_name(version)
        if committed.exists() and written["controllers"]:
            row = next(r for r in json.loads(committed.read_text())["controllers"] if r["controller"] == "eee_port")
            for key in ("cells", "flip_flops", "memory_bits", "ge", "logic_depth", "cmos_transistors", "ice40_lut4"):
                if written["controllers"][0][key] != row[key]:
                    problems.append(f"eee_port {key}: {written['controllers'][0][key]}, {committed.name} has {row[key]}")
        elif not committed.exists():
            print(f"cost_test: no committed rows for {version.strip()} to compare with", file=sys.stderr)
        bad = subprocess.run([sys.executable, ROOT / "scripts" / "cost.py", "--only", "no_such", "--out", tmp],
                             capture_output=True, text=True)
        if bad.returncode == 0 or "no_such" not in bad.stderr:
            problems.append(f"--only no_such: exit {bad.returncode}, {bad.stderr.strip()}")
    # Every committed row was made from today's RTL: a change to a controller's RTL costs it again in
    # the same commit (scripts/cost.sh --only NAME, and its Yosys 0.52 row: docs/hardware-cost.md).
    files = rtl_models.module_files()
    today = {r["controller"]: rtl_models.digest(r["top"], r["params"], files) for r in rtl_models.models()}
    for report in sorted((ROOT / "cost").glob("cost*.json")):
        rows = {r["controller"]: r for r in json.loads(report.read_text())["controllers"]}
        stale = [name for name, digest in today.items() if rows.get(name, {}).get("rtl_sha256") != digest]
        if stale:
            problems.append(f"{report.name}: no row made from today's RTL for {', '.join(stale)}; run "
                            f"scripts/cost.sh --only NAME")
    # The simulator's clock check and energy use the same assumptions as the report.
    keys = subprocess.run([icnsim, "keys"], capture_output=True, text=True, check=True).stdout
    delay = re.search(r"process\.gate_delay_ps\D*?([0-9.]+)", keys)
    if not delay or float(delay.group(1)) != cost.GATE_DELAY_PS:
        problems.append(f"process.gate_delay_ps default {delay and delay.group(1)} != cost.py {cost.GATE_DELAY_PS}")
    for p in problems:
        print("cost_test: " + p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
