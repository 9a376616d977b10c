"""Metrics: named numbers read from a trial record, kept apart from tasks.

A metric is a function of the trial record made with :func:`metric` (which way is better, how
its interval is computed, whether it gives one value per item). A run or suite config attaches
metrics by name (``metrics: [tokens, metrics.py:wrong_guesses]``) and reports and leaderboards
show them as they show a task's own. :data:`METRICS` lists the short names; an installed
package adds its own through the ``cogarch.metrics`` entry-point group. Each name is imported
from its file on first use.
"""

# ruff: noqa: F401
# (the imports under TYPE_CHECKING are the public names: cogarch.lazy reads them)
from __future__ import annotations

from typing import TYPE_CHECKING

from cogarch.lazy import lazy_module

if TYPE_CHECKING:
    from cogarch.core.metric import FunctionMetric, Metric, metric
    from cogarch.metrics.registry import METRICS, resolve_metric

__all__, __getattr__ = lazy_module(__name__)
