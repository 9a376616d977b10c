"""What a task is ranked by on a suite's leaderboard: its declared metrics, and their items.

A task declares ``leaderboard`` on its class, a tuple of :class:`LeaderboardMetric`; the first
is the task's main metric (the leaderboard's value for the task, its ranks and win rates), the
others are shown beside it, with any metric the suite attaches by name
(:mod:`cogarch.core.metric`). A task's metric is declared, not coded: where its values are in
a trial record, which way is better, how its interval is computed and which items are
paired::

    leaderboard = (
        LeaderboardMetric(name="accuracy", value="correct", items="answers", interval="wilson"),
    )

Its *items* are what the value averages over: one per complete, rated trial (``value`` is a
field of the trial's evaluation), or, with ``items``, one per element of a list in the
trial's payload (``value`` is a field of each element). Paths are dotted (``f1.overall``).
An item's key is the trial's index, with the element's position (or its ``key`` field) after
a slash; two agents' items with the same key are the same item (same trial seed, same
question), which is what ``paired`` declares. A missing or null value is no item.

``interval`` says how the 95% interval is computed and which test compares agents:
``wilson`` for a rate (every value 0 or 1), ``bootstrap`` for a mean. ``cluster`` says which
items hang together (the questions of one LoCoMo conversation): intervals and tests resample
or compare whole clusters, never single items of one. A failed trial counts: a rate scores
its items as failures (``failure``), a mean counts them as failed. See
``cogarch.experiments.estimates.paired`` for the computations.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field, field_validator

from .metric import Metric, Unit, at, dotted, number, rated, trial_cluster
from .records import TrialRecord


class LeaderboardMetric(Metric):
    """One metric a task is ranked by, declared on its class (``Task.leaderboard``) by the
    paths of its values in the trial record."""

    value: str = Field(
        min_length=1,
        description="Dotted path of the value: in the trial's evaluation, or, with items, in "
        "each item. A boolean counts 1 or 0.",
    )
    items: str | None = Field(
        default=None,
        description="Dotted path of a list in the trial's payload whose elements are the "
        "items; None: the trial is the one item.",
    )
    key: str | None = Field(
        default=None,
        description="Field of an item that names it across agents (default: its position).",
    )
    where: str | None = Field(
        default=None,
        description="Dotted path of a boolean: only items (or trials) where it is true count "
        "(actions per success counts won games only).",
    )
    equals: str | None = Field(
        default=None,
        description="The value counts 1 when the field equals this text, else 0 (the rate of "
        "one outcome: value='outcome', equals='solved').",
    )

    @property
    def itemised(self) -> bool:
        return self.items is not None

    @property
    def filtered(self) -> bool:
        return self.where is not None

    @property
    def reads(self) -> str:
        return self.value

    def units(self, record: TrialRecord) -> list[Unit]:
        return metric_units(self, record)

    @field_validator("value", "items", "key", "where")
    @classmethod
    def _path(cls, path: str | None) -> str | None:
        return dotted(path)


def _number(metric: LeaderboardMetric, raw: Any) -> float | None:
    if metric.equals is not None:
        return None if raw is None else float(str(raw) == metric.equals)
    return number(metric, raw)


def metric_items(metric: Metric, record: TrialRecord) -> list[tuple[str, float]]:
    """The metric's items in one trial, as ``(key, value)``: none for a trial that is not
    complete or that its task leaves unrated (``Evaluation.unrated_reason``)."""
    return [(key, value) for key, value, _ in metric.units(record)]


def metric_units(metric: LeaderboardMetric, record: TrialRecord) -> list[Unit]:
    """The metric's items in one trial with their clusters, as ``(key, value, cluster)``."""
    if not rated(record):
        return []
    evaluation = record.evaluation.model_dump(mode="json")
    if metric.items is None:
        if metric.where is not None and at(evaluation, metric.where) is not True:
            return []
        value = _number(metric, at(evaluation, metric.value))
        return [] if value is None else [(str(record.trial), value, trial_cluster(metric, record))]
    found = at(record.payload.model_dump(mode="json"), metric.items)
    if not isinstance(found, list):
        return []
    out = []
    for position, item in enumerate(found):
        if metric.where is not None and at(item, metric.where) is not True:
            continue
        value = _number(metric, at(item, metric.value))
        if value is None:
            continue
        name = position if metric.key is None else at(item, metric.key)
        out.append((f"{record.trial}/{name}", value, trial_cluster(metric, record, item)))
    return out


def trial_of_key(key: str) -> str:
    """The trial part of an item's key (``"3/7"`` and ``"3"`` are of trial ``"3"``)."""
    return key.partition("/")[0]
