"""Means and spreads of a task's numbers that never overflow.

Values near the float range's edge (two trials scoring ``1e308``) overflow a plain sum, and
``statistics.fmean`` raises on that. Here values are scaled by their largest magnitude first,
so a mean or spread that is itself within the range comes out right, and one beyond it is
infinity (shown as such), never an error. A value that is not finite makes the result NaN.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence


def _scale(values: Sequence[float]) -> float:
    return max((abs(v) for v in values), default=0.0)


def mean(values: Sequence[float]) -> float:
    """The mean of ``values`` (NaN for none, or when one is not finite)."""
    if not values or not all(math.isfinite(v) for v in values):
        return math.nan
    scale = _scale(values)
    if scale == 0:
        return 0.0
    return math.fsum(v / scale for v in values) / len(values) * scale


def sd(values: Sequence[float]) -> float:
    """The sample standard deviation of ``values`` (0 for fewer than two; NaN when one is
    not finite)."""
    if not all(math.isfinite(v) for v in values):
        return math.nan
    if len(values) < 2:
        return 0.0
    scale = _scale(values)
    if scale == 0:
        return 0.0
    return statistics.stdev([v / scale for v in values]) * scale
