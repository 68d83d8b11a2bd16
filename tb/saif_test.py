#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""icnsim's waveform formats (CTest `waveform_formats`):
- `--saif` writes SAIF 2.0 that parses back, and for every bit of every traced signal its T0, T1,
  TX and toggle count equal what the FST of the same run shows over the window (read here with
  GTKWave's fst2vcd and counted independently); a planted wrong count is found;
- `--trace FILE.vcd` writes the VCD of the same signals and changes as the FST (fst2vcd's text);
- a window in ns is the window in cycles that holds it (1.1 ns cycles, ends inside cycles), and
  a SAIF alone leaves no temporary file;
- `--trace` with another extension, or `--saif` without .saif, is refused before the first cycle
  (exit 2) naming what is allowed.

Usage: saif_test.py ICNSIM"""
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
from vcd import declared_bits  # noqa: E402

TOKEN = re.compile(r'\(|\)|"[^"]*"|(?:\\.|[^\s()\\])+')


def parse_sexp(text):
    stack = [[]]
    for token in TOKEN.findall(text):
        if token == "(":
            stack.append([])
        elif token == ")":
            done = stack.pop()
            stack[-1].append(done)
        elif token.startswith('"'):
            stack[-1].append(token[1:-1])
        else:
            stack[-1].append(re.sub(r"\\(.)", r"\1", token))
    if len(stack) != 1 or len(stack[0]) != 1:
        raise ValueError("unbalanced parentheses")
    return stack[0][0]


def saif_activity(text):
    """(duration, {path/bit: (T0, T1, TX, TC)}) of a SAIF file."""
    tree = parse_sexp(text)
    if tree[0] != "SAIFILE":
        raise ValueError("not a SAIFILE")
    header = {item[0]: item[1:] for item in tree[1:] if isinstance(item, list) and item[0] != "INSTANCE"}
    if header.get("SAIFVERSION") != ["2.0"] or header.get("TIMESCALE") != ["1", "ps"]:
        raise ValueError(f"header: {header}")
    nets = {}

    def walk(instance, path):
        for item in instance[2:]:
            if item[0] == "INSTANCE":
                walk(item, path + [item[1]])
            elif item[0] == "NET":
                for net in item[1:]:
                    counts = {c[0]: int(c[1]) for c in net[1:]}
                    nets["/".join(path + [net[0]])] = (counts["T0"], counts["T1"], counts["TX"], counts["TC"])

    for item in tree[1:]:
        if isinstance(item, list) and item[0] == "INSTANCE":
            walk(item, [item[1]])
    return int(header["DURATION"][0]), nets


def vcd_activity(lines, start, end):
    """{path/bit: (T0, T1, TX, TC)} over [start, end) of a VCD (fst2vcd's), counted bit by bit."""
    names, width = {}, {}
    it = iter(lines)
    for scopes, code, bits in declared_bits(it):
        names.setdefault(code, []).append(["/".join(scopes + [b]) for b in bits])
        width[code] = len(bits)
    state = {code: [["x", start, 0, 0, 0, 0] for _ in range(w)] for code, w in width.items()}  # value, since, t0, t1, tx, tc

    def hold(bit, until):
        held = max(0, min(until, end) - bit[1])
        bit[{"0": 2, "1": 3}.get(bit[0], 4)] += held
        bit[1] = max(bit[1], min(until, end))

    now = start
    for line in it:
        line = line.strip()
        if not line or line.startswith("$"):
            continue
        if line.startswith("#"):
            now = max(start, int(line[1:]))
            continue
        if line[0] in "bB":
            value, code = line[1:].split()
        else:
            value, code = line[0], line[1:]
        if code not in state:
            continue
        value = value.lower()
        value = (value[0] if value[0] in "xz" else "0") * (width[code] - len(value)) + value
        for bit, v in zip(state[code], value):
            v = v if v in "01" else "x"
            if v != bit[0]:
                hold(bit, now)
                if {bit[0], v} == {"0", "1"}:
                    bit[5] += 1
                bit[0] = v
    activity = {}
    for code, bits in state.items():
        for bit in bits:
            hold(bit, end)
        for declared in names[code]:
            for name, bit in zip(declared, bits):
                activity[name] = (bit[2], bit[3], bit[4], bit[5])
    return activity


def run(icnsim, *args):
    return subprocess.run([icnsim, "run", "default", "--quiet", "--set", "sim.measure_cycles=2000", *args],
                          capture_output=True, text=True)


def main():
    icnsim = sys.argv[1]
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        window = ["--trace-window", "1000:1400", "--trace-match", "nic0,r32_p0"]
        done = run(icnsim, "--out", str(tmp / "a"), "--trace", str(tmp / "a.fst"), "--saif", str(tmp / "a.saif"), *window)
        if done.returncode != 0:
            sys.exit(f"the traced run failed: {done.stderr}")
        results = json.loads((tmp / "a" / "results.json").read_text())
        cycle_ps = round(results["params"]["sim"]["cycle_ns"] * 1000)
        start, end = 1000 * cycle_ps, 1400 * cycle_ps
        vcd = subprocess.run(["fst2vcd", str(tmp / "a.fst")], capture_output=True, text=True, check=True).stdout
        expected = vcd_activity(vcd.splitlines(), start, end)
        saif = (tmp / "a.saif").read_text()
        duration, nets = saif_activity(saif)
        if duration != end - start:
            problems.append(f"DURATION {duration}, the window is {end - start} ps")
        if set(nets) != set(expected):
            problems.append(f"SAIF nets differ from the FST's signal bits: only in SAIF {sorted(set(nets) - set(expected))[:5]}, "
                            f"only in the FST {sorted(set(expected) - set(nets))[:5]}")
        differ = lambda got: [n for n in got if n in expected and got[n] != expected[n]]
        problems += [f"{n}: SAIF {nets[n]}, FST {expected[n]} (T0, T1, TX, TC)" for n in differ(nets)[:10]]
        unbalanced = [n for n, c in nets.items() if sum(c[:3]) != duration]
        problems += [f"{n}: T0 + T1 + TX != DURATION" for n in unbalanced[:5]]
        toggles = sum(c[3] for c in nets.values())
        if toggles == 0:
            problems.append("no bit toggled in the window: the comparison shows nothing")
        # a planted wrong count must be found by the same comparison
        planted = re.sub(r"\(TC (\d+)\)", lambda m: f"(TC {int(m.group(1)) + 1})", saif, count=1)
        if len(differ(saif_activity(planted)[1])) != 1:
            problems.append("the comparison missed a planted toggle count")
        # the VCD of the same run is the FST's text (the date line aside)
        done = run(icnsim, "--out", str(tmp / "b"), "--trace", str(tmp / "b.vcd"), *window)
        strip = lambda text: re.sub(r"\$date.*?\$end", "", text, flags=re.S)
        if done.returncode != 0 or not (tmp / "b.vcd").is_file():
            problems.append(f"--trace b.vcd failed: {done.stderr}")
        elif strip((tmp / "b.vcd").read_text()) != strip(vcd):
            problems.append("--trace b.vcd differs from fst2vcd's text of the FST")
        elif list(tmp.glob("b.vcd.*")):
            problems.append(f"a temporary file was left: {list(tmp.glob('b.vcd.*'))}")
        # a window in ns is the cycles that hold it, here with 1.1 ns cycles and ends inside cycles
        # (1099.5 ns lies in cycle 999, 1540.2 ns in cycle 1400: the window 999:1401), for a SAIF
        # alone, which leaves no temporary file
        cycles_11 = ["--set", "sim.cycle_ns=1.1", "--trace-match", window[3]]
        spans = {}
        for name, span in (("c", "999:1401"), ("d", "1099.5ns:1540.2ns")):
            done = run(icnsim, "--out", str(tmp / name), "--saif", str(tmp / f"{name}.saif"), "--trace-window", span,
                       *cycles_11)
            spans[span] = saif_activity((tmp / f"{name}.saif").read_text()) if done.returncode == 0 else done.stderr
        if spans["999:1401"] != spans["1099.5ns:1540.2ns"] or spans["999:1401"][0] != 402 * 1100:
            problems.append(f"the window in ns is not the 402 cycles of 1.1 ns that hold it: {str(spans)[:300]}")
        if [f.name for f in tmp.iterdir() if ".tmp" in f.name]:
            problems.append(f"temporary files were left: {[f.name for f in tmp.iterdir() if '.tmp' in f.name]}")
        # refusals before the first cycle, naming what is allowed
        for args, words in ((["--trace", str(tmp / "x.txt")], [".fst", ".vcd"]),
                            (["--saif", str(tmp / "x.act")], [".saif"]),
                            (["--trace", str(tmp / "y.fst"), "--trace-window", "10ms:20ms"], ["ns", "cycles"]),
                            (["--trace", str(tmp / "y.fst"), "--trace-window", "0x10ns:20ns"], ["ns", "cycles"]),
                            (["--trace-window", "1:2"], ["--trace", "--saif"])):
            done = run(icnsim, "--out", str(tmp / "d"), *args)
            if done.returncode != 2 or not all(w in done.stderr for w in words):
                problems.append(f"{' '.join(args)}: exit {done.returncode}, {done.stderr.strip()}")
    for p in problems:
        print(p)
    print(f"saif_test: {len(nets)} signal bits, {toggles} toggles, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
