"""A metric: a named number read from a trial record, with which way is better, how its
interval is computed and which of its items hang together.

A metric turns one trial into *items*, ``(key, value, cluster)``: one item for a number per
trial, several for a number per question or game. Items with the same key are the same item
for every agent (same trial seed, same question); a cluster groups items that are not
independent (the questions of one conversation). Reports and leaderboards read every metric
the same way, whoever declared it: a task on its class (``Task.leaderboard``, declared by
field paths, :class:`cogarch.core.leaderboard.LeaderboardMetric`) or a run or suite config
by name (``metrics: [wrong_guesses]``, a :class:`FunctionMetric` made by :func:`metric` from
a plain function of the record).

Only complete trials that their task rates have items: a failed trial counts as a failure
where the leaderboard scores failures, and a trial its task leaves unrated
(``Evaluation.unrated_reason``) counts for nothing.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any, Literal, overload

from pydantic import BaseModel, ConfigDict, Field, field_validator

from cogarch.errors import ConfigError

from .records import TrialRecord

Direction = Literal["higher", "lower"]
IntervalKind = Literal["wilson", "bootstrap"]
Unit = tuple[str, float, str]
"""One item of a metric in a trial: its key, its value and its cluster."""


class Metric(BaseModel):
    """What every metric declares beside how it reads a trial (:meth:`units`)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1, description="The metric's name in reports and leaderboards.")
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

    @property
    def itemised(self) -> bool:
        """Whether a trial holds several items (a failed trial's stand-in is ``T/failed``)."""
        return False

    @property
    def filtered(self) -> bool:
        """Whether some rated trials hold no item by design (a failed one then scores none)."""
        return False

    @property
    def reads(self) -> str:
        """What the metric reads, for messages (a field path, a function's name)."""
        return self.name

    def units(self, record: TrialRecord) -> list[Unit]:
        """The metric's items in one trial, as ``(key, value, cluster)``."""
        raise NotImplementedError(f"{type(self).__name__} does not say how it reads a trial")

    def trial_value(self, record: TrialRecord) -> float | None:
        """The mean of the trial's items (None: it has none)."""
        values = [value for _, value, _ in self.units(record)]
        return math.fsum(values) / len(values) if values else None

    @field_validator("cluster")
    @classmethod
    def _cluster_path(cls, path: str | None) -> str | None:
        return dotted(path)


def dotted(path: str | None) -> str | None:
    """``path`` when it is a dotted path of field names (``a.b.c``), else a ValueError."""
    if path is not None and not all(part for part in path.split(".")):
        raise ValueError(f"'{path}' is not a dotted path of field names; write a.b.c")
    return path


def rated(record: TrialRecord) -> bool:
    """Whether a trial has items: complete, and rated by its task."""
    return record.status == "complete" and record.evaluation.unrated_reason() is None


def at(data: Any, path: str) -> Any:
    """The value at the dotted ``path`` in nested mappings (None where there is none)."""
    for part in path.split("."):
        if not isinstance(data, Mapping) or part not in data:
            return None
        data = data[part]
    return data


def number(metric: Metric, raw: Any) -> float | None:
    """``raw`` as an item's value (a boolean counts 1 or 0; None is no item); a ConfigError
    when it is not a finite number, or not 0 or 1 for a rate."""
    if raw is None:
        return None
    if isinstance(raw, bool):
        return float(raw)
    if not isinstance(raw, int | float) or not math.isfinite(raw):
        raise ConfigError(
            f"metric '{metric.name}' reads '{metric.reads}', which holds {raw!r:.60}, not a "
            "number or a boolean; make it give a number"
        )
    if metric.interval == "wilson" and raw not in (0, 1):
        raise ConfigError(
            f"metric '{metric.name}' is a rate (interval 'wilson') but '{metric.reads}' holds "
            f"{raw!r}; rates need values 0 or 1, or declare interval 'bootstrap'"
        )
    return float(raw)


def trial_cluster(metric: Metric, record: TrialRecord, item: Any = None) -> str:
    """The cluster of an item of ``record`` (``item``: its element of the items list): the
    declared ``cluster`` field's value, or ``trial N`` when none is declared or found."""
    if metric.cluster is not None:
        for where in (item, record.payload.model_dump(mode="json")):
            found = at(where, metric.cluster) if isinstance(where, Mapping) else None
            if found is not None and not isinstance(found, Mapping | list):
                return f"{metric.cluster} {found}"
    return f"trial {record.trial}"


MetricFunction = Callable[[TrialRecord], Any]
"""A function of a trial record giving its value: a number or a boolean (the trial is the
one item), a list of them (one item per position), a mapping of them (one item per key), or
None (no item)."""


class FunctionMetric(Metric):
    """A metric computed by a function of the trial record (made by :func:`metric`)."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    function: MetricFunction = Field(exclude=True, description="The function of the record.")
    items: bool = Field(
        default=False,
        description="Whether the function gives one value per item (a list or a mapping).",
    )

    @property
    def itemised(self) -> bool:
        return self.items

    @property
    def reads(self) -> str:
        return f"{getattr(self.function, '__qualname__', self.name)}(record)"

    def __call__(self, record: TrialRecord) -> Any:
        """The function's value for ``record``, as the decorated function gave it."""
        return self.function(record)

    def units(self, record: TrialRecord) -> list[Unit]:
        if not rated(record):
            return []
        found = self.function(record)
        if found is None:
            return []
        if isinstance(found, Mapping):
            pairs = [(f"{record.trial}/{k}", v) for k, v in found.items()]
        elif isinstance(found, list | tuple):
            pairs = [(f"{record.trial}/{i}", v) for i, v in enumerate(found)]
        else:
            pairs = [(str(record.trial), found)]
        cluster = trial_cluster(self, record)
        return [(key, v, cluster) for key, raw in pairs if (v := number(self, raw)) is not None]


@overload
def metric(function: MetricFunction, /) -> FunctionMetric: ...
@overload
def metric(
    function: None = None,
    /,
    *,
    name: str | None = None,
    direction: Direction = "higher",
    interval: IntervalKind = "bootstrap",
    items: bool = False,
    paired: bool = True,
    cluster: str | None = None,
    failure: float | None = None,
    description: str | None = None,
) -> Callable[[MetricFunction], FunctionMetric]: ...
def metric(
    function: MetricFunction | None = None,
    /,
    *,
    name: str | None = None,
    direction: Direction = "higher",
    interval: IntervalKind = "bootstrap",
    items: bool = False,
    paired: bool = True,
    cluster: str | None = None,
    failure: float | None = None,
    description: str | None = None,
) -> FunctionMetric | Callable[[MetricFunction], FunctionMetric]:
    """Make a metric of a function of the trial record, as ``@metric`` or
    ``@metric(direction="lower")``.

    Args:
        function: The function (when used as ``@metric`` without arguments).
        name: The metric's name (default: the function's).
        direction: Which way is better: ``higher`` or ``lower``.
        interval: ``bootstrap`` for a mean, ``wilson`` for a rate of 0/1 values.
        items: Whether the function gives a list or a mapping of values, one per item.
        paired: Whether items of the same key are the same item for every agent.
        cluster: Dotted path of a payload field naming the trial's cluster.
        failure: What an item of a failed trial scores (default: a rate's worst value).
        description: What it measures, in a line (default: the function's docstring's first
            line).

    Returns:
        The metric (or, with keyword arguments only, the decorator that makes it).
    """

    def make(fn: MetricFunction) -> FunctionMetric:
        doc = (fn.__doc__ or "").strip().split("\n", 1)[0]
        return FunctionMetric(
            name=name or str(getattr(fn, "__name__", "metric")),
            function=fn,
            direction=direction,
            interval=interval,
            items=items,
            paired=paired,
            cluster=cluster,
            failure=failure,
            description=doc if description is None else description,
        )

    return make if function is None else make(function)
