# SPDX-License-Identifier: Apache-2.0
"""An experiment file's figures (its `figures:` list; docs/experiments.md), drawn from a sweep's
summary (one row per run) by scripts/plot.py. Each point is the mean over its seeds with the 95 %
confidence interval (Student's t); a figure also writes the numbers it shows as CSV.

  figures:
    - name: FILE                  # FILE.png, FILE.svg and FILE_figure.csv (the points shown)
      title: the figure's title
      each: LABEL                 # optional: one figure per value of LABEL, "{LABEL}" in name and title
      rows: {label: LABEL, values: [...], names: [...]}    # optional: a row of panels per value
      x: {label: LABEL, title: axis title, scale: linear | log | symlog, names: {value: shown}}
      hue: {label: LABEL, values: [...], names: [...]}     # optional: a line per value
      where: {LABEL: value or [values]}                    # the points shown
      panels: [PANEL, ...] (one row of panels) or [[PANEL, ...], ...] (rows given one by one)
      size: [width, height]       # optional, inches (default from the number of panels)
  PANEL: {y: FIELD, title, axis (the y axis' title), scale, where, runs: {COLUMN: value} (runs
          kept, e.g. verdict: ok), relative_to: {LABEL: value} (the run of the same seed and other
          labels with these values) and as: ratio | speedup | overhead | saving (this / base,
          base / this, 100 (this / base - 1), 100 (1 - this / base)), x, hue, lines: [y values
          drawn across], marks: [{label, where: {LABEL: value}}] (the mean of the runs matching
          where, e.g. a baseline's, drawn across), paper: [{label, x: [...], y: [...]} (stars) or
          {label, y: value} (a dashed line), optionally row: value; guide: true for a grey line
          through x, y that is not the paper's; {label, file: CSV (from the repository's root), x:
          COLUMN, y: COLUMN, where: {COLUMN: value}, match_row: COLUMN} (another source's points,
          crosses; match_row: those whose COLUMN is the value of the figure's rows)], range:
          [low, high] (the y axis), against: {y: FIELD, as, title} (each
          point placed at that quantity of the same runs instead of at x, which then only names it;
          as against the panel's relative_to), chosen: CHOICE (a star on the points of the values
          that choice of the experiment file picked, its label the panel's x: scripts/choice.py)}
  x's label may be a list: the point is named by their values joined (a category each).
  A panel can draw from each run's own folder (<out>/runs/<run>/; not from a bundled summary):
  from: {file: timeseries.csv, x: cycle, seed: 1, steps: true} draws y (a column, or a list of
  columns with names) against x for the run of that seed (every point in the figure's CSV), and
  with windows: [[from, to], ...] shades those spans of x and records each line's mean over each
  (rows with from < x <= to) in the figure's CSV too (x "from-to"); from: {file: results.json, array:
  PATH, x_span: [0, 100]} draws the list at PATH (e.g. 21 quantiles), its mean over the seeds
  element by element, against its index spread over x_span.
A figure-level key is the default of every panel; a panel's own wins."""
import csv
import json
import math
import textwrap
from pathlib import Path

from seed_stats import describe

ROOT = Path(__file__).resolve().parent.parent
FIGURE_KEYS = {"name", "title", "each", "rows", "x", "hue", "where", "panels", "size"}
PANEL_KEYS = {"y", "names", "from", "title", "axis", "scale", "where", "runs", "relative_to", "as", "x", "hue", "lines",
              "marks", "paper", "range", "against", "chosen"}
REFERENCE_KEYS = {"label", "x", "y", "row", "guide", "file", "where", "match_row"}
FROM_KEYS = {"file", "x", "seed", "array", "x_span", "steps", "windows"}
TRANSFORMS = {"ratio": lambda v, b: v / b, "speedup": lambda v, b: b / v,
              "overhead": lambda v, b: 100 * (v / b - 1), "saving": lambda v, b: 100 * (1 - v / b)}
COLORS = ["tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple", "tab:brown", "tab:pink", "tab:gray",
          "tab:olive", "tab:cyan", "black", "gold"]
MARKERS = "osD^v<>ph*Xd"


class FigureError(Exception):
    """A malformed figure or one the summary cannot feed: the message names the place."""


class RunsMissing(FigureError):
    """A figure draws from the runs' own folders, and they are not there (a bundled summary)."""


def check(figures, where, choices=None):
    """Validates an experiment file's `figures:` (when the file loads, before any run); choices:
    {name: label} of its choices."""
    choices = choices or {}
    if not isinstance(figures, list):
        raise FigureError(f"{where}: figures: expected a list")
    for i, fig in enumerate(figures):
        at = f"{where}: figures[{i}]"
        if not isinstance(fig, dict) or "name" not in fig or "panels" not in fig:
            raise FigureError(f"{at}: expected a mapping with name and panels")
        unknown = sorted(set(fig) - FIGURE_KEYS)
        if unknown:
            raise FigureError(f"{at}: unknown key '{unknown[0]}'; allowed: {', '.join(sorted(FIGURE_KEYS))}")
        size = fig.get("size", [1, 1])
        if not isinstance(size, list) or len(size) != 2 or not all(
                isinstance(v, (int, float)) and not isinstance(v, bool) and 0 < v <= 50 for v in size):
            raise FigureError(f"{at}: size: expected [width, height] in inches, each above 0 and at most 50")
        for r, row in enumerate(panel_rows(fig)):
            for c, panel in enumerate(row):
                pat = f"{at}: panels[{r}][{c}]"
                if not isinstance(panel, dict) or "y" not in panel:
                    raise FigureError(f"{pat}: expected a mapping with y")
                unknown = sorted(set(panel) - PANEL_KEYS)
                if unknown:
                    raise FigureError(f"{pat}: unknown key '{unknown[0]}'; allowed: {', '.join(sorted(PANEL_KEYS))}")
                if ("relative_to" in panel) != ("as" in panel) or panel.get("as", "ratio") not in TRANSFORMS:
                    raise FigureError(f"{pat}: relative_to and as go together; as is one of {', '.join(TRANSFORMS)}")
                limits = panel.get("range", [0, 1])
                if not isinstance(limits, list) or len(limits) != 2 or None in map(number, limits) \
                        or not number(limits[0]) < number(limits[1]):
                    raise FigureError(f"{pat}: range: expected [low, high] of the y axis, low < high")
                for ref in panel.get("paper", []):
                    if not isinstance(ref, dict) or "label" not in ref or set(ref) - REFERENCE_KEYS:
                        raise FigureError(f"{pat}: paper: expected {{label, ...}} of {', '.join(sorted(REFERENCE_KEYS))}")
                    if "file" in ref and not (ROOT / str(ref["file"])).is_file():
                        raise FigureError(f"{pat}: paper: file {ref['file']} not found (a path from the repository's root)")
                    if "file" in ref and not {"x", "y"} <= set(ref) or ("match_row" in ref and "rows" not in fig):
                        raise FigureError(f"{pat}: paper: a file's points need x and y (its columns); match_row "
                                          "needs the figure's rows")
                against = panel.get("against")
                if against is not None and (not isinstance(against, dict) or "y" not in against
                                            or set(against) - {"y", "as", "title"}
                                            or against.get("as", "ratio") not in TRANSFORMS
                                            or ("as" in against and "relative_to" not in panel)):
                    raise FigureError(f"{pat}: against: expected {{y, as, title}} (as with the panel's relative_to)")
                if "chosen" in panel and panel["chosen"] not in choices:
                    raise FigureError(f"{pat}: chosen: no choice named '{panel['chosen']}' (choices: "
                                      f"{', '.join(choices) or 'none'})")
                if "chosen" in panel and ("against" not in panel
                                          or (panel.get("x") or fig.get("x") or {}).get("label") != choices[panel["chosen"]]):
                    raise FigureError(f"{pat}: chosen: stars the points of {panel['chosen']}'s label "
                                      f"({choices[panel['chosen']]}): a panel with against whose x is that label")
                source = panel.get("from")
                if source is not None:
                    if not isinstance(source, dict) or "file" not in source or set(source) - FROM_KEYS:
                        raise FigureError(f"{pat}: from: expected {{file, ...}} of {', '.join(sorted(FROM_KEYS))}")
                    if ("array" in source) == ("x" in source):
                        raise FigureError(f"{pat}: from: give x (a column of a CSV file) or array (a results.json list)")
                    spans = source.get("windows", [])
                    if "windows" in source and ("x" not in source or not isinstance(spans, list) or not all(
                            isinstance(w, list) and len(w) == 2 and all(number(v) is not None for v in w)
                            and number(w[0]) < number(w[1]) for w in spans)):
                        raise FigureError(f"{pat}: from: windows: expected [[from, to], ...] of x, from < to "
                                          "(with x: a column)")
                elif "x" not in panel and "x" not in fig:
                    raise FigureError(f"{pat}: no x (the figure's or the panel's)")


def panel_rows(fig):
    panels = fig["panels"]
    if not isinstance(panels, list) or not panels:
        raise FigureError(f"figure {fig.get('name')}: panels: expected a non-empty list")
    return panels if all(isinstance(p, list) for p in panels) else [panels]


def matches(row, where):
    """Whether a row's cells are the values `where` names (a list: any of them)."""
    for key, wanted in (where or {}).items():
        values = wanted if isinstance(wanted, (list, tuple)) else [wanted]
        if not any(same(row.get(key, ""), v) for v in values):
            return False
    return True


def same(cell, value):
    return canonical(cell) == canonical(value)


def read_rows(path):
    """A CSV file's rows as dicts; lines starting with # are comments."""
    with open(path) as f:
        return list(csv.DictReader(line for line in f if not line.startswith("#")))


def number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


class Summary:
    """A sweep's summary.csv: its runs, and the labels that name a point (the columns before seed)."""

    def __init__(self, path):
        self.rows = read_rows(path)
        if not self.rows:
            raise FigureError(f"{path}: no runs")
        columns = list(self.rows[0])
        if "seed" not in columns:
            raise FigureError(f"{path}: not a sweep's summary (no seed column)")
        self.labels = columns[:columns.index("seed")]
        self.path, self.index = path, None
        self.dropped = {}  # why -> the runs a panel could not use (said once, after drawing)

    def values(self, label, where):
        return list(dict.fromkeys(r[label] for r in self.rows if matches(r, where)))

    def base(self, run, relative_to):
        """The run that `run` is compared with: same seed, same labels but those of relative_to."""
        if self.index is None:
            self.index = {(r["seed"],) + tuple(canonical(r[k]) for k in self.labels): r for r in self.rows}
        want = {label: run[label] for label in self.labels}
        want.update({k: "" if v is None else v for k, v in relative_to.items()})
        found = self.index.get((run["seed"],) + tuple(canonical(want[k]) for k in self.labels))
        if found is None:
            raise FigureError(f"{self.path}: no run {want} of seed {run['seed']} to compare with")
        return found


def canonical(value):
    """A cell's or a YAML value's key: numbers by value (0.5 = "0.5" = "5e-1"), booleans as true or
    false (YAML's true, Python's "True"), the rest as text."""
    if isinstance(value, bool):
        return "true" if value else "false"
    n = number(value)
    if n is not None:
        return n
    return str(value).lower() if str(value).lower() in ("true", "false") else str(value)


def check_labels(panel, summary, where_from):
    """Every label a panel names is one of the summary's, and every value it lists has runs."""
    def label(name, what):
        if name not in summary.labels:
            raise FigureError(f"{where_from}: {what}: '{name}' is not a label of {summary.path} "
                              f"(labels: {', '.join(summary.labels)})")
    x = panel.get("x") or {}
    for name in (x.get("label") if isinstance(x.get("label"), list) else [x.get("label")]):
        if name is not None and "from" not in panel:
            label(name, "x")
    for key in ("where", "relative_to"):
        for name in panel.get(key) or {}:
            label(name, key)
    for name in panel.get("runs") or {}:
        if name not in summary.rows[0]:
            raise FigureError(f"{where_from}: runs: '{name}' is not a column of {summary.path}")
    hue = panel.get("hue")
    if hue:
        label(hue["label"], "hue")
        known = {canonical(v) for v in summary.values(hue["label"], None)}
        missing = [v for v in hue.get("values", []) if canonical(v) not in known]
        if missing:
            raise FigureError(f"{where_from}: hue: {hue['label']} has no runs of {missing}")


def series_values(spec, summary, where):
    """(values, names) of a hue or row spec: its listed values, else the summary's in order."""
    if spec is None:
        return [None], [None]
    values = [str(v) for v in spec.get("values", summary.values(spec["label"], where))]
    names = [str(n) for n in spec.get("names", values)]
    return values, names


def measure(summary, run, field, transform, relative_to):
    """A run's field, or its transform against its base run's; None (and the run noted) if missing."""
    value = number(run.get(field))
    if value is None:
        if field not in run:
            raise FigureError(f"{summary.path}: no field {field}; fields: {', '.join(run)}")
        summary.dropped.setdefault(f"no {field}", set()).add(run["run"] or run["seed"])
        return None
    if not transform:
        return value
    base = number(summary.base(run, relative_to).get(field))
    if not base:
        summary.dropped.setdefault(f"its base run has no {field}", set()).add(run["run"] or run["seed"])
        return None
    return transform(value, base)


def points(summary, panel, where, hue_label, hue_value):
    """[(x, mean, ci95 half-width, seeds)] of one line of a panel; with `against`, each point also
    has the mean and half-width of that quantity of the same runs (its position on the x axis)."""
    x_labels = panel["x"]["label"] if isinstance(panel["x"]["label"], list) else [panel["x"]["label"]]
    against = panel.get("against")
    samples = {}
    for run in summary.rows:
        if not matches(run, where) or (hue_label and not same(run[hue_label], hue_value)):
            continue
        if not matches(run, panel.get("runs")):
            continue
        value = measure(summary, run, panel["y"], TRANSFORMS.get(panel.get("as")), panel.get("relative_to"))
        other = against and measure(summary, run, against["y"], TRANSFORMS.get(against.get("as")),
                                    panel.get("relative_to"))
        if value is None or (against and other is None):
            continue
        samples.setdefault(" ".join(run[x] for x in x_labels if run[x] != ""), []).append((value, other))
    result = []
    for x, pairs in samples.items():
        n, mean, _, half = describe([v for v, _ in pairs])
        point = (x, mean, half, n)  # (half: "" for one seed)
        if against:
            _, other_mean, _, other_half = describe([o for _, o in pairs])
            point += (other_mean, other_half)
        result.append(point)
    return result


def run_lines(summary, panel, where, hue_label, hue_value, runs_dir):
    """[(name, column, xs, ys, runs averaged)] of a panel that draws from the runs' own files (its `from`)."""
    source = panel["from"]
    if runs_dir is None or not Path(runs_dir).is_dir():
        raise RunsMissing(f"it draws from the runs' folders ({runs_dir}), which are not here")
    runs = [r for r in summary.rows if matches(r, where) and (not hue_label or same(r[hue_label], hue_value))
            and ("array" in source or same(r["seed"], source.get("seed", 1)))]
    columns = panel["y"] if isinstance(panel["y"], list) else [panel["y"]]
    names = panel.get("names", columns if len(columns) > 1 else [""])
    folder = lambda run: Path(runs_dir) / Path(run["run"]).name  # noqa: E731
    if "array" in source:
        arrays = []
        for run in runs:
            value = json.loads((folder(run) / source["file"]).read_text())
            for part in source["array"].split("."):
                value = value.get(part, {}) if isinstance(value, dict) else {}
            if isinstance(value, list) and value:
                arrays.append([float(v) for v in value])
        if not arrays:
            return []
        mean = [math.fsum(column) / len(column) for column in zip(*arrays)]
        low, high = source.get("x_span", [0, len(mean) - 1])
        xs = [low + (high - low) * i / max(1, len(mean) - 1) for i in range(len(mean))]
        return [("", panel["y"], xs, mean, len(arrays))]
    lines = []
    for run in runs:
        rows = read_rows(folder(run) / source["file"])
        xs = [float(r[source["x"]]) for r in rows]
        for column, name in zip(columns, names):
            if rows and column not in rows[0]:
                raise FigureError(f"{folder(run) / source['file']}: no column {column}")
            lines.append((name, column, xs, [float(r[column]) for r in rows], 1))
    return lines


def reference_points(ref, row_value):
    """(xs, ys) of a panel's points from another source's CSV file (rows with both numbers)."""
    every = read_rows(ROOT / ref["file"])
    for column in [ref["x"], ref["y"], *(ref.get("where") or {}), *([ref["match_row"]] if "match_row" in ref else [])]:
        if every and column not in every[0]:
            raise FigureError(f"{ref['file']}: no column {column} (columns: {', '.join(every[0])})")
    rows = [r for r in every if matches(r, ref.get("where"))
            and (not ref.get("match_row") or same(r[ref["match_row"]], row_value))]
    pairs = [(number(r[ref["x"]]), number(r[ref["y"]])) for r in rows]
    pairs = [p for p in pairs if None not in p]
    return [x for x, _ in pairs], [y for _, y in pairs]


def merged(fig, panel):
    out = {k: fig[k] for k in ("x", "hue") if k in fig}
    out.update(panel)
    out["where"] = {**fig.get("where", {}), **panel.get("where", {})}
    return out


def draw(fig_spec, summary, out_dir, plt, formats=("png", "svg"), runs_dir=None, chosen=None):
    """Draws one figure spec (one file per value of `each`); returns the paths written."""
    written = []
    each = fig_spec.get("each")
    if each and each not in summary.labels:
        raise FigureError(f"figure {fig_spec['name']}: each: '{each}' is not a label of {summary.path}")
    for value in (summary.values(each, fig_spec.get("where")) if each else [None]):
        spec = dict(fig_spec)
        if each:
            spec["where"] = {**fig_spec.get("where", {}), each: value}
        fill = {each: value} if each else {}
        written += draw_one(spec, summary, out_dir, plt, fill, formats, runs_dir, chosen or {})
    return written


def draw_one(spec, summary, out_dir, plt, fill, formats, runs_dir, chosen):
    rows_spec = spec.get("rows")
    if rows_spec and rows_spec["label"] not in summary.labels:
        raise FigureError(f"figure {spec['name']}: rows: '{rows_spec['label']}' is not a label of {summary.path}")
    row_values, row_names = series_values(rows_spec, summary, spec.get("where"))
    layout = panel_rows(spec)
    if rows_spec:
        layout = [layout[0]] * len(row_values)
    n_rows, n_cols = len(layout), max(len(r) for r in layout)
    size = spec.get("size") or (4.6 * n_cols + 1, 3.6 * n_rows + 0.8)
    fig, axes = plt.subplots(n_rows, n_cols, figsize=size, squeeze=False,
                             layout="constrained")
    table = []
    seeds = set()
    for r, row in enumerate(layout):
        for c in range(n_cols):
            ax = axes[r][c]
            if c >= len(row):
                ax.axis("off")
                continue
            panel = merged(spec, row[c])
            check_labels(panel, summary, f"figure {spec['name']}, panel {r},{c}")
            where = dict(panel["where"])
            if rows_spec:
                where[rows_spec["label"]] = row_values[r]
            hue = panel.get("hue")
            hue_values, hue_names = series_values(hue, summary, where)
            x_spec = panel.get("x") or {"label": panel["from"].get("x", "index")}
            shown = {str(k): str(v) for k, v in (x_spec.get("names") or {}).items()}
            categories = []
            for i, (hv, hn) in enumerate(zip(hue_values, hue_names)):
                if "from" in panel:
                    for name, column, xs, ys, runs in run_lines(summary, panel, where, hue and hue["label"], hv, runs_dir):
                        label = " ".join(n for n in (hn, name) if n) or None
                        style = dict(color=COLORS[len(ax.get_lines()) % len(COLORS)], label=label, linewidth=1.2)
                        if panel["from"].get("steps"):
                            ax.step(xs, ys, where="post", **style)
                        else:
                            ax.plot(xs, ys, **style)
                        spans = [(f"{low}-{high}", [y for x, y in zip(xs, ys) if low < x <= high])
                                 for low, high in panel["from"].get("windows", [])]
                        for span, inside in spans:
                            if not inside:
                                raise FigureError(f"figure {spec['name']}: from: window {span} holds no point of "
                                                  f"{panel['from']['x']} ({xs[0] if xs else '-'} to {xs[-1] if xs else '-'})")
                        for x, values in list(zip(xs, ([y] for y in ys))) + spans:
                            table.append({"panel": f"{r},{c}", "row": row_values[r] if rows_spec else "", "y": column,
                                          "as": "", "hue": hv or "", "x": x, "mean": math.fsum(values) / len(values),
                                          "ci95": "", "seeds": runs})
                    continue
                pts = points(summary, panel, where, hue and hue["label"], hv)
                if not pts:
                    continue
                style = dict(marker=MARKERS[i % len(MARKERS)], markersize=4, capsize=2, color=COLORS[i % len(COLORS)])
                against = panel.get("against")
                if against:  # (each point where its two quantities put it; x names it)
                    ax.errorbar([p[4] for p in pts], [p[1] for p in pts], xerr=[p[5] or 0 for p in pts],
                                yerr=[p[2] or 0 for p in pts], linestyle="none", label=hn, **style)
                    picked = [p for p in pts if p[0] in chosen.get(panel.get("chosen"), [])]
                    ax.plot([p[4] for p in picked], [p[1] for p in picked], linestyle="none", marker="*",
                            markersize=13, color=style["color"], markeredgecolor="black")
                else:
                    numeric = all(number(x) is not None for x, *_ in pts) and not shown
                    if numeric:
                        pts.sort(key=lambda p: number(p[0]))
                        xs = [number(p[0]) for p in pts]
                    else:
                        for p in pts:
                            if p[0] not in categories:
                                categories.append(p[0])
                        xs = [categories.index(p[0]) for p in pts]
                    ax.errorbar(xs, [p[1] for p in pts], yerr=[p[2] or 0 for p in pts], label=hn, **style)
                for p in pts:
                    seeds.add(p[3])
                    table.append({"panel": f"{r},{c}", "row": row_values[r] if rows_spec else "", "y": panel["y"],
                                  "as": panel.get("as", ""), "hue": hv or "", "x": p[0], "mean": p[1],
                                  "ci95": p[2], "seeds": p[3]})
                    if against:
                        table[-1].update({"against": against["y"], "against_as": against.get("as", ""),
                                          "against_mean": p[4], "against_ci95": p[5]})
            for low, high in (panel.get("from") or {}).get("windows", []):
                ax.axvspan(low, high, color="tab:green", alpha=0.08)
            if categories:
                ax.set_xticks(range(len(categories)), [shown.get(c, c) for c in categories], rotation=30 if
                              max(len(shown.get(c, c)) for c in categories) > 6 else 0, fontsize=8)
            for y in panel.get("lines", []):
                ax.axhline(y, color="grey", linestyle=":", linewidth=1)
            for k, mark in enumerate(panel.get("marks", [])):  # another point's mean as a line across
                marked = points(summary, dict(panel, x={"label": []}), {**where, **mark["where"]}, None, None)
                if marked:
                    ax.axhline(marked[0][1], color=COLORS[-1 - k], linestyle=":", linewidth=1.2, label=mark["label"])
            for ref in panel.get("paper", []):
                if "row" in ref and (not rows_spec or not same(row_values[r], ref["row"])):
                    continue
                if "file" in ref:
                    xs, ys = reference_points(ref, rows_spec and row_values[r])
                    ax.plot(xs, ys, linestyle="none", marker="x", markersize=8, color="black", label=ref["label"])
                elif "x" in ref and ref.get("guide"):  # (a reading aid, not the paper's value)
                    ax.plot(ref["x"], ref["y"], color="grey", linestyle="--", linewidth=1, label=ref["label"])
                elif "x" in ref:
                    xs = [categories.index(str(x)) if str(x) in categories else x for x in ref["x"]]
                    ax.plot(xs, ref["y"], linestyle="none", marker="*", markersize=11, color="crimson",
                            markeredgecolor="black", label=ref["label"])
                else:
                    ax.axhline(ref["y"], color="crimson", linestyle="--", linewidth=1.2, label=ref["label"])
            if panel.get("range"):
                ax.set_ylim(*panel["range"])
            title = panel.get("title", str(panel["y"]))
            if rows_spec:
                title = f"{row_names[r]}: {title}"
            ax.set_title(title.format(**fill), fontsize=10)
            ax.set_xlabel((panel.get("against") or x_spec).get("title", x_spec["label"]))
            ax.set_ylabel(panel.get("axis", str(panel["y"])))
            if x_spec.get("scale") == "symlog":  # (a log axis that shows 0: linear below 1)
                ax.set_xscale("symlog", linthresh=1)
                ax.set_xlim(left=0)
            elif x_spec.get("scale"):
                ax.set_xscale(x_spec["scale"])
            if panel.get("scale"):
                ax.set_yscale(panel["scale"])
            ax.grid(alpha=0.3)
            if ax.get_legend_handles_labels()[0]:
                ax.legend(fontsize=7)
    counts = "/".join(str(s) for s in sorted(seeds))
    title = textwrap.fill(spec.get("title", spec["name"]).format(**fill), width=int(fig.get_figwidth() * 13))
    note = f"mean and 95 % interval over {counts} seeds" if seeds else "from the runs' own files"
    fig.suptitle(f"{title}\n({note})", fontsize=11)
    name = spec["name"].format(**fill)
    written = []
    for suffix in formats:
        path = Path(out_dir) / f"{name}.{suffix}"
        fig.savefig(path, dpi=100)
        written.append(path)
    plt.close(fig)
    if not table:  # (nothing drawn)
        return written
    path = Path(out_dir) / f"{name}_figure.csv"
    with open(path, "w", newline="") as f:
        f.write(f"# {spec.get('title', name).format(**fill)}: each point of the figure, mean and 95 % half-width "
                "over its seeds (as: the run against its base run of the same seed)\n")
        extra = [k for k in ("against", "against_as", "against_mean", "against_ci95") if any(k in t for t in table)]
        writer = csv.DictWriter(f, fieldnames=["panel", "row", "y", "as", "hue", "x", "mean", "ci95", "seeds"] + extra,
                                restval="")
        writer.writeheader()
        writer.writerows({k: round(v, 6) if isinstance(v, float) else v for k, v in t.items()} for t in table)
    return written + [path]
