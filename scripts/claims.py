#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Claims as data: each paper's statements beside what this project measured, recomputed from the
bundled results (sim/experiments/<mechanism>/claims.yaml; docs/experiments.md, "Claims").

  scripts/claims.py [FILE ...]         recompute every claim (or those of FILE); exit 1 if a
                                      recorded value or verdict no longer holds, 2 if a file is malformed
  scripts/claims.py --show [FILE ...]  also print each claim as recomputed (value, interval, tests)
The docs' fidelity tables are made from these files by scripts/docs.py.

A claims file:

  paper: authors and title, as a reader cites it
  results: the folder its results files are in (from the repository's root)
  doc: the page that shows its table (scripts/docs.py fills "<!-- claims: NAME -->", NAME its folder)
  claims:
    - id: a short name
      where: the paper's section, figure or table
      paper: what the paper states
      paper_value: its number in the unit of `ours` (null: a statement without one)
      experiment: the experiment file (sim/experiments/) that made the results
      results: the results file (in `results`) that `ours` reads
      ours: an expression over the results (below), mean over seeds with a 95 % interval
      value: ours as recorded, to the digits the docs show
      unit: what ours counts (text)
      tolerance: the distance from paper_value still called reproduced: a number, or "N %" of it
      holds: for a statement without a number, the expression that must be true to reproduce it
      shape: the expression that must be true for "reproduced in shape"
      verdict: reproduced | reproduced in shape | departs (recomputed: the first whose test holds)
      values: {NAME: expression} more measured numbers, for shape, holds, shown and reason
      shown: how the ours cell reads ("{ours:.3f}" style fields of ours and values; default: ours)
      reason: why, with measured numbers as {NAME:.2f} fields

Expressions: Python arithmetic and comparisons of numbers and of these, per seed:
  run(FIELD, over=KEYS, table=FILE, KEY=VALUE, ...): FIELD of the runs whose columns match, one
      number per seed (per seed and value of the `over` columns); the results file's rows are runs
  most(S), least(S), mean(S): the largest, smallest or mean over a series' `over` columns, per seed
  highest(S), lowest(S): the seeds of the point (its `over` values) with the highest or lowest mean
  last_below(S, LIMIT): per seed, the value of S's one `over` column at the last point before the
      first whose number reaches LIMIT (e.g. the highest load before latency passes 500 cycles)
  S + T, S / T ...: seed by seed and point by point; a series over fewer columns pairs each of its
      points with every point of the other that has the same values there (and seed)
In `ours` and later values a name of `values` is its series; in holds, shape, shown and reason it
is its mean (NAME.lo, NAME.hi: its interval; `ours` and `paper` too). reproduced: paper_value inside
ours' 95 % interval, or ours' whole interval within the tolerance of it (or `holds`); reproduced in
shape: `shape` holds. `value` is checked to the digits it is written with (0.50: two)."""
import argparse
import ast
import itertools
import math
import operator
import sys
from pathlib import Path

import experiment
import figure
from seed_stats import describe

try:
    import yaml
except ImportError:
    yaml = None

ROOT = Path(__file__).resolve().parent.parent
VERDICTS = ("reproduced", "reproduced in shape", "departs")
FILE_KEYS = {"paper", "results", "doc", "claims"}
CLAIM_KEYS = {"id", "where", "paper", "paper_value", "experiment", "results", "ours", "value", "unit",
              "tolerance", "holds", "shape", "verdict", "values", "shown", "reason"}
REQUIRED = {"id", "where", "paper", "experiment", "results", "ours", "value", "verdict", "reason"}


class ClaimError(Exception):
    """A malformed claims file or an expression that cannot be computed: the message says where."""


def relative(path):
    return path.relative_to(ROOT) if path.is_relative_to(ROOT) else path


class Series:
    """Numbers keyed by (the `over` columns' values..., seed)."""

    def __init__(self, over, values):
        self.over, self.values = tuple(over), values

    def seeds(self):
        return {key[-1] for key in self.values}

    def _combine(self, other, op):
        if not isinstance(other, Series):
            return Series(self.over, {k: op(v, other) for k, v in self.values.items()})
        if self.seeds() != other.seeds():
            raise ClaimError(f"cannot pair runs of seeds {sorted(self.seeds())} with runs of seeds "
                             f"{sorted(other.seeds())}: each side needs the same seeds")
        if set(other.over) <= set(self.over):  # each point pairs with the other's point it names
            return Series(self.over, {k: op(v, other._at(self.over, k)) for k, v in self.values.items()})
        if set(self.over) < set(other.over):
            return Series(other.over, {k: op(self._at(other.over, k), v) for k, v in other.values.items()})
        raise ClaimError(f"cannot pair runs over {', '.join(self.over)} with runs over {', '.join(other.over)}")

    def _at(self, over, key):
        """This series' number for the point `key` of a series over `over` (a superset of ours)."""
        own = tuple(key[over.index(name)] for name in self.over) + key[-1:]
        if own not in self.values:
            raise ClaimError(f"the series over {', '.join(self.over) or 'seeds'} has no run "
                             f"{dict(zip(self.over + ('seed',), own))} to pair with {dict(zip(over + ('seed',), key))}")
        return self.values[own]

    def __add__(self, o): return self._combine(o, operator.add)
    def __sub__(self, o): return self._combine(o, operator.sub)
    def __mul__(self, o): return self._combine(o, operator.mul)
    def __truediv__(self, o): return self._combine(o, operator.truediv)
    def __radd__(self, o): return self._combine(o, lambda a, b: b + a)
    def __rsub__(self, o): return self._combine(o, lambda a, b: b - a)
    def __rmul__(self, o): return self._combine(o, lambda a, b: b * a)
    def __rtruediv__(self, o): return self._combine(o, lambda a, b: b / a)
    def __neg__(self): return self._combine(-1, operator.mul)
    def __abs__(self): return Series(self.over, {k: abs(v) for k, v in self.values.items()})

    def pick(self, choose):
        """The seeds of the point (value of the `over` columns) whose mean `choose` (max, min) picks."""
        points = {}
        for key, value in self.values.items():
            points.setdefault(key[:-1], {})[key[-1:]] = value
        chosen = choose(points, key=lambda p: math.fsum(points[p].values()) / len(points[p]))
        return Series((), points[chosen])

    def last_below(self, limit):
        """Per seed, the `over` value of the last point (in numeric order) before the first whose
        number reaches limit, or of the last point if none does."""
        if len(self.over) != 1:
            raise ClaimError(f"last_below needs a series over one column, not over {', '.join(self.over) or 'seeds'}")
        per_seed = {}
        for (point, seed), value in sorted(self.values.items(), key=lambda kv: (figure.number(kv[0][0]), kv[0][1])):
            per_seed.setdefault((seed,), []).append((point, value))
        result = {}
        for seed, points in per_seed.items():
            below = [figure.number(p) for p, _ in itertools.takewhile(lambda pv: pv[1] < limit, points)]
            if not below:
                raise ClaimError(f"last_below: seed {seed[0]}'s first point {points[0][0]} already reaches {limit}")
            result[seed] = below[-1]
        return Series((), result)

    def reduce(self, how):
        per_seed = {}
        for key, value in self.values.items():
            per_seed.setdefault(key[-1:], []).append(value)
        return Series((), {k: how(v) for k, v in per_seed.items()})


class Measured(float):
    """A number with its 95 % interval (lo = hi = itself for one sample or a plain number) and n."""

    def __new__(cls, value, lo=None, hi=None, n=1):
        self = super().__new__(cls, value)
        self.lo, self.hi, self.n = (value if lo is None else lo), (value if hi is None else hi), n
        return self


def measured(value):
    if isinstance(value, Series):
        if value.over:
            raise ClaimError(f"the result is still per {', '.join(value.over)}: reduce it with most, least or mean")
        samples = list(value.values.values())
        n, mean, _, half = describe(samples)
        return Measured(mean, mean - half, mean + half, n) if n > 1 else Measured(mean)
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return Measured(value)
    raise ClaimError(f"the result is not a number: {value!r}")


ALLOWED_NODES = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Compare, ast.BoolOp, ast.Call, ast.keyword,
                 ast.Constant, ast.Name, ast.Load, ast.Attribute, ast.List, ast.Tuple, ast.operator,
                 ast.unaryop, ast.cmpop, ast.boolop)


class Context:
    """The functions an expression may call, over one claim's results folder."""

    def __init__(self, folder, default_table):
        self.folder, self.default = folder, default_table
        self.tables = {}

    def table(self, name):
        if name not in self.tables:
            path = self.folder / name
            if not path.is_file():
                raise ClaimError(f"results file {relative(path)} is missing")
            self.tables[name] = figure.read_rows(path)
        return self.tables[name]

    def run(self, field, over=(), table=None, **filters):
        over = (over,) if isinstance(over, str) else tuple(over)
        rows = self.table(table or self.default)
        values = {}
        for row in rows:
            if figure.matches(row, filters):
                key = tuple(row.get(name, "") for name in over) + (row.get("seed", ""),)
                if key in values:
                    raise ClaimError(f"run({field!r}, {filters}): more than one run for {dict(zip(over + ('seed',), key))}: "
                                     "name more columns, or list them in over=")
                try:
                    values[key] = float(row[field])
                except (KeyError, ValueError):
                    raise ClaimError(f"run({field!r}, {filters}): {field!r} is not a number in every run "
                                     f"(columns: {', '.join(row)})") from None
        if not values:
            raise ClaimError(f"run({field!r}, {filters}): no run matches in {table or self.default}")
        return Series(over, values)

    def names(self, values):
        return {"run": self.run, "most": lambda s: s.reduce(max), "least": lambda s: s.reduce(min),
                "mean": lambda s: s.reduce(lambda v: math.fsum(v) / len(v)), "highest": lambda s: s.pick(max),
                "lowest": lambda s: s.pick(min), "last_below": lambda s, limit: s.last_below(limit), "abs": abs,
                **values}


def evaluate(text, context, values, where):
    try:
        tree = ast.parse(str(text), mode="eval")
    except SyntaxError:
        raise ClaimError(f"{where}: '{text}' is not an expression") from None
    for node in ast.walk(tree):
        if not isinstance(node, ALLOWED_NODES) or isinstance(node, ast.Attribute) and node.attr not in ("lo", "hi"):
            raise ClaimError(f"{where}: '{text}': {type(node).__name__} is not allowed in a claim's expression")
    try:
        return eval(compile(tree, where, "eval"), {"__builtins__": {}}, context.names(values))
    except ClaimError as e:
        raise ClaimError(f"{where}: {e}") from None
    except (NameError, TypeError, ZeroDivisionError, ValueError) as e:
        raise ClaimError(f"{where}: '{text}': {e}") from None


class Written(float):
    """A number of a claims file with the text it was written as (44.0 has one decimal, 44 none)."""

    def __new__(cls, value, text):
        self = super().__new__(cls, value)
        self.text = text
        return self


class Loader(yaml.SafeLoader if yaml else object):
    """YAML's safe loader, keeping each number's text (a recorded value is checked to its digits)."""


def written_number(loader, node):
    text = loader.construct_scalar(node)
    parse = yaml.SafeLoader.construct_yaml_int if node.tag.endswith(":int") else yaml.SafeLoader.construct_yaml_float
    return Written(parse(loader, node), text)


if yaml:
    for tag in ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float"):
        Loader.add_constructor(tag, written_number)


def decimals(value):
    """Digits after the point of a number as written in its file (or as Python prints it)."""
    text = getattr(value, "text", None) or repr(value)
    if "e" in text.lower():
        raise ClaimError(f"{text}: write a recorded value without an exponent")
    return len(text.split(".")[1]) if "." in text else 0


class Claim:
    def __init__(self, spec, where):
        self.where = where
        if not isinstance(spec, dict):
            raise ClaimError(f"{where}: expected a mapping")
        unknown = sorted(set(spec) - CLAIM_KEYS)
        missing = sorted(REQUIRED - set(spec))
        if unknown or missing:
            raise ClaimError(f"{where}: " + (f"unknown key '{unknown[0]}'; allowed: {', '.join(sorted(CLAIM_KEYS))}"
                                             if unknown else f"'{missing[0]}' is missing"))
        self.spec = spec
        if spec["verdict"] not in VERDICTS:
            raise ClaimError(f"{where}: verdict '{spec['verdict']}': expected one of {', '.join(VERDICTS)}")
        if not isinstance(spec["value"], (int, float)) or isinstance(spec["value"], bool):
            raise ClaimError(f"{where}: value: {spec['value']!r}: expected a number (ours as recorded)")
        if spec.get("paper_value") is not None and not isinstance(spec["paper_value"], (int, float)):
            raise ClaimError(f"{where}: paper_value: expected a number or null")
        if str(spec["experiment"]) not in experiment.bundled():
            raise ClaimError(f"{where}: experiment '{spec['experiment']}': no bundled experiment of that name "
                             "(sim/experiments/*/NAME.yaml)")
        self.id = spec["id"]

    def compute(self, folder):
        """{ours, values, verdict, tests}: everything recomputed from the results."""
        context = Context(folder, self.spec["results"])
        raw = {}  # (per seed: a later expression pairs them seed by seed)
        values = self.spec.get("values") or {}
        if not isinstance(values, dict):
            raise ClaimError(f"{self.where}: values: expected a mapping of names to expressions")
        for name, text in values.items():
            raw[name] = evaluate(text, context, raw, f"{self.where}: values: {name}")
        ours = measured(evaluate(self.spec["ours"], context, raw, f"{self.where}: ours"))
        paper = self.spec.get("paper_value")
        names = {name: measured(value) for name, value in raw.items()  # (a per-point part is not shown)
                 if not (isinstance(value, Series) and value.over)}
        names.update(ours=ours, paper=paper)
        tolerance = self.spec.get("tolerance")
        if tolerance is not None and paper is None:
            raise ClaimError(f"{self.where}: tolerance: a tolerance needs the paper's value (paper_value)")
        if isinstance(tolerance, str) and tolerance.strip().endswith("%"):
            tolerance = abs(paper) * float(tolerance.strip()[:-1]) / 100
        elif tolerance is not None and not isinstance(tolerance, (int, float)):
            raise ClaimError(f"{self.where}: tolerance: {tolerance!r}: expected a number or 'N %'")
        # The paper's value inside our interval, or our whole interval within its tolerance.
        inside = paper is not None and ours.lo <= paper <= ours.hi and ours.n > 1
        close = paper is not None and tolerance is not None and \
            paper - tolerance <= ours.lo and ours.hi <= paper + tolerance
        holds = "holds" in self.spec and bool(evaluate(self.spec["holds"], context, names, f"{self.where}: holds"))
        shape = "shape" in self.spec and bool(evaluate(self.spec["shape"], context, names, f"{self.where}: shape"))
        verdict = VERDICTS[0] if inside or close or holds else VERDICTS[1] if shape else VERDICTS[2]
        return {"ours": ours, "values": names, "verdict": verdict,
                "tests": {"inside": inside, "close": close, "holds": holds, "shape": shape}}

    def problems(self, result):
        found = []
        recorded = self.spec["value"]
        if round(result["ours"], decimals(recorded)) != round(recorded, decimals(recorded)) and \
                not math.isclose(result["ours"], recorded, rel_tol=1e-9):
            found.append(f"value {getattr(recorded, 'text', recorded)} recorded, {result['ours']:.6g} measured")
        if result["verdict"] != self.spec["verdict"]:
            found.append(f"verdict '{self.spec['verdict']}' recorded, '{result['verdict']}' measured "
                         f"(tests: {result['tests']})")
        return found

    def interval_shown(self, result):
        """A row of several seeds shows its interval: `shown` must name ours.lo and ours.hi."""
        shown = str(self.spec.get("shown", ""))
        if result["ours"].n > 1 and shown and not ("ours.lo" in shown and "ours.hi" in shown):
            raise ClaimError(f"{self.where}: shown: ours has {result['ours'].n} seeds; show its interval "
                             "({ours.lo...} and {ours.hi...})")

    def text(self, key, result, default=""):
        template = self.spec.get(key, default)
        try:
            return str(template).strip().format(**result["values"])
        except (KeyError, AttributeError, ValueError, IndexError) as e:
            raise ClaimError(f"{self.where}: {key}: cannot fill '{template}': {e!r}") from None


class ClaimsFile:
    def __init__(self, path):
        self.path = Path(path).resolve()
        if yaml is None:
            raise ClaimError("claims files need PyYAML (Debian: python3-yaml, which scripts/setup.sh installs)")
        try:
            spec = yaml.load(self.path.read_text(), Loader=Loader)
        except (OSError, yaml.YAMLError, UnicodeDecodeError) as e:
            raise ClaimError(f"{self.path}: cannot read: {e}") from None
        if not isinstance(spec, dict):
            raise ClaimError(f"{self.path}: expected a mapping of {', '.join(sorted(FILE_KEYS))}")
        for name in sorted(set(spec) ^ FILE_KEYS):
            raise ClaimError(f"{self.path}: " + (f"unknown key '{name}'" if name in spec else f"'{name}' is missing")
                             + f"; the keys: {', '.join(sorted(FILE_KEYS))}")
        self.paper, self.doc = str(spec["paper"]).strip(), ROOT / spec["doc"]
        self.folder = ROOT / spec["results"]
        self.name = self.path.parent.name
        if not isinstance(spec["claims"], list) or not spec["claims"]:
            raise ClaimError(f"{self.path}: claims: expected a non-empty list")
        self.shown = relative(self.path)
        self.claims = [Claim(c, f"{self.shown}: claims[{i}]" + (f" ({c.get('id')})" if isinstance(c, dict) else ""))
                       for i, c in enumerate(spec["claims"])]
        ids = [c.id for c in self.claims]
        if len(set(ids)) != len(ids):
            raise ClaimError(f"{self.path}: two claims share an id")

    def table(self, results):
        """The fidelity table (Markdown) of this paper's claims."""
        lines = [f"Claims of {self.paper}, recomputed from `{relative(self.folder)}/` by "
                 f"`scripts/claims.py` (`{self.shown}`; ours: mean over seeds "
                 "[95 % interval]):", "",
                 "| the paper | paper | ours | verdict | why |", "|---|---:|---|---|---|"]
        for claim in self.claims:
            result = results[claim.id]
            s = claim.spec
            ours = result["ours"]
            unit = f" {s['unit']}" if s.get("unit") else ""
            claim.interval_shown(result)
            shown = claim.text("shown", result, "") or fmt(ours, decimals(s["value"])) + unit
            if ours.n > 1 and not s.get("shown"):
                shown += " [{}, {}]".format(*interval_text(ours, decimals(s["value"])))
            if ours.n == 1:
                shown += " (one run)"
            paper_value = "" if s.get("paper_value") is None else fmt(s["paper_value"], decimals(s["paper_value"])) + unit
            if s.get("tolerance") is not None and paper_value:
                paper_value += f" ± {s['tolerance']}"
            cells = [f"{str(s['paper']).strip()} ({s['where']}; `{s['experiment']}`)", paper_value, shown,
                     f"**{result['verdict']}**", claim.text("reason", result)]
            lines.append("| " + " | ".join(c.replace("|", "\\|").replace("\n", " ") for c in cells) + " |")
        return "\n".join(lines)


def interval_text(ours, digits):
    """lo and hi with the digits that tell them apart (at most three more than the value's)."""
    for d in range(digits, digits + 4):
        lo, hi = fmt(ours.lo, d), fmt(ours.hi, d)
        if lo != hi:
            break
    return lo, hi


def fmt(value, digits):
    text = f"{value:,.{digits}f}"
    return text[1:] if text.startswith("-") and float(text.replace(",", "")) == 0 else text  # no "-0"


def all_files():
    return sorted(experiment.EXPERIMENTS.glob("*/claims.yaml"))


def recompute(files):
    """Per file: {claim id: result}, and the problems found (value or verdict no longer holding)."""
    report, problems = {}, []
    for f in files:
        results = {}
        for claim in f.claims:
            results[claim.id] = claim.compute(f.folder)
            problems += [f"{claim.where}: {p}" for p in claim.problems(results[claim.id])]
        report[f.path] = results
    return report, problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="*", help="claims files (default: every sim/experiments/*/claims.yaml)")
    parser.add_argument("--show", action="store_true", help="print every claim as recomputed")
    args = parser.parse_args()
    try:
        files = [ClaimsFile(p) for p in (args.files or all_files())]
        report, problems = recompute(files)
        for f in files:
            f.table(report[f.path])  # (a template that cannot be filled is an error here, not in docs.py)
            for claim in f.claims if args.show else ():
                r = report[f.path][claim.id]
                o = r["ours"]
                print(f"{f.name}/{claim.id}: ours {o:.6g} [{o.lo:.6g}, {o.hi:.6g}] n={o.n}, paper "
                      f"{claim.spec.get('paper_value')}, {r['verdict']}, tests {r['tests']}")
    except ClaimError as e:
        print(f"claims: {e}", file=sys.stderr)
        return 2
    for p in problems:
        print(f"claims: {p}", file=sys.stderr)
    count = sum(len(f.claims) for f in files)
    print(f"claims: {count} claims of {len(files)} papers recomputed: {len(problems)} no longer hold", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
