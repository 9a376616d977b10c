"""A leaderboard cell's estimate (value, 95% interval) and its test against the best row.

For a metric declared ``interval: wilson`` (a rate; every item 0 or 1): the value is the
share of ones, the interval is Wilson's score interval (``summary.wilson_interval``), and two
cells are compared by a two-sided Fisher exact test of their counts. For ``bootstrap`` (a
mean): the value is the mean of the items, the interval the 2.5th and 97.5th percentiles
(numpy's linear interpolation) of the means of ``BOOTSTRAP_RESAMPLES`` resamples of the items
drawn with replacement by ``numpy.random.default_rng(BOOTSTRAP_SEED)``; two cells are
compared by a two-sided Wilcoxon signed-rank test over the items both have (same key: same
trial seed, same question) when the metric is paired, else by a two-sided Mann-Whitney U
test. No shared item, or every paired difference zero, gives p = 1.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
from scipy.stats import fisher_exact, mannwhitneyu, wilcoxon

from cogarch.core.leaderboard import LeaderboardMetric

from .summary import wilson_interval

BOOTSTRAP_RESAMPLES = 2000
BOOTSTRAP_SEED = 0
Items = Mapping[str, float]
"""A cell's items: value by item key (see ``cogarch.core.leaderboard.metric_items``)."""


@dataclass(frozen=True)
class Estimate:
    value: float
    low: float
    high: float
    n: int


def estimate(metric: LeaderboardMetric, items: Items) -> Estimate | None:
    """The cell's value and 95% interval over its items; None without items."""
    values = np.array(list(items.values()), dtype=float)
    n = len(values)
    if n == 0:
        return None
    if metric.interval == "wilson":
        successes = int(values.sum())
        low, high = wilson_interval(successes, n)
        return Estimate(successes / n, low, high, n)
    rng = np.random.default_rng(BOOTSTRAP_SEED)
    means = values[rng.integers(0, n, size=(BOOTSTRAP_RESAMPLES, n))].mean(axis=1)
    low, high = np.percentile(means, [2.5, 97.5])
    return Estimate(float(values.mean()), float(low), float(high), n)


def compare(metric: LeaderboardMetric, a: Items, b: Items) -> tuple[float, str]:
    """The two-sided p-value of cells ``a`` and ``b`` differing, and the test's name."""
    if metric.interval == "wilson":
        if not a or not b:
            return 1.0, "fisher"
        s_a, s_b = round(sum(a.values())), round(sum(b.values()))
        table = [[s_a, len(a) - s_a], [s_b, len(b) - s_b]]
        return float(fisher_exact(table, alternative="two-sided")[1]), "fisher"
    if metric.paired:
        shared = sorted(set(a) & set(b))
        diffs = [a[k] - b[k] for k in shared]
        if not any(diffs):
            return 1.0, "wilcoxon"
        return float(wilcoxon([a[k] for k in shared], [b[k] for k in shared]).pvalue), "wilcoxon"
    xs, ys = list(a.values()), list(b.values())
    if not xs or not ys or len(set(xs) | set(ys)) == 1:
        return 1.0, "mann-whitney"
    return float(mannwhitneyu(xs, ys, alternative="two-sided").pvalue), "mann-whitney"


def better(metric: LeaderboardMetric, x: float, y: float) -> bool:
    """Whether ``x`` is better than ``y`` on ``metric``."""
    return x > y if metric.direction == "higher" else x < y
