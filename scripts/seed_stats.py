# SPDX-License-Identifier: Apache-2.0
"""Seeds as samples: per point of a sweep, each numeric field's mean, standard deviation and the
half-width of its 95 % confidence interval (Student's t with n - 1 degrees of freedom)."""
import functools
import math


@functools.lru_cache(maxsize=None)  # (it depends on the seed count alone)
def t_quantile(p, df):
    """The p-quantile (p > 0.5) of Student's t with df degrees of freedom: bisection on its CDF,
    which is integrated with Simpson's rule (to about 1e-9; the standard library has no t)."""
    log_norm = math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - 0.5 * math.log(df * math.pi)

    def density(x):
        return math.exp(log_norm - (df + 1) / 2 * math.log1p(x * x / df))

    def cdf(t, steps=2000):
        h = t / steps
        inner = sum((4 if i % 2 else 2) * density(i * h) for i in range(1, steps))
        return 0.5 + h / 3 * (density(0) + inner + density(t))

    low, high = 0.0, 1.0
    while cdf(high) < p:
        high *= 2
    for _ in range(60):
        mid = (low + high) / 2
        low, high = (mid, high) if cdf(mid) < p else (low, mid)
    return (low + high) / 2


def numeric(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def describe(values):
    """(n, mean, standard deviation, 95 % half-width); the last two "" for one sample."""
    n = len(values)
    mean = math.fsum(values) / n  # (exactly rounded: the same last digit on every Python version)
    if n < 2:
        return n, mean, "", ""
    std = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1))
    return n, mean, std, t_quantile(0.975, n - 1) * std / math.sqrt(n)


def points(rows, labels, skip=("seed", "run")):
    """One row per point (rows sharing their labels), in the order the points first appear: the
    labels, the seeds, then per numeric field F: F_mean, F_std, F_ci95; a field that is not a number
    in every run is kept when all runs agree and joined with | when they do not."""
    groups = {}
    for row in rows:
        groups.setdefault(tuple(str(row[name]) for name in labels), []).append(row)
    summary = []
    for runs in groups.values():
        point = {name: runs[0][name] for name in labels}
        point["seeds"] = len(runs)
        for field in runs[0]:
            if field in labels or field in skip:
                continue
            values = [run.get(field, "") for run in runs]
            if all(numeric(v) for v in values):
                _, mean, std, ci95 = describe(values)
                point.update({f"{field}_mean": mean, f"{field}_std": std, f"{field}_ci95": ci95})
            else:
                point[field] = "|".join(dict.fromkeys(str(v) for v in values))
        summary.append(point)
    return summary
