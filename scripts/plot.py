#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Figures of a sweep made by scripts/sweep.py (needs Debian's python3-matplotlib: run with
/usr/bin/python3). An experiment's figures: plot.py EXPERIMENT draws its file's `figures:`
(scripts/figure.py) from <out>/summary.csv (or --summary FILE) into <out> (default
out/sweeps/<experiment>) as PNG, SVG and the CSV of the points shown. Any sweep: plot.py --out DIR
--x LABEL --y FIELD [--hue LABEL] writes DIR/plot.png and .svg from DIR/points.csv. Both show each
point's mean with its 95 % confidence interval over the seeds."""
import argparse
import sys
from collections import defaultdict
from pathlib import Path

try:
    import matplotlib
except ImportError:
    sys.exit(f"plot: {sys.executable} has no matplotlib; run /usr/bin/python3 scripts/plot.py "
             "(Debian's python3-matplotlib, installed by scripts/setup.sh)")

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import choice  # noqa: E402
import figure  # noqa: E402
from experiment import OUT, Experiment, ExperimentError  # noqa: E402


def any_sweep(out, x, y, hue):
    """Any sweep's points.csv: y's mean against x, a line per value of hue, bars of the 95 %
    confidence interval over the seeds (none where a point has one seed)."""
    points = figure.read_rows(out / "points.csv")
    if not points:
        sys.exit(f"plot: {out / 'points.csv'} has no points")
    for column in [x, f"{y}_mean"] + ([hue] if hue else []):
        if column not in points[0]:
            known = sorted({c[:-5] for c in points[0] if c.endswith("_mean")})
            sys.exit(f"plot: {out / 'points.csv'} has no column {column}; labels and fields: "
                     f"{', '.join(c for c in points[0] if not c.endswith(('_mean', '_std', '_ci95')))}; "
                     f"numeric fields (--y): {', '.join(known)}")
    numeric_x = all(figure.number(p[x]) is not None for p in points)
    categories = list(dict.fromkeys(p[x] for p in points))
    fig, ax = plt.subplots(figsize=(7, 4.5))
    series = defaultdict(list)
    for p in points:
        series[p[hue] if hue else ""].append(p)
    for name, rows in series.items():
        rows = [p for p in rows if figure.number(p[f"{y}_mean"]) is not None]  # (points whose runs lack y)
        rows.sort(key=lambda p: figure.number(p[x]) if numeric_x else categories.index(p[x]))
        xs = [figure.number(p[x]) if numeric_x else categories.index(p[x]) for p in rows]
        ys = [float(p[f"{y}_mean"]) for p in rows]
        errors = [figure.number(p.get(f"{y}_ci95", "")) or 0 for p in rows]
        ax.errorbar(xs, ys, yerr=errors, marker="o", capsize=3, label=f"{hue} = {name}" if hue else None)
    if not numeric_x:
        ax.set_xticks(range(len(categories)), categories)
    seeds = sorted({int(p["seeds"]) for p in points})
    ax.set_xlabel(x)
    ax.set_ylabel(f"{y} (mean, 95 % CI over {'/'.join(map(str, seeds))} seeds)")
    ax.grid(alpha=0.3)
    if hue:
        ax.legend(fontsize=8)
    return fig


def experiment_figures(name, out, summary, formats, runs_dir):
    """An experiment's choices and figures, from `summary` and the run folders in `runs_dir`."""
    written = []
    try:
        spec = Experiment.load(name)
        if not spec.figures and not spec.choices:
            print(f"plot: {name} has no figures", file=sys.stderr)
            return 2
        runs = figure.Summary(summary)
        chosen = {}
        for rule in spec.choices:
            path, chosen[rule["name"]], passing = choice.write(rule, runs, out)
            print(f"plot: {rule.get('title', rule['name'])}: {rule['label']} "
                  f"{' = '.join(chosen[rule['name']]) or 'none'} ({passing} candidates meet every requirement)",
                  file=sys.stderr)
            written.append(path)
        for fig in spec.figures:
            try:
                written += figure.draw(fig, runs, out, plt, formats, runs_dir, chosen)
            except figure.RunsMissing as e:
                print(f"plot: {fig['name']}: skipped: {e}", file=sys.stderr)
        for reason, left in sorted(runs.dropped.items()):
            print(f"plot: {len(left)} runs left out of a panel ({reason}), e.g. {min(left)}", file=sys.stderr)
    except (ExperimentError, figure.FigureError) as e:
        print(f"plot: {e}", file=sys.stderr)
        return 2
    for path in written:
        print(f"plot: wrote {path}")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("experiment", nargs="?",
                        help="a bundled experiment (or an experiment file) whose figures to draw; leave out with "
                             "--x and --y for any sweep")
    parser.add_argument("--out", type=Path, help="the sweep's folder, where the figures go "
                        "(default out/sweeps/<experiment>)")
    parser.add_argument("--summary", type=Path, help="the runs to draw from (default <out>/summary.csv)")
    parser.add_argument("--bundled", action="store_true", help="draw from the experiment's bundled summary (its "
                        "file's results:), into its folder unless --out")
    parser.add_argument("--formats", default="png,svg", help="image formats, comma-separated (default png,svg; "
                        "\"\" for the points' CSV alone)")
    parser.add_argument("--x", help="any sweep: the label on the x axis (a column of points.csv)")
    parser.add_argument("--y", help="any sweep: the numeric field on the y axis (its mean and 95 %% interval)")
    parser.add_argument("--hue", help="any sweep: a line per value of this label")
    parser.add_argument("--name", default="plot", help="any sweep: the figure's file name, without suffix")
    args = parser.parse_args()
    if bool(args.experiment) == bool(args.x or args.y):
        parser.error("give an experiment, or --x and --y (with --out, the sweep's folder)")
    if not args.experiment and not (args.x and args.y and args.out):
        parser.error("--x, --y and --out go together")
    if args.bundled:
        if not args.experiment or args.summary:
            parser.error("--bundled goes with an experiment, without --summary")
        try:
            args.summary = Experiment.load(args.experiment).results
        except ExperimentError as e:
            print(f"plot: {e}", file=sys.stderr)
            return 2
        if args.summary is None:
            parser.error(f"{args.experiment} names no bundled results")
        args.out = args.out or args.summary.parent
    out = args.out or OUT / "sweeps" / Path(args.experiment).stem
    table = (args.summary or out / "summary.csv") if args.experiment else out / "points.csv"
    if not table.exists():
        print(f"plot: {table} not found; run scripts/sweep.py first", file=sys.stderr)
        return 2
    if args.experiment:
        out.mkdir(parents=True, exist_ok=True)
        # (a bundled summary's run folders, for figures of the runs' own files: <experiment>_runs beside it)
        runs_dir = args.summary.parent / f"{Path(args.experiment).stem}_runs" if args.bundled else out / "runs"
        return experiment_figures(args.experiment, out, table, [f for f in args.formats.split(",") if f], runs_dir)
    fig = any_sweep(out, args.x, args.y, args.hue)
    fig.tight_layout()
    for suffix in args.formats.split(","):
        fig.savefig(out / f"{args.name}.{suffix}", dpi=100)
    print(f"plot: wrote {out / args.name}.{args.formats.replace(',', ' and .')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
