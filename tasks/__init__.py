"""Tasks: the Hangman and Diagnosis self-consistency tests and multi-turn revision tasks."""

from .base import Task, TrialContext
from .registry import TASKS, build_task

__all__ = ["TASKS", "Task", "TrialContext", "build_task"]
