# SPDX-License-Identifier: Apache-2.0
"""The controllers as the simulator verilates them (rtl/models.txt) and their RTL, for the scripts
that run Yosys on them: scripts/cost.py (hardware cost) and scripts/sim_models.py (the top the
simulator verilates around each controller)."""
import hashlib
import json
import re
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RTL = ROOT / "rtl"


def models():
    """Rows of rtl/models.txt: name, model, top, {param: value}, scenarios, storage formula."""
    rows = []
    for line in (RTL / "models.txt").read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        fields, _, storage = line.partition("|")
        model, top, *rest = fields.split()
        params = dict(f.split("=") for f in rest if "=" in f)
        scenarios = [f for f in rest if "=" not in f and f != "-"]
        rows.append({"controller": model.removeprefix("V"), "model": model, "top": top, "params": params,
                     "scenarios": scenarios, "storage_formula": storage.strip()})
    return rows


def module_files(folders=(RTL,)):
    """{module name: its file} of every .sv under the folders."""
    return {m.group(1): p for folder in folders for p in Path(folder).rglob("*.sv")
            for m in [re.search(r"^module\s+(\w+)", p.read_text(), re.M)] if m}


def sources(top, files):
    """The files of the top's hierarchy only: reading unrelated modules changes how Yosys and ABC
    number and order the design, and with it the last few cells of the result."""
    needed, pending = [], [files[top]]
    while pending:
        path = pending.pop()
        if path in needed:
            continue
        needed.append(path)
        for name in re.findall(r"^\s*(\w+)\s*(?:#\s*\(|u_\w+\s*\()", path.read_text(), re.M):
            if name in files:
                pending.append(files[name])
    return sorted(str(p) for p in needed)


def digest(top, params, files):
    """SHA-256 of what a model's cost and simulator top depend on in the RTL: its parameters and
    the files of its hierarchy with the files they include (a row of cost.json is current while
    this is the same)."""
    paths = [Path(p) for p in sources(top, files)]
    for path in list(paths):
        for name in re.findall(r'^\s*`include\s+"([^"]+)"', path.read_text(), re.M):
            paths += [Path(d) / name for d in include_dirs() if (Path(d) / name).is_file()]
    hashed = hashlib.sha256(json.dumps(sorted(params.items())).encode())
    for path in sorted(set(paths)):
        hashed.update(path.name.encode() + b"\0" + without_comments(without_proof(path.read_bytes())))
    return hashed.hexdigest()


def without_comments(text):
    """A file's text with its comments blanked, line breaks kept: a comment reworded in place
    leaves the cost rows current, while a line added or removed does not (Yosys's results depend
    on the source positions it records: a licence header on line 1 moved a torus ring's cost, so
    the RTL's SPDX identifiers are on its files' last lines). Strings and the comments tools read
    (`/* verilator public */`, `// synopsys ...`, and the `// Debug` line after which cost.py
    leaves a top's ports uncosted) are kept."""
    token = re.compile(rb'("(?:\\.|[^"\\\n])*"|(?://|/\*)\s*(?:verilator|synopsys|synthesis|yosys|pragma|Debug)\b)'
                       rb'|//[^\n]*|/\*.*?\*/', re.S)
    return token.sub(lambda m: m.group(1) or b"\n" * m.group(0).count(b"\n"), text)


def without_proof(text):
    """A file's text without its `ifdef FORMAL block (scripts/formal.py's assertions), which neither
    synthesis nor the simulator tops read: a new property leaves the cost rows current. A block
    with an `else or a nested `if... would hide code they do read: refused."""
    proofs = re.compile(rb"\n`ifdef FORMAL\n(.*?)\n`endif\n", re.S)
    for block in proofs.findall(text):
        if re.search(rb"`(else|elsif|ifdef|ifndef)\b", block):
            raise ValueError("an `ifdef FORMAL block holds a conditional; keep proofs in one plain block")
    return proofs.sub(b"", text)


def include_dirs():
    return sorted(str(d) for d in RTL.iterdir() if d.is_dir())


def yosys(script):
    """Runs a Yosys script; the CompletedProcess."""
    with tempfile.NamedTemporaryFile("w", suffix=".ys", delete=False) as f:
        f.write(script)
    run = subprocess.run(["yosys", "-q", "-s", f.name], capture_output=True, text=True)
    Path(f.name).unlink()
    return run


def read_script(top, params, files):
    """Yosys commands reading the top's hierarchy (files: module_files()) with its parameters, named
    `top` again."""
    includes = " ".join(f"-I{d}" for d in include_dirs())
    lines = [f"read_verilog -sv -DSYNTHESIS {includes} " + " ".join(sources(top, files))]
    if params:
        lines.append("chparam " + " ".join(f"-set {k} {v}" for k, v in params.items()) + f" {top}")
    # (a top whose ports depend on a changed parameter comes back as $paramod...: named again)
    lines += [f"hierarchy -check -top {top}", f"rename -top {top}"]
    return "\n".join(lines)
