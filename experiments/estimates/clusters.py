"""95% intervals over items that come in clusters, and when no honest one can be given.

Items of one cluster (the questions of one LoCoMo conversation, the games of one trial) are
not independent, so intervals resample whole clusters, and ``n`` (items) and the number of
clusters are reported together. Below ``MIN_CLUSTERS`` clusters no interval is given:

- a rate whose every cluster is one item (one trial per question, say) gets Wilson's score
  interval over its items, at any n: it is never zero-width, and its coverage averages close
  to 95% even for a handful of items (Brown, Cai and DasGupta, 2001);
- a rate with clusters of several items gets Wilson's interval at the effective sample size
  ``n / deff``, the design effect ``deff`` (at least 1) being the cluster bootstrap's variance
  of the mean, times ``k / (k - 1)``, over the binomial variance ``p (1 - p) / n``; when every
  item is 0 or every item is 1 the design effect cannot be estimated and each cluster counts
  as one item (``n_eff = k``, the most cautious reading);
- a mean gets the percentile interval of ``BOOTSTRAP_RESAMPLES`` cluster bootstrap
  resamples (clusters drawn with replacement by ``numpy.random.default_rng(BOOTSTRAP_SEED)``,
  the mean of each resample over its items), or "not estimable" when it has zero width (every
  cluster has the same mean: the spread is unknown, not zero).

Why ten clusters: a bootstrap from k clusters has few distinct resamples and underestimates
the variance by a factor (k - 1) / k, and cluster-robust intervals are known to cover well
below their nominal level with few clusters (Cameron and Miller, 2015, "A Practitioner's Guide
to Cluster-Robust Inference"); at ten, the factor is 0.9 and LoCoMo's ten conversations are
just enough. A column of two conversations says "not estimable" rather than print an interval
that is far too narrow.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

MIN_CLUSTERS = 10
BOOTSTRAP_RESAMPLES = 2000
BOOTSTRAP_SEED = 0
Z = 1.959964


@dataclass(frozen=True)
class Interval:
    low: float | None
    high: float | None
    method: str
    """``wilson``, ``wilson at effective n``, ``cluster bootstrap`` or ``not estimable``."""
    note: str | None = None
    """Why there is no interval."""


def wilson(p: float, n: float) -> tuple[float, float]:
    """Wilson's score interval of a share ``p`` of ``n`` items (``n`` may be an effective,
    non-integer sample size)."""
    denom = 1 + Z * Z / n
    centre = (p + Z * Z / (2 * n)) / denom
    half = Z * math.sqrt(max(0.0, p * (1 - p)) / n + Z * Z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def cluster_totals(
    values: Mapping[str, float], clusters: Mapping[str, str]
) -> tuple[np.ndarray, np.ndarray]:
    """Per cluster (in order of first appearance), the sum of its items' values and their
    number; an item without a cluster is its own."""
    sums: dict[str, float] = {}
    counts: dict[str, int] = {}
    for key, value in values.items():
        cluster = clusters.get(key, f"item {key}")
        sums[cluster] = sums.get(cluster, 0.0) + value
        counts[cluster] = counts.get(cluster, 0) + 1
    return np.array(list(sums.values()), dtype=float), np.array(list(counts.values()), dtype=float)


def bootstrap_means(sums: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """The means of ``BOOTSTRAP_RESAMPLES`` resamples of whole clusters."""
    k = len(sums)
    rng = np.random.default_rng(BOOTSTRAP_SEED)
    chosen = rng.integers(0, k, size=(BOOTSTRAP_RESAMPLES, k))
    return sums[chosen].sum(axis=1) / counts[chosen].sum(axis=1)


def too_few(k: int) -> Interval:
    return Interval(
        None, None, "not estimable", f"{k} cluster{'s' * (k != 1)}, fewer than {MIN_CLUSTERS}"
    )


def interval(values: Mapping[str, float], clusters: Mapping[str, str], rate: bool) -> Interval:
    """The 95% interval of the mean of ``values`` (item key to value), clustered by
    ``clusters`` (item key to cluster), for a rate (0/1 values) or a mean."""
    sums, counts = cluster_totals(values, clusters)
    k, n = len(sums), int(counts.sum())
    if n == 0:
        return Interval(None, None, "not estimable", "no items")
    mean = float(sums.sum() / n)
    if rate and k == n:
        return Interval(*wilson(mean, n), "wilson")
    if k < MIN_CLUSTERS:
        return too_few(k)
    means = bootstrap_means(sums, counts)
    if rate:
        binomial = mean * (1 - mean) / n
        if binomial == 0:
            effective = float(k)
        else:
            spread = float(means.var()) * k / (k - 1)
            effective = n / max(1.0, spread / binomial)
        return Interval(*wilson(mean, effective), "wilson at effective n")
    low, high = (float(x) for x in np.percentile(means, [2.5, 97.5]))
    if high - low <= 1e-12 * max(1.0, abs(mean)):
        return Interval(None, None, "not estimable", "every cluster has the same mean")
    return Interval(low, high, "cluster bootstrap")
