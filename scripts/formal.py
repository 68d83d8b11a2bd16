#!/usr/bin/env python3
"""Formal proofs of the controllers' safety properties: each property is an assertion in the
controller's RTL (its `ifdef FORMAL` block, the subset Yosys's read_verilog -formal accepts, with
the straps and the harness's contract as assumptions), proved for every input sequence by
k-induction with yosys-smtbmc and z3 on the small parameterisation listed below.

The proof runs on the controller mapped to AND gates (z3 answers in seconds there; on Yosys's
word-level netlist it can take minutes). The gate netlist keeps registers and ports but not the
names of the logic between them, so when a property fails the word-level netlist runs the failing
check again to write a counterexample waveform with every signal (OUT/NAME/counterexample.vcd,
for GTKWave).

  scripts/formal.py [--out DIR] [NAME ...]   prove (all by default); exit 1 if one fails
  scripts/formal.py --mutant NAME            prove NAME on its RTL with a planted bug: exit 0 only
                                             if the base case fails (a trace from reset) and
                                             leaves its counterexample
  scripts/formal.py --list | --markdown      the proofs, as names or as the docs' table"""
import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Proof:
    name: str
    top: str
    files: list  # RTL files, sub-modules first
    params: dict
    depth: int  # k of the induction
    reach: int  # steps from reset the base case explores (at least k)
    proves: str  # what holds, for the docs
    assumes: str  # what the proof takes from the harness
    mutant: tuple  # (file, text, replacement): a bug the proof must find
    includes: list = field(default_factory=list)


PROOFS = [
    Proof(
        "photonic_reservations", "photonic_switch_ctrl", ["rtl/photonic/photonic_switch_ctrl.sv"],
        {"Ports": 2, "Channels": 3, "SlotWidth": 3}, 3, 8,
        "No output or buffer-in channel is held by two reservations: each busy channel is held by "
        "exactly one converter entry and a free one by none; a configured entry is a reservation; "
        "the buffer holds at most its entries.",
        "straps constant (mode, buffer, entries, channels in use between 1 and the maximum); "
        "requests arbitrary (a contradicting one answers Error)",
        ("rtl/photonic/photonic_switch_ctrl.sv", "if (!pick_busy[c]) pick_ch", "if (1'b1) pick_ch"),
        ["rtl/photonic"]),
    Proof(
        "fattree_minimal_tree", "fattree_switch_ctrl",
        ["rtl/common/link_power_seq.sv", "rtl/common/util_meter.sv", "rtl/fattree/fattree_switch_ctrl.sv"],
        {"Arity": 2, "CountWidth": 4, "TransWidth": 3, "FracBits": 3}, 3, 8,
        "A Minimal-Tree link (every link of its root; every down link and up link K of the switches "
        "below it) is never switched off: it stays wanted, powered and able to send.",
        "straps constant (place in the tree, connections, thresholds, transition times); traffic, "
        "check pulses and the time base arbitrary",
        ("rtl/fattree/fattree_switch_ctrl.sv", "for (int p = Arity + 1; p < Ports; p++) begin",
         "for (int p = Arity; p < Ports; p++) begin"),
        ["rtl/common"]),
    Proof(
        "erapid_wavelength_grant", "erapid_rc", ["rtl/erapid/erapid_rc.sv"],
        {"Boards": 4, "TimeWidth": 4, "QueueWidth": 2}, 3, 8,
        "A wavelength passes to a source only from free and only when no board reported its laser "
        "lit in the window just measured, so one wavelength is never granted to two sources at "
        "once; no source holds more than N wavelengths toward a board.",
        "straps constant (board, window, DBR/DPM, N between 1 and B, thresholds); chain and ring "
        "words arbitrary",
        ("rtl/erapid/erapid_rc.sv", "end else if (alloc_owner == '0 && !lit_anywhere_q[alloc_x_q]) begin",
         "end else if (alloc_owner == '0) begin"),
        ["rtl/erapid"]),
]


def yosys_script(proof, rtl, smt2, gates):
    includes = " ".join(f"-I{rtl / d}" for d in proof.includes)
    files = " ".join(str(rtl / f) for f in proof.files)
    params = " ".join(f"-set {k} {v}" for k, v in proof.params.items())
    lines = [f"read_verilog -formal -DSYNTHESIS -sv {includes} {files}",  # SYNTHESIS: simulation checks out
             f"chparam {params} {proof.top}", f"prep -flatten -top {proof.top}", "async2sync", "dffunmap"]
    if gates:
        lines += ["techmap", "opt -fast", "abc -g AND", "opt_clean", "dffunmap"]
    return "\n".join(lines + [f"write_smt2 -wires {smt2}"]) + "\n"


def netlist(proof, rtl, out, gates):
    smt2 = out / ("proof.smt2" if gates else "word.smt2")
    script = out / ("proof.ys" if gates else "word.ys")
    script.write_text(yosys_script(proof, rtl, smt2, gates))
    run = subprocess.run(["yosys", "-q", "-s", str(script)], capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"formal: {proof.name}: yosys failed:\n{run.stdout}{run.stderr}")
    return smt2


def smtbmc(smt2, depth, induction, extra=()):
    args = ["yosys-smtbmc", "-s", "z3", *extra, "-t", str(depth)] + (["-i"] if induction else []) + [str(smt2)]
    run = subprocess.run(args, capture_output=True, text=True)
    failed = re.findall(r"Assert failed in \S+: (\S+)", run.stdout)
    ok = run.returncode == 0 and "Status: PASSED" in run.stdout
    if not ok and not failed:
        sys.exit(f"formal: yosys-smtbmc gave no answer:\n{run.stdout[-2000:]}{run.stderr[-2000:]}")
    step = re.findall(r"(?:Checking assertions|Trying induction) in step (\d+)", run.stdout)
    return ok, failed, int(step[-1]) if step else 0


def prove(proof, rtl, out):
    """Base case, then induction; on a failure the word-level counterexample. Returns a record."""
    out.mkdir(parents=True, exist_ok=True)
    for stale in out.glob("*.vcd"):
        stale.unlink()
    start = time.monotonic()
    gates = netlist(proof, rtl, out, gates=True)
    record = {"proof": proof.name, "top": proof.top, "parameters": proof.params, "k": proof.depth,
              "base_case_steps": proof.reach}
    for check, induction in (("base case", False), ("induction", True)):
        ok, failed, step = smtbmc(gates, proof.depth if induction else proof.reach, induction)
        if not ok:
            vcd = out / "counterexample.vcd"
            word = netlist(proof, rtl, out, gates=False)
            depth = proof.depth if induction else step + 1
            smtbmc(word, depth, induction, ["--unroll", "--dump-vcd", str(vcd)])
            record.update(result="failed", check=check, assertions=failed,
                          counterexample=str(vcd) if vcd.exists() else None)
            break
    else:
        record["result"] = "proved"
    record["seconds"] = round(time.monotonic() - start, 1)
    return record


def tool_versions():
    yosys = subprocess.run(["yosys", "-V"], capture_output=True, text=True).stdout.strip()
    z3 = subprocess.run(["z3", "--version"], capture_output=True, text=True).stdout.strip()
    return {"yosys": yosys, "z3": z3}


def markdown():
    rows = ["| proof | controller | parameters | k | what holds | assumed |", "|---|---|---|---|---|---|"]
    for p in PROOFS:
        params = ", ".join(f"{k} = {v}" for k, v in p.params.items())
        rows.append(f"| `{p.name}` | `{p.top}` | {params} | {p.depth} | {p.proves} | {p.assumes} |")
    return "\n".join(rows)


def mutant(proof, out):
    """The proof on a copy of the RTL with its planted bug must fail and leave a waveform."""
    with tempfile.TemporaryDirectory() as tmp:
        rtl = Path(tmp)
        shutil.copytree(ROOT / "rtl", rtl / "rtl")
        file, text, replacement = proof.mutant
        source = (rtl / file).read_text()
        if text not in source:
            sys.exit(f"formal: {proof.name}: the mutant's text is no longer in {file}")
        (rtl / file).write_text(source.replace(text, replacement, 1))
        record = prove(proof, rtl, out)
    vcd = record.get("counterexample")
    print(f"formal: {proof.name} with '{replacement}' in {file}: {record['result']}"
          + (f" ({record['check']}; counterexample {vcd})" if vcd else ""))
    # A trace from reset (the base case), not only a state the induction cannot rule out.
    return record.get("check") == "base case" and vcd is not None and Path(vcd).stat().st_size > 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("names", nargs="*", help="proofs to run (default: all)")
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "formal", help="netlists, records, waveforms")
    parser.add_argument("--mutant", metavar="NAME", help="check that NAME's proof finds its planted bug")
    parser.add_argument("--list", action="store_true")
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    by_name = {p.name: p for p in PROOFS}
    if args.list or args.markdown:
        print("\n".join(by_name) if args.list else markdown())
        return 0
    for name in args.names + ([args.mutant] if args.mutant else []):
        if name not in by_name:
            print(f"formal: no proof '{name}'; allowed: {', '.join(by_name)}", file=sys.stderr)
            return 2
    if args.mutant:
        return 0 if mutant(by_name[args.mutant], args.out / f"{args.mutant}.mutant") else 1
    records = []
    for proof in [by_name[n] for n in args.names] or PROOFS:
        record = prove(proof, ROOT, args.out / proof.name)
        records.append(record)
        line = f"formal: {proof.name}: {record['result']} in {record['seconds']} s"
        if record["result"] != "proved":
            line += f" ({record['check']}: {', '.join(record['assertions'])}; counterexample {record['counterexample']})"
        print(line, file=sys.stderr)
        (args.out / proof.name / "result.json").write_text(json.dumps({**record, **tool_versions()}, indent=1) + "\n")
    return 0 if all(r["result"] == "proved" for r in records) else 1


if __name__ == "__main__":
    sys.exit(main())
