#!/usr/bin/env python3
"""Figures of a sweep made by scripts/sweep.py (needs Debian's python3-matplotlib: run with
/usr/bin/python3). An experiment's figures: plot.py EXPERIMENT draws its file's `figures:`
(scripts/figure.py) from <out>/summary.csv (or --summary FILE) into <out> (default
out/sweeps/<experiment>) as PNG, SVG and the CSV of the points shown. Any sweep: plot.py --out DIR
--x LABEL --y FIELD [--hue LABEL] writes DIR/plot.png and .svg from DIR/points.csv. Both show each
point's mean with its 95 % confidence interval over the seeds."""
import argparse
import csv
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

import figure  # noqa: E402
from experiment import Experiment, ExperimentError  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


LOW_PENALTY_RATIO = 0.15  # at most 15 % more latency than without the mechanism ...
LOW_PENALTY_LOADS = (0.02, 0.45)  # ... at every load of this range
LOCK_UP_LOADS = (0.05, 0.4)  # issue 12: no lock-up with the default meter at these loads
DEFAULT_METER = "occupancy"


def md1_wait(rho, service):
    """Mean M/D/1 queueing delay (cycles) of a link at utilisation rho serving packets of `service` cycles."""
    return rho * service / (2 * (1 - rho)) if rho < 1 else float("inf")


def minimal_tree_estimate(load, k=4, n=3, packet_flits=16):
    """M/D/1 estimate of the extra latency (cycles) of uniform traffic when only the Minimal Tree
    carries it, against all links on. A packet climbs j >= 1 levels with probability
    (N - k^j)/(N - 1) and crosses one up and one down link at each; all links on share a level's
    traffic over N links, the Minimal Tree over its k^(n-j) links of that level."""
    nodes = k ** n
    extra = 0.0
    for j in range(1, n):
        crossing = (nodes - k ** j) / (nodes - 1)
        rho_all, rho_mt = load * crossing, k ** j * load * crossing
        extra += 2 * crossing * (md1_wait(rho_mt, packet_flits) - md1_wait(rho_all, packet_flits))
    return extra


def band_estimate(u, load, k=4, n=3, packet_flits=16):
    """M/D/1 estimate of the extra latency (cycles) when every up and down link a packet crosses
    between levels runs at utilisation u (the controller holds an active link between U_off and
    U_on), against all links on at this load."""
    nodes = k ** n
    extra = 0.0
    for j in range(1, n):
        crossing = (nodes - k ** j) / (nodes - 1)
        extra += 2 * crossing * (md1_wait(max(u, load * crossing), packet_flits) - md1_wait(load * crossing, packet_flits))
    return extra


def fattree_tradeoff(out):
    """Per (pair, meter, load) over seeds, each run against the mechanism off on the same load and
    seed: latency ratio (mean and worst), relative link power, accepted throughput ratio (worst),
    verdicts. Writes tradeoff.csv."""
    rows = figure.read_rows(out / "summary.csv")
    off = {(r["load"], r["seed"]): r for r in rows if r["config"] == "off"}
    groups = defaultdict(list)
    for r in rows:
        if r["config"] != "off":
            groups[(r["config"], r["meter"], float(r["load"]))].append(r)
    # The paper's pairs are those the experiment measures with both meters (fattree_grid.yaml).
    paper_pairs = {r["config"] for r in rows if r["meter"] == "flits"}
    table = []
    for (config, meter, load), runs in groups.items():
        ratios = [float(r["latency_avg"]) / float(off[(r["load"], r["seed"])]["latency_avg"]) for r in runs]
        accepted = [float(r["accepted"]) / float(off[(r["load"], r["seed"])]["accepted"]) for r in runs]
        power = sum(float(r["links_relative"]) for r in runs) / len(runs)
        u_off, u_on = (float(u) for u in config.split("-"))
        table.append({"config": config, "u_off": u_off, "u_on": u_on, "meter": meter, "load": load,
                      "paper_pair": config in paper_pairs, "seeds": len(runs),
                      "latency_ratio": sum(ratios) / len(ratios), "latency_ratio_worst": max(ratios),
                      "links_relative": power, "power_saved": 1 - power, "accepted_ratio_worst": min(accepted),
                      "all_ok": all(r["verdict"] == "ok" for r in runs)})
    table.sort(key=lambda t: (t["meter"], not t["paper_pair"], t["u_off"], t["u_on"], t["load"]))
    with open(out / "tradeoff.csv", "w", newline="") as f:
        f.write("# against the mechanism off at the same load and seed; means over seeds unless _worst\n")
        writer = csv.DictWriter(f, fieldnames=list(table[0]))
        writer.writeheader()
        writer.writerows({k: round(v, 4) if isinstance(v, float) else v for k, v in t.items()} for t in table)
    print(f"plot: wrote {out / 'tradeoff.csv'}")
    return table, off


def locked_up(t):
    return not t["all_ok"] or t["accepted_ratio_worst"] < 0.97


def report_fattree(table, off, out):
    """Prints the lock-up check, the low-penalty choice and the M/D/1 estimates (also md1.csv)."""
    for meter in ("flits", "occupancy"):
        bad = [t for t in table if t["meter"] == meter and t["paper_pair"]
               and LOCK_UP_LOADS[0] - 1e-9 <= t["load"] <= LOCK_UP_LOADS[1] + 1e-9 and locked_up(t)]
        print(f"plot: {meter} meter, paper's pairs, loads {LOCK_UP_LOADS[0]}-{LOCK_UP_LOADS[1]}: "
              + ("no lock-up" if not bad else f"{len(bad)} points saturated or below 97 % of the accepted load: "
                 + ", ".join(f"{t['config']}@{t['load']}" for t in bad)))
    candidates = defaultdict(list)
    for t in table:
        if t["meter"] == DEFAULT_METER:
            candidates[t["config"]].append(t)
    eligible = []
    for config, points in candidates.items():
        within = [t for t in points if LOW_PENALTY_LOADS[0] - 1e-9 <= t["load"] <= LOW_PENALTY_LOADS[1] + 1e-9]
        worst = max(t["latency_ratio_worst"] for t in within)
        if worst <= 1 + LOW_PENALTY_RATIO and not any(locked_up(t) for t in within):
            lowest = min(within, key=lambda t: t["load"])
            eligible.append((round(lowest["power_saved"], 4), -worst, worst, config))
    chosen = None
    if eligible:
        # Most power saved at the lowest load; among equals the smaller worst ratio, then the wider hysteresis.
        saved, _, worst, config = max(eligible)
        chosen = config
        print(f"plot: low-penalty pair ({DEFAULT_METER} meter): U_off-U_on {config}, link power saved at load "
              f"{LOW_PENALTY_LOADS[0]} {100 * saved:.1f} %, worst latency ratio {worst:.3f} at loads "
              f"{LOW_PENALTY_LOADS[0]}-{LOW_PENALTY_LOADS[1]} ({len(eligible)} pairs qualify)")
    else:
        print(f"plot: no pair keeps the latency ratio <= {1 + LOW_PENALTY_RATIO} at loads "
              f"{LOW_PENALTY_LOADS[0]}-{LOW_PENALTY_LOADS[1]}")
    latency_off = defaultdict(list)
    for (load, _), r in off.items():
        latency_off[float(load)].append(float(r["latency_avg"]))
    latency_off = {load: sum(v) / len(v) for load, v in sorted(latency_off.items())}
    with open(out / "md1.csv", "w", newline="") as f:
        f.write("# M/D/1 estimate of the Minimal Tree alone (every extra link off) against the measured latency "
                "without the mechanism (mean over seeds); comparable to runs whose link power is near p_min\n")
        writer = csv.writer(f)
        writer.writerow(["load", "latency_off", "md1_extra_cycles", "md1_latency_ratio"])
        for load, mean in latency_off.items():
            extra = minimal_tree_estimate(load)
            writer.writerow([load, round(mean, 2), round(extra, 2), round((mean + extra) / mean, 3)])
    with open(out / "md1_band.csv", "w", newline="") as f:
        f.write("# M/D/1 estimate with every crossed link held at U_off .. U_on (the paper's pairs), against all "
                "links on at this load, beside the measured extra latency (mean over seeds)\n")
        writer = csv.writer(f)
        writer.writerow(["config", "load", "latency_off", "md1_extra_at_u_off", "md1_extra_at_u_on",
                         "measured_extra_occupancy", "measured_extra_flits"])
        measured = {(t["config"], t["meter"], t["load"]): t["latency_ratio"] for t in table}
        pairs = {(t["u_off"], t["u_on"]) for t in table if t["paper_pair"]}
        for u_off, u_on in sorted(pairs, key=lambda p: (round(p[0] + p[1], 3), round(p[1] - p[0], 3))):  # U_avg, hysteresis
            config = f"{u_off}-{u_on}"
            for load, mean in latency_off.items():
                writer.writerow([config, load, round(mean, 2), round(band_estimate(u_off, load), 2),
                                 round(band_estimate(u_on, load), 2)]
                                + [round((measured[(config, m, load)] - 1) * mean, 2) for m in ("occupancy", "flits")])
    print(f"plot: wrote {out / 'md1.csv'} and {out / 'md1_band.csv'}")
    return chosen


def fattree_grid(out):
    """tradeoff.csv, the lock-up check, the low-penalty choice, the M/D/1 estimates and the Pareto
    figure (the latency and power figure is the experiment file's)."""
    table, off = fattree_tradeoff(out)
    return {"pareto": fattree_pareto(table, report_fattree(table, off, out))}


def fattree_pareto(table, chosen):
    """Link power saved against latency ratio with the default meter, one point per pair and load."""
    pareto, ax = plt.subplots(figsize=(9, 6.5))
    points = [t for t in table if t["meter"] == DEFAULT_METER and t["load"] <= LOW_PENALTY_LOADS[1] + 1e-9]
    scatter = ax.scatter([t["latency_ratio"] for t in points], [100 * t["power_saved"] for t in points],
                         c=[t["load"] for t in points], cmap="plasma", s=[28 if t["paper_pair"] else 14 for t in points],
                         marker="o", edgecolors=["black" if t["paper_pair"] else "none" for t in points])
    pareto.colorbar(scatter, label="offered load (flits/node/cycle)")
    front, best = [], -1.0
    for t in sorted(points, key=lambda t: t["latency_ratio"]):
        if t["power_saved"] > best:
            front.append(t)
            best = t["power_saved"]
    ax.step([t["latency_ratio"] for t in front], [100 * t["power_saved"] for t in front], where="post", color="grey",
            label="Pareto front")
    if chosen:
        mine = [t for t in points if t["config"] == chosen]
        ax.plot([t["latency_ratio"] for t in mine], [100 * t["power_saved"] for t in mine], "*", color="tab:green",
                markersize=12, markeredgecolor="black", label=f"low-penalty pair {chosen} (its loads)")
    ax.axvline(1 + LOW_PENALTY_RATIO, color="grey", linestyle=":", label=f"latency ratio {1 + LOW_PENALTY_RATIO}")
    ax.set(xlabel="latency with / without the mechanism (mean of seeds)",
           ylabel="link power saved (%)",
           title=f"{DEFAULT_METER} meter, one point per pair and load {LOW_PENALTY_LOADS[0]}-{LOW_PENALTY_LOADS[1]} "
                 "(outlined: the paper's pairs)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    return pareto


# E-RAPID (SPEC M1): power is normalised to the static network's, every statically assigned laser
# (B (B - 1) = 56) lit at 10 Gb/s, 535 mW each, as the paper normalises to the maximum bit rate.
# Figures not yet drawn from an experiment file's `figures:` (they read the runs' folders: time
# series, per-link curves) and the fat tree's choices; each runs after the file's figures.
PLOTS = {"fattree_grid": fattree_grid}


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
    """An experiment's figures: its file's (from `summary` and the run folders in `runs_dir`), then any
    still drawn here from `out`."""
    written = []
    try:
        spec = Experiment.load(name)
        runs = figure.Summary(summary) if spec.figures else None
        for fig in spec.figures:
            try:
                written += figure.draw(fig, runs, out, plt, formats, runs_dir)
            except figure.RunsMissing as e:
                print(f"plot: {fig['name']}: skipped: {e}", file=sys.stderr)
        for reason, left in sorted((runs.dropped if runs else {}).items()):
            print(f"plot: {len(left)} runs left out of a panel ({reason}), e.g. {min(left)}", file=sys.stderr)
    except (ExperimentError, figure.FigureError) as e:
        print(f"plot: {e}", file=sys.stderr)
        return 2
    for path in written:
        print(f"plot: wrote {path}")
    stem = Path(name).stem
    if stem in PLOTS:
        if not (out / "runs").is_dir():
            print(f"plot: {stem}'s other figures read the sweep's run folders ({out / 'runs'}): skipped", file=sys.stderr)
            return 0
        figures = PLOTS[stem](out)
        for suffix, fig in (figures if isinstance(figures, dict) else {"": figures}).items():
            path = out / (f"{stem}_{suffix}.png" if suffix else f"{stem}.png")
            fig.tight_layout()
            fig.savefig(path, dpi=100)
            print(f"plot: wrote {path}")
    elif not spec.figures:
        print(f"plot: {name} has no figures", file=sys.stderr)
        return 2
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
    out = args.out or ROOT / "out" / "sweeps" / Path(args.experiment).stem
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
