"""What a task is ranked by on a suite's leaderboard: its declared metrics, and their items.

A task declares ``leaderboard`` on its class, a tuple of :class:`LeaderboardMetric`; the first
is the task's main metric (the leaderboard's value for the task, its ranks and win rates), the
others are shown beside it. A metric is declared, not coded: where its values are in a trial
record, which way is better, how its interval is computed and which items are paired::

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
``cogarch.experiments.leaderboard_stats`` for the computations.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from cogarch.errors import ConfigError

from .records import TrialRecord

Direction = Literal["higher", "lower"]
IntervalKind = Literal["wilson", "bootstrap"]


class LeaderboardMetric(BaseModel):
    """One metric a task is ranked by, declared on its class (``Task.leaderboard``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1, description="The metric's name in the leaderboard.")
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
    direction: Direction = Field(default="higher", description="Which way is better.")
    interval: IntervalKind = Field(
        default="bootstrap",
        description="wilson: a rate of 0/1 values (Wilson interval, exact McNemar test on "
        "shared items); bootstrap: a mean (cluster bootstrap, Wilcoxon signed-rank test on "
        "shared items).",
    )
    paired: bool = Field(
        default=True,
        description="Items with the same key are the same item for every agent (same trial "
        "seed, same question), so agents are ranked and tested on the items they all have.",
    )
    cluster: str | None = Field(
        default=None,
        description="Dotted path of the field naming an item's cluster, looked up in the item "
        "(with items), then in the trial's payload: items of one cluster are resampled and "
        "tested together. None: each trial is a cluster (the task's ``clusters`` fills it).",
    )
    failure: float | None = Field(
        default=None,
        description="The value an item of a failed trial scores. None: the worst value of a "
        "rate (0, or 1 when lower is better); a mean's failed items are counted, not scored.",
    )
    description: str = Field(default="", description="What the metric measures, in a line.")

    @property
    def failure_value(self) -> float | None:
        """What a failed item scores: ``failure``, else a rate's worst value, else None."""
        if self.failure is not None:
            return self.failure
        if self.interval == "wilson":
            return 0.0 if self.direction == "higher" else 1.0
        return None

    @field_validator("value", "items", "key", "where", "cluster")
    @classmethod
    def _path(cls, path: str | None) -> str | None:
        if path is not None and not all(part for part in path.split(".")):
            raise ValueError(f"'{path}' is not a dotted path of field names; write a.b.c")
        return path


def _at(data: Any, path: str) -> Any:
    for part in path.split("."):
        if not isinstance(data, Mapping) or part not in data:
            return None
        data = data[part]
    return data


def _number(metric: LeaderboardMetric, raw: Any) -> float | None:
    if metric.equals is not None:
        return None if raw is None else float(str(raw) == metric.equals)
    if raw is None:
        return None
    if isinstance(raw, bool):
        return float(raw)
    if not isinstance(raw, int | float) or not math.isfinite(raw):
        raise ConfigError(
            f"leaderboard metric '{metric.name}' reads '{metric.value}', which holds "
            f"{raw!r:.60}, not a number or a boolean; point 'value' at a numeric field"
        )
    if metric.interval == "wilson" and raw not in (0, 1):
        raise ConfigError(
            f"leaderboard metric '{metric.name}' is a rate (interval 'wilson') but "
            f"'{metric.value}' holds {raw!r}; rates need values 0 or 1, or declare "
            "interval 'bootstrap'"
        )
    return float(raw)


def metric_items(metric: LeaderboardMetric, record: TrialRecord) -> list[tuple[str, float]]:
    """The metric's items in one trial, as ``(key, value)``: none for a trial that is not
    complete or that its task leaves unrated (``Evaluation.unrated_reason``)."""
    return [(key, value) for key, value, _ in metric_units(metric, record)]


def trial_cluster(metric: LeaderboardMetric, record: TrialRecord, item: Any = None) -> str:
    """The cluster of an item of ``record`` (``item``: its element of the items list): the
    declared ``cluster`` field's value, or ``trial N`` when none is declared or found."""
    if metric.cluster is not None:
        for where in (item, record.payload.model_dump(mode="json")):
            found = _at(where, metric.cluster) if isinstance(where, Mapping) else None
            if found is not None and not isinstance(found, Mapping | list):
                return f"{metric.cluster} {found}"
    return f"trial {record.trial}"


def metric_units(metric: LeaderboardMetric, record: TrialRecord) -> list[tuple[str, float, str]]:
    """The metric's items in one trial with their clusters, as ``(key, value, cluster)``."""
    if record.status != "complete" or record.evaluation.unrated_reason() is not None:
        return []
    evaluation = record.evaluation.model_dump(mode="json")
    if metric.items is None:
        if metric.where is not None and _at(evaluation, metric.where) is not True:
            return []
        value = _number(metric, _at(evaluation, metric.value))
        return [] if value is None else [(str(record.trial), value, trial_cluster(metric, record))]
    found = _at(record.payload.model_dump(mode="json"), metric.items)
    if not isinstance(found, list):
        return []
    out = []
    for position, item in enumerate(found):
        if metric.where is not None and _at(item, metric.where) is not True:
            continue
        value = _number(metric, _at(item, metric.value))
        if value is None:
            continue
        name = position if metric.key is None else _at(item, metric.key)
        out.append((f"{record.trial}/{name}", value, trial_cluster(metric, record, item)))
    return out


def trial_of_key(key: str) -> str:
    """The trial part of an item's key (``"3/7"`` and ``"3"`` are of trial ``"3"``)."""
    return key.partition("/")[0]
