#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""CTest figures_regenerate: every bundled experiment with figures redraws them from its bundled
summary (plot.py NAME --bundled, Debian's /usr/bin/python3 with matplotlib) into a scratch folder,
and the points each figure shows (<name>_figure.csv) equal the bundled ones cell for cell (a figure
of the runs' own files, which a bundled summary does not have, is skipped and says so): a
change to the engine or to a figure's spec that moves a point shows here. Also: a malformed figure
is refused when its file loads (exit 2 naming the key), and the engine's numbers on a summary of
known values (a speed-up against the base run of the same seed, its interval, a one-seed point,
labels that are not labels).
Usage: figures_test.py SCRATCH"""
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import choice  # noqa: E402
import experiment  # noqa: E402
import figure  # noqa: E402
from seed_stats import describe  # noqa: E402

PLOTTER = "/usr/bin/python3"  # (Debian's, with matplotlib; scripts/setup.sh installs it)


def toy(tmp):
    """The engine's numbers on a summary of known values: speed-up against the base run of the same
    seed, its mean and Student's t interval, a one-seed point without one, a label that is not one."""
    problems = []
    rows = ["mode,load,seed,exec"]
    for seed, (base, fast) in enumerate(((100, 50), (110, 50), (90, 60)), start=1):
        rows += [f"base,0.1,{seed},{base}", f"fast,0.1,{seed},{fast}"]
    rows += ["fast,0.5,1,70"]
    (tmp / "toy.csv").write_text("\n".join(rows) + "\n")
    summary = figure.Summary(tmp / "toy.csv")
    panel = {"y": "exec", "x": {"label": "load"}, "relative_to": {"mode": "base"}, "as": "speedup"}
    got = figure.points(summary, panel, {"mode": "fast", "load": 0.1}, None, None)
    _, mean, _, half = describe([100 / 50, 110 / 50, 90 / 60])
    if len(got) != 1 or got[0][0] != "0.1" or abs(got[0][1] - mean) > 1e-12 or abs(got[0][2] - half) > 1e-12:
        problems.append(f"toy speed-up: {got}, expected mean {mean}, half-width {half} at 0.1")
    try:
        figure.points(summary, panel, {"mode": "fast"}, None, None)
        problems.append("toy: a run without its base run passed")
    except figure.FigureError as e:
        if "to compare with" not in str(e):
            problems.append(f"toy: a run without its base run: {e}")
    plain = figure.points(summary, dict(panel, relative_to=None, **{"as": None}), {"mode": "fast"}, None, None)
    one = [p for p in plain if p[0] == "0.5"]
    if not one or one[0][2] != "" or one[0][3] != 1:
        problems.append(f"toy: a one-seed point has an interval: {one}")
    for bad, words in (({"hue": {"label": "nope"}}, "'nope' is not a label"),
                       ({"relative_to": {"nope": 1}, "as": "ratio"}, "'nope' is not a label"),
                       ({"hue": {"label": "mode", "values": ["base", "slow"]}}, "no runs of ['slow']")):
        try:
            figure.check_labels(dict(panel, **bad), summary, "toy")
            problems.append(f"toy: {bad} accepted")
        except figure.FigureError as e:
            if words not in str(e):
                problems.append(f"toy: {bad}: {e}")
    return problems + toy_choice(tmp)


def toy_choice(tmp):
    """A choice on known values. Against base (exec 100, 110 in seeds 1, 2): slow passes on the mean
    of its seeds (0.6 and 1.0 of base) but not in seed 2 alone; gone has no run at load 0.5; fast,
    lean, lean2 and hot pass; lean and lean2 (equal) use a little more power than fast (8.04 against
    8), equal once rounded to whole numbers, and win on exec (0.4 of base against 0.5): both chosen."""
    rows = ["mode,load,seed,exec,power"]
    table = {"fast": (0.5, 8), "lean": (0.4, 8.04), "lean2": (0.4, 8.04), "slow": (None, 8.5), "hot": (0.5, 9),
             "gone": (0.5, 1)}
    for load in (0.1, 0.5):
        for seed, base in ((1, 100), (2, 110)):
            rows.append(f"base,{load},{seed},{base},10")
            for mode, (share, power) in table.items():
                share = share or (0.6 if seed == 1 else 1.0)
                if not (mode == "gone" and load == 0.5):
                    rows.append(f"{mode},{load},{seed},{base * share:g},{power}")
    (tmp / "choose.csv").write_text("\n".join(rows) + "\n")
    summary = figure.Summary(tmp / "choose.csv")
    spec = {"name": "pick", "label": "mode", "relative_to": {"mode": "base"},
            "require": {"where": {"load": [0.1, 0.5]}, "at_most": {"exec": 0.95}, "at_least": {"power": 0.5}},
            "rank": [{"y": "power", "prefer": "lowest", "digits": 0}, {"y": "exec", "as": "ratio", "stat": "max"}]}
    problems = []
    try:
        choice.check([spec], "toy")
        made = {r["mode"]: r for r in choice.decide(spec, summary)}
    except figure.FigureError as e:
        return [f"toy choice: {e}"]
    chosen = sorted(m for m in made if made[m]["chosen"])
    passing = sorted(m for m in made if made[m]["passes"])
    if chosen != ["lean", "lean2"] or passing != ["fast", "hot", "lean", "lean2"] or "seed 2" not in made["slow"]["failed"] \
            or "no run at load 0.5" not in made["gone"]["failed"]:
        problems.append(f"toy choice: chosen {chosen}, passing {passing}: {made}")
    for bad, words in (({"rank": [{"y": "power", "prefer": "most"}]}, "prefer lowest or highest"),
                       ({"require": {"at_most": {"exec": "fast"}}}, "is not a number"),
                       ({"require": {"at_most": {"exec": True}}}, "is not a number"),
                       ({"relative_to": "base"}, "relative_to: expected a mapping"),
                       ({"rank": [{"y": "power", "digits": "two"}]}, "digits"),
                       ({"colour": 1}, "unknown key 'colour'")):
        try:
            choice.check([dict(spec, **bad)], "toy")
            problems.append(f"toy choice: {bad} accepted")
        except figure.FigureError as e:
            if words not in str(e):
                problems.append(f"toy choice: {bad}: {e}")
    for bad, words in (({"require": {"where": {"lod": 0.1}}}, "'lod' is not a label"),
                       ({"rank": [{"y": "powr"}]}, "'powr' is not a column"),
                       ({"where": {"mode": "none"}}, "no runs match")):
        try:
            choice.decide(dict(spec, **bad), summary)
            problems.append(f"toy choice: {bad} decided")
        except figure.FigureError as e:
            if words not in str(e):
                problems.append(f"toy choice: {bad}: {e}")
    return problems


def main():
    scratch = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.gettempdir())
    scratch.mkdir(parents=True, exist_ok=True)
    problems, drawn = [], 0
    with tempfile.TemporaryDirectory(dir=scratch) as tmp:
        tmp = Path(tmp)
        problems += toy(tmp)
        for path in experiment.bundled_files():
            spec = experiment.Experiment.load(str(path))
            if not spec.figures:
                continue
            out = tmp / path.stem
            formats = "png,svg" if path.stem == "erapid_rw" else ""  # (images are slow to write: once)
            run = subprocess.run([PLOTTER, ROOT / "scripts" / "plot.py", str(path), "--bundled", "--out", out,
                                  "--formats", formats], capture_output=True, text=True)
            if run.returncode != 0:
                problems.append(f"{path.stem}: plot.py exit {run.returncode}:\n{run.stderr}")
                continue
            for made in sorted(out.glob("*.csv")):  # (each figure's points and each choice's table)
                drawn += made.name.endswith("_figure.csv")
                bundled = spec.results.parent / made.name
                if not bundled.is_file():
                    problems.append(f"{path.stem}: {made.name} is not bundled in {bundled.parent.relative_to(ROOT)}")
                elif made.read_text() != bundled.read_text():
                    problems.append(f"{path.stem}: {made.name} differs from the bundled one (plot.py {path.stem} "
                                    "--bundled rewrites it)")
            for made in out.glob("*_figure.csv"):
                for suffix in filter(None, formats.split(",")):
                    if not made.with_name(made.name.replace("_figure.csv", f".{suffix}")).is_file():
                        problems.append(f"{path.stem}: {made.name} without its {suffix}")
            skipped = run.stderr.count("skipped: it draws from the runs' folders")
            if skipped + len(list(out.glob("*_figure.csv"))) < len(spec.figures):
                problems.append(f"{path.stem}: {len(spec.figures)} figures, neither all drawn nor skipped:\n{run.stderr}")
        bad = tmp / "bad.yaml"
        bad.write_text("scenario: default\nlabels: [load]\naxes: [{label: load, key: traffic.load, values: [0.1]}]\n"
                       "figures: [{name: f, x: {label: load}, panels: [{y: accepted, colour: red}]}]\n")
        run = subprocess.run([sys.executable, ROOT / "scripts" / "sweep.py", bad, "--out", tmp / "never"],
                             capture_output=True, text=True)
        if run.returncode != 2 or "unknown key 'colour'" not in run.stderr or (tmp / "never").exists():
            problems.append(f"a malformed figure: exit {run.returncode}, {run.stderr.strip()}")
    if drawn < 10:
        problems.append(f"only {drawn} figures drawn")
    for p in problems:
        print(f"figures_test: {p}", file=sys.stderr)
    print(f"figures_test: {drawn} figures redrawn, {'FAILED' if problems else 'equal to the bundled points'}",
          file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
