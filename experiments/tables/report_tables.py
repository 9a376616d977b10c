"""A task's own presentation, asked for safely: its report tables and a trial's sections.

A task's hooks are its own code: one that fails (on a record of an older shape, say), exits,
or returns something else than it declares must not take the report or the page down with it,
so its failure is shown in its place. Only an interrupt (Ctrl-C) goes through.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TypeVar

from cogarch.core.evaluation import Scalar
from cogarch.core.records import TrialRecord
from cogarch.core.task import Task
from cogarch.core.views import Section, Table

T = TypeVar("T")


def _failed(what: str, task: type[Task], exc: BaseException) -> str:
    return f"the {task.__name__} task's {what} could not be made: {type(exc).__name__}: {exc}"


def _all_of(kind: type[T], found: object, hook: str) -> list[T]:
    """``found`` as a list of ``kind``, or a ``TypeError`` naming the hook."""
    items = list(found) if isinstance(found, list | tuple) else None
    if items is None or not all(isinstance(item, kind) for item in items):
        raise TypeError(f"{hook} must return a list of {kind.__name__}, not {found!r:.100}")
    return items


def task_tables(task: type[Task] | None, records: Sequence[TrialRecord]) -> list[Table]:
    """``task.report_tables(records)``; none for a task that cannot be loaded here."""
    if task is None or not records:
        return []
    try:
        return _all_of(Table, task.report_tables(records), "report_tables")
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # the task's own code: shown, never fatal
        return [Table("task tables", ["problem"], [[_failed("tables", task, exc)]])]


def task_sections(task: type[Task] | None, record: TrialRecord) -> list[Section]:
    """``task.trial_sections(record)``; none for a task that cannot be loaded here."""
    if task is None:
        return []
    try:
        return _all_of(Section, task.trial_sections(record), "trial_sections")
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # the task's own code: shown, never fatal
        return [Section("task sections", lines=[_failed("sections", task, exc)])]


def task_columns(task: type[Task] | None, record: TrialRecord) -> dict[str, Scalar]:
    """``task.tidy_columns(record)``; none for a task that cannot be loaded here, or whose
    hook fails on this record."""
    if task is None:
        return {}
    try:
        found = task.tidy_columns(record)
        if not isinstance(found, dict):
            return {}
        return {str(k): v for k, v in found.items() if _is_scalar(v)}
    except KeyboardInterrupt:
        raise
    except BaseException:  # the task's own code: its columns stay empty for this record
        return {}


def _is_scalar(value: object) -> bool:
    """A value a tidy column can hold (finite numbers only)."""
    if isinstance(value, float):
        return math.isfinite(value)
    return value is None or isinstance(value, str | int | bool)
