"""A leaderboard cell's estimate (value, 95% interval) and its test against the best cell.

The value is the mean of the cell's items (a rate: the share of ones); the interval is
``cluster_stats.interval`` over the items' clusters, with ``n`` items in ``k`` clusters, or
"not estimable" with the reason. Two cells are compared by a two-sided test:

- **paired** (the metric is ``paired`` and the cells share items: same key, same item) over
  exactly the shared items the ranking uses. When every cluster is one item: exact McNemar
  for a rate (a binomial test on the discordant pairs), Wilcoxon signed-rank on the
  differences for a mean. When clusters hold several items, the test is made at the level of
  clusters: a Wilcoxon signed-rank test on the per-cluster differences of the two means;
- **unpaired** (a metric declared ``paired: false``, or cells with no item in common): a
  Fisher exact test of the two counts for a rate of unclustered items, else a Mann-Whitney U
  test of the items (of the cluster means, when clusters hold several items).

No discordant pair, or every difference zero, gives p = 1. Values within ``TOLERANCE`` of
each other are tied (two means of the same items summed in another order).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from scipy.stats import fisher_exact, mannwhitneyu, wilcoxon

from cogarch.core.metric import Metric

from .clusters import cluster_totals, interval
from .significance import mcnemar_exact

TOLERANCE = 1e-9
Items = Mapping[str, float]
"""A cell's items: value by item key (see ``cogarch.core.leaderboard.metric_items``)."""
Clusters = Mapping[str, str]
"""Each item's cluster, by item key (see ``cogarch.core.leaderboard.trial_cluster``)."""


@dataclass(frozen=True)
class Estimate:
    value: float
    low: float | None
    high: float | None
    n: int
    clusters: int
    method: str
    note: str | None = None


def _clusters_of(items: Items, clusters: Clusters | None) -> Clusters:
    return clusters if clusters is not None else {k: f"item {k}" for k in items}


def estimate(metric: Metric, items: Items, clusters: Clusters | None = None) -> Estimate | None:
    """The cell's value and 95% interval over its items; None without items. ``clusters``
    defaults to each item its own."""
    if not items:
        return None
    owned = _clusters_of(items, clusters)
    sums, _ = cluster_totals(items, owned)
    found = interval(items, owned, metric.interval == "wilson")
    value = math.fsum(items.values()) / len(items)
    return Estimate(value, found.low, found.high, len(items), len(sums), found.method, found.note)


def _singletons(keys: Sequence[str], clusters: Clusters) -> bool:
    return len({clusters.get(k, f"item {k}") for k in keys}) == len(keys)


def _cluster_means(items: Items, keys: Sequence[str], clusters: Clusters) -> dict[str, float]:
    sums: dict[str, float] = {}
    counts: dict[str, int] = {}
    for key in keys:
        cluster = clusters.get(key, f"item {key}")
        sums[cluster] = sums.get(cluster, 0.0) + items[key]
        counts[cluster] = counts.get(cluster, 0) + 1
    return {c: sums[c] / counts[c] for c in sums}


def _signed_rank(xs: Sequence[float], ys: Sequence[float]) -> float:
    diffs = [x - y for x, y in zip(xs, ys, strict=True)]
    if not any(abs(d) > TOLERANCE for d in diffs):
        return 1.0
    return float(wilcoxon(xs, ys).pvalue)


def paired_test(
    metric: Metric, a: Items, b: Items, keys: Sequence[str], clusters: Clusters
) -> tuple[float, str]:
    """The two-sided p-value of ``a`` and ``b`` differing over the shared items ``keys``."""
    if not keys:
        return 1.0, "none"
    if _singletons(keys, clusters):
        if metric.interval == "wilson":
            only_a = sum(a[k] > b[k] for k in keys)
            only_b = sum(b[k] > a[k] for k in keys)
            return mcnemar_exact(only_a, only_b), "mcnemar"
        return _signed_rank([a[k] for k in keys], [b[k] for k in keys]), "wilcoxon"
    mine, theirs = _cluster_means(a, keys, clusters), _cluster_means(b, keys, clusters)
    order = list(mine)
    p = _signed_rank([mine[c] for c in order], [theirs[c] for c in order])
    return p, "wilcoxon over clusters"


def unpaired_test(metric: Metric, a: Items, b: Items, clusters: Clusters) -> tuple[float, str]:
    """The two-sided p-value of ``a`` and ``b`` differing, their items taken as unrelated."""
    if not a or not b:
        return 1.0, "none"
    flat = _singletons(list(a), clusters) and _singletons(list(b), clusters)
    if flat and metric.interval == "wilson":
        s_a, s_b = round(sum(a.values())), round(sum(b.values()))
        table = [[s_a, len(a) - s_a], [s_b, len(b) - s_b]]
        return float(fisher_exact(table, alternative="two-sided")[1]), "fisher"
    if flat:
        xs, ys, name = list(a.values()), list(b.values()), "mann-whitney"
    else:
        xs = list(_cluster_means(a, list(a), clusters).values())
        ys = list(_cluster_means(b, list(b), clusters).values())
        name = "mann-whitney over clusters"
    if np.ptp(np.array(xs + ys, dtype=float)) <= TOLERANCE:
        return 1.0, name
    return float(mannwhitneyu(xs, ys, alternative="two-sided").pvalue), name


def compare(
    metric: Metric, a: Items, b: Items, clusters: Clusters | None = None
) -> tuple[float, str]:
    """The two-sided p-value of cells ``a`` and ``b`` differing, and the test's name: paired
    over their shared items when the metric is paired and they share some, else unpaired."""
    owned = clusters if clusters is not None else {k: f"item {k}" for k in {*a, *b}}
    shared = sorted(set(a) & set(b))
    if metric.paired and shared:
        return paired_test(metric, a, b, shared, owned)
    return unpaired_test(metric, a, b, owned)


def tied(x: float, y: float) -> bool:
    return math.isclose(x, y, rel_tol=TOLERANCE, abs_tol=TOLERANCE)


def better(metric: Metric, x: float, y: float) -> bool:
    """Whether ``x`` is better than ``y`` on ``metric`` (values within the tolerance tie)."""
    if tied(x, y):
        return False
    return x > y if metric.direction == "higher" else x < y
