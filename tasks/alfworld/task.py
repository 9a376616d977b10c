"""ALFWorld as a runnable task: one trial is a curriculum of games played by the same agent.

Each turn the agent gets the game's observation (the first one states the goal) followed by
the admissible actions (``workspace.affordances``); its reply is read as one command
(``actions.read_action``). A game ends when it is won or after ``max_steps`` turns; the task
then tells the agent how it went (``agent.end_episode``), so memory that learns across games
takes it in and the next game starts a fresh dialogue. Memory is carried from game to game
within a trial, never across trials: every trial builds a new agent.
"""

from __future__ import annotations

import time
from typing import ClassVar, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, field_validator

from cogarch.core.affordances import format_input
from cogarch.core.host import EpisodeAware, Host
from cogarch.core.memory import EpisodeEnd
from cogarch.core.records import Scoring, TrialOutput, Turn
from cogarch.core.task import Task, TrialContext
from cogarch.errors import ConfigError
from cogarch.models.metering import Meter

from . import book, curriculum
from .actions import read_action
from .curriculum import Part, Settings
from .evaluate import evaluate
from .games import Game, Split
from .records import AlfworldEvaluation, AlfworldPayload, GameResult, GameStep, trial_output
from .session import DEFAULT_MAX_STEPS, GameSession
from .wheel import TASK_TYPES, all_rooms


class CurriculumPart(BaseModel):
    model_config = ConfigDict(extra="forbid")

    split: Split = Field(
        description="train: ALFRED's seen rooms; id: the same rooms, held-out seeds; ood: "
        "its unseen rooms."
    )
    games: int = Field(ge=1, le=10_000, description="Games of this split, played in order.")


class AlfworldParams(BaseModel):
    model_config = ConfigDict(extra="forbid")

    curriculum: list[CurriculumPart] = Field(
        default_factory=lambda: [
            CurriculumPart(split="train", games=4),
            CurriculumPart(split="ood", games=2),
        ],
        min_length=1,
        description="The games a trial plays, part after part, with one agent.",
    )
    task_types: list[str] | Literal["all"] = Field(
        default="all", description=f"Task types to draw from: all, or some of {TASK_TYPES}."
    )
    rooms: list[int] | None = Field(
        default=None,
        description="Only these rooms (FloorPlan numbers); each split keeps to its own.",
    )
    max_receptacles: int | None = Field(
        default=None, ge=1, description="Only rooms with at most this many receptacles."
    )
    max_steps: int = Field(
        default=DEFAULT_MAX_STEPS, ge=1, le=1000, description="Agent turns per game."
    )
    official: str | None = Field(
        default=None,
        description="Play the official games under this folder (alfworld-download's "
        "$ALFWORLD_DATA) instead of generated ones.",
    )
    cache_dir: str | None = Field(
        default=None,
        description="Where generated games are cached (default: the user cache directory's "
        "alfworld/, under $COGARCH_CACHE_DIR when set).",
    )
    plan_timeout_s: float = Field(
        default=600.0, gt=0, le=3600, description="Time the planner may take per game."
    )

    @field_validator("task_types")
    @classmethod
    def _known_types(cls, value: list[str] | str) -> list[str] | str:
        if isinstance(value, list):
            unknown = [t for t in value if t not in TASK_TYPES]
            if unknown or not value:
                raise ValueError(
                    f"unknown task types {unknown}; choose among {', '.join(TASK_TYPES)} or "
                    "write 'all'"
                )
        return value

    def settings(self) -> Settings:
        return Settings(
            parts=tuple(Part(p.split, p.games) for p in self.curriculum),
            task_types=tuple(TASK_TYPES if self.task_types == "all" else self.task_types),
            rooms=tuple(self.rooms) if self.rooms is not None else None,
            max_receptacles=self.max_receptacles,
            official=self.official,
            cache_dir=self.cache_dir,
            plan_timeout_s=self.plan_timeout_s,
        )


class AlfworldHost(Host, EpisodeAware, Protocol):
    """What the task asks of its agent: an action per observation, and the end of each game."""


class AlfworldTask(Task):
    """Household games on ALFWorld's engine (Shridhar et al., ICLR 2021), in a curriculum."""

    kind: ClassVar[str] = "alfworld"
    Params: ClassVar[type[BaseModel]] = AlfworldParams
    Payload = AlfworldPayload
    Evaluation = AlfworldEvaluation
    scoring: ClassVar[Scoring] = Scoring(totals=("games", "won"))
    params: AlfworldParams

    def __init__(self, params: BaseModel) -> None:
        super().__init__(params)
        p = self.params
        if p.rooms is not None:
            unknown = sorted(set(p.rooms) - set(all_rooms()))
            if unknown:
                raise ConfigError(
                    f"task.rooms names rooms {unknown} that ALFRED does not have; rooms are "
                    "1-30, 201-230, 301-330 and 401-430"
                )
        self.settings = p.settings()
        curriculum.check(self.settings)

    async def run_trial(self, ctx: TrialContext) -> TrialOutput:
        agent: AlfworldHost = ctx.make_agent()
        games = await curriculum.build(ctx.seed, self.settings)
        turns: list[Turn] = []
        results = [
            await self._play(agent, i, game, ctx.seed, turns) for i, game in enumerate(games)
        ]
        payload = AlfworldPayload(max_steps=self.params.max_steps, games=results)
        return trial_output(payload, evaluate(payload), turns)

    async def _play(
        self, agent: AlfworldHost, index: int, game: Game, seed: int, turns: list[Turn]
    ) -> GameResult:
        session = GameSession(game, max_steps=self.params.max_steps)
        meter, start = Meter(), time.perf_counter()
        steps: list[GameStep] = []
        with meter.active():
            try:
                await self._turns(agent, index, game, seed, session, steps, turns)
            finally:
                session.close()
            await agent.end_episode(
                EpisodeEnd(
                    episode=index,
                    won=session.won,
                    label=game.goal,
                    steps=session.steps,
                    info={
                        "room": game.room,
                        "task_type": game.task_type,
                        "split": game.split,
                        "trajectory": _trajectory(steps),
                    },
                )
            )
        usage = meter.summary()
        return GameResult(
            index=index,
            room=game.room,
            task_type=game.task_type,
            split=game.split,
            seed=game.seed,
            source=game.source,
            game=game.name,
            goal=game.goal,
            won=session.won,
            actions=session.steps,
            inadmissible_actions=sum(s.inadmissible for s in steps),
            repeated_actions=sum(s.repeated for s in steps),
            plan_length=game.plan_length,
            model_calls=usage["model_calls"],
            prompt_tokens=usage["prompt_tokens"],
            completion_tokens=usage["completion_tokens"],
            seconds=round(time.perf_counter() - start, 3),
            transcript=steps,
        )

    async def _turns(
        self,
        agent: AlfworldHost,
        index: int,
        game: Game,
        seed: int,
        session: GameSession,
        steps: list[GameStep],
        turns: list[Turn],
    ) -> None:
        """Play the game turn by turn, recording each step and public turn."""
        book.write(seed, await session.reset(), game.walkthrough)
        while not session.done:
            shown, allowed = session.observation, session.admissible
            text = format_input(shown, allowed)
            reply = await agent.respond(text)
            result = await session.step(read_action(reply, allowed))
            steps.append(
                GameStep(
                    step=session.steps,
                    observation=shown,
                    admissible=list(allowed),
                    reply=reply,
                    action=result.action,
                    feedback=result.observation,
                    inadmissible=result.inadmissible,
                    repeated=result.repeated,
                )
            )
            turns.append(
                Turn(
                    turn=len(turns) + 1,
                    user=text,
                    reply=reply,
                    extras={"game": index, "step": session.steps},
                )
            )


def _trajectory(steps: list[GameStep]) -> str:
    """The game as the agent lived it, for memory that reflects on it."""
    lines = [steps[0].observation] if steps else []
    for s in steps:
        lines += [f"> {s.action or '(no action)'}", s.feedback]
    return "\n".join(lines)


__all__ = ["AlfworldParams", "AlfworldTask", "CurriculumPart"]
