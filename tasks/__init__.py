"""Tasks: the Hangman and Diagnosis self-consistency tests and multi-turn revision tasks."""

from cogarch.core.task import Task, TrialContext

from .registry import TASKS, build_task

__all__ = ["TASKS", "Task", "TrialContext", "build_task"]
