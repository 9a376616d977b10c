"""The constraint task's own record types: its payload and its evaluation."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from cogarch.core.evaluation import Evaluation
from cogarch.core.payload import TaskPayload


class ConstraintsEvaluation(Evaluation):
    """A scenario's rates H_u and D_r, the judge's outcome means and the memory footprint
    (M-bar, M_T and the maximum); the rates are None while the trial awaits cross-agent
    judging or when no turn was judged.

    Attributes:
        outcome: Always None: the task measures rates, it does not sort trials into classes.
    """

    scenario: str | None = None
    """The scenario played, by its catalogue name."""
    judging: str | None = None
    """``per_reply`` or ``cross_agent`` (see ``ConstraintTask``)."""
    hallucination_rate: float | None = None
    """H_u, from 0 to 1: the mean over the judged turns of each reply's share of unsupported
    claims, U_t / max(1, S_t + U_t); None while the trial awaits cross-agent judging or when
    no turn was judged."""
    drift_rate: float | None = None
    """D_r: the mean over the judged turns 2..T of (V_t + O_t) / max(1, |K_t|), the active
    constraints violated plus the required elements omitted per active constraint (0: nothing
    lost); None when none of those turns was judged."""
    footprint: dict[str, float | int | None] = Field(default_factory=dict)
    """The memory the agent carried into its replies, in tokens, over the turns that said:
    ``mean`` (M-bar), ``final`` (M_T) and ``max``, each None when no turn said."""
    outcome_means: dict[str, float] = Field(default_factory=dict)
    """The judge's mean 0-10 score of the judged replies for ``relevance``, ``answer_quality``,
    ``instruction_following`` and ``coherence``; empty when no turn was judged."""
    judge_failures: int | None = None
    """Turns the judge gave no valid verdict on (0 while the trial awaits cross-agent
    judging)."""
    claims_audited: int | None = None
    """Claims the judge extracted from the judged replies (S_t + U_t summed); near zero, H_u
    says more about the judge than about the agent."""
    judged_turns: int | None = None
    """Turns with a valid verdict (0 while the trial awaits cross-agent judging)."""

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
