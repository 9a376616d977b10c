"""The guarded reader of the trial values a leaderboard uses (the leaderboard files,
``cogarch suite report`` and the viewer's ``/leaderboard`` all read through it).

A trial file is damaged in many ways its record type still accepts: a metric holding
``"many"``, a negative or non-finite count, a duration of NaN. Each such value leaves only
its own item out (the trial's metric value, or the trial's costs), with one line naming the
file and the field in the leaderboard's ``left_out`` (and on stderr where a command shows
it); the rest of the leaderboard is built as usual. A cell folder that is a link (or a part of
it is) is never followed: its trials are left out, saying so.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from cogarch.core.leaderboard import LeaderboardMetric
from cogarch.core.metric import Metric, rated
from cogarch.core.records import TrialRecord
from cogarch.errors import CogarchError

from ..results.names import safe_name
from ..results.trial_files import iter_trials
from ..suites.folder import cell_folder

MAX_COUNT = 10**15
"""The largest count (calls, tokens) a trial file is believed; more is a damaged file."""
MAX_SECONDS = 10.0**9
"""The longest wall time of a trial believed, in seconds."""


def cell_trials(
    root: Path, folder: str, agent: str, trials: int, left_out: list[str]
) -> dict[int, tuple[Path, TrialRecord]]:
    """The readable trial files of ``agent`` in the cell folder ``folder`` of the suite in
    ``root``, by trial index (those of another agent or out of range are not the cell's)."""
    path, problem = cell_folder(root, folder)
    if problem is not None:
        left_out.append(f"cell folder '{folder}': {problem}; its trials are left out")
        return {}
    if not path.is_dir():
        return {}
    found: dict[int, tuple[Path, TrialRecord]] = {}
    for file, item in iter_trials(path):
        if not isinstance(item, TrialRecord):
            if file.parent.name == safe_name(agent):
                why = " ".join(str(item).split())[:200]
                left_out.append(f"'{file}' cannot be read ({why}); the trial is left out")
            continue
        if item.agent == agent and 0 <= item.trial < trials:
            found[item.trial] = (file, item)
    return found


def trial_items(
    metric: Metric, record: TrialRecord, file: Path, left_out: list[str]
) -> list[tuple[str, float, str]]:
    """The metric's items in one trial as ``(key, value, cluster)``; none, with a line in
    ``left_out``, when a value is not one the metric can read."""
    try:
        items = metric.units(record)
    except CogarchError as exc:
        why = str(exc).split(";")[0]
        left_out.append(f"'{file}': '{metric.reads}' of metric '{metric.name}' left out ({why})")
        return []
    except Exception as exc:  # an attached metric's own code
        why = f"{type(exc).__name__}: {' '.join(str(exc).split())[:200]}"
        left_out.append(f"'{file}': metric '{metric.name}' failed on the trial ({why})")
        return []
    if not items and _missing(metric, record):
        left_out.append(
            f"'{file}': field '{metric.reads}' of metric '{metric.name}' is missing from the "
            "trial's evaluation; the trial is left out of it"
        )
    return items


def _missing(metric: Metric, record: TrialRecord) -> bool:
    """Whether a complete, rated trial lacks the field its one-item field metric reads (a
    null value is no item by design, and so is a trial the metric's ``where`` leaves out)."""
    if not isinstance(metric, LeaderboardMetric) or metric.itemised or metric.filtered:
        return False
    if not rated(record):
        return False
    data: Any = record.evaluation.model_dump(mode="json")
    for part in metric.value.split("."):
        if not isinstance(data, dict) or part not in data:
            return True
        data = data[part]
    return False


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_COUNT


def _bad_cost_field(record: TrialRecord) -> str | None:
    """The first cost field of ``record`` that holds an impossible value, or None."""
    usage = record.usage
    for name in ("model_calls", "prompt_tokens", "completion_tokens"):
        if not _count(getattr(usage, name)):
            return f"usage.{name}"
    for caller, row in usage.by_caller.items():
        calls = row.get("calls") if isinstance(row, dict) else None
        if calls is not None and not (
            isinstance(calls, int | float) and math.isfinite(calls) and 0 <= calls <= MAX_COUNT
        ):
            return f"usage.by_caller.{caller}.calls"
    for index, call in enumerate(usage.calls):
        for name in ("prompt_tokens", "completion_tokens"):
            if not _count(getattr(call, name)):
                return f"usage.calls.{index}.{name}"
    seconds = record.metadata.duration_s
    if seconds is not None and not (
        isinstance(seconds, int | float) and math.isfinite(seconds) and 0 <= seconds <= MAX_SECONDS
    ):
        return "metadata.duration_s"
    return None


def costs_readable(record: TrialRecord, file: Path, left_out: list[str]) -> bool:
    """Whether the trial's costs (calls, tokens, wall time) are possible values; when not,
    a line in ``left_out`` names the file and the field, and its costs are left out."""
    field = _bad_cost_field(record)
    if field is None:
        return True
    shown = repr(_value_at(record, field))[:40]
    left_out.append(
        f"'{file}': field '{field}' holds {shown}, not a possible count; the trial's costs "
        "are left out"
    )
    return False


def _value_at(record: TrialRecord, field: str) -> Any:
    value: Any = record
    for part in field.split("."):
        if isinstance(value, dict):
            value = value.get(part)
        elif isinstance(value, list) and part.isdigit():
            value = value[int(part)]
        else:
            value = getattr(value, part, None)
    return value


def finite_money(money: float | None, where: str, left_out: list[str]) -> float | None:
    """``money`` when it is finite; None, saying so, when the sum overflowed."""
    if money is None or math.isfinite(money):
        return money
    left_out.append(f"{where}: the money spent is too large to sum; it is left out")
    return None
