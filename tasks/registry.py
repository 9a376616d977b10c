"""Tasks by short name."""

from __future__ import annotations

from typing import Any

from cogarch.construction import prepare
from cogarch.core.task import Task
from cogarch.registry import ENTRY_POINT_GROUPS, Registry

TASKS: Registry[type[Task]] = Registry("task", base=Task, entry_points=ENTRY_POINT_GROUPS["task"])
"""The tasks cogarch ships, by the ``kind`` a run config's ``task:`` names."""
TASKS.register("hangman_sct", "cogarch.tasks.hangman.task:HangmanSCT")
TASKS.register("diagnosis_sct", "cogarch.tasks.diagnosis.task:DiagnosisSCT")
TASKS.register("revision", "cogarch.tasks.revision.task:RevisionTask")
TASKS.register("constraints", "cogarch.tasks.constraints.task:ConstraintTask")
TASKS.register("locomo", "cogarch.tasks.locomo.task:LocomoTask")
TASKS.register("longmemeval", "cogarch.tasks.longmemeval.task:LongMemEvalTask")
TASKS.register("alfworld", "cogarch.tasks.alfworld.task:AlfworldTask")
TASKS.register("genmem", "cogarch.tasks.genmem.task:GenmemTask")


def build_task(kind: str, params: dict[str, Any]) -> Task:
    """A task built from its kind and parameters.

    Args:
        kind: A registered kind (``hangman_sct``), an import path or a Python file's
            (``my_task.py:MyTask``).
        params: The keys of a run config's ``task:`` section, validated by the task's
            ``Params``.

    Returns:
        The task.

    Raises:
        ConfigError: When a key is unknown or invalid (the message names it).
        UnknownNameError: When ``kind`` names no task.
    """
    return prepare(TASKS, kind, params, where="task").build()
