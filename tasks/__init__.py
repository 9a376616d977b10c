"""Tasks: the Hangman and Diagnosis self-consistency tests and multi-turn revision tasks."""

from tasks.base import Task, TrialContext
from tasks.registry import TASKS, build_task

__all__ = ["TASKS", "Task", "TrialContext", "build_task"]
