# SPDX-License-Identifier: Apache-2.0
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
        where: {LABEL: value or [values]}   # a candidate without a run at one of them fails
        runs: {COLUMN: value}     # e.g. verdict: ok
        at_most: {FIELD: limit}   # this run's field / its base run's (without relative_to: the field)
        at_least: {FIELD: limit}
      rank:                       # of those passing, best first; the next key breaks a tie
        - {y: FIELD, where: {...}, as: ratio (against the base run), stat: mean | max | min (over the
           runs named, every seed; default mean), prefer: lowest | highest, digits: N (rounded to N
           digits before comparing)}
Candidates equal on every key are all chosen (their runs may well be the same). A label or column
the summary does not have is refused, naming it."""
import csv
import math
from pathlib import Path

from figure import TRANSFORMS, FigureError, matches, measure, number, same

CHOICE_KEYS = {"name", "title", "label", "where", "relative_to", "require", "rank"}
REQUIRE_KEYS = {"where", "runs", "at_most", "at_least"}
RANK_KEYS = {"y", "where", "as", "stat", "prefer", "digits"}
STATS = {"mean": lambda v: math.fsum(v) / len(v), "max": max, "min": min}


def check(choices, where):
    """Validates an experiment file's `choices:` (when the file loads, before any run)."""
    if not isinstance(choices, list):
        raise FigureError(f"{where}: choices: expected a list")
    names = set()
    for i, spec in enumerate(choices):
        at = f"{where}: choices[{i}]"
        if not isinstance(spec, dict) or not {"name", "label", "rank"} <= set(spec):
            raise FigureError(f"{at}: expected a mapping with name, label and rank")
        if not isinstance(spec["name"], str) or not spec["name"] or "/" in spec["name"] or spec["name"] in names:
            raise FigureError(f"{at}: name: {spec['name']!r}: expected a file name, not another choice's")
        names.add(spec["name"])
        require = spec.get("require", {})
        for key, mapping in (("", spec), ("relative_to", spec.get("relative_to", {})), ("where", spec.get("where", {})),
                             ("require", require)):
            if not isinstance(mapping, dict):
                raise FigureError(f"{at}: {key}: expected a mapping")
        for mapping, allowed, what in ((spec, CHOICE_KEYS, ""), (require, REQUIRE_KEYS, "require: ")):
            unknown = sorted(set(mapping) - allowed)
            if unknown:
                raise FigureError(f"{at}: {what}unknown key '{unknown[0]}'; allowed: {', '.join(sorted(allowed))}")
        for key in ("where", "runs", "at_most", "at_least"):
            if not isinstance(require.get(key, {}), dict):
                raise FigureError(f"{at}: require: {key}: expected a mapping")
        for key in ("at_most", "at_least"):
            for field, limit in require.get(key, {}).items():
                if isinstance(limit, bool) or number(limit) is None:
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
            if not isinstance(key.get("where", {}), dict):
                raise FigureError(f"{at}: rank[{k}]: where: expected a mapping")
            digits = key.get("digits", 0)
            if isinstance(digits, bool) or not isinstance(digits, int) or not 0 <= digits <= 12:
                raise FigureError(f"{at}: rank[{k}]: digits: {digits!r}: expected a whole number 0-12")


def check_names(spec, summary):
    """Every label and column the choice names is the summary's (a typo would match no run)."""
    require = spec.get("require", {})
    labels = [spec["label"], *spec.get("where", {}), *spec.get("relative_to", {}), *require.get("where", {})]
    labels += [name for key in spec["rank"] for name in key.get("where", {})]
    columns = [*require.get("runs", {}), *require.get("at_most", {}), *require.get("at_least", {})]
    columns += [key["y"] for key in spec["rank"]]
    for name in labels:
        if name not in summary.labels:
            raise FigureError(f"choice {spec['name']}: '{name}' is not a label of {summary.path} "
                              f"(labels: {', '.join(summary.labels)})")
    for name in columns:
        if name not in summary.rows[0]:
            raise FigureError(f"choice {spec['name']}: '{name}' is not a column of {summary.path}")


def value(summary, run, field, relative_to):
    """A run's field, or its ratio to its base run's when relative_to is given; None if missing."""
    return measure(summary, run, field, TRANSFORMS["ratio"] if relative_to else None, relative_to)


def failures(spec, summary, label, mine):
    """What a candidate's runs fail of the requirements, each seed alone (its own text each)."""
    require, relative_to = spec.get("require", {}), spec.get("relative_to")
    found = []
    for key, wanted in require.get("where", {}).items():  # (every required point has a run)
        for v in wanted if isinstance(wanted, list) else [wanted]:
            if not any(same(r[key], v) for r in mine):
                found.append(f"no run at {key} {v}")
    for run in (r for r in mine if matches(r, require.get("where"))):
        at = ", ".join([f"{k} {run[k]}" for k in summary.labels if k != label and run[k] != ""] + [f"seed {run['seed']}"])
        if not matches(run, require.get("runs")):
            found.append(f"{at}: {', '.join(f'{k} {run.get(k)}' for k in require['runs'])}")
        for key, bad in (("at_most", lambda v, lim: v > lim), ("at_least", lambda v, lim: v < lim)):
            for field, limit in require.get(key, {}).items():
                v = value(summary, run, field, relative_to)
                if v is None or bad(v, float(limit)):
                    found.append(f"{at}: {field}{' ratio' if relative_to else ''} "
                                 f"{'missing' if v is None else f'{v:.4g}'} ({key.replace('_', ' ')} {limit})")
    return found


def decide(spec, summary):
    """[{candidate's row}] in the summary's order, the chosen ones marked."""
    check_names(spec, summary)
    label, relative_to = spec["label"], spec.get("relative_to")
    runs = [r for r in summary.rows if matches(r, spec.get("where"))
            and not (relative_to and all(same(r.get(k, ""), "" if v is None else v) for k, v in relative_to.items()))]
    if not runs:
        raise FigureError(f"choice {spec['name']}: no runs match where {spec.get('where')} in {summary.path}")
    columns = [rank_column(k, key) for k, key in enumerate(spec["rank"])]
    rows = []
    for candidate in dict.fromkeys(r[label] for r in runs):
        mine = [r for r in runs if r[label] == candidate]
        failed = failures(spec, summary, label, mine)
        row = {label: candidate, "passes": not failed, "failed": f"{len(failed)}: {failed[0]}" if failed else "",
               "chosen": False}
        for column, key in zip(columns, spec["rank"]):
            values = [value(summary, r, key["y"], relative_to if key.get("as") else None)
                      for r in mine if matches(r, key.get("where"))]
            values = [v for v in values if v is not None]
            row[column] = STATS[key.get("stat", "mean")](values) if values else None
        rows.append(row)
    passing = [r for r in rows if r["passes"] and all(r[c] is not None for c in columns)]
    if passing:
        ranking = lambda r: tuple(order(r[c], key) for c, key in zip(columns, spec["rank"]))  # noqa: E731
        best = min(map(ranking, passing))
        for row in passing:
            row["chosen"] = ranking(row) == best  # (candidates equal on every key are all chosen)
    return rows


def rank_column(index, key):
    """The CSV column of a rank key: its place, statistic, field and the points it reads."""
    where = "".join(f" {k} {'/'.join(map(str, v)) if isinstance(v, list) else v}" for k, v in key.get("where", {}).items())
    return f"rank {index + 1}: {key.get('stat', 'mean')} {key['y']}{' ratio' if key.get('as') else ''}{where}"


def order(v, key):
    if "digits" in key:
        v = round(v, key["digits"])
    return v if key.get("prefer", "lowest") == "lowest" else -v


def write(spec, summary, out_dir):
    """Decides a choice and writes NAME.csv; returns (path, the chosen values, passing count)."""
    rows = decide(spec, summary)
    path = Path(out_dir) / f"{spec['name']}.csv"
    with open(path, "w", newline="") as f:
        f.write(f"# {spec.get('title', spec['name'])}: every candidate, whether it meets every requirement "
                "(failed: how many checks did not, and the first), its ranking numbers; chosen: the best-ranked of "
                "those passing (and any equal to it on every number)\n")
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        for row in rows:
            writer.writerow({k: round(v, 6) if isinstance(v, float) else v for k, v in row.items()})
    chosen = [r[spec["label"]] for r in rows if r.get("chosen")]
    return path, chosen, sum(r["passes"] for r in rows)
