"""Constraint retention over long dialogues, audited by a judge with canonical memory (ACC)."""

from .catalogue import CONSTRAINT_SCENARIOS, get_constraint_scenario
from .judge import Judgement, JudgeVerdict, judge_turn, score, verdict_json
from .metrics import (
    TurnFootprint,
    drift_rate,
    footprint_summary,
    hallucination_rate,
    mean_drift,
    mean_hallucination,
    respond_measured,
)
from .records import ConstraintsEvaluation, ConstraintsPayload
from .scenarios import (
    CanonicalMemory,
    Constraint,
    ConstraintScenario,
    ConstraintTurn,
)
from .task import ConstraintResult, ConstraintTask, TurnScore, run_constraints

__all__ = [
    "CONSTRAINT_SCENARIOS",
    "CanonicalMemory",
    "Constraint",
    "ConstraintResult",
    "ConstraintScenario",
    "ConstraintTask",
    "ConstraintTurn",
    "ConstraintsEvaluation",
    "ConstraintsPayload",
    "JudgeVerdict",
    "Judgement",
    "TurnFootprint",
    "TurnScore",
    "drift_rate",
    "footprint_summary",
    "get_constraint_scenario",
    "hallucination_rate",
    "judge_turn",
    "mean_drift",
    "mean_hallucination",
    "respond_measured",
    "run_constraints",
    "score",
    "verdict_json",
]
