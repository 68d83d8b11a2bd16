#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""CTest claims: every paper's claims (sim/experiments/*/claims.yaml) recomputed from the bundled
results hold, value and verdict, and the checker can fail:
- the bundled files: scripts/claims.py exits 0;
- a recorded value or verdict changed, or a `reproduced` verdict whose paper value is neither in
  the interval nor within the tolerance, makes it exit 1 naming the claim;
- a malformed file (unknown key, unknown experiment, a name the expression does not know, a
  result still per point) makes it exit 2 naming the place;
- the arithmetic on a results file written here: pairing by seed and by point, highest/lowest
  against most (a point's mean against each seed's best), the 95 % interval (Student's t, two
  degrees of freedom: 4.3027), the verdict's tests (inside, tolerance as a number or per cent,
  holds, shape), one run, seeds that do not pair, a `shown` without the interval, the recorded
  value's trailing zero;
- docs.py --check finds a stale generated table;
- docs.py's figure table: x in numeric order whatever point a series misses, panels kept apart,
  no interval for one seed, two points at one place refused.
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
import docs  # noqa: E402

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
        variant("verdict_raised", lambda s: claim(s, "rw-latency-medium-load").update(verdict="reproduced"), 1,
                "rw-latency-medium-load): verdict 'reproduced' recorded, 'departs' measured")
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
        toy_claim = toy_file.claims[0]

        def case(name, expect, **spec):
            """Recomputes the toy claim with these keys; expect: (value, verdict) or an error's words."""
            toy_claim.spec = dict(toy["claims"][0], values={}, reason="-", **spec)
            try:
                r = toy_claim.compute(toy_file.folder)
                toy_claim.interval_shown(r)
                got = (round(float(r["ours"]), 6), r["verdict"])
                if isinstance(expect, str) or not math.isclose(got[0], expect[0]) or got[1] != expect[1]:
                    problems.append(f"toy {name}: {got}, expected {expect}")
                return r
            except claims.ClaimError as e:
                if not isinstance(expect, str) or expect not in str(e):
                    problems.append(f"toy {name}: {e}, expected {expect}")

        base01 = "run('latency', mode='base', load=0.1)"  # seeds 9, 10, 11
        half = T_975_DF2 * 1.0 / math.sqrt(3)  # (standard deviation 1)
        r = case("interval", (10, "departs"), ours=base01, paper_value=13)
        if r and not math.isclose(r["ours"].hi - 10, half, rel_tol=1e-4):
            problems.append(f"toy interval: half-width {r['ours'].hi - 10}, expected {half:.4f}")
        case("inside", (10, "reproduced"), ours=base01, paper_value=12.3)  # 12.3 < 10 + 2.484
        case("tolerance: the whole interval within it", (10, "reproduced"), ours=base01, paper_value=13, tolerance=5.6)
        case("tolerance: the mean within it is not enough", (10, "departs"), ours=base01, paper_value=13, tolerance=3.5)
        case("tolerance in per cent", (10, "reproduced"), ours=base01, paper_value=13, tolerance="44 %")
        case("tolerance without a paper value", "needs the paper's value", ours=base01, paper_value=None, tolerance=1)
        case("holds", (10, "reproduced"), ours=base01, paper_value=None, holds="ours.lo > 7")
        case("shape", (10, "reproduced in shape"), ours=base01, paper_value=None, holds="ours.lo > 8",
             shape="ours > 9")
        case("neither", (10, "departs"), ours=base01, paper_value=None, holds="ours.lo > 8", shape="ours > 11")
        # highest picks the point with the highest mean (load 0.5: 50), not each seed's highest
        case("highest", (50, "departs"), ours="highest(run('latency', over='load', mode='base'))", paper_value=None)
        case("lowest", (10, "departs"), ours="lowest(run('latency', over='load', mode='base'))", paper_value=None)
        case("most per seed", (50, "departs"), ours="most(run('latency', over='load', mode='base'))", paper_value=None)
        case("one run", (9, "departs"), ours="run('latency', mode='base', load=0.1, seed=1)", paper_value=9.5)
        case("seeds must pair", "each side needs the same seeds",
             ours="run('latency', mode='base', load=0.1, seed=[1, 2]) / run('latency', mode='fast', load=0.1)")
        case("several runs per seed", "more than one run", ours="run('latency', mode='base')")
        case("shown without the interval", "show its interval", ours=base01, paper_value=None, shown="{ours:.1f}")
        moved = Path(path).read_text().replace("value: 0.5", "value: 0.50")
        Path(path).write_text(moved.replace("paper_value: 0.50", "paper_value: 0.5"))
        if not claims.ClaimsFile(path).claims[0].problems({"ours": claims.Measured(0.506), "verdict": "reproduced"}):
            problems.append("toy: 0.506 passes as the recorded 0.50 (a trailing zero must count)")

    # A stale generated block is found, and a plain run rewrites it (on a copy: docs_generated may be
    # reading the page itself right now).
    with tempfile.TemporaryDirectory(dir=scratch) as tmp:
        page = Path(tmp) / "erapid.md"
        text = (ROOT / "docs" / "erapid.md").read_text()
        page.write_text(text.replace("| **departs** |", "| **reproduced** |", 1))
        for args, code in ((["--check"], 1), ([], 0)):
            run = subprocess.run([sys.executable, ROOT / "scripts" / "docs.py", *args, page], capture_output=True, text=True)
            if run.returncode != code or f"{page.name}: generated blocks" not in run.stderr:
                problems.append(f"docs.py {' '.join(args)} on a stale table: exit {run.returncode}, {run.stderr.strip()}")
        if page.read_text() != text:
            problems.append("docs.py did not rewrite a stale table to what its data makes")

    # The figure table on points written here.
    with tempfile.TemporaryDirectory(dir=scratch) as tmp:
        head = "# A title: speed-up = a / b: each point of the figure\npanel,row,y,as,hue,x,mean,ci95,seeds\n"
        rows = ['"0,0",,t,speedup,A,100,1.5,0.25,10', '"0,0",,t,speedup,B,5,2,0.5,10', '"0,0",,t,speedup,A,5,1,0,1',
                '"1,0",,t,speedup,A,5,7,1,10']
        (Path(tmp) / "f_figure.csv").write_text(head + "\n".join(rows) + "\n")
        table = docs.figure_table("f", "page", Path(tmp)).splitlines()
        want = ["| quantity | series | 5 | 100 |", "|---|---|---:|---:|", "| speedup | A | 1.000 | 1.500 ± 0.250 |",
                "| speedup | B | 2.000 ± 0.500 |  |", "| speedup | A | 7.000 ± 1.000 |  |"]
        caption = "A title: speed-up = a / b: mean ± 95 % half-width over 1-10 seeds, one column per point of the x axis"
        if not (table[0].startswith(caption + " (`") and table[0].endswith("f_figure.csv`)")) or table[2:] != want:
            problems.append("figure table: got\n" + "\n".join(table))
        (Path(tmp) / "g_figure.csv").write_text(head + rows[0] + "\n" + rows[0] + "\n")
        try:
            docs.figure_table("g", "page", Path(tmp))
            problems.append("figure table: two points at one place were not refused")
        except claims.ClaimError:
            pass

    for p in problems:
        print(f"claims_test: {p}", file=sys.stderr)
    print(f"claims_test: {'FAILED' if problems else 'passed'}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
