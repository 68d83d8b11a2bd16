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


PLOTS = {"fattree_load": fattree_load, "fattree_ramp": fattree_ramp}


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("experiment", choices=sorted(PLOTS))
    args = parser.parse_args()
    out = ROOT / "out" / "sweeps" / args.experiment
    if not (out / "summary.csv").exists():
        print(f"plot: {out / 'summary.csv'} not found; run scripts/sweep.py {args.experiment} first", file=sys.stderr)
        return 2
    fig = PLOTS[args.experiment](out)
    fig.tight_layout()
    fig.savefig(out / f"{args.experiment}.png", dpi=110)
    print(f"plot: wrote {out / (args.experiment + '.png')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
