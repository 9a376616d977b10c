"""A task's own presentation, asked for safely: its report tables and a trial's sections.

A task's hooks are its own code: one that fails (on a record of an older shape, say) must not
take the report or the page down with it, so its failure is shown in its place.
"""

from __future__ import annotations

from collections.abc import Sequence

from cogarch.core.evaluation import Scalar
from cogarch.core.records import TrialRecord
from cogarch.core.task import Task
from cogarch.core.views import Section, Table


def _failed(what: str, task: type[Task], exc: Exception) -> str:
    return f"the {task.__name__} task's {what} could not be made: {type(exc).__name__}: {exc}"


def task_tables(task: type[Task] | None, records: Sequence[TrialRecord]) -> list[Table]:
    """``task.report_tables(records)``; none for a task that cannot be loaded here."""
    if task is None or not records:
        return []
    try:
        return list(task.report_tables(records))
    except Exception as exc:  # the task's own code: shown, never fatal
        return [Table("task tables", ["problem"], [[_failed("tables", task, exc)]])]


def task_sections(task: type[Task] | None, record: TrialRecord) -> list[Section]:
    """``task.trial_sections(record)``; none for a task that cannot be loaded here."""
    if task is None:
        return []
    try:
        return list(task.trial_sections(record))
    except Exception as exc:  # the task's own code: shown, never fatal
        return [Section("task sections", lines=[_failed("sections", task, exc)])]


def task_columns(task: type[Task] | None, record: TrialRecord) -> dict[str, Scalar]:
    """``task.tidy_columns(record)``; none for a task that cannot be loaded here, or whose
    hook fails on this record."""
    if task is None:
        return {}
    try:
        return dict(task.tidy_columns(record))
    except Exception:  # the task's own code: its columns stay empty for this record
        return {}


__all__ = ["task_columns", "task_sections", "task_tables"]
