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
    """The task of ``kind`` (a registered kind, an import path or a file) built with
    ``params``, the keys of a run config's ``task:`` section; a wrong key is a
    ``ConfigError`` naming it."""
    return prepare(TASKS, kind, params, where="task").build()
