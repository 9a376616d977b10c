"""Run a constraint-retention scenario: the agent answers each turn, the judge audits it."""

from __future__ import annotations

from collections.abc import Collection
from statistics import fmean
from typing import ClassVar

from pydantic import BaseModel, ConfigDict, Field

from cogarch.core.player import Host
from cogarch.core.records import ConstraintsPayload, Evaluation, TrialOutput, Turn, TurnFootprint
from cogarch.core.task import Task, TrialContext
from cogarch.errors import ConfigError, ModelCallError
from cogarch.models.model import Model

from ..scenario_choice import SCENARIO_HELP, ScenarioParams, scenario_for_trial
from .judge import OUTCOME_METRICS, Judgement, judge_turn
from .metrics import (
    footprint_summary,
    mean_drift,
    mean_hallucination,
    respond_measured,
)
from .scenarios import (
    CONSTRAINT_SCENARIOS,
    ConstraintScenario,
    TurnKind,
    get_constraint_scenario,
)


class TurnScore(BaseModel):
    model_config = ConfigDict(extra="forbid")

    turn: int
    kind: TurnKind
    user: str
    reply: str
    judgement: Judgement | None = None
    """None when the judge gave no valid verdict (see ``error``)."""
    hallucination: float | None = None
    """H_t."""
    drift: float | None = None
    """D_t; None at the first turn, where drift is undefined."""
    footprint: TurnFootprint
    error: str | None = None


class ConstraintResult(BaseModel):
    """Per-turn audits and the scenario-level rates H_u, D_r and footprint M-bar / M_T."""

    model_config = ConfigDict(extra="forbid")

    scenario: str
    domain: str
    turns: list[TurnScore]
    hallucination_rate: float | None
    """H_u: mean H_t over the judged turns; None when no turn was judged."""
    drift_rate: float | None
    """D_r: mean D_t over the judged turns 2..T; None when none of them was judged."""
    footprint: dict[str, float | int | None]
    outcome_means: dict[str, float]
    drift_by_kind: dict[str, float]
    """Mean D_t per stress topic (turns 2..T), to see which stresses cause drift."""
    judged_turns: int
    judge_failures: int
    claims_audited: int = 0
    """Claims the judge extracted over all turns (S_t + U_t summed); when it is near zero,
    H_u says little about the agent and much about the judge."""


async def run_constraints(
    agent: Host,
    scenario: ConstraintScenario,
    judge_model: Model,
    *,
    seed: int | None = None,
) -> ConstraintResult:
    """Play ``scenario`` with ``agent``; ``judge_model`` audits each reply against the
    canonical memory of its turn. Judge seeds are ``seed + turn`` when ``seed`` is given."""
    turns: list[TurnScore] = []
    for index, spec in enumerate(scenario.turns, start=1):
        reply, footprint = await respond_measured(agent, spec.user, index)
        row = TurnScore(
            turn=index, kind=spec.kind, user=spec.user, reply=reply, footprint=footprint
        )
        try:
            judgement = await judge_turn(
                judge_model,
                scenario.canonical(index),
                spec.user,
                reply,
                seed=None if seed is None else seed + index,
            )
        except ModelCallError as exc:
            row.error = str(exc)
        else:
            row.judgement = judgement
            row.hallucination = judgement.hallucination
            row.drift = judgement.drift if index > 1 else None
        turns.append(row)
    judged = [t for t in turns if t.judgement is not None]
    by_kind: dict[str, list[float]] = {}
    for t in turns:
        if t.drift is not None:
            by_kind.setdefault(t.kind, []).append(t.drift)
    return ConstraintResult(
        scenario=scenario.name,
        domain=scenario.domain,
        turns=turns,
        hallucination_rate=mean_hallucination(
            [t.hallucination for t in judged if t.hallucination is not None]
        ),
        drift_rate=mean_drift([t.drift for t in turns]),
        footprint=footprint_summary([t.footprint for t in turns]),
        outcome_means={
            m: round(fmean(t.judgement.scores[m] for t in judged if t.judgement), 3)
            for m in OUTCOME_METRICS
            if judged
        },
        drift_by_kind={k: round(fmean(v), 4) for k, v in by_kind.items()},
        judged_turns=len(judged),
        judge_failures=len(turns) - len(judged),
        claims_audited=sum(
            t.judgement.supported + t.judgement.unsupported for t in judged if t.judgement
        ),
    )


class ConstraintTask(Task):
    """The constraint-retention scenarios as a runnable task; the judge is the helper model."""

    kind: ClassVar[str] = "constraints"
    needs_helper: ClassVar[bool] = True

    class Params(ScenarioParams):
        catalogue: ClassVar[Collection[str]] = CONSTRAINT_SCENARIOS
        scenario: list[str] = Field(default=["itops_502"], description=SCENARIO_HELP)

    params: Params

    async def run_trial(self, ctx: TrialContext) -> TrialOutput:
        if ctx.helper_provider is None:
            raise ConfigError(
                "the constraints task needs a judge model: set the run's helper provider "
                "(the provider the task uses for its own calls)"
            )
        name = scenario_for_trial(self.params.scenario, ctx.trial)
        agent = ctx.make_agent()
        result = await run_constraints(
            agent,
            get_constraint_scenario(name),
            ctx.models(ctx.helper_provider),
            seed=ctx.seed,
        )
        return TrialOutput(
            turns=[
                Turn(turn=t.turn, user=t.user, reply=t.reply, footprint=t.footprint)
                for t in result.turns
            ],
            evaluation=Evaluation.model_validate(
                {
                    "scenario": name,
                    "hallucination_rate": result.hallucination_rate,
                    "drift_rate": result.drift_rate,
                    "footprint": result.footprint,
                    "outcome_means": result.outcome_means,
                    "judged_turns": result.judged_turns,
                    "judge_failures": result.judge_failures,
                    "claims_audited": result.claims_audited,
                }
            ),
            payload=ConstraintsPayload(
                constraints=result.model_dump(mode="json"),
                final_private_state=agent.private_state(),
            ),
        )
