"""Run a revision scenario against an agent and check every round deterministically."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import ClassVar, Protocol

from pydantic import BaseModel, ConfigDict, Field

from cogarch.core.host import PrivateState
from cogarch.core.leaderboard import LeaderboardMetric
from cogarch.core.records import Scoring, TrialOutput, Turn, TurnFootprint
from cogarch.core.task import Task, TrialContext
from cogarch.models.fakes import PairsFn

from ..constraints.metrics import MeasuredHost, respond_measured
from ..scenario_choice import SCENARIO_HELP, ScenarioParams, scenario_for_trial
from .checks import RoundCheck, check_round
from .fakes import AGENTS
from .records import RevisionEvaluation, RevisionPayload
from .scenarios import SCENARIOS, Scenario, get_scenario


class RevisionHost(MeasuredHost, PrivateState, Protocol):
    """What a revision scenario asks of an agent: replies, what they carried, and its private
    and task state."""


class RevisionResult(BaseModel):
    """Per-round checks and footprints, with the counts the TME paper reports.

    All three of the paper's numbers are judged from the replies, so every agent gets them:
    ``stale_mentions`` counts replies that name a replaced or false value (hallucinations),
    ``confusions`` revise or check rounds whose reply misses what the round asked for (a
    misread intent), ``consistent_replies`` whether every reply passed (a consistent task).
    ``state_errors`` is a further diagnostic for agents with an inspectable task state: rounds
    where that state disagrees with the script.
    """

    model_config = ConfigDict(extra="forbid")

    scenario: str
    rounds: list[RoundCheck]
    footprint: list[TurnFootprint]
    rounds_passed: int
    replies_ok: int = 0
    """Rounds whose reply passed, whatever the task state said: the measure that compares
    agents with and without an inspectable state on the same footing."""
    final_summary_ok: bool
    consistent: bool
    """Every round passed."""
    stale_mentions: int
    missing_mentions: int
    confusions: int = 0
    consistent_replies: bool = False
    state_errors: int | None = None
    """None when the agent exposes no task state."""
    total_memory_tokens: int | None = None


async def run_revision(agent: RevisionHost, scenario: Scenario) -> RevisionResult:
    """Play every round of ``scenario`` with ``agent`` and check each reply (and state)."""
    checks: list[RoundCheck] = []
    footprints: list[TurnFootprint] = []
    for index, spec in enumerate(scenario.rounds):
        reply, footprint = await respond_measured(agent, spec.user, index + 1)
        footprints.append(footprint)
        checks.append(check_round(scenario, index, reply, agent.task_state()))
    states = [c.state_ok for c in checks if c.state_ok is not None]
    memory = [f.memory_tokens for f in footprints]
    return RevisionResult(
        scenario=scenario.name,
        rounds=checks,
        footprint=footprints,
        rounds_passed=sum(c.passed for c in checks),
        replies_ok=sum(c.reply_ok for c in checks),
        final_summary_ok=checks[-1].passed,
        consistent=all(c.passed for c in checks),
        stale_mentions=sum(1 for c in checks if c.stale),
        missing_mentions=sum(1 for c in checks if c.missing),
        confusions=sum(c.confused for c in checks),
        consistent_replies=all(c.reply_ok for c in checks),
        state_errors=sum(1 for ok in states if not ok) if states else None,
        total_memory_tokens=sum(m for m in memory if m is not None)
        if any(m is not None for m in memory)
        else None,
    )


class RevisionTask(Task):
    """The revision scenarios as a runnable task (one scenario per trial).

    Args:
        params: The task's parameters, a ``RevisionTask.Params`` (a run config's ``task:``
            keys, validated): the scenarios to play.
    """

    kind: ClassVar[str] = "revision"
    fakes: ClassVar[Mapping[str, PairsFn]] = {f"revision.{k}": fn for k, fn in AGENTS.items()}
    """Scripted agents: honest and forgetful, as ``revision.<kind>``."""
    Payload = RevisionPayload
    Evaluation = RevisionEvaluation
    scoring: ClassVar[Scoring] = Scoring(
        success="consistent", totals=("hallucinations", "confusions", "consistent_task")
    )
    leaderboard: ClassVar[tuple[LeaderboardMetric, ...]] = (
        LeaderboardMetric(
            name="consistent_task",
            value="consistent_task",
            interval="wilson",
            description="share of scenarios whose every reply passed (the TME paper's count)",
        ),
        LeaderboardMetric(
            name="hallucinations",
            value="hallucinations",
            direction="lower",
            description="replies naming a replaced or false value, per scenario",
        ),
        LeaderboardMetric(
            name="confusions",
            value="confusions",
            direction="lower",
            description="rounds whose reply misses what the round asked for, per scenario",
        ),
    )

    class Params(ScenarioParams):
        catalogue: ClassVar[Collection[str]] = SCENARIOS
        scenario: list[str] = Field(default=["trip"], description=SCENARIO_HELP)

    params: Params

    async def run_trial(self, ctx: TrialContext) -> TrialOutput:
        name = scenario_for_trial(self.params.scenario, ctx.trial)
        agent: RevisionHost = ctx.make_agent()
        result = await run_revision(agent, get_scenario(name))
        return TrialOutput(
            turns=[
                Turn(turn=c.round, user=c.user, reply=c.reply, footprint=f)
                for c, f in zip(result.rounds, result.footprint, strict=True)
            ],
            evaluation=RevisionEvaluation(
                scenario=name,
                outcome="consistent" if result.consistent else "inconsistent",
                hallucinations=result.stale_mentions,
                confusions=result.confusions,
                consistent_task=int(result.consistent_replies),
                rounds_passed=result.rounds_passed,
                replies_ok=result.replies_ok,
                rounds=len(result.rounds),
                final_summary_ok=result.final_summary_ok,
                stale_mentions=result.stale_mentions,
                missing_mentions=result.missing_mentions,
                state_errors=result.state_errors,
                total_memory_tokens=result.total_memory_tokens,
            ),
            payload=RevisionPayload(
                revision=result.model_dump(mode="json"),
                final_private_state=agent.private_state(),
            ),
        )
