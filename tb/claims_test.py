#!/usr/bin/env python3
"""CTest claims: every paper's claims (sim/experiments/*/claims.yaml) recomputed from the bundled
results hold, value and verdict, and the checker can fail:
- the bundled files: scripts/claims.py exits 0;
- a recorded value or verdict changed, or a `reproduced` verdict whose paper value is neither in
  the interval nor within the tolerance, makes it exit 1 naming the claim;
- a malformed file (unknown key, unknown experiment, a name the expression does not know, a
  result still per point) makes it exit 2 naming the place;
- the arithmetic: pairing by seed and by point, highest/lowest, the 95 % interval (Student's t,
  two degrees of freedom: 4.3027) on a results file written here.
Usage: claims_test.py SCRATCH"""
import copy
import math
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import claims  # noqa: E402

T_975_DF2 = 4.3027


def check(args):
    return subprocess.run([sys.executable, ROOT / "scripts" / "claims.py", *map(str, args)],
                          capture_output=True, text=True)


def write(folder, name, spec):
    path = folder / name
    path.write_text(yaml.safe_dump(spec, allow_unicode=True, sort_keys=False))
    return path


def main():
    scratch = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.gettempdir())
    scratch.mkdir(parents=True, exist_ok=True)
    problems = []
    run = check([])
    if run.returncode != 0:
        problems.append(f"the bundled claims do not hold:\n{run.stderr}")

    with tempfile.TemporaryDirectory(dir=scratch) as tmp:
        tmp = Path(tmp)
        base = yaml.safe_load((ROOT / "sim" / "experiments" / "erapid" / "claims.yaml").read_text())
        ids = {c["id"]: i for i, c in enumerate(base["claims"])}

        def variant(name, edit, want, mention):
            spec = copy.deepcopy(base)
            edit(spec)
            got = check([write(tmp, f"{name}.yaml", spec)])
            if got.returncode != want or mention not in got.stderr:
                problems.append(f"{name}: exit {got.returncode} (expected {want}, naming '{mention}'):\n{got.stderr}")

        def claim(spec, key):
            return spec["claims"][ids[key]]

        variant("value_moved", lambda s: claim(s, "complement-dbr-gain").update(value=400), 1,
                "complement-dbr-gain): value 400 recorded")
        variant("verdict_raised", lambda s: claim(s, "rw-latency-high-load").update(verdict="reproduced"), 1,
                "rw-latency-high-load): verdict 'reproduced' recorded, 'departs' measured")
        variant("tolerance_too_tight", lambda s: claim(s, "uniform-dbr-nothing").update(tolerance=0.1), 1,
                "uniform-dbr-nothing): verdict 'reproduced' recorded")
        variant("unknown_key", lambda s: claim(s, "complement-dbr-gain").update(colour="red"), 2,
                "unknown key 'colour'")
        variant("unknown_experiment", lambda s: claim(s, "complement-dbr-gain").update(experiment="erapid_nope"), 2,
                "experiment 'erapid_nope'")
        variant("unknown_name", lambda s: claim(s, "complement-dbr-gain").update(ours="nope + 1"), 2,
                "name 'nope' is not defined")
        variant("still_per_point", lambda s: claim(s, "complement-dbr-gain").update(
            ours="run('accepted', over='load', pattern='complement', mode='np_b')"), 2, "still per load")
        variant("no_matching_run", lambda s: claim(s, "complement-dbr-gain").update(
            ours="run('accepted', pattern='complement', mode='x_y', load=0.5)"), 2, "no run matches")
        variant("not_allowed", lambda s: claim(s, "complement-dbr-gain").update(ours="[x for x in (1, 2)][0]"), 2,
                "is not allowed")

        # The arithmetic, on a results file of known numbers: two modes, two loads, three seeds.
        results = tmp / "results"
        results.mkdir()
        rows = ["mode,load,seed,latency"]
        for seed, noise in ((1, -1.0), (2, 0.0), (3, 1.0)):
            for load in (0.1, 0.5):
                rows.append(f"base,{load},{seed},{10 * load * 10 + noise}")
                rows.append(f"fast,{load},{seed},{5 * load * 10 + noise / 2}")
        (results / "toy.csv").write_text("\n".join(rows) + "\n")
        toy = {"paper": "a toy", "results": str(results),
               "doc": "docs/none.md", "claims": [{
                   "id": "ratio", "where": "here", "paper": "half the latency", "paper_value": 0.5,
                   "experiment": "erapid_load", "results": "toy.csv",
                   "values": {"base": "run('latency', over='load', mode='base')",
                              "worst": "highest(run('latency', over='load', mode='fast') / base)"},
                   "ours": "mean(run('latency', over='load', mode='fast') / base)",
                   "value": 0.5, "verdict": "reproduced", "reason": "{worst:.3f}"}]}
        path = write(tmp, "toy.yaml", toy)
        toy_file = claims.ClaimsFile(path)
        result = toy_file.claims[0].compute(toy_file.folder)
        ours = result["ours"]
        # per seed: (5 + n/2)/(10 + n) at 0.1 and (25 + n/2)/(50 + n) at 0.5 are 0.5 exactly
        if not (math.isclose(ours, 0.5) and ours.n == 3 and math.isclose(ours.lo, 0.5) and result["verdict"] == "reproduced"):
            problems.append(f"toy ratio: {ours} [{ours.lo}, {ours.hi}] n={ours.n}, {result['verdict']}")
        spread = toy_file.claims[0]
        spread.spec = dict(spread.spec, ours="run('latency', mode='base', load=0.1)", value=10, paper_value=13,
                           verdict="departs")
        result = spread.compute(toy_file.folder)
        half = T_975_DF2 * 1.0 / math.sqrt(3)  # seeds 9, 10, 11: standard deviation 1
        o = result["ours"]
        if not (math.isclose(o, 10) and math.isclose(o.hi - o, half, rel_tol=1e-4) and result["verdict"] == "departs"):
            problems.append(f"toy interval: {o} [{o.lo}, {o.hi}] (half-width {half:.4f} expected), {result['verdict']}")
        spread.spec = dict(spread.spec, paper_value=12.3, verdict="reproduced")
        if spread.compute(toy_file.folder)["verdict"] != "reproduced":  # 12.3 < 10 + 2.484
            problems.append("toy: a paper value inside the interval is not 'reproduced'")

    for p in problems:
        print(f"claims_test: {p}", file=sys.stderr)
    print(f"claims_test: {'FAILED' if problems else 'passed'}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
