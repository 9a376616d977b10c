"""Metrics by short name: the ones cogarch ships, those installed packages add through the
``cogarch.metrics`` entry-point group, and any function named by import path or file.

What a name resolves to is a :class:`~cogarch.core.metric.Metric` (a ``@metric``-decorated
function is one) or a plain function of the trial record, which becomes a metric of a mean
where higher is better, named after the function.
"""

from __future__ import annotations

from typing import Any

from cogarch.core.metric import FunctionMetric, Metric, MetricFunction
from cogarch.errors import UnknownNameError
from cogarch.registry import ENTRY_POINT_GROUPS, Registry, takes_positional

_ONE_ARGUMENT = takes_positional(1)


def _usable(found: Any) -> str | None:
    if isinstance(found, Metric):
        return None
    if isinstance(found, type):
        return "is a class, not a metric or a function of the trial record"
    problem = _ONE_ARGUMENT(found)
    return None if problem is None else f"{problem} (a metric takes the trial record)"


METRICS: Registry[Metric | MetricFunction] = Registry(
    "metric", check=_usable, entry_points=ENTRY_POINT_GROUPS["metric"]
)
"""The metrics a run or suite config attaches by short name (``metrics: [tokens]``)."""
for _name in ("model_calls", "prompt_tokens", "completion_tokens", "tokens", "memory_calls"):
    METRICS.register(_name, f"cogarch.metrics.usage:{_name}")
METRICS.register("seconds", "cogarch.metrics.usage:seconds")  # wall time


def resolve_metric(name: str) -> Metric:
    """The metric a config names.

    Args:
        name: A short name (``tokens``, or one an installed package adds), an import path
            (``my_pkg.metrics:wrong_guesses``) or a Python file's (``metrics.py:wrong_guesses``).

    Returns:
        The metric; a plain function becomes a mean where higher is better. A metric named by
        a short name goes by that name.

    Raises:
        UnknownNameError: When the name is unknown (the message lists the known ones), the
            file or module defines no such object, or it is not a metric.
    """
    return as_metric(METRICS.get(name), name)


def as_metric(found: object, name: str) -> Metric:
    """What ``name`` resolved to, as a metric: a plain function of the record becomes a mean
    where higher is better, named after the function; a short name names its metric.

    Raises:
        UnknownNameError: When ``found`` is neither a metric nor such a function.
    """
    if (problem := _usable(found)) is not None:  # an entry registered by name, checked now
        raise UnknownNameError(f"the metric '{name}' cannot be used: it {problem}")
    if not isinstance(found, Metric):
        function: MetricFunction = found  # type: ignore[assignment]
        found = FunctionMetric(name=getattr(function, "__name__", name), function=function)
    if ":" in name or found.name == name:
        return found
    return found.model_copy(update={"name": name})
