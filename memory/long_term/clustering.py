"""Concept consolidation: k-means over concept embeddings, one representative per cluster.

The rule is Episodex's: with N concepts, k = max(1, floor(sqrt(N))) clusters, and each
cluster is represented by the member nearest its centroid (the mean of its members; the
earliest member among equals). k never exceeds the number of distinct embeddings (identical
concepts cannot fill separate clusters).

The same vectors and seed give the same clusters on every machine. k-means here is Lloyd's
algorithm with greedy k-means++ initialisation and ``n_init`` restarts (the best inertia wins,
the earliest restart among equals), and its arithmetic never goes through a BLAS kernel,
whose choice (by CPU, thread count or ``OPENBLAS_CORETYPE``) changes the last bits of a dot
product: distances are float64 sums of elementwise squares in a fixed order, rounded to
:data:`DIGITS` decimals before any comparison, and every tie goes to the lower index. Clusters
are returned ordered by their first member, so cluster ``c0`` is the one holding the earliest
concept whatever numbering the restarts produced.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .records import Cluster

DIGITS = 12
"""Decimals a squared distance keeps before it is compared (ties beyond them are equal)."""
MAX_ITER = 300
"""Lloyd iterations per restart at the most (it stops earlier once no label changes)."""


@dataclass(frozen=True)
class Grouping:
    """One cluster as positions in the input: its members and the one that represents it."""

    members: tuple[int, ...]
    representative: int


def cluster_count(n: int) -> int:
    """k for ``n`` concepts: max(1, floor(sqrt(n))), 0 for none."""
    return max(1, math.isqrt(n)) if n > 0 else 0


def squared_distances(data: np.ndarray, centres: np.ndarray) -> np.ndarray:
    """``(len(data), len(centres))`` squared Euclidean distances, rounded to :data:`DIGITS`.

    Elementwise differences and squares, summed along each row by numpy's fixed-order
    reduction: no matrix product, so the result is the same bits on every CPU and BLAS."""
    out = np.empty((len(centres), len(data)), dtype=np.float64)
    diff = np.empty(data.shape, dtype=np.float64)
    for j, centre in enumerate(centres):
        np.subtract(data, centre, out=diff)
        np.multiply(diff, diff, out=diff)
        np.sum(diff, axis=1, out=out[j])
    return np.round(out.T, DIGITS)


def consolidate(vectors: Sequence[Sequence[float]], seed: int, n_init: int = 10) -> list[Grouping]:
    """Cluster ``vectors`` (one per concept) into k groups, each with its representative."""
    n = len(vectors)
    if n == 0:
        return []
    data = np.asarray(vectors, dtype=np.float64)
    distinct = len(np.unique(data, axis=0))
    k = min(cluster_count(n), distinct)
    labels = np.zeros(n, dtype=np.int64) if k == 1 else kmeans(data, k, seed, n_init)
    groups = []
    for label in range(k):
        members = [int(i) for i in np.flatnonzero(labels == label)]
        if not members:
            continue
        centroid = data[members].mean(axis=0, keepdims=True)
        distances = squared_distances(data[members], centroid)[:, 0]
        best = members[int(np.argmin(distances))]  # argmin keeps the earliest of equals
        groups.append(Grouping(tuple(members), best))
    return sorted(groups, key=lambda g: g.members[0])


def concept_clusters(
    ids: Sequence[str], vectors: Sequence[Sequence[float]], seed: int, n_init: int = 10
) -> list[Cluster]:
    """The concepts ``ids`` (with their ``vectors``) consolidated into cluster records
    ``k0``, ``k1``, ... in :func:`consolidate`'s order."""
    return [
        Cluster(
            id=f"k{i}",
            members=tuple(ids[m] for m in g.members),
            representative=ids[g.representative],
        )
        for i, g in enumerate(consolidate(vectors, seed, n_init))
    ]


def kmeans(data: np.ndarray, k: int, seed: int, n_init: int = 10) -> np.ndarray:
    """Cluster labels of ``data``'s rows into ``k`` clusters, numbered by first member.

    ``n_init`` restarts from ``numpy.random.default_rng(seed)``; the restart with the least
    (rounded) inertia wins, the earliest among equals."""
    if not 1 <= k <= len(data):
        raise ValueError(f"k must be between 1 and the number of rows ({len(data)}), got {k}")
    rng = np.random.default_rng(seed % (2**32))
    best_labels: np.ndarray | None = None
    best_inertia = math.inf
    columns: dict[int, np.ndarray] = {}  # distances to a row, shared by the restarts' seedings
    for _ in range(max(1, n_init)):
        labels, inertia = _lloyd(data, _plus_plus(data, k, rng, columns))
        if inertia < best_inertia:
            best_labels, best_inertia = labels, inertia
    assert best_labels is not None
    return _canonical(best_labels)


def _plus_plus(
    data: np.ndarray, k: int, rng: np.random.Generator, columns: dict[int, np.ndarray]
) -> np.ndarray:
    """Greedy k-means++ seeding: each new centre is the best of 2 + floor(ln k) candidates
    drawn with probability proportional to the squared distance to the nearest centre
    (``columns`` keeps each row's distances to all rows once computed)."""
    n = len(data)
    trials = 2 + int(math.log(k))

    def to(rows: list[int]) -> np.ndarray:
        missing = [r for r in dict.fromkeys(rows) if r not in columns]
        if missing:
            for r, column in zip(missing, squared_distances(data, data[missing]).T, strict=True):
                columns[r] = column
        return np.stack([columns[r] for r in rows], axis=1)

    chosen = [int(rng.integers(n))]
    closest = to(chosen)[:, 0]
    for _ in range(1, k):
        total = float(closest.sum())
        if total <= 0:  # every row sits on a centre: take the first row not chosen yet
            picks = [next(i for i in range(n) if i not in chosen)]
        else:
            cumulative = np.cumsum(closest)
            draws = rng.random(trials) * total
            picks = [min(int(i), n - 1) for i in np.searchsorted(cumulative, draws, side="right")]
        to_picks = to(picks)
        potentials = np.round(np.minimum(closest[:, None], to_picks).sum(axis=0), DIGITS)
        best = int(np.argmin(potentials))
        chosen.append(picks[best])
        closest = np.minimum(closest, to_picks[:, best])
    return data[chosen].copy()


def _lloyd(data: np.ndarray, centres: np.ndarray) -> tuple[np.ndarray, float]:
    """Lloyd's iterations from ``centres``: the labels and their inertia (rounded)."""
    labels = np.full(len(data), -1, dtype=np.int64)
    for _ in range(MAX_ITER):
        distances = squared_distances(data, centres)
        new = np.argmin(distances, axis=1)  # the lowest centre index among equals
        if np.array_equal(new, labels):
            break
        labels = new
        for j in range(len(centres)):
            members = labels == j
            if members.any():  # an emptied cluster keeps its centre
                centres[j] = data[members].mean(axis=0)
    distances = squared_distances(data, centres)
    inertia = round(float(distances[np.arange(len(data)), labels].sum()), DIGITS)
    return labels, inertia


def _canonical(labels: np.ndarray) -> np.ndarray:
    """``labels`` renumbered in the order their clusters first appear."""
    order: dict[int, int] = {}
    for label in labels.tolist():
        order.setdefault(int(label), len(order))
    return np.array([order[int(label)] for label in labels.tolist()], dtype=np.int64)
