"""The constraint task's own record types: its payload and its evaluation."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from cogarch.core.evaluation import Evaluation
from cogarch.core.payload import TaskPayload


class ConstraintsEvaluation(Evaluation):
    """A scenario's rates H_u and D_r, the judge's outcome means and the memory footprint
    (M-bar, M_T and the maximum); the rates are None while the trial awaits cross-agent
    judging or when no turn was judged."""

    scenario: str | None = None
    judging: str | None = None
    """``per_reply`` or ``cross_agent`` (see ``ConstraintTask``)."""
    hallucination_rate: float | None = None
    drift_rate: float | None = None
    footprint: dict[str, float | int | None] = Field(default_factory=dict)
    outcome_means: dict[str, float] = Field(default_factory=dict)
    judge_failures: int | None = None
    claims_audited: int | None = None
    judged_turns: int | None = None

    def scenario_name(self) -> str | None:
        return self.scenario

    def judging_mode(self) -> str | None:
        return self.judging


class ConstraintsPayload(TaskPayload):
    """A constraint scenario's judged turns (the task's ``ConstraintResult``, as JSON)."""

    kind: Literal["constraints"] = "constraints"
    version: int = 1
    constraints: dict[str, Any]
    final_private_state: str | None = None
