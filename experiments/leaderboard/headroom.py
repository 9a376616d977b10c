"""Headroom captured: how much of the gap between the no-memory control and the oracle a
memory closes, on the items the three cells share.

    headroom = (score - no_memory) / (oracle - no_memory)

0 is no better than the question alone, 1 as good as being shown only the evidence; it can
fall below 0 or rise above 1. Each cell's score is its mean over the shared items (a trial's
0/1 verdict, a question's F1), so the three means are paired; the interval is a paired
bootstrap: the shared items (or, with ``clusters``, their clusters, as LoCoMo's questions
within a conversation) are drawn with replacement and the ratio computed on each draw.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import TypeVar

import numpy as np

RESAMPLES = 2000
K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True)
class Headroom:
    """Headroom captured on the shared items, with its paired-bootstrap interval."""

    value: float | None
    """None when the oracle is no better or worse than no memory on the shared items (the
    ratio has no denominator), or when no item is shared."""
    low: float | None
    high: float | None
    items: int
    """The items the three cells share."""
    clusters: int | None
    """The clusters drawn from, when resampled by cluster."""
    score: float | None
    no_memory: float | None
    oracle: float | None
    undefined_draws: int = 0
    """Bootstrap draws whose oracle and no-memory means tied (left out of the interval)."""


def _ratio(score: float, none: float, oracle: float) -> float | None:
    gap = oracle - none
    return None if abs(gap) < 1e-12 else float((score - none) / gap)


def headroom(
    score: Mapping[K, float],
    no_memory: Mapping[K, float],
    oracle: Mapping[K, float],
    *,
    clusters: Mapping[K, Hashable] | None = None,
    level: float = 0.95,
    resamples: int = RESAMPLES,
    seed: int = 0,
) -> Headroom:
    """Headroom of the cell ``score`` against its controls, each a mapping from item (a
    trial index, a question id) to that item's value, on the items all three have. With
    ``clusters`` (item -> cluster) the bootstrap draws clusters; ``seed`` fixes the draws.
    The interval is None when fewer than half the draws have a denominator."""
    if not 0 < level < 1:
        raise ValueError(f"level must lie between 0 and 1, not {level}")
    if resamples < 1:
        raise ValueError(f"resamples must be at least 1, not {resamples}")
    shared = [i for i in score if i in no_memory and i in oracle]
    if not shared:
        return Headroom(None, None, None, 0, None, None, None, None)
    values = np.array([[score[i], no_memory[i], oracle[i]] for i in shared], dtype=float)
    means = values.mean(axis=0)
    value = _ratio(*means)
    if clusters is None:
        groups = [np.array([k]) for k in range(len(shared))]
    else:
        by: dict[Hashable, list[int]] = {}
        for k, item in enumerate(shared):
            by.setdefault(clusters[item], []).append(k)
        groups = [np.array(g) for g in by.values()]
    sums = np.array([values[g].sum(axis=0) for g in groups])
    counts = np.array([len(g) for g in groups], dtype=float)
    rng = np.random.default_rng(seed)
    draws = rng.integers(0, len(groups), size=(resamples, len(groups)))
    drawn = sums[draws].sum(axis=1) / counts[draws].sum(axis=1)[:, None]
    gaps = drawn[:, 2] - drawn[:, 1]
    ok = np.abs(gaps) >= 1e-12
    ratios = (drawn[ok, 0] - drawn[ok, 1]) / gaps[ok]
    low = high = None
    if value is not None and ok.sum() * 2 >= resamples:
        tail = (1 - level) / 2 * 100
        low, high = (float(x) for x in np.percentile(ratios, [tail, 100 - tail]))
    return Headroom(
        value=value,
        low=low,
        high=high,
        items=len(shared),
        clusters=None if clusters is None else len(groups),
        score=float(means[0]),
        no_memory=float(means[1]),
        oracle=float(means[2]),
        undefined_draws=int(resamples - ok.sum()),
    )
