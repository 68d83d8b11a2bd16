#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Golden results: the cycle-level regression of tb/golden/.

  scripts/golden.py check [NAME ...]    run the cases (all by default) and compare every field of
                                        results.json and every column of timeseries.csv with the
                                        stored ones; exit 1 on any difference
  scripts/golden.py update [NAME ...]   rerun the cases and store their results, printing for each
                                        case which fields changed, appeared or disappeared
  scripts/golden.py list                the case names (CMake registers one CTest test per case)
  scripts/golden.py covers              exit 1 naming each bundled scenario (sim/scenarios/) that
                                        no case runs (--scenarios DIR: those of DIR)

Cases are lines of tb/golden/cases.txt: <name> <bundled scenario> [key=value ...]. Fields that
depend on the machine or the invocation (sim.wall_s, sim.cycles_per_s, git_revision, provenance) are
not stored, nor sim.clock_jumps and sim.jumped_cycles, which must not change any other result (the suite checks every case with
--extra sim.clock_jumps=false against the same stored results), nor sim.threads (checked the same way
at 2 and 3 threads). A field the
stored results do not have yet is reported but does not fail a check (new results may be added);
one that is missing or different does. A change meant to alter results runs `update` and commits
the new files with a message that says which results moved and why."""
import argparse
import csv
import io
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tb" / "golden"
ICNSIM = [ROOT / "build" / "icnsim"]  # --icnsim replaces it
MACHINE_FIELDS = (("sim", "wall_s"), ("sim", "cycles_per_s"), ("git_revision",), ("provenance",),
                  ("params", "sim", "clock_jumps"), ("sim", "jumped_cycles"), ("params", "sim", "threads"),
                  ("sim", "threads"), ("params", "photonic", "predict_refusals"))


def cases():
    """{name: (scenario, [key=value, ...])} in file order."""
    found = {}
    for number, line in enumerate((GOLDEN / "cases.txt").read_text().splitlines(), 1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        if len(words) < 2 or words[0] in found:
            sys.exit(f"golden: cases.txt:{number}: expected a new <name> and a <scenario>")
        found[words[0]] = (words[1], words[2:])
    return found


THREADS_USED = []  # sim.threads of every case run (with --extra sim.threads=N: some must use N)


def without_machine_fields(results):
    """`results` (changed in place, and returned) without MACHINE_FIELDS."""
    for path in MACHINE_FIELDS:
        parent = results
        for key in path[:-1]:
            parent = parent.get(key, {})
        parent.pop(path[-1], None)
    return results


def run(name, scenario, sets):
    """results.json without the machine's fields, and timeseries.csv as text (or None)."""
    with tempfile.TemporaryDirectory() as out:
        cmd = [str(ICNSIM[0]), "run", scenario, "--quiet", "--out", out]
        for s in ["sim.threads=1"] + sets:  # (one thread unless --extra sets it: a later --set wins)
            cmd += ["--set", s]
        done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
        results = Path(out) / "results.json"
        if done.returncode != 0 or not results.exists():
            sys.exit(f"golden: {name}: icnsim exited {done.returncode}: {done.stderr.strip()}")
        r = json.loads(results.read_text())
        THREADS_USED.append(r["sim"]["threads"])
        without_machine_fields(r)
        series = Path(out) / "timeseries.csv"
        return r, series.read_text() if series.exists() else None


def series_columns(text):
    """{column: [values]} of a timeseries.csv (comment lines left out)."""
    rows = list(csv.reader(line for line in io.StringIO(text) if not line.startswith("#")))
    return {name: [row[i] for row in rows[1:]] for i, name in enumerate(rows[0])}


def differences(stored, fresh, path=""):
    """(changed or missing paths, added paths) between two JSON values."""
    if isinstance(stored, dict) and isinstance(fresh, dict):
        changed, added = [], [f"{path}/{k}" for k in fresh if k not in stored]
        for key, value in stored.items():
            if key not in fresh:
                changed.append(f"{path}/{key}: missing")
            else:
                c, a = differences(value, fresh[key], f"{path}/{key}")
                changed += c
                added += a
        return changed, added
    if stored != fresh or type(stored) is not type(fresh):
        return [f"{path}: {json.dumps(stored)[:80]} -> {json.dumps(fresh)[:80]}"], []
    return [], []


def compare(name, scenario, sets):
    """(changed, added) of one case against its stored files."""
    stored_json = GOLDEN / f"{name}.json"
    if not stored_json.exists():
        return [f"{stored_json.relative_to(ROOT)} does not exist yet (scripts/golden.py update {name})"], []
    fresh, series = run(name, scenario, sets)
    changed, added = differences(json.loads(stored_json.read_text()), fresh)
    stored_series = GOLDEN / f"{name}.timeseries.csv"
    if stored_series.exists() or series is not None:
        before = series_columns(stored_series.read_text()) if stored_series.exists() else {}
        after = series_columns(series) if series is not None else {}
        c, a = differences(before, after, "timeseries.csv")
        changed += c
        added += a
    return changed, added


def write(name, scenario, sets):
    results, series = run(name, scenario, sets)
    (GOLDEN / f"{name}.json").write_text(json.dumps(results, indent=1, sort_keys=True) + "\n")
    series_path = GOLDEN / f"{name}.timeseries.csv"
    if series is not None:
        series_path.write_text(series)
    elif series_path.exists():
        series_path.unlink()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("action", choices=("check", "update", "list", "covers"))
    parser.add_argument("names", nargs="*", help="cases (default: all)")
    parser.add_argument("--icnsim", type=Path, default=ICNSIM[0], help="the simulator to run")
    parser.add_argument("--extra", action="append", default=[], metavar="KEY=VALUE",
                        help="append an override to every case (the suite uses it to prove a check can fail)")
    parser.add_argument("--scenarios", type=Path, default=ROOT / "sim" / "scenarios",
                        help="covers: the folder of scenarios every one of which needs a case")
    args = parser.parse_args()
    ICNSIM[0] = args.icnsim
    if args.extra and args.action == "update":
        sys.exit("golden: --extra is for check only: stored results come from the cases as written")
    all_cases = cases()
    if args.action == "list":
        print("\n".join(all_cases))
        return 0
    if args.action == "covers":
        run_by_cases = {scenario for scenario, _ in all_cases.values()}
        uncovered = sorted(p.stem for p in args.scenarios.glob("*.yaml") if p.stem not in run_by_cases)
        for name in uncovered:
            print(f"golden: scenario {name} has no case in tb/golden/cases.txt")
        return 1 if uncovered else 0
    unknown = [n for n in args.names if n not in all_cases]
    if unknown:
        sys.exit(f"golden: unknown case(s) {', '.join(unknown)}; allowed: {', '.join(all_cases)}")
    failed = 0
    for name in args.names or all_cases:
        scenario, sets = all_cases[name]
        sets = sets + args.extra
        changed, added = compare(name, scenario, sets)
        for line in added:
            print(f"golden: {name}: new field {line}")
        if args.action == "update":
            write(name, scenario, sets)
            verdict = f"{len(changed)} changed" if changed else "unchanged"
            print(f"golden: {name}: {verdict}" + "".join(f"\n  {c}" for c in changed))
        elif changed:
            failed += 1
            print(f"golden: {name}: {len(changed)} difference(s)" + "".join(f"\n  {c}" for c in changed[:40]))
        else:
            print(f"golden: {name}: identical")
    # Results equal at N threads prove nothing if no case ran on N.
    asked = [int(e.split("=", 1)[1]) for e in args.extra if e.startswith("sim.threads=")]
    if asked and asked[-1] > 1 and asked[-1] not in THREADS_USED:
        print(f"golden: no case ran on sim.threads={asked[-1]} threads (used: {sorted(set(THREADS_USED))})")
        failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
