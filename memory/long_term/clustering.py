"""Concept consolidation: k-means over concept embeddings, one representative per cluster.

The rule is Episodex's: with N concepts, k = max(1, floor(sqrt(N))) clusters, and each
cluster is represented by the member nearest its centroid (the mean of its members; the
earliest member among equals). k never exceeds the number of distinct embeddings (identical
concepts cannot fill separate clusters). scikit-learn's ``KMeans`` runs with k-means++
initialisation, ``n_init`` restarts and a fixed ``random_state``, so the same vectors and seed
give the same clusters; clusters are returned ordered by their representative's position, so
the result does not depend on how k-means numbered its labels.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from sklearn.cluster import KMeans
from threadpoolctl import threadpool_limits


@dataclass(frozen=True)
class Grouping:
    """One cluster as positions in the input: its members and the one that represents it."""

    members: tuple[int, ...]
    representative: int


def cluster_count(n: int) -> int:
    """k for ``n`` concepts: max(1, floor(sqrt(n))), 0 for none."""
    return max(1, math.isqrt(n)) if n > 0 else 0


def consolidate(vectors: Sequence[Sequence[float]], seed: int, n_init: int = 10) -> list[Grouping]:
    """Cluster ``vectors`` (one per concept) into k groups, each with its representative."""
    n = len(vectors)
    if n == 0:
        return []
    data = np.asarray(vectors, dtype=np.float64)
    distinct = len(np.unique(data, axis=0))
    k = min(cluster_count(n), distinct)
    if k == 1:
        labels = np.zeros(n, dtype=int)
    else:
        model = KMeans(n_clusters=k, n_init=n_init, random_state=seed % (2**32))
        # a few hundred concepts at most: starting OpenMP threads costs 20x the work itself
        with threadpool_limits(limits=1):
            labels = model.fit(data).labels_
    groups = []
    for label in range(k):
        members = [int(i) for i in np.flatnonzero(labels == label)]
        if not members:
            continue
        centroid = data[members].mean(axis=0)
        distances = np.linalg.norm(data[members] - centroid, axis=1)
        best = members[int(np.argmin(distances))]  # argmin keeps the earliest of equals
        groups.append(Grouping(tuple(members), best))
    return sorted(groups, key=lambda g: g.representative)


__all__ = ["Grouping", "cluster_count", "consolidate"]
