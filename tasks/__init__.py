"""Tasks by kind: :func:`build_task` makes one from its kind and parameters (:data:`TASKS`
lists the kinds). The interface a task implements is :class:`cogarch.core.Task`. The shipped
task classes and their evaluation types are here too, for a task of your own that builds on
one (a metric needs no subclass: see :mod:`cogarch.metrics`). Each name is imported from its
file on first use."""

# ruff: noqa: F401
# (the imports under TYPE_CHECKING are the public names: cogarch.lazy reads them)
from __future__ import annotations

from typing import TYPE_CHECKING

from cogarch.lazy import lazy_module

if TYPE_CHECKING:
    from cogarch.tasks.alfworld.records import AlfworldEvaluation
    from cogarch.tasks.alfworld.task import AlfworldTask
    from cogarch.tasks.constraints.records import ConstraintsEvaluation
    from cogarch.tasks.constraints.task import ConstraintTask
    from cogarch.tasks.diagnosis.task import DiagnosisSCT
    from cogarch.tasks.genmem.records import GenmemEvaluation
    from cogarch.tasks.genmem.task import GenmemTask
    from cogarch.tasks.hangman.task import HangmanSCT
    from cogarch.tasks.locomo.records import LocomoEvaluation
    from cogarch.tasks.locomo.task import LocomoTask
    from cogarch.tasks.longmemeval.records import LongMemEvalEvaluation
    from cogarch.tasks.longmemeval.task import LongMemEvalTask
    from cogarch.tasks.registry import TASKS, build_task
    from cogarch.tasks.revision.records import RevisionEvaluation
    from cogarch.tasks.revision.task import RevisionTask
    from cogarch.tasks.sct.engine import SCTTask
    from cogarch.tasks.sct.records import SCTEvaluation

__all__, __getattr__ = lazy_module(__name__)
