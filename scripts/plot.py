#!/usr/bin/env python3
"""PNG figures of a sweep made by scripts/sweep.py (needs Debian's python3-matplotlib:
run with /usr/bin/python3). Writes <out>/<experiment>.png (default out/sweeps/<experiment>)."""
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


REFERENCE_NETWORKS = {"mesh": "8x8 mesh", "torus8": "8x8 torus", "torus444": "4x4x4 torus", "tree": "4-ary 3-tree"}
REFERENCE_RULES = {"reference": "this harness, the reference's rules", "balanced": "this harness, balanced datelines",
                   "least_occupied": "this harness, least-occupied up port"}
UNSTABLE_LATENCY = 500  # the reference aborts a run whose average latency passes this


def saturation(points):
    """points: (load, mean latency, mean accepted) sorted by load. The highest load before the first
    unstable one, the peak accepted load, and the load nearest 1.5 times the saturation load (at
    most the highest swept) with its accepted load."""
    sat = None
    for offered, latency, _ in points:
        if latency >= UNSTABLE_LATENCY:
            break
        sat = offered
    peak = max(a for _, _, a in points)
    target = min(1.5 * sat, points[-1][0])
    past = min(points, key=lambda p: abs(p[0] - target))
    return sat, peak, past[0], past[2]


def reference(out):
    rows = read_csv(out / "summary.csv")
    booksim = read_csv(ROOT / "sim" / "results" / "reference" / "reference_simulator.csv")
    stated = {r["network"]: r for r in read_csv(ROOT / "sim" / "results" / "reference" / "reference_saturation.csv")}
    groups = defaultdict(list)
    for r in rows:
        groups[(r["network"], r["rules"], float(r["load"]))].append(r)
    curves = defaultdict(list)  # (network, rules) -> [(offered, latency, accepted)], means over seeds
    for (net, rules, load), runs in sorted(groups.items()):
        mean = lambda key: sum(float(r[key]) for r in runs) / len(runs)  # noqa: E731
        curves[(net, rules)].append((load, mean("latency_avg"), mean("accepted")))
    seeds = max(len(v) for v in groups.values())
    fig, axes = plt.subplots(2, 4, figsize=(18, 8))
    table = []
    for col, (net, title) in enumerate(REFERENCE_NETWORKS.items()):
        lat, acc = axes[0][col], axes[1][col]
        ref = [r for r in booksim if r["network"] == net]
        ok = [r for r in ref if r["status"] == "ok"]
        ref_low, ref_high = float(stated[net]["low"]), float(stated[net]["high"])
        for rules, style in (("reference", dict(color="tab:blue", marker="o")),
                             ("balanced", dict(color="tab:green", marker="s", linestyle="--")),
                             ("least_occupied", dict(color="tab:green", marker="s", linestyle="--"))):
            pts = curves.get((net, rules))
            if not pts:
                continue
            sat, peak, past_load, past = saturation(pts)
            table.append({"network": net, "rules": rules, "seeds": seeds, "saturation_load": sat,
                          "reference_saturation": f"{ref_low}-{ref_high}" if ref_low != ref_high else ref_low,
                          "saturation_vs_reference": round(sat / ref_high, 3) if sat > ref_high
                          else round(sat / ref_low, 3) if sat < ref_low else 1.0,
                          "peak_accepted": round(peak, 4), "load_past_saturation": round(past_load, 3),
                          "accepted_past_saturation": round(past, 4), "past_over_peak": round(past / peak, 3)})
            stable = [p for p in pts if p[1] < UNSTABLE_LATENCY]
            lat.plot([p[0] for p in stable], [p[1] for p in stable], markersize=3, label=REFERENCE_RULES[rules], **style)
            acc.plot([p[0] for p in pts], [p[2] for p in pts], markersize=3, label=REFERENCE_RULES[rules], **style)
            lat.axvline(sat, color=style["color"], linewidth=0.8, linestyle=":")
        lat.plot([float(r["offered"]) for r in ok], [float(r["latency"]) for r in ok], "kx", markersize=8,
                 label="reference simulator")
        acc.plot([float(r["offered"]) for r in ref if r["accepted"]], [float(r["accepted"]) for r in ref if r["accepted"]],
                 "kx", markersize=8, label="reference simulator")
        lat.axvspan(ref_low - 0.002, ref_high + 0.002, color="black", alpha=0.15, label="reference saturation")
        lat.set(title=f"{title}: latency (stable runs)", xlabel="offered load (flits/node/cycle)",
                ylabel="average packet latency (cycles)", ylim=(0, UNSTABLE_LATENCY))
        acc.set(title=f"{title}: accepted throughput", xlabel="offered load (flits/node/cycle)",
                ylabel="accepted load (flits/node/cycle)")
        for ax in (lat, acc):
            ax.grid(alpha=0.3)
            ax.legend(fontsize=7, loc="upper left")
    with open(out / "saturation.csv", "w", newline="") as f:
        f.write(f"# saturation_load: highest swept load before the first whose mean latency passes {UNSTABLE_LATENCY} "
                "cycles (the reference's abort rule); vs_reference: against the nearer end of the reference's stated "
                "range (1 = inside); past: the swept load nearest 1.5 x saturation (at most the highest).\n")
        writer = csv.DictWriter(f, fieldnames=list(table[0]))
        writer.writeheader()
        writer.writerows(table)
    print(f"plot: wrote {out / 'saturation.csv'}")
    fig.suptitle(f"This harness beside the reference simulator (uniform traffic, mean of {seeds} seeds; "
                 "dotted: saturation loads)")
    return fig


PLOTS = {"fattree_load": fattree_load, "fattree_ramp": fattree_ramp, "perfbound": perfbound, "reference": reference}


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("experiment", choices=sorted(PLOTS))
    parser.add_argument("--out", type=Path, help="the sweep's folder (default out/sweeps/<experiment>)")
    args = parser.parse_args()
    out = args.out or ROOT / "out" / "sweeps" / args.experiment
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
