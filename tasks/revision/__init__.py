"""Revision tasks: scripted multi-turn scenarios where the user sets, revises and checks values."""

from .checks import RoundCheck, check_round, mentions, normalize
from .scenarios import SCENARIOS, Round, Scenario, get_scenario
from .task import RevisionResult, RevisionTask, run_revision, task_state

__all__ = [
    "SCENARIOS",
    "RevisionResult",
    "RevisionTask",
    "Round",
    "RoundCheck",
    "Scenario",
    "check_round",
    "get_scenario",
    "mentions",
    "normalize",
    "run_revision",
    "task_state",
]
