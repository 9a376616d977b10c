"""Revision tasks: scripted multi-turn scenarios where the user sets, revises and checks values."""

from .checks import RoundCheck, check_round, mentions, normalize
from .records import RevisionEvaluation, RevisionPayload
from .scenarios import SCENARIOS, Round, Scenario, get_scenario
from .task import RevisionHost, RevisionResult, RevisionTask, run_revision

__all__ = [
    "SCENARIOS",
    "RevisionEvaluation",
    "RevisionHost",
    "RevisionPayload",
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
]
