# SPDX-License-Identifier: Apache-2.0
"""Experiment files (sim/experiments/<mechanism>/<name>.yaml, or a user's own): which icnsim runs a
sweep makes, and which results.json fields its summary keeps. The format (docs/experiments.md):

  description: what the experiment measures (the paper's figure or table)
  scenario: the bundled scenario (or a path) the runs start from (a block may name its own)
  seeds: seeds per point (1, 2, ...: --seeds overrides)
  results: the bundled summary of its runs (sim/results/...; plot.py --bundled draws from it)
  labels: [the columns that name a point, in order]: every run gives each one a value ("" for none)
  fields: the summary's columns after the common ones (COMMON_FIELDS): "OBJECT.*" for every scalar
          member of a results.json object, or {COLUMN: EXPRESSION}, EXPRESSION a results.json path
          (latency.avg) or arithmetic (+ - * /) of paths and numbers, PATH[i] (a list's element) and
          sum(PATH); a path a run lacks gives ""
  figures: its figures (scripts/figure.py says how), drawn by scripts/plot.py
  choices: values of a label it picks by rules (scripts/choice.py says how), decided by scripts/plot.py
  and a block of runs, which nests:
  set:    {key: value} that every run of the block sets
  labels: {label: value} of every run of the block
  axes:   [{label: L, key: K, values: [...]}]: one run per combination (the first varies slowest),
          each value both set as K and shown as L
  runs:   [block, ...]: for each combination of the axes, every one of these blocks
  scenario: the block's own scenario

A block's keys are set after its parent's, its own `set` before its axes'."""
import ast
import itertools
from pathlib import Path

import choice
import figure

try:
    import yaml
except ImportError:
    yaml = None

ROOT = Path(__file__).resolve().parent.parent
EXPERIMENTS = ROOT / "sim" / "experiments"
# In a checkout the scripts run the build's icnsim and write under its out/; installed (in
# share/icnsim/scripts/, with the experiments and bundled results beside them in share/icnsim/sim/),
# they run the icnsim of the same installation and write under out/ of the working folder.
CHECKOUT = (ROOT / "CMakeLists.txt").is_file()
ICNSIM = ROOT / "build" / "icnsim" if CHECKOUT else ROOT.parent.parent / "bin" / "icnsim"
OUT = (ROOT if CHECKOUT else Path.cwd()) / "out"

# Every sweep's summary starts with the point's labels, then these, then the run's folder ("run").
COMMON_FIELDS = {"seed": "seed", "latency_avg": "latency.avg", "latency_p99": "latency.p99",
                 "offered": "throughput.offered", "accepted": "throughput.accepted",
                 "links_relative": "energy.links_relative", "controllers_j": "energy.controllers_j",
                 "net_saving_j": "energy.net_saving_j", "verdict": "verdict", "lost": "packets.lost"}

TOP_KEYS = {"description", "scenario", "seeds", "results", "labels", "fields", "set", "axes", "runs", "figures",
            "choices"}
BLOCK_KEYS = {"scenario", "labels", "set", "axes", "runs"}
AXIS_KEYS = {"label", "key", "values"}


class ExperimentError(Exception):
    """A malformed experiment file: the message names the place and what it allows."""


def find(name):
    """An experiment file: a path, or the name of a bundled one (sim/experiments/*/<name>.yaml)."""
    path = Path(name)
    if path.suffix in (".yaml", ".yml") or path.is_file():
        if not path.is_file():
            raise ExperimentError(f"{name}: no such experiment file")
        return path
    found = bundled_files(name)
    if len(found) > 1:
        raise ExperimentError(f"{name}: more than one bundled experiment of that name: {', '.join(map(str, found))}")
    if not found:
        raise ExperimentError(f"{name}: no bundled experiment of that name; bundled: {', '.join(bundled())}")
    return found[0]


# Beside the experiments, not experiments: the data of scripts/claims.py and scripts/workloads.py.
NOT_EXPERIMENTS = {"claims.yaml", "applications.yaml"}


def bundled_files(pattern="*"):
    """The bundled experiment files."""
    return sorted(p for p in EXPERIMENTS.glob(f"*/{pattern}.yaml") if p.name not in NOT_EXPERIMENTS)


def bundled():
    return [p.stem for p in bundled_files()]


def point_name(labels):
    """A point's run folders are <this>_s<seed>: its labels' values joined, "" left out."""
    return "_".join(f"{v}" for v in labels.values() if v != "").replace("/", "-")


def spelled(value):
    """A value as icnsim spells it (YAML's booleans in lower case)."""
    return ("true" if value else "false") if isinstance(value, bool) else value


def setting(key, value):
    return f"{key}={spelled(value)}"


class Experiment:
    def __init__(self, spec, where):
        self.where = where
        if not isinstance(spec, dict):
            raise ExperimentError(f"{where}: expected a mapping of {', '.join(sorted(TOP_KEYS))}")
        self._keys(spec, TOP_KEYS, where)
        if "labels" not in spec:
            raise ExperimentError(f"{where}: 'labels' is missing")
        self.description = str(spec.get("description", "")).strip()
        self.seeds = spec.get("seeds", 1)
        if not isinstance(self.seeds, int) or isinstance(self.seeds, bool) or self.seeds < 1:
            raise ExperimentError(f"{where}: seeds: {self.seeds!r}: expected a whole number of at least 1")
        self.labels = spec["labels"]
        if not isinstance(self.labels, list) or not all(isinstance(x, str) for x in self.labels) or \
                len(set(self.labels)) != len(self.labels):
            raise ExperimentError(f"{where}: labels: expected a list of distinct column names")
        self.fields = self._fields(spec.get("fields", []))
        self.figures = spec.get("figures", [])
        self.choices = spec.get("choices", [])
        self.results = ROOT / spec["results"] if "results" in spec else None
        try:
            choice.check(self.choices, where)
            figure.check(self.figures, where, {c["name"]: c["label"] for c in self.choices})
        except figure.FigureError as e:
            raise ExperimentError(str(e)) from None
        top_block = {k: v for k, v in spec.items() if k in BLOCK_KEYS - {"labels"}}  # (top: labels are the columns)
        self.plan = self._expand(top_block, None, {}, [], "top")
        if not self.plan:
            raise ExperimentError(f"{where}: the experiment has no runs")
        names = {}
        for labels, _, _ in self.plan:
            name = point_name(labels)
            if name in names:
                raise ExperimentError(f"{where}: two points are both named '{name}' ({names[name]} and {labels}): "
                                      "give them different labels")
            names[name] = labels

    @staticmethod
    def load(name):
        path = find(name)
        if yaml is None:
            raise ExperimentError("experiment files need PyYAML (Debian: python3-yaml, which scripts/setup.sh installs)")
        try:
            spec = yaml.safe_load(path.read_text())
        except (yaml.YAMLError, UnicodeDecodeError) as e:
            raise ExperimentError(f"{path}: not YAML: {e}") from None
        try:
            return Experiment(spec, str(path))
        except RecursionError:
            raise ExperimentError(f"{path}: blocks nest without end (an alias that contains itself?)") from None

    def _keys(self, mapping, allowed, where):
        unknown = sorted(set(mapping) - allowed)
        if unknown:
            raise ExperimentError(f"{self.where}: {where}: unknown key '{unknown[0]}'; allowed: {', '.join(sorted(allowed))}")

    def _fields(self, fields):
        """[(column, parsed expression) or (prefix, None) for OBJECT.*]."""
        if not isinstance(fields, list):
            raise ExperimentError(f"{self.where}: fields: expected a list")
        parsed = []
        for entry in fields:
            if isinstance(entry, str) and entry.endswith(".*"):
                parsed.append((entry[:-2], None))
            elif isinstance(entry, dict) and len(entry) == 1:
                (column, text), = entry.items()
                parsed.append((str(column), parse_expression(str(text), f"{self.where}: fields: {column}")))
            else:
                raise ExperimentError(f"{self.where}: fields: {entry!r}: expected 'OBJECT.*' or {{COLUMN: EXPRESSION}}")
        return parsed

    def _expand(self, block, scenario, labels, sets, where):
        """[(labels, scenario, sets)] of a block under its parent's labels and sets."""
        if not isinstance(block, dict):
            raise ExperimentError(f"{self.where}: {where}: expected a mapping of {', '.join(sorted(BLOCK_KEYS))}")
        self._keys(block, BLOCK_KEYS, where)
        scenario = block.get("scenario", scenario)
        own_labels = block.get("labels", {})
        own_set = block.get("set", {})
        for name, value in (("labels", own_labels), ("set", own_set)):
            if not isinstance(value, dict):
                raise ExperimentError(f"{self.where}: {where}: {name}: expected a mapping")
        axes = block.get("axes", [])
        if not isinstance(axes, list):
            raise ExperimentError(f"{self.where}: {where}: axes: expected a list")
        for i, axis in enumerate(axes):
            at = f"{where}: axes[{i}]"
            if not isinstance(axis, dict):
                raise ExperimentError(f"{self.where}: {at}: expected a mapping of label, key, values")
            self._keys(axis, AXIS_KEYS, at)
            if set(axis) != AXIS_KEYS or not isinstance(axis["values"], list) or not axis["values"]:
                raise ExperimentError(f"{self.where}: {at}: needs label, key and a non-empty list of values")
        if scenario is not None and not isinstance(scenario, str):
            raise ExperimentError(f"{self.where}: {where}: scenario: expected a name or a path")
        for i, axis in enumerate(axes):
            if not isinstance(axis["label"], str) or not isinstance(axis["key"], str):
                raise ExperimentError(f"{self.where}: {where}: axes[{i}]: label and key are names")
        values = [*own_labels.values(), *own_set.values(), *(v for a in axes for v in a["values"])]
        if not all(isinstance(k, str) for k in [*own_labels, *own_set]) or \
                not all(isinstance(v, (str, int, float)) for v in values):
            raise ExperimentError(f"{self.where}: {where}: keys, labels and values are names, numbers or "
                                  "true/false (quote a list such as \"[4,4,4]\")")
        labels = {**labels, **{k: spelled(v) for k, v in own_labels.items()}}
        sets = sets + [setting(k, v) for k, v in own_set.items()]
        runs = block.get("runs")
        if runs is not None and (not isinstance(runs, list) or not runs):
            raise ExperimentError(f"{self.where}: {where}: runs: expected a non-empty list of blocks")
        plan = []
        for combination in itertools.product(*(axis["values"] for axis in axes)):
            point_labels = dict(labels, **{a["label"]: spelled(v) for a, v in zip(axes, combination)})
            point_sets = sets + [setting(a["key"], v) for a, v in zip(axes, combination)]
            if runs:
                for i, sub in enumerate(runs):
                    plan += self._expand(sub, scenario, point_labels, point_sets, f"{where}: runs[{i}]")
            elif scenario is None:
                raise ExperimentError(f"{self.where}: {where}: a run has no scenario (top or block key 'scenario')")
            else:
                plan.append((self._ordered(point_labels, where), str(scenario), point_sets))
        return plan

    def _ordered(self, labels, where):
        """A run's labels in the experiment's column order; each column must have a value."""
        missing = [name for name in self.labels if name not in labels]
        extra = [name for name in labels if name not in self.labels]
        if missing or extra:
            raise ExperimentError(f"{self.where}: {where}: a run " +
                                  (f"gives no value to label '{missing[0]}'" if missing else
                                   f"has label '{extra[0]}', which labels does not list"))
        return {name: labels[name] for name in self.labels}

    def row(self, labels, results, run):
        """The summary row of one run: its labels, the common fields, its folder, the experiment's fields."""
        row = dict(labels)
        for column, path in COMMON_FIELDS.items():
            row[column] = lookup(results, path.split("."), "")
        row["run"] = run
        for column, expression in self.fields:
            if expression is None:
                members = lookup(results, column.split("."), {})
                for key, value in (members.items() if isinstance(members, dict) else ()):
                    if not isinstance(value, (list, dict)):
                        row[f"{column}.{key}"] = value
            else:
                row[column] = evaluate(expression, results)
        row.update(labels)  # a result column of the same name does not replace a point's label
        return row


def lookup(results, path, missing):
    value = results
    for part in path:
        if not isinstance(value, dict) or part not in value:
            return missing
        value = value[part]
    return value


OPERATORS = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b,
             ast.Mult: lambda a, b: a * b, ast.Div: lambda a, b: a / b}


def parse_expression(text, where):
    try:
        tree = ast.parse(text, mode="eval").body
    except SyntaxError:
        raise ExperimentError(f"{where}: '{text}' is not an expression") from None
    for node in ast.walk(tree):
        allowed = isinstance(node, (ast.BinOp, ast.UnaryOp, ast.USub, ast.Constant, ast.Name, ast.Attribute,
                                    ast.Load, ast.Subscript, ast.Call, *OPERATORS))
        if isinstance(node, ast.Constant):
            allowed = isinstance(node.value, (int, float))
        elif isinstance(node, ast.Subscript):  # a list's element: PATH[i]
            allowed = isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, int)
        elif isinstance(node, ast.Call):  # a list's sum: sum(PATH)
            allowed = isinstance(node.func, ast.Name) and node.func.id == "sum" and len(node.args) == 1 \
                and not node.keywords
        if not allowed:
            raise ExperimentError(f"{where}: '{text}': only results.json paths, numbers, + - * /, PATH[i] and "
                                  "sum(PATH) are allowed")
    return tree


class Missing(Exception):
    pass


def evaluate(tree, results):
    """An expression's value for one run's results; "" if a path it reads is missing or its
    arithmetic fails."""
    def value(node):
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.UnaryOp):
            return -value(node.operand)
        if isinstance(node, ast.BinOp):
            return OPERATORS[type(node.op)](value(node.left), value(node.right))
        if isinstance(node, ast.Subscript):
            return value(node.value)[node.slice.value]
        if isinstance(node, ast.Call):
            return sum(value(node.args[0]))
        path = []
        while isinstance(node, ast.Attribute):
            path.insert(0, node.attr)
            node = node.value
        found = lookup(results, [node.id] + path, Missing)
        if found is Missing:
            raise Missing
        return found
    try:
        return value(tree)
    except (Missing, ZeroDivisionError, TypeError, IndexError, KeyError):  # (a null, text or short operand)
        return ""
