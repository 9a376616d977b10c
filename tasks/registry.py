"""Tasks by short name."""

from __future__ import annotations

from typing import Any

from cogarch.construction import prepare
from cogarch.core.task import Task
from cogarch.registry import Registry

TASKS: Registry[type[Task]] = Registry("task", base=Task)
TASKS.register("hangman_sct", "cogarch.tasks.hangman.task:HangmanSCT")
TASKS.register("diagnosis_sct", "cogarch.tasks.diagnosis.task:DiagnosisSCT")
TASKS.register("revision", "cogarch.tasks.revision.task:RevisionTask")
TASKS.register("constraints", "cogarch.tasks.constraints.task:ConstraintTask")
TASKS.register("locomo", "cogarch.tasks.locomo.task:LocomoTask")
TASKS.register("longmemeval", "cogarch.tasks.longmemeval.task:LongMemEvalTask")
TASKS.register("alfworld", "cogarch.tasks.alfworld.task:AlfworldTask")


def build_task(kind: str, params: dict[str, Any]) -> Task:
    return prepare(TASKS, kind, params, where="task").build()
