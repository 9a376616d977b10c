"""ALFWorld as a runnable task: one trial is a curriculum of games played by the same agent.

Each turn the agent gets a percept (``cogarch.core.acting.Percept``): the game's observation
(the first one states the goal), the admissible actions, the goal, the game and step, and the
actions it has left under the step limit ("Actions remaining: 47 of 50.", unless
``announce_limit`` is off). An agent that acts (``cogarch.core.host.Acting``) takes it as is
and answers with its action choice; any other gets it as text (``cogarch.core.affordances``)
and its reply is read as one command (``cogarch.core.acting.read_action``). The command is sent
to the game whatever it is: one the game does not admit is answered "Nothing happens." and
costs the step, as in ALFWorld. A game ends when it is won or after ``max_steps`` turns; the
task then tells the agent how it went (``end_episode``), so memory that learns across games
takes it in and the next game starts a fresh dialogue, and records what the agent reports of
the game. Memory is carried from game to game within a trial, never across trials: every trial
builds a new agent. The task measures rather than classifies: a trial is a curriculum, not one
outcome, so its evaluation holds rates, its report tables (``tables``) break them down and its
page (``page``) shows each game.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict
from typing import ClassVar, Final, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, field_validator

from cogarch.core.acting import ActionChoice, Percept, read_action
from cogarch.core.affordances import render
from cogarch.core.evaluation import Scalar
from cogarch.core.host import Acting, EpisodeAware, Host, PrivateState, ReplyReporting
from cogarch.core.leaderboard import LeaderboardMetric
from cogarch.core.memory import EpisodeEnd, Move, Trajectory
from cogarch.core.records import Scoring, TrialOutput, TrialRecord, Turn
from cogarch.core.task import Task, TrialContext
from cogarch.core.views import Section, Table
from cogarch.errors import ConfigError
from cogarch.models.fakes import PairsFn
from cogarch.models.metering import Meter

from . import curriculum, page, tables
from .curriculum import Part, Settings, TaskMix
from .evaluate import evaluate
from .fakes import PLAYERS, first_observation_key, trial_walkthroughs
from .games import Game, Split
from .records import AlfworldEvaluation, AlfworldPayload, GameResult, GameStep
from .session import DEFAULT_MAX_STEPS, EngineFailure, GameSession
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
    announce_limit: bool = Field(
        default=True,
        description="Tell the agent each turn how many of its max_steps actions remain.",
    )
    task_mix: TaskMix = Field(
        default="uniform",
        description="How task types are drawn: uniform (they take turns) or alfworld "
        "(ALFWorld's valid_unseen proportions).",
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
            task_mix=self.task_mix,
            rooms=tuple(self.rooms) if self.rooms is not None else None,
            max_receptacles=self.max_receptacles,
            official=self.official,
            cache_dir=self.cache_dir,
            plan_timeout_s=self.plan_timeout_s,
        )


STATE_BUDGET_CHARS: Final = 2_000_000
"""Private state recorded per trial, in characters, before only games' first turns record it."""


class AlfworldHost(Host, EpisodeAware, PrivateState, ReplyReporting, Protocol):
    """What the task asks of its agent: an action per observation (a percept, when it acts:
    ``cogarch.core.host.Acting``; else the percept as text), the end of each game, and what it
    keeps private with its size (recorded on the turns where it changes)."""


class AlfworldTask(Task):
    """Household games on ALFWorld's engine (Shridhar et al., ICLR 2021), in a curriculum."""

    kind: ClassVar[str] = "alfworld"
    fakes: ClassVar[Mapping[str, PairsFn]] = {f"alfworld.{k}": fn for k, fn in PLAYERS.items()}
    """The scripted players: oracle, random, hallucinating, silent, as ``alfworld.<kind>``."""
    Params: ClassVar[type[BaseModel]] = AlfworldParams
    Payload = AlfworldPayload
    Evaluation = AlfworldEvaluation
    scoring: ClassVar[Scoring] = Scoring(totals=("games", "won", "actions", "inadmissible_actions"))
    leaderboard: ClassVar[tuple[LeaderboardMetric, ...]] = (
        LeaderboardMetric(
            name="success_rate",
            value="won",
            items="games",
            interval="wilson",
            description="share of games won, over every game of every trial",
        ),
        LeaderboardMetric(
            name="actions_per_success",
            value="actions",
            items="games",
            where="won",
            direction="lower",
            paired=False,
            description="actions a won game took",
        ),
    )
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

    def plan(self) -> list[str]:
        p, settings = self.params, self.settings
        games = sum(part.games for part in p.curriculum)
        parts = ", then ".join(f"{part.games} {part.split}" for part in p.curriculum)
        lines = [f"games per trial: {games} ({parts}), at most {p.max_steps} actions each"]
        if p.official is not None:
            lines.append(f"official ALFWorld games from {p.official}")
        else:
            for split in dict.fromkeys(part.split for part in p.curriculum):
                rooms = curriculum.hosts(split, settings)
                held = sorted({n for ns in rooms.values() for n in ns})
                shown = ", ".join(map(str, held[:12])) + (", ..." if len(held) > 12 else "")
                lines.append(f"{split} rooms ({len(held)}): {shown}")
        types = ", ".join(settings.task_types)
        lines.append(f"task types ({p.task_mix} mix): {types}")
        if p.task_mix == "alfworld" and p.official is None:
            for part in p.curriculum:
                counts = curriculum.mix_counts(
                    list(curriculum.hosts(part.split, settings)), part.games
                )
                shown = ", ".join(f"{t} {n}" for t, n in counts.items() if n)
                lines.append(f"{part.split} part of {part.games}: {shown}")
        lines.append(
            "the agent is told its actions remaining"
            if p.announce_limit
            else "the agent is not told its actions remaining"
        )
        return lines

    def episodes_per_trial(self) -> int | None:
        return sum(part.games for part in self.params.curriculum)

    def actions_per_episode(self) -> int | None:
        return self.params.max_steps

    async def run_trial(self, ctx: TrialContext) -> TrialOutput:
        agent: AlfworldHost = ctx.make_agent()
        games = await curriculum.build(ctx.seed, self.settings)
        play = _Curriculum(agent, self.params.max_steps, self.params.announce_limit)
        with trial_walkthroughs(play.walkthroughs):  # the oracle fake's plans, this trial's only
            results = [await play.game(i, game) for i, game in enumerate(games)]
        payload = AlfworldPayload(max_steps=self.params.max_steps, games=results)
        return TrialOutput(turns=play.turns, evaluation=evaluate(payload), payload=payload)

    @classmethod
    def report_tables(cls, records: Sequence[TrialRecord]) -> list[Table]:
        return tables.report_tables(records)

    @classmethod
    def trial_sections(cls, record: TrialRecord) -> list[Section]:
        return page.trial_sections(record)

    @classmethod
    def tidy_columns(cls, record: TrialRecord) -> dict[str, Scalar]:
        return tables.tidy_columns(record)


class _Curriculum:
    """One trial's games played in turn by one agent: the public turns of all of them, and
    the agent's private state, recorded on a turn when it changed."""

    def __init__(self, agent: AlfworldHost, max_steps: int, announce_limit: bool = True) -> None:
        self.agent, self.max_steps = agent, max_steps
        self.announce_limit = announce_limit
        self.turns: list[Turn] = []
        self.walkthroughs: dict[str, tuple[str, ...]] = {}
        """The planner's walkthrough of each game started, by its first observation."""
        self._state, self._spent = "", 0

    async def game(self, index: int, game: Game) -> GameResult:
        """Play ``game`` to its end, tell the agent how it went, and record it."""
        session = GameSession(game, max_steps=self.max_steps)
        meter, start = Meter(), time.perf_counter()
        steps: list[GameStep] = []
        error: str | None = None
        with meter.active():
            try:
                await self._steps(index, game, session, steps)
            except EngineFailure as exc:  # this game fails, the curriculum goes on
                error = str(exc)
                sys.stderr.write(f"warning: {error}\n")
            finally:
                session.close()
            ended = await self.agent.end_episode(
                EpisodeEnd(
                    episode=index,
                    won=session.won,
                    label=game.goal,
                    steps=session.steps,
                    info={"room": game.room, "task_type": game.task_type, "split": game.split},
                    trajectory=_trajectory(steps),
                )
            )
        usage = meter.summary()
        reported = asdict(ended)  # a copy: later changes in the agent never reach the record
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
            memory_activity=reported["memory"],
            focus=reported["focus"],
            error=error,
            budget_ended_steps=_steps_of(reported.get("budget_turns") or [], steps),
        )

    async def _steps(
        self, index: int, game: Game, session: GameSession, steps: list[GameStep]
    ) -> None:
        first = await session.reset()
        self.walkthroughs[first_observation_key(first)] = tuple(game.walkthrough)
        while not session.done:
            shown, allowed = session.observation, session.admissible
            told = self.announce_limit
            percept = Percept(
                observation=shown,
                actions=allowed,
                remaining=self.max_steps - session.steps if told else None,
                limit=self.max_steps if told else None,
                goal=game.goal,
                game=index,
                step=session.steps,
            )
            text = render(percept)
            choice = await self._act(percept, text)
            reply = choice.reply
            result = await session.step(choice)
            turn = self._turn(text, reply, index, session.steps)
            steps.append(
                GameStep(
                    step=session.steps,
                    turn=turn.turn,
                    observation=shown,
                    admissible=list(allowed),
                    reply=reply,
                    action=result.action,
                    feedback=result.observation,
                    inadmissible=result.inadmissible,
                    repeated=result.repeated,
                )
            )

    async def _act(self, percept: Percept, text: str) -> ActionChoice:
        """The agent's action: an agent that acts takes the percept, any other its ``text``,
        and its reply is read by the action reader."""
        if isinstance(self.agent, Acting):
            return await self.agent.act(percept)
        return read_action(await self.agent.respond(text), percept.actions)

    def _turn(self, text: str, reply: str, game: int, step: int) -> Turn:
        """The public turn, with the private state's size, and the state itself when it
        changed since the last turn that recorded it (a memory's state holds still for most
        of a game: recording it on every turn would repeat it). A memory that changes on
        every turn and grows (every turn kept raw) would fill the file with copies, so past
        ``STATE_BUDGET_CHARS`` of recorded state in the trial only a game's first turn
        records it."""
        state = self.agent.private_state()
        tokens = self.agent.last_reply().state_tokens
        record = state != self._state and (
            step == 1 or self._spent + len(state) <= STATE_BUDGET_CHARS
        )
        if record:
            self._state = state
            self._spent += len(state)
        turn = Turn(
            turn=len(self.turns) + 1,
            user=text,
            reply=reply,
            private_state=state if record else None,
            private_state_tokens=tokens,
            extras={"game": game, "step": step},
        )
        self.turns.append(turn)
        return turn


def _steps_of(turns: list[int], steps: list[GameStep]) -> list[int]:
    """The game's steps taken on the agent's ``turns``."""
    wanted = set(turns)
    return [s.step for s in steps if s.turn in wanted]


def _trajectory(steps: list[GameStep]) -> Trajectory:
    """The game as the agent lived it, for memory that reflects on it."""
    start = steps[0].observation if steps else ""
    return Trajectory(start, tuple(Move(s.action, s.feedback) for s in steps))


__all__ = [
    "STATE_BUDGET_CHARS",
    "AlfworldHost",
    "AlfworldParams",
    "AlfworldTask",
    "CurriculumPart",
]
