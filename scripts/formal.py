#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Formal proofs of the controllers' safety properties: each property is an assertion in the
controller's RTL (its `ifdef FORMAL` block, the subset Yosys's read_verilog -formal accepts, with
the straps and the harness's contract as assumptions), proved for every input sequence by
k-induction with yosys-smtbmc and z3 on the small parameterisation listed below. A proof without
induction (k = 0, the E-RAPID system) makes the induction in its FORMAL block, whose runs start from
reset and from each invariant; ABC's bmc3 checks them on the AIGER netlist.

A proof holds only if, besides, the assumptions leave the traces that matter: every cover()
statement of the block is reached from reset (and --presat fails a step whose assumptions
contradict each other). The proof runs on the controller mapped to AND gates (z3 answers in
seconds there; on Yosys's word-level netlist it can take minutes). The gate netlist keeps
registers and ports but not the names of the logic between them, so when a property fails the
word-level netlist searches again for a failure of the same check, and its trace, with every
signal, is the counterexample waveform (OUT/NAME/counterexample.vcd, for GTKWave; result.json
names the assertions it breaks). For a proof without induction the waveform is the gate netlist's
(registers and ports): z3 takes minutes on the E-RAPID system's word-level netlist.

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
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COVER_AS_ASSERT = ROOT / "tb" / "formal" / "cover_as_assert.v"  # (Yosys techmap rule: covers for ABC)


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
    ties: dict = field(default_factory=dict)  # top's inputs held at a constant ("9'd64")
    module_params: dict = field(default_factory=dict)  # {module: {parameter: value}} below the top


PROOFS = [
    Proof(
        "photonic_reservations", "photonic_switch_ctrl", ["rtl/photonic/photonic_switch_ctrl.sv"],
        {"Ports": 2, "Channels": 3, "SlotWidth": 3}, 3, 8,
        "No output or buffer-in channel is held by two reservations: each busy channel is held by "
        "exactly one converter entry and a free one by none; a configured entry is a reservation; "
        "the buffer holds at most its entries, and its count never wraps; the round-robin pointer "
        "names a port.",
        "straps constant (mode, buffer, entries, channels in use between 1 and the maximum); "
        "requests and their fields arbitrary (one that contradicts the table answers Error), "
        "request codes the five defined",
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
        {"Boards": 3, "TimeWidth": 4, "QueueWidth": 2}, 3, 8,
        "One reconfiguration controller passes a wavelength to a source only from free and only "
        "when no board reported its laser lit at the last BoardRequest; no source holds more than "
        "N wavelengths toward its board; every owner is a board.",
        "straps constant (board below B, window, DBR/DPM, N between 1 and B, thresholds); chain "
        "and ring words arbitrary, so whether the boards' reports are true is not part of it",
        ("rtl/erapid/erapid_rc.sv", "end else if (alloc_owner == '0 && !lit_anywhere_q[alloc_x_q]) begin",
         "end else if (alloc_owner == '0) begin"),
        ["rtl/erapid"]),
    Proof(
        "eee_handshake", "eee_link",
        ["rtl/common/link_power_seq.sv", "rtl/eee/eee_pdt_timer.sv", "rtl/eee/eee_port.sv", "rtl/eee/eee_link.sv"],
        {"MaxLatency": 2, "TimerWidth": 3, "TransWidth": 2, "QueueWidth": 1}, 6, 16,
        "The two ends of a link go through the same power states on the same cycles; with eager wake "
        "one end may follow the other, never more than L - 1 cycles behind. A packet queued at an end "
        "whose link is off can send after at most t_w + 3L + 1 cycles (t_w + 2 with eager wake): 3L + 1 "
        "is the handshake when the slave's request is overtaken by the master's, and it is reached.",
        "straps constant and equal at both ends (eager wake, L of 1 or 2, t_s and t_w up to 3), PDT "
        "thresholds any; the time base counts cycles; queues and received flits arbitrary, a flit sent "
        "only when the end is enabled, a queued packet leaves only by being sent",
        ("rtl/eee/eee_port.sv", "if (can_accept) sync_d = latency_i;", "if (can_accept) sync_d = latency_i - 1'b1;"),
        ["rtl/eee"]),
    Proof(
        "torus_swaps", "torus_swap_ring",
        ["tb/formal/torus_swap_criterion_free.sv", "rtl/torus/torus_swap_ctrl.sv", "rtl/torus/torus_swap_ring.sv"],
        {"Nodes": 4, "CountWidth": 2, "TimeWidth": 4}, 3, 10,
        "No two swaps overlap: a node switches places only while its predecessor holds as a and its "
        "successor as c (in a ring of 4 every two swaps share a node, so one swap at a time), and the "
        "order stays one cycle through every node. Each stage of the handshake ties the three nodes' "
        "roles to the words between them and to how long a and b have left before they give up.",
        "the swap criterion replaced by a free wish to swap on every cycle and node "
        "(tb/formal/torus_swap_criterion_free.sv); straps constant (protocol, period, Tr at least 1); "
        "the time base counts cycles; drain status arbitrary",
        ("rtl/torus/torus_swap_ctrl.sv", "end else if (dn_msg == MsgDrain) begin  // the paper's swap: no drain",
         "end else if (1'b1) begin  // the paper's swap: no drain"),
        ["rtl/torus"]),
    # k = 0: no induction step. The design's FORMAL block makes the induction itself: its runs start
    # from every state an invariant allows, at the points of the schedule where nothing is in flight.
    Proof(
        "erapid_across_boards", "erapid_ring",
        ["tb/formal/erapid_link_stats_free.sv", "rtl/erapid/erapid_laser_seq.sv", "rtl/erapid/erapid_lc.sv",
         "rtl/erapid/erapid_rc.sv", "rtl/erapid/erapid_board.sv", "rtl/erapid/erapid_ring.sv"],
        {"Boards": 3, "TimeWidth": 7, "QueueWidth": 1, "Levels": 2, "FormalWindow": 70}, 0, 22,
        "No two lasers are ever lit on one wavelength into one board's coupler, across the whole system "
        "(three boards: their RCs on the ring, every LC and laser). From reset, and from every state "
        "each point of the window's schedule allows (settled, sampled, re-allocated, responded: an "
        "invariant each), the runs reach the next point with its invariant and never light a "
        "wavelength twice: by induction over the schedule's points, never. A grant takes effect.",
        "every laser's window statistics free (tb/formal/erapid_link_stats_free.sv), so the RCs may "
        "classify sources and scale lasers in any way; thresholds fixed (L_min and B_min 64/256, "
        "B_max 192/256, B_con 128/256, capacity 1: with free statistics every class stays reachable); "
        "DBR, DPM, N, t_vdd and t_relock constant, any; window Rw = 70 cycles (the shortest the "
        "schedule allows at B = 3); the time base counts cycles; drain status and traffic arbitrary",
        ("rtl/erapid/erapid_lc.sv", "assign on    = commanded_q[l] ? on_q[l] : static_on_i[l];",
         "assign on    = commanded_q[l] ? on_q[l] : 1'b1;"),
        ["rtl/erapid"],
        {"l_min_i": "9'd64", "b_min_i": "9'd64", "b_max_i": "9'd192", "b_con_i": "9'd128", "capacity_i": "1'b1"},
        {"erapid_rc": {"FormalFromReset": 0}}),
]


TIMEOUT = 900  # seconds for one Yosys or solver call (the slowest proof takes about a minute)


def yosys_script(proof, rtl, out, kind):
    """Yosys's script for a netlist: "word" (word.smt2) or "gates" (proof.smt2, AND gates; for a
    proof without induction also proof.aig, for ABC: no covers, every undriven bit free)."""
    includes = " ".join(f"-I{rtl / d}" for d in proof.includes)
    files = " ".join(str(rtl / f) for f in proof.files)
    params = " ".join(f"-set {k} {v}" for k, v in proof.params.items())
    # SYNTHESIS: the simulation checks are left out (most state the harness's side of the contract).
    lines = [f"read_verilog -formal -DSYNTHESIS -sv {includes} {files}"]
    lines += [f"chparam {' '.join(f'-set {k} {v}' for k, v in p.items())} {m}" for m, p in proof.module_params.items()]
    lines += [f"chparam {params} {proof.top}", f"prep -flatten -top {proof.top}"]
    if proof.ties:
        lines += [f"delete -port {' '.join(f'{proof.top}/{port}' for port in proof.ties)}", f"cd {proof.top}"]
        lines += [f"connect -set {port} {value}" for port, value in proof.ties.items()] + ["cd .."]
    lines += ["async2sync", "dffunmap"]
    if kind == "word":
        return "\n".join(lines + [f"write_smt2 -wires {out / 'word.smt2'}"]) + "\n"
    # (without induction, no register need be found constant: opt_clean alone, 13 s less on E-RAPID's)
    lines += ["techmap", "opt -fast" if proof.depth else "opt_clean", "abc -g AND", "opt_clean", "dffunmap"]
    if proof.depth:
        return "\n".join(lines + [f"write_smt2 -wires {out / 'proof.smt2'}"]) + "\n"
    # Every undriven bit free for z3 and ABC alike; then the assertions, and the covers, as ABC's outputs.
    lines += ["setundef -undriven -anyseq", "setundef -anyseq", f"write_smt2 -wires {out / 'proof.smt2'}", "aigmap",
              f"delete -port {proof.top}/o:*", "design -save gates", "delete t:$cover",
              f"write_aiger -zinit {out / 'proof.aig'}", "design -load gates", "chformal -assert -remove",
              f"techmap -map {COVER_AS_ASSERT}", f"write_aiger -zinit {out / 'covers.aig'}"]
    return "\n".join(lines) + "\n"


class ToolError(Exception):
    pass


def call(args):
    try:
        return subprocess.run(args, capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        raise ToolError(f"{args[0]} gave no answer within {TIMEOUT} s") from None


def netlist(proof, rtl, out, kind):
    script = out / f"{kind}.ys"
    script.write_text(yosys_script(proof, rtl, out, kind))
    run = call(["yosys", "-q", "-s", str(script)])
    if run.returncode != 0:
        raise ToolError(f"yosys failed:\n{run.stdout}{run.stderr}")
    return out / ("word.smt2" if kind == "word" else "proof.smt2")


def smtbmc(smt2, depth, mode="", extra=()):
    """One yosys-smtbmc call (mode "" base case, "-i" induction, "-c" covers): (passed, the
    assertions or covers it names as failed or unreached, the last step it reached)."""
    args = ["yosys-smtbmc", "-s", "z3", "--presat", *extra, "-t", str(depth)] + ([mode] if mode else [])
    run = call(args + [str(smt2)])
    named = re.findall(r"Assert failed in [^:]*: (.+?) \(", run.stdout)
    named += re.findall(r"Unreached cover statement at (.+?) \(", run.stdout)
    ok = run.returncode == 0 and "Status: PASSED" in run.stdout
    if not ok and not named:
        raise ToolError(f"yosys-smtbmc gave no answer:\n{run.stdout[-2000:]}{run.stderr[-2000:]}")
    step = re.findall(r"(?:Checking \w+|Trying induction) in step (\d+)", run.stdout)
    return ok, sorted(set(named)), int(step[-1]) if step else 0


def prove(proof, rtl, out):
    """Base case, induction, then the covers; on a failure the word-level counterexample."""
    out.mkdir(parents=True, exist_ok=True)
    for stale in list(out.glob("*.vcd")) + list(out.glob("result.json")):
        stale.unlink()
    start = time.monotonic()
    record = {"proof": proof.name, "top": proof.top, "parameters": proof.params, "k": proof.depth,
              "base_case_steps": proof.reach}
    try:
        gates = netlist(proof, rtl, out, "gates")
        if proof.depth:
            checks = [("base case", "", proof.reach), ("induction", "-i", proof.depth)]
        else:  # (the runs from reset and from the invariants; ABC's search is faster, z3 names the failure)
            failed_step = abc_bmc(out / "proof.aig", proof.reach)
            checks = [] if failed_step is None else [("base case", "", failed_step + 1)]
        for check, mode, depth in checks:
            # (z3 took minutes on the E-RAPID system's word-level netlist: its waveform is the gate
            # netlist's, with every register and port, written by this search)
            vcd = out / "counterexample.vcd"
            ok, failed, step = smtbmc(gates, depth, mode, [] if proof.depth else ["--dump-vcd", str(vcd)])
            if not ok:
                record.update(result="failed", check=check, assertions=failed)
                if proof.depth:
                    explain(proof, rtl, out, mode, depth if mode else step + 1, record)
                elif vcd.exists():
                    record.update(counterexample=str(vcd), counterexample_breaks=failed)
                break
            if not proof.depth:
                raise ToolError(f"ABC found a failure in step {depth - 1} that z3 does not")
        else:
            # (without induction ABC searches for the covers too: z3 took 75 s on the E-RAPID system's;
            # z3 names those never reached)
            if not proof.depth and abc_covers(out / "covers.aig", proof.reach):
                ok, unreached = True, []
            else:
                ok, unreached, _ = smtbmc(gates, proof.reach, "-c")
                if ok and not proof.depth:
                    raise ToolError("ABC left a cover unreached that z3 reaches")
            record.update(result="proved") if ok else record.update(result="vacuous", check="covers",
                                                                     unreached=unreached)
    except ToolError as error:
        record.update(result="error", error=str(error))
    record["seconds"] = round(time.monotonic() - start, 1)
    (out / "result.json").write_text(json.dumps({**record, **tool_versions()}, indent=1) + "\n")
    return record


def abc_bmc(aiger, depth):
    """ABC's bounded search of the AIGER netlist's properties, assumptions folded in: the step of
    the first failure, or None."""
    run = call(["yosys-abc", "-c", f"read_aiger {aiger}; fold; orpos; bmc3 -F {depth}"])
    found = re.search(r"asserted in frame (\d+)", run.stdout)
    if found:
        return int(found.group(1))
    if run.returncode != 0 or f"No output asserted in {depth} frames" not in run.stdout:
        raise ToolError(f"yosys-abc gave no answer:\n{run.stdout[-2000:]}{run.stderr[-2000:]}")
    return None


def abc_covers(aiger, depth):
    """ABC's bounded search for each cover (an output of the AIGER netlist): True when it reaches
    every one; any other answer leaves the search to z3. (-x keeps each output's trace: without
    it, Yosys 0.23's ABC crashes on E-RAPID's system.)"""
    header = aiger.read_bytes().split(b"\n", 1)[0].split()  # aig M I L O A [B C ...]: B covers
    covers = int(header[6]) if len(header) > 6 else 0
    if not covers:
        return True
    run = call(["yosys-abc", "-c", f"read_aiger {aiger}; fold; bmc3 -a -x -F {depth}"])
    return run.returncode == 0 and f"All {covers} outputs are found to be SAT" in run.stdout


def explain(proof, rtl, out, mode, depth, record):
    """The word-level search for a failure of the same check: its trace has every signal's name."""
    vcd = out / "counterexample.vcd"
    ok, failed, _ = smtbmc(netlist(proof, rtl, out, "word"), depth, mode, ["--unroll", "--dump-vcd", str(vcd)])
    if ok or not vcd.exists():
        raise ToolError(f"the word-level netlist did not fail where the gate netlist did ({record['check']})")
    record.update(counterexample=str(vcd), counterexample_breaks=failed)


def tool_versions():
    yosys = subprocess.run(["yosys", "-V"], capture_output=True, text=True).stdout.strip()
    z3 = subprocess.run(["z3", "--version"], capture_output=True, text=True).stdout.strip()
    return {"yosys": yosys, "z3": z3}


def markdown():
    rows = ["| proof | controller | parameters | from reset | k | what holds | assumed |",
            "|---|---|---|---|---|---|---|"]
    for p in PROOFS:
        params = ", ".join(f"{k} = {v}" for k, v in p.params.items())
        k = p.depth or "none: runs from each invariant (below)"
        rows.append(f"| `{p.name}` | `{p.top}` | {params} | {p.reach} cycles | {k} | {p.proves} | {p.assumes} |")
    return "\n".join(rows)


def describe(record):
    """A record in one line: the result, and what failed, was unreached or went wrong."""
    line = f"{record['result']} in {record['seconds']} s"
    if "assertions" in record:
        line += f" ({record['check']}: {', '.join(record['assertions'])}"
        line += f"; counterexample {record['counterexample']})" if "counterexample" in record else ")"
    line += f" (covers never reached: {', '.join(record['unreached'])})" if "unreached" in record else ""
    return line + (f": {record['error']}" if "error" in record else "")


def mutant(proof, out):
    """The proof on a copy of the RTL (OUT/copy, kept to reproduce it) with its planted bug must
    fail in the base case, with a trace from reset, and leave a waveform."""
    copy = out / "copy"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(ROOT / "rtl", copy / "rtl")
    for stand_in in [f for f in proof.files if not f.startswith("rtl/")]:  # tb/formal/'s
        (copy / stand_in).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / stand_in, copy / stand_in)
    file, text, replacement = proof.mutant
    source = (copy / file).read_text()
    if text not in source:
        sys.exit(f"formal: {proof.name}: the planted bug's text is no longer in {file}")
    (copy / file).write_text(source.replace(text, replacement, 1))
    record = prove(proof, copy, out)
    vcd = record.get("counterexample")
    print(f"formal: {proof.name} with '{replacement}' in {file}: {describe(record)}")
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
    if args.mutant and args.names:
        print("formal: --mutant takes one proof and no other names", file=sys.stderr)
        return 2
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
        print(f"formal: {proof.name}: {describe(record)}", file=sys.stderr)
    return 0 if all(r["result"] == "proved" for r in records) else 1


if __name__ == "__main__":
    sys.exit(main())
