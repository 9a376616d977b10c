"""A metric's items in each agent's cell with failed trials counted.

A failed trial's items are the items the other cells have in that trial (same key), or, when
none has, the trial itself (``"T"`` for a metric of one item per trial, ``"T/failed"`` for a
list of items); a metric with a ``where`` filter counts only items known from another cell. A
rate scores them as failures (``failure_value``), so they stay in its denominator; a mean
without a declared ``failure`` value counts them and leaves them out of its value.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from cogarch.core.leaderboard import trial_of_key
from cogarch.core.metric import Metric


class ScoredCell(Protocol):
    """What counting failures reads of a cell: its items and their clusters by metric name,
    and its failed trials."""

    @property
    def items(self) -> Mapping[str, Mapping[str, float]]: ...

    @property
    def clusters(self) -> Mapping[str, Mapping[str, str]]: ...

    @property
    def failed_trials(self) -> Sequence[int]: ...


@dataclass
class MetricCells:
    """One metric's items in each cell of a column, failures included."""

    values: dict[str, dict[str, float]] = field(default_factory=dict)
    """Each agent's items (failures scored), by item key."""
    failures: dict[str, int] = field(default_factory=dict)
    """Each agent's failed items."""
    clusters: dict[str, str] = field(default_factory=dict)
    """Each item's cluster, over every cell."""


def _failed_keys(metric: Metric, trial: int, known: set[str]) -> set[str]:
    if known:
        return known
    if metric.filtered:
        return set()
    return {f"{trial}/failed"} if metric.itemised else {str(trial)}


def with_failures(metric: Metric, data: Mapping[str, ScoredCell]) -> MetricCells:
    """The metric's items in each cell of ``data`` (by agent), failed trials counted."""
    out = MetricCells()
    by_trial: dict[str, set[str]] = {}
    for cell in data.values():
        out.clusters.update(cell.clusters.get(metric.name, {}))
        for key in cell.items.get(metric.name, {}):
            by_trial.setdefault(trial_of_key(key), set()).add(key)
    score = metric.failure_value
    for agent, cell in data.items():
        mine = dict(cell.items.get(metric.name, {}))
        failed: set[str] = set()
        for trial in cell.failed_trials:
            failed |= _failed_keys(metric, trial, by_trial.get(str(trial), set()))
        for key in failed:
            out.clusters.setdefault(key, f"trial {trial_of_key(key)}")
            if score is not None:
                mine[key] = score
        out.values[agent] = mine
        out.failures[agent] = len(failed)
    return out
