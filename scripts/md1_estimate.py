#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""M/D/1 estimates of the latency the fat-tree on/off links add (docs/fattree_onoff.md), beside
what the fattree_grid experiment measured:
  md1.csv       the Minimal Tree alone (every link that may go off is off) against all links on;
  md1_band.csv  every link a packet crosses held at U_off and at U_on (the paper's pairs), against
                all links on, beside the measured extra latency of both meters.
A 4-ary 3-tree of 64 nodes under uniform traffic of 16-flit packets, as the experiment runs it.

  scripts/md1_estimate.py [--summary FILE] [--out DIR]   (default: the bundled summary and its folder)
  scripts/md1_estimate.py --check                        recompute the bundled files, exit 1 if they differ"""
import argparse
import csv
import io
import math
import sys
from pathlib import Path

import figure

ROOT = Path(__file__).resolve().parent.parent
BUNDLED = ROOT / "sim" / "results" / "fattree_onoff"
K, N, PACKET_FLITS = 4, 3, 16


def md1_wait(rho, service):
    """Mean M/D/1 queueing delay (cycles) of a link at utilisation rho serving packets of `service` cycles."""
    return rho * service / (2 * (1 - rho)) if rho < 1 else float("inf")


def climbs():
    """(levels j a packet climbs, the probability it does) for uniform traffic: j >= 1 with
    probability (N - k^j) / (N - 1), one up and one down link crossed at each level below j."""
    nodes = K ** N
    return [(j, (nodes - K ** j) / (nodes - 1)) for j in range(1, N)]


def minimal_tree_extra(load):
    """Extra latency when only the Minimal Tree carries the traffic: all links on share a level's
    traffic over N links, the Minimal Tree over its k^(n-j) links of that level."""
    return sum(2 * crossing * (md1_wait(K ** j * load * crossing, PACKET_FLITS) - md1_wait(load * crossing, PACKET_FLITS))
               for j, crossing in climbs())


def band_extra(u, load):
    """Extra latency when every link crossed between levels runs at utilisation u (the controller
    holds an active link between U_off and U_on), against all links on at this load."""
    return sum(2 * crossing * (md1_wait(max(u, load * crossing), PACKET_FLITS) - md1_wait(load * crossing, PACKET_FLITS))
               for _, crossing in climbs())


def tables(rows):
    """The two tables' text, from the experiment's summary rows."""
    off = {(r["load"], r["seed"]): r for r in rows if r["config"] == "off"}
    latency_off = {}
    for (load, _), r in off.items():
        latency_off.setdefault(float(load), []).append(float(r["latency_avg"]))
    latency_off = {load: math.fsum(v) / len(v) for load, v in sorted(latency_off.items())}
    ratios = {}  # (config, meter, load) -> latency against the mechanism off, per seed
    for r in rows:
        if r["config"] != "off":
            ratios.setdefault((r["config"], r["meter"], float(r["load"])), []).append(
                float(r["latency_avg"]) / float(off[(r["load"], r["seed"])]["latency_avg"]))
    first = io.StringIO()
    first.write("# M/D/1 estimate of the Minimal Tree alone (every extra link off) against the measured latency "
                "without the mechanism (mean over seeds); comparable to runs whose link power is near p_min\n")
    writer = csv.writer(first, lineterminator="\n")
    writer.writerow(["load", "latency_off", "md1_extra_cycles", "md1_latency_ratio"])
    for load, mean in latency_off.items():
        extra = minimal_tree_extra(load)
        writer.writerow([load, round(mean, 2), round(extra, 2), round((mean + extra) / mean, 3)])
    second = io.StringIO()
    second.write("# M/D/1 estimate with every crossed link held at U_off .. U_on (the paper's pairs), against all "
                 "links on at this load, beside the measured extra latency (mean over seeds)\n")
    writer = csv.writer(second, lineterminator="\n")
    writer.writerow(["config", "load", "latency_off", "md1_extra_at_u_off", "md1_extra_at_u_on",
                     "measured_extra_occupancy", "measured_extra_flits"])
    paper_pairs = {tuple(float(u) for u in r["config"].split("-")) for r in rows if r["meter"] == "flits"}
    for u_off, u_on in sorted(paper_pairs, key=lambda p: (round(p[0] + p[1], 3), round(p[1] - p[0], 3))):  # U_avg, hysteresis
        config = f"{u_off}-{u_on}"
        for load, mean in latency_off.items():
            measured = [math.fsum(v) / len(v) for v in (ratios[(config, m, load)] for m in ("occupancy", "flits"))]
            writer.writerow([config, load, round(mean, 2), round(band_extra(u_off, load), 2),
                             round(band_extra(u_on, load), 2)] + [round((m - 1) * mean, 2) for m in measured])
    return {"md1.csv": first.getvalue(), "md1_band.csv": second.getvalue()}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--summary", type=Path, default=BUNDLED / "fattree_grid.csv",
                        help="the fattree_grid experiment's summary.csv (default: the bundled one)")
    parser.add_argument("--out", type=Path, help="where md1.csv and md1_band.csv go (default: the summary's folder)")
    parser.add_argument("--check", action="store_true", help="recompute the bundled files; exit 1 if they differ")
    args = parser.parse_args()
    if not args.summary.is_file():
        print(f"md1_estimate: {args.summary} not found (scripts/sweep.py fattree_grid writes it)", file=sys.stderr)
        return 2
    made = tables(figure.read_rows(args.summary))
    out = args.out or args.summary.parent
    differ = []
    for name, text in made.items():
        if args.check:
            if (out / name).read_text() != text:
                differ.append(name)
        else:
            (out / name).write_text(text)
            print(f"md1_estimate: wrote {out / name}")
    for name in differ:
        print(f"md1_estimate: {out / name} is not what the summary makes (scripts/md1_estimate.py rewrites it)",
              file=sys.stderr)
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
