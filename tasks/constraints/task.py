"""Run a constraint-retention scenario: the agent answers each turn, the judge audits it.

Two judging modes. ``per_reply``: the judge audits each reply as it comes, alone. Per trial
that is all there is. ``cross_agent`` (the ACC paper's protocol, and the default when several
agents of a run play the same scenario): the trial only plays the turns and records its
replies as pending; once every trial of the run has been played, the runner hands the trials
of each trial index to ``ConstraintTask.judge_jointly``, which judges the agents' replies to
each turn together (unlabelled, in seeded random order; see ``joint``) and returns the judged
records, which the runner writes back atomically (``JUDGE_CONCURRENCY`` turns at a time; the
verdicts do not depend on the order). A run cut short leaves the pending trials
as they are; rerunning it judges them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Collection, Mapping, Sequence
from statistics import fmean
from typing import ClassVar, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field

from cogarch.core.host import PrivateState
from cogarch.core.leaderboard import LeaderboardMetric
from cogarch.core.records import TrialOutput, TrialRecord, Turn, TurnFootprint
from cogarch.core.task import JointContext, Task, TrialContext
from cogarch.errors import ModelCallError
from cogarch.models.fakes import PairsFn
from cogarch.models.model import Model

from ..scenario_choice import SCENARIO_HELP, ScenarioParams, scenario_for_trial
from .catalogue import CONSTRAINT_SCENARIOS, get_constraint_scenario
from .fakes import AGENTS
from .joint import judge_together
from .judge import OUTCOME_METRICS, Judgement, judge_turn
from .metrics import (
    MeasuredHost,
    footprint_summary,
    mean_drift,
    mean_hallucination,
    respond_measured,
)
from .records import ConstraintsEvaluation, ConstraintsPayload
from .scenarios import (
    ConstraintScenario,
    ConstraintTurn,
    TurnKind,
)

Judging = Literal["per_reply", "cross_agent"]

JUDGE_CONCURRENCY = 2
"""Turns the cross-agent pass judges at once: the turns are independent (each call has its
own seed), and two keep both of the embedded server's slots busy."""


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
    judging: Judging = "per_reply"
    """How the replies were judged: alone (``per_reply``) or with the other agents' replies
    to the same turn, unlabelled and shuffled (``cross_agent``)."""
    pending: bool = False
    """Played but not judged yet (cross-agent judging runs after every trial of the run)."""


class ConstraintHost(MeasuredHost, PrivateState, Protocol):
    """What a constraint scenario asks of an agent: replies, what they carried, its state."""


async def play_scenario(agent: MeasuredHost, scenario: ConstraintScenario) -> list[TurnScore]:
    """Every turn of ``scenario`` answered by ``agent``, with its footprint, not yet judged."""
    turns: list[TurnScore] = []
    for index, spec in enumerate(scenario.turns, start=1):
        reply, footprint = await respond_measured(agent, spec.user, index)
        turns.append(
            TurnScore(turn=index, kind=spec.kind, user=spec.user, reply=reply, footprint=footprint)
        )
    return turns


def record_judgement(row: TurnScore, judged: Judgement | str) -> None:
    """Put a judgement (or the judge's failure, as text) on a turn."""
    if isinstance(judged, str):
        row.judgement, row.hallucination, row.drift, row.error = None, None, None, judged
        return
    row.judgement, row.error = judged, None
    row.hallucination = judged.hallucination
    row.drift = judged.drift if row.turn > 1 else None


def summarise(
    scenario: ConstraintScenario,
    turns: list[TurnScore],
    judging: Judging = "per_reply",
    *,
    pending: bool = False,
) -> ConstraintResult:
    """The scenario-level rates of judged turns (H_u, D_r, outcome means) and footprints."""
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
        judge_failures=0 if pending else len(turns) - len(judged),
        claims_audited=sum(
            t.judgement.supported + t.judgement.unsupported for t in judged if t.judgement
        ),
        judging=judging,
        pending=pending,
    )


async def run_constraints(
    agent: MeasuredHost,
    scenario: ConstraintScenario,
    judge_model: Model,
    *,
    seed: int | None = None,
) -> ConstraintResult:
    """Play ``scenario`` with ``agent``; ``judge_model`` audits each reply (alone) against the
    canonical memory of its turn. Judge seeds are ``seed + turn`` when ``seed`` is given."""
    turns = await play_scenario(agent, scenario)
    for row in turns:
        try:
            judged: Judgement | str = await judge_turn(
                judge_model,
                scenario.canonical(row.turn),
                row.user,
                row.reply,
                seed=None if seed is None else seed + row.turn,
            )
        except ModelCallError as exc:
            judged = str(exc)
        record_judgement(row, judged)
    return summarise(scenario, turns)


def evaluation_of(result: ConstraintResult) -> ConstraintsEvaluation:
    return ConstraintsEvaluation(
        scenario=result.scenario,
        judging=result.judging,
        hallucination_rate=None if result.pending else result.hallucination_rate,
        drift_rate=result.drift_rate,
        footprint=result.footprint,
        outcome_means=result.outcome_means,
        judge_failures=result.judge_failures,
        claims_audited=result.claims_audited,
        judged_turns=result.judged_turns,
    )


class ConstraintTask(Task):
    """The constraint-retention scenarios as a runnable task; the judge is the helper model.

    Args:
        params: The task's parameters, a ``ConstraintTask.Params`` (a run config's ``task:``
            keys, validated): the scenarios to play and how replies are judged.
    """

    kind: ClassVar[str] = "constraints"
    fakes: ClassVar[Mapping[str, PairsFn]] = {f"constraints.{k}": fn for k, fn in AGENTS.items()}
    """Scripted agents (honest, forgetful) and judge, as ``constraints.<kind>``."""
    Payload = ConstraintsPayload
    Evaluation = ConstraintsEvaluation
    leaderboard: ClassVar[tuple[LeaderboardMetric, ...]] = (
        LeaderboardMetric(
            name="hallucination_rate",
            value="hallucination_rate",
            direction="lower",
            description="H_u, the ACC paper's mean share of unsupported claims per turn",
        ),
        LeaderboardMetric(
            name="drift_rate",
            value="drift_rate",
            direction="lower",
            description="D_r, the ACC paper's mean share of constraints lost per turn",
        ),
    )

    class Params(ScenarioParams):
        catalogue: ClassVar[Collection[str]] = CONSTRAINT_SCENARIOS
        scenario: list[str] = Field(default=["itops_502"], description=SCENARIO_HELP)
        judging: Literal["auto", "per_reply", "cross_agent"] = Field(
            default="auto",
            description="per_reply: each reply judged alone; cross_agent: the agents' replies "
            "to a turn judged together, unlabelled, in random order (after all trials); auto: "
            "cross_agent when the run has several agents, else per_reply.",
        )

    params: Params

    @property
    def needs_helper(self) -> bool:
        return True

    def judging_mode(self, peers: Sequence[str]) -> Judging:
        if self.params.judging == "auto":
            return "cross_agent" if len(peers) > 1 else "per_reply"
        return self.params.judging

    async def run_trial(self, ctx: TrialContext) -> TrialOutput:
        self.judge_provider(ctx)
        name = scenario_for_trial(self.params.scenario, ctx.trial)
        scenario = get_constraint_scenario(name)
        agent: ConstraintHost = ctx.make_agent()
        if self.judging_mode(ctx.peers) == "cross_agent":
            turns = await play_scenario(agent, scenario)
            result = summarise(scenario, turns, "cross_agent", pending=True)
        else:
            judge = ctx.models(self.judge_provider(ctx))
            result = await run_constraints(agent, scenario, judge, seed=ctx.seed)
        return TrialOutput(
            turns=[
                Turn(turn=t.turn, user=t.user, reply=t.reply, footprint=t.footprint)
                for t in result.turns
            ],
            evaluation=evaluation_of(result),
            payload=ConstraintsPayload(
                constraints=result.model_dump(mode="json"),
                final_private_state=agent.private_state(),
            ),
        )

    async def judge_jointly(
        self, group: Sequence[TrialRecord], ctx: JointContext
    ) -> list[TrialRecord]:
        """Judge the replies of every agent of one trial index together, turn by turn, when
        any of them is still pending; returns every cross-agent record of the group, judged
        (a group is judged whole again when a rerun trial joins it)."""
        members = [
            (r, ConstraintResult.model_validate(r.payload.constraints))
            for r in group
            if r.status == "complete" and isinstance(r.payload, ConstraintsPayload)
        ]
        members = [(r, res) for r, res in members if res.judging == "cross_agent"]
        if not any(res.pending for _, res in members):
            return []
        judge = ctx.models(self.judge_provider(ctx))
        updated: list[TrialRecord] = []
        for name in dict.fromkeys(res.scenario for _, res in members):
            same = [(r, res) for r, res in members if res.scenario == name]
            scenario = get_constraint_scenario(name)
            await _judge_scenario(judge, scenario, [res for _, res in same], same[0][0].seed)
            for record, res in same:
                final = summarise(scenario, res.turns, "cross_agent")
                payload = record.payload.model_copy(
                    update={"constraints": final.model_dump(mode="json")}
                )
                updated.append(
                    record.model_copy(
                        update={"evaluation": evaluation_of(final), "payload": payload}
                    )
                )
        return updated


async def _judge_scenario(
    judge: Model, scenario: ConstraintScenario, results: Sequence[ConstraintResult], seed: int
) -> None:
    """Judge every turn of ``results`` (one per agent) together, ``JUDGE_CONCURRENCY`` turns
    at a time, recording each verdict on its turn."""
    gate = asyncio.Semaphore(JUDGE_CONCURRENCY)

    async def one_turn(index: int, spec: ConstraintTurn) -> None:
        async with gate:
            verdicts = await judge_together(
                judge,
                scenario.canonical(index + 1),
                spec.user,
                [res.turns[index].reply for res in results],
                seed=seed,
            )
        for res, judged in zip(results, verdicts, strict=True):
            record_judgement(res.turns[index], judged)

    await asyncio.gather(*(one_turn(i, spec) for i, spec in enumerate(scenario.turns)))
