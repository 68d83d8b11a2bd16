#!/usr/bin/env python3
"""PNG figures of a sweep made by scripts/sweep.py (needs Debian's python3-matplotlib:
run with /usr/bin/python3). Writes out/sweeps/<experiment>/<experiment>.png."""
import argparse
import csv
import sys
from collections import defaultdict
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def read_csv(path):
    with open(path) as f:
        return [row for row in csv.DictReader(line for line in f if not line.startswith("#"))]


def fattree_load(out):
    rows = read_csv(out / "summary.csv")
    curves = defaultdict(list)
    for r in rows:
        curves[r["config"]].append(r)
    fig, (lat, pwr) = plt.subplots(1, 2, figsize=(12, 4.5))
    p_min = None
    for config, points in curves.items():
        points.sort(key=lambda r: float(r["load"]))
        ok = [p for p in points if p["verdict"] == "ok"]
        style = dict(color="black", linewidth=2) if config == "off" else dict(marker="o", markersize=3)
        label = "mechanism off" if config == "off" else f"U_off-U_on {config}"
        lat.plot([float(p["load"]) for p in ok], [float(p["latency_avg"]) for p in ok], label=label, **style)
        pwr.plot([float(p["load"]) for p in points], [float(p["links_relative"]) for p in points], label=label, **style)
        p_min = p_min or next((float(p["fattree_onoff.p_min"]) for p in points if p.get("fattree_onoff.p_min")), None)
    if p_min:
        pwr.axhline(p_min, color="grey", linestyle=":", label=f"p_min = {p_min:.4f}")
    lat.set(xlabel="offered load (flits/node/cycle)", ylabel="average latency (cycles)", yscale="log",
            title="Latency (runs that did not saturate)")
    pwr.set(xlabel="offered load (flits/node/cycle)", ylabel="link power relative to all on", ylim=(0, 1.05),
            title="Relative link power")
    for ax in (lat, pwr):
        ax.grid(alpha=0.3)
    pwr.legend(fontsize=8, loc="lower right")
    fig.suptitle("4-ary 3-tree, on/off links with a Minimal Tree (seed in summary.csv)")
    return fig


def fattree_ramp(out):
    series = {c: read_csv(out / "runs" / f"{c}_s1" / "timeseries.csv") for c in ("on", "off")}
    fig, axes = plt.subplots(3, 1, figsize=(10, 8), sharex=True)
    for config, rows in series.items():
        cycles = [int(r["cycle"]) for r in rows]
        style = dict(color="black", linewidth=1.2) if config == "off" else dict(color="tab:blue")
        label = "mechanism off" if config == "off" else "U_off 0.3, U_on 0.65"
        axes[0].plot(cycles, [float(r["offered_flits_per_node_cycle"]) for r in rows], label=label, **style)
        axes[1].plot(cycles, [float(r["latency_avg"]) for r in rows], label=label, **style)
        axes[2].plot(cycles, [float(r["link_power_relative"]) for r in rows], label=label, **style)
    axes[0].set(ylabel="offered load")
    axes[1].set(ylabel="latency (cycles)", yscale="log")
    axes[2].set(ylabel="relative link power", ylim=(0, 1.05), xlabel="cycle")
    for ax in axes:
        ax.grid(alpha=0.3)
    axes[2].legend(loc="lower right")
    fig.suptitle("Ramp: low load, 7x, hold 60,000 cycles, back (1000-cycle windows)")
    return fig


METRICS = [("exec", "execution-time overhead (%)"), ("saving", "link energy saving (%)"),
           ("latency", "packet latency overhead (%)")]


def perfbound_overheads(out):
    """Each run against EEE off on the same workload and seed: execution time and latency
    overheads, and the link energy saved over the whole execution (a longer run pays for its extra
    time). Writes overheads.csv (one row per run) and returns the means over seeds."""
    rows = read_csv(out / "summary.csv")
    off = {(r["workload"], r["seed"]): r for r in rows if r["mode"] == "off"}
    table = []
    for r in rows:
        if r["mode"] == "off":
            continue
        o = off[(r["workload"], r["seed"])]
        table.append(dict(r, exec=100 * (float(r["exec_cycles"]) / float(o["exec_cycles"]) - 1),
                          saving=100 * (1 - float(r["links_j"]) / float(o["links_j"])),
                          latency=100 * (float(r["latency_avg"]) / float(o["latency_avg"]) - 1)))
    fields = ["workload", "mode", "policy", "pdt_ns", "bound", "strategy", "seed", "exec", "saving", "latency",
              "exec_cycles", "links_j", "latency_avg", "misses", "pdt_median_cycles"]
    with open(out / "overheads.csv", "w", newline="") as f:
        f.write("# relative to EEE off on the same workload and seed; runs and parameters in summary.csv\n")
        writer = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(table)
    groups = defaultdict(list)
    for r in table:
        groups[tuple(r[k] for k in fields[:6])].append(r)
    means = []
    for runs in groups.values():
        mean = dict(runs[0], seeds=len(runs))
        for key, _ in METRICS:
            mean[key] = sum(r[key] for r in runs) / len(runs)
        means.append(mean)
    return means


def perfbound(out):
    table = perfbound_overheads(out)
    figures = {}
    for workload in dict.fromkeys(r["workload"] for r in table):
        runs = [r for r in table if r["workload"] == workload]
        fig, axes = plt.subplots(3, 3, figsize=(14, 10))
        for mode, color in (("fast_wake", "tab:blue"), ("deep_sleep", "tab:red")):
            fixed = sorted((r for r in runs if r["policy"] == "fixed" and r["mode"] == mode), key=lambda r: float(r["pdt_ns"]))
            # t_PDT = 0 is drawn at 1 ns on the log axis (labelled 0).
            x = [max(float(r["pdt_ns"]), 1.0) for r in fixed]
            for col, (key, _) in enumerate(METRICS):
                axes[0][col].plot(x, [r[key] for r in fixed], marker="o", color=color, label=mode)
            row = 1 if mode == "fast_wake" else 2
            for policy, style in (("perfbound", "-"), ("perfbound_correct", "--")):
                for strategy, marker in (("self_clearing", "o"), ("sliding", "s"), ("unbounded", "^")):
                    pts = sorted((r for r in runs if r["mode"] == mode and r["policy"] == policy and r["strategy"] == strategy),
                                 key=lambda r: float(r["bound"]))
                    for col, (key, _) in enumerate(METRICS):
                        axes[row][col].plot([100 * float(r["bound"]) for r in pts], [r[key] for r in pts], style,
                                            marker=marker, label=f"{'PBCorrect' if policy == 'perfbound_correct' else 'PerfBound'}, {strategy}")
        for col, (_, label) in enumerate(METRICS):
            axes[0][col].set(xscale="log", xlabel="fixed t_PDT (ns; 0 drawn at 1)", ylabel=label)
            axes[1][col].set(xlabel="bound (%), fast wake", ylabel=label, xticks=[1, 2, 5])
            axes[2][col].set(xlabel="bound (%), deep sleep", ylabel=label, xticks=[1, 2, 5])
            for row in range(3):
                axes[row][col].grid(alpha=0.3)
                axes[row][col].axhline(0, color="black", linewidth=0.6)
        axes[0][0].legend(fontsize=8)
        axes[1][2].legend(fontsize=7)
        seeds = max(r["seeds"] for r in runs)
        fig.suptitle(f"{workload}: EEE against EEE off, 40-node Megafly (perfbound_megafly), mean of {seeds} seed(s)")
        figures[workload] = fig
    return figures


PLOTS = {"fattree_load": fattree_load, "fattree_ramp": fattree_ramp, "perfbound": perfbound}


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("experiment", choices=sorted(PLOTS))
    args = parser.parse_args()
    out = ROOT / "out" / "sweeps" / args.experiment
    if not (out / "summary.csv").exists():
        print(f"plot: {out / 'summary.csv'} not found; run scripts/sweep.py {args.experiment} first", file=sys.stderr)
        return 2
    figures = PLOTS[args.experiment](out)
    if not isinstance(figures, dict):
        figures = {"": figures}
    for name, fig in figures.items():
        path = out / (f"{args.experiment}_{name}.png" if name else f"{args.experiment}.png")
        fig.tight_layout()
        fig.savefig(path, dpi=100)
        print(f"plot: wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
