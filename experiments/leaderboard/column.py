"""One leaderboard column: every cell's items with its failures counted, the items all its
measured cells share, the values the ranking uses, its best cells and the tests against them.

- **Failures count.** A failed trial's items are the items the other cells have in that trial
  (same key), or, when none has, the trial itself (``"T"`` for a metric of one item per
  trial, ``"T/failed"`` for a list of items); a metric with a ``where`` filter counts only
  items known from another cell. A rate scores them as failures (``failure_value``), so they
  stay in its denominator; a mean without a declared ``failure`` value counts them, shown
  beside the value, and leaves them out of it.
- **Shared items.** For a ``paired`` metric the column ranks on the items every measured cell
  has (the intersection of their keys): each cell's value over exactly those items is what
  the best cell, the tests and the aggregates use, while the cell still shows its own value
  over all its items (marked partial when some trials are missing). With no item shared by
  all, the column ranks no one (its cells are still tested, unpaired). An unpaired metric
  ranks each cell's own value.
- **Best cells.** Every cell tied with the best value is best; each other measured cell is
  tested against the first best one (``estimates.paired``), Holm-corrected over the column.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from cogarch.core.metric import Metric

from ..estimates.failures import MetricCells
from ..estimates.paired import paired_test, tied, unpaired_test
from ..estimates.significance import holm


@dataclass(frozen=True)
class Test:
    p_value: float
    p_adjusted: float
    significant: bool
    name: str


@dataclass
class Ranking:
    shared: list[str] | None
    """The items every measured cell has (a paired metric); None for an unpaired one."""
    values: dict[str, float]
    """The value each measured cell is ranked by."""
    aggregate: bool
    """Whether the column enters the rows' aggregates."""
    best: list[str] = field(default_factory=list)
    tests: dict[str, Test] = field(default_factory=dict)

    def shared_clusters(self, clusters: Mapping[str, str]) -> int | None:
        if self.shared is None:
            return None
        return len({clusters.get(k, f"item {k}") for k in self.shared})


def _mean(items: Mapping[str, float], keys: Sequence[str]) -> float:
    return math.fsum(items[k] for k in keys) / len(keys)


def rank_column(metric: Metric, cells: MetricCells, order: Sequence[str], alpha: float) -> Ranking:
    """The column's ranking: shared items, ranked values, best cells and tests."""
    measured = [a for a in order if cells.values.get(a)]
    own = {a: _mean(cells.values[a], list(cells.values[a])) for a in measured}
    if not measured:
        return Ranking(None if not metric.paired else [], {}, False)
    shared: list[str] | None = None
    ranked, aggregate = own, True
    if metric.paired:
        common = set.intersection(*(set(cells.values[a]) for a in measured))
        shared = sorted(common)
        if shared:
            ranked = {a: _mean(cells.values[a], shared) for a in measured}
        else:
            aggregate = False
    top = max(ranked.values()) if metric.direction == "higher" else min(ranked.values())
    best = [a for a in measured if tied(ranked[a], top)]
    ranking = Ranking(shared, ranked, aggregate, best)
    others = [a for a in measured if a not in best]
    reference = cells.values[best[0]]
    found = []
    for agent in others:
        mine = cells.values[agent]
        if shared:
            found.append(paired_test(metric, mine, reference, shared, cells.clusters))
        else:
            found.append(unpaired_test(metric, mine, reference, cells.clusters))
    adjusted, rejected = holm([p for p, _ in found], alpha)
    for agent, (p, name), adj, rej in zip(others, found, adjusted, rejected, strict=True):
        ranking.tests[agent] = Test(p, adj, rej, name)
    return ranking
