#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Runs the libFuzzer targets (built by CMake from tb/fuzz/ when clang is there) for a number of inputs.

  scripts/fuzz.py [--runs N] [--build DIR] [--out DIR] [TARGET ...]

TARGET is scenario (a scenario file), set (--set options, one per line) or trace (a workload
trace); all three by default. Each starts from a seed corpus made here: every bundled scenario and
one file per key family (topology.*, eee.*, photonic.*, ...) holding each of its keys at its
default, as a scenario and as --set lines, so every built-in key is in it; the traces of
tb/fuzz/corpus/trace/. A dictionary of every key name and choice helps the mutations. Each target
runs N inputs (default 20000) with AddressSanitizer and UBSan; a crash, a sanitizer report, an
exception other than ScenarioError, an input taking more than 10 s or 2 GiB fails, leaving the input
and libFuzzer's log in OUT/NAME/ (default OUT: build/fuzz/runs; CTest's: build/fuzz/runs-NAME) until
the next run there. Prints each target's inputs and seconds; exit 1 on failure.
"""
import argparse
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGETS = ("scenario", "set", "trace")
# What a family's keys need beside them to be a valid scenario (the rules between keys).
CONTEXT = {"photonic": [{"name": "network.switching", "default": "photonic"}]}


def families(keys):
    """{family: [key, ...]} by the first part of each key's name."""
    out = {}
    for key in keys:
        out.setdefault(key["name"].split(".")[0], []).append(key)
    return out


def as_yaml(keys):
    """The keys at their defaults as one nested YAML map (defaults are YAML text already)."""
    tree = {}
    for key in keys:
        *parents, leaf = key["name"].split(".")
        node = tree
        for part in parents:
            node = node.setdefault(part, {})
        node[leaf] = key["default"] if key["default"] != "" else '""'
    lines = []

    def emit(node, depth):
        for name, value in node.items():
            if isinstance(value, dict):
                lines.append("  " * depth + name + ":")
                emit(value, depth + 1)
            else:
                lines.append("  " * depth + f"{name}: {value}")
    emit(tree, 0)
    return "\n".join(lines) + "\n"


def write_seeds(keys, corpus):
    """Seed corpora for each target under `corpus`; returns the scenarios made from the key table."""
    for name in TARGETS:
        shutil.rmtree(corpus / name, ignore_errors=True)
        (corpus / name).mkdir(parents=True)
    for scenario in sorted((ROOT / "sim" / "scenarios").glob("*.yaml")):
        shutil.copy(scenario, corpus / "scenario" / scenario.name)
    for trace in sorted((ROOT / "tb" / "fuzz" / "corpus" / "trace").iterdir()):
        shutil.copy(trace, corpus / "trace" / trace.name)
    for family, members in families(keys).items():
        members = CONTEXT.get(family, []) + members
        (corpus / "scenario" / f"keys_{family}.yaml").write_text(as_yaml(members))
        (corpus / "set" / f"keys_{family}.txt").write_text(
            "".join(f"{k['name']}={k['default']}\n" for k in members))
    return sorted((corpus / "scenario").glob("keys_*.yaml"))


def write_dictionary(keys, path):
    """Every key name, each part of it and every choice, as libFuzzer dictionary entries."""
    words = set()
    for key in keys:
        words.add(key["name"])
        words.update(key["name"].split("."))
        words.update(key.get("choices", []))
    path.write_text("".join(f'"{json.dumps(w)[1:-1]}"\n' for w in sorted(words)))


def run(target, binary, seeds, dictionary, runs, out):
    """Runs one target for `runs` inputs; returns (ok, inputs, seconds)."""
    work = out / target
    shutil.rmtree(work, ignore_errors=True)
    (work / "corpus").mkdir(parents=True)
    flags = [f"-runs={runs}", "-max_len=4096", "-timeout=10", "-rss_limit_mb=2048", "-print_final_stats=1"]
    if target != "trace":
        flags.append(f"-dict={dictionary}")
    log = work / "log.txt"  # (written as it runs: tail it to follow a long run)
    with log.open("w") as out_file:
        status = subprocess.run([str(binary), *flags, "corpus", str(seeds / target)], cwd=work,
                                stdout=out_file, stderr=subprocess.STDOUT).returncode
    text = log.read_text(errors="replace")
    execs = re.search(r"stat::number_of_executed_units:\s*(\d+)", text)
    seconds = re.search(r"Done (\d+) runs in (\d+) second", text)
    ok = status == 0 and execs is not None and int(execs.group(1)) >= runs
    if not ok:
        print(text[-4000:], file=sys.stderr)
        print(f"fuzz_{target}: FAILED (exit {status}); inputs and log in {work}", file=sys.stderr)
    return ok, int(execs.group(1)) if execs else 0, int(seconds.group(2)) if seconds else None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("targets", nargs="*", metavar="TARGET", help=f"one of {', '.join(TARGETS)}")
    parser.add_argument("--runs", type=int, default=20000)
    parser.add_argument("--build", type=Path, default=ROOT / "build")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    if args.runs < 1:
        parser.error("--runs: at least 1")
    targets = args.targets or TARGETS
    unknown = [t for t in targets if t not in TARGETS]
    if unknown:
        parser.error(f"unknown target {unknown[0]}; allowed: {', '.join(TARGETS)}")
    fuzz = args.build / "fuzz"
    out = args.out or fuzz / "runs"
    missing = [t for t in targets if not (fuzz / f"fuzz_{t}").is_file()]
    if missing:
        sys.exit(f"fuzz: {fuzz}/fuzz_{missing[0]} is not built (CMake builds it when clang++ is found)")
    listed = subprocess.run([str(args.build / "icnsim"), "keys", "--json"], stdout=subprocess.PIPE, text=True)
    if listed.returncode != 0:
        sys.exit(f"fuzz: {args.build}/icnsim keys --json failed (exit {listed.returncode})")
    keys = json.loads(listed.stdout)
    out.mkdir(parents=True, exist_ok=True)
    # The seeds made from the key table are valid scenarios: else they would start the search
    # from an error, and the nesting written here would be wrong.
    for seed in write_seeds(keys, out / "seeds"):
        check = subprocess.run([str(args.build / "icnsim"), "check", str(seed)], stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True)
        if check.returncode != 0:
            sys.exit(f"fuzz: icnsim check refuses the seed {seed}: {check.stderr.strip()}")
    write_dictionary(keys, out / "keys.dict")
    failed = 0
    for target in targets:
        print(f"fuzz_{target}: {args.runs} inputs ...", file=sys.stderr, flush=True)
        ok, inputs, seconds = run(target, fuzz / f"fuzz_{target}", out / "seeds", out / "keys.dict", args.runs, out)
        failed += not ok
        if ok:
            print(f"fuzz_{target}: {inputs} inputs in {seconds} s, no failure")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
