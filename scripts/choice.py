"""An experiment file's choices (its `choices:` list): which value of a label, among a sweep's runs,
meets every requirement and ranks first, decided from the summary the way a figure is drawn, and
written as NAME.csv (every candidate, whether it passes, what failed, its ranking numbers).

  choices:
    - name: FILE                  # FILE.csv
      title: what is chosen
      label: LABEL                # the label whose value is chosen (each value a candidate)
      where: {LABEL: value}       # the candidates' runs
      relative_to: {LABEL: value} # optional: the base run of each run (same seed), for ratios
      require:                    # every candidate run at these points passes, each seed alone
        where: {LABEL: value or [values]}
        runs: {COLUMN: value}     # e.g. verdict: ok
        at_most: {FIELD: limit}   # this run's field / its base run's (without relative_to: the field)
        at_least: {FIELD: limit}
      rank:                       # of those passing, best first; the next key breaks a tie
        - {y: FIELD, where: {...}, as: ratio (against the base run), stat: mean | max | min (over the
           runs named, every seed; default mean), prefer: lowest | highest, digits: N (rounded to N
           digits before comparing)}
Candidates equal on every key are all chosen (their runs may well be the same)."""
import csv
import math
from pathlib import Path

from figure import FigureError, matches, number, same

CHOICE_KEYS = {"name", "title", "label", "where", "relative_to", "require", "rank"}
REQUIRE_KEYS = {"where", "runs", "at_most", "at_least"}
RANK_KEYS = {"y", "where", "as", "stat", "prefer", "digits"}
STATS = {"mean": lambda v: math.fsum(v) / len(v), "max": max, "min": min}


def check(choices, where):
    """Validates an experiment file's `choices:` (when the file loads, before any run)."""
    if not isinstance(choices, list):
        raise FigureError(f"{where}: choices: expected a list")
    for i, spec in enumerate(choices):
        at = f"{where}: choices[{i}]"
        if not isinstance(spec, dict) or not {"name", "label", "rank"} <= set(spec):
            raise FigureError(f"{at}: expected a mapping with name, label and rank")
        for mapping, allowed, what in ((spec, CHOICE_KEYS, ""), (spec.get("require") or {}, REQUIRE_KEYS, "require: ")):
            unknown = sorted(set(mapping) - allowed)
            if unknown:
                raise FigureError(f"{at}: {what}unknown key '{unknown[0]}'; allowed: {', '.join(sorted(allowed))}")
        for key in ("at_most", "at_least"):
            for field, limit in ((spec.get("require") or {}).get(key) or {}).items():
                if number(limit) is None:
                    raise FigureError(f"{at}: require: {key}: {field}: {limit!r} is not a number")
        if not isinstance(spec["rank"], list) or not spec["rank"]:
            raise FigureError(f"{at}: rank: expected a non-empty list")
        for k, key in enumerate(spec["rank"]):
            if not isinstance(key, dict) or "y" not in key or set(key) - RANK_KEYS:
                raise FigureError(f"{at}: rank[{k}]: expected {{y, ...}} of {', '.join(sorted(RANK_KEYS))}")
            if key.get("stat", "mean") not in STATS or key.get("prefer", "lowest") not in ("lowest", "highest"):
                raise FigureError(f"{at}: rank[{k}]: stat is one of {', '.join(STATS)}; prefer lowest or highest")
            if key.get("as", "ratio") != "ratio" or ("as" in key and "relative_to" not in spec):
                raise FigureError(f"{at}: rank[{k}]: as: ratio (needs the choice's relative_to)")


def value(summary, run, field, relative_to):
    """A run's field, or its ratio to the base run's when relative_to is given; None if missing."""
    mine = number(run.get(field))
    if relative_to is None or mine is None:
        return mine
    base = number(summary.base(run, relative_to).get(field))
    return mine / base if base else None


def decide(spec, summary):
    """[{candidate's row}] in the summary's order, the chosen one marked."""
    label, relative_to = spec["label"], spec.get("relative_to")
    if label not in summary.labels:
        raise FigureError(f"choice {spec['name']}: label '{label}' is not a label of {summary.path}")
    runs = [r for r in summary.rows if matches(r, spec.get("where"))
            and not (relative_to and all(same(r.get(k, ""), "" if v is None else v) for k, v in relative_to.items()))]
    require = spec.get("require") or {}
    rows = []
    for candidate in dict.fromkeys(r[label] for r in runs):
        mine = [r for r in runs if r[label] == candidate]
        failed = []
        for run in (r for r in mine if matches(r, require.get("where"))):
            at = ", ".join([f"{k} {run[k]}" for k in summary.labels if k != label and run[k] != ""] + [f"seed {run['seed']}"])
            if not matches(run, require.get("runs")):
                failed.append(f"{at}: {', '.join(f'{k} {run.get(k)}' for k in require['runs'])}")
            for key, bad in (("at_most", lambda v, lim: v > lim), ("at_least", lambda v, lim: v < lim)):
                for field, limit in (require.get(key) or {}).items():
                    v = value(summary, run, field, relative_to)
                    if v is None or bad(v, float(limit)):
                        failed.append(f"{at}: {field}{' ratio' if relative_to else ''} "
                                      f"{'missing' if v is None else f'{v:.4g}'} ({key.replace('_', ' ')} {limit})")
        row = {label: candidate, "passes": not failed, "failed": f"{len(failed)}: {failed[0]}" if failed else "",
               "chosen": False}
        for k, key in enumerate(spec["rank"]):
            values = [value(summary, r, key["y"], relative_to if key.get("as") else None)
                      for r in mine if matches(r, key.get("where"))]
            values = [v for v in values if v is not None]
            row[rank_column(key)] = STATS[key.get("stat", "mean")](values) if values else None
        rows.append(row)
    passing = [r for r in rows if r["passes"] and all(r[rank_column(k)] is not None for k in spec["rank"])]
    if passing:
        ranking = lambda r: tuple(order(r[rank_column(k)], k) for k in spec["rank"])  # noqa: E731
        best = min(map(ranking, passing))
        for row in passing:
            row["chosen"] = ranking(row) == best  # (candidates equal on every key are all chosen)
    return rows


def rank_column(key):
    where = "".join(f" {k} {v}" for k, v in (key.get("where") or {}).items())
    return f"{key.get('stat', 'mean')} {key['y']}{' ratio' if key.get('as') else ''}{where}"


def order(v, key):
    if "digits" in key:
        v = round(v, int(key["digits"]))
    return v if key.get("prefer", "lowest") == "lowest" else -v


def write(spec, summary, out_dir):
    """Decides a choice and writes NAME.csv; returns (path, the chosen values, passing count)."""
    rows = decide(spec, summary)
    path = Path(out_dir) / f"{spec['name']}.csv"
    with open(path, "w", newline="") as f:
        f.write(f"# {spec.get('title', spec['name'])}: every candidate, whether it meets every requirement "
                "(failed: how many runs did not, and the first), its ranking numbers; chosen: the best-ranked of those passing "
                "(and any equal to it on every number)\n")
        writer = csv.DictWriter(f, fieldnames=list(rows[0]) if rows else [spec["label"]])
        writer.writeheader()
        for row in rows:
            writer.writerow({k: round(v, 6) if isinstance(v, float) else v for k, v in row.items()})
    chosen = [r[spec["label"]] for r in rows if r.get("chosen")]
    return path, chosen, sum(r["passes"] for r in rows)
