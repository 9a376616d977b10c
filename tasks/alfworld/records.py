"""What a curriculum trial records: every game with its transcript, and the evaluation.

The payload and evaluation are typed here, in the task's package, and declared on the task.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from cogarch.core.evaluation import Evaluation
from cogarch.core.payload import TaskPayload
from cogarch.core.records import TrialOutput, Turn

from .games import Split


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid")


class GameStep(_Record):
    """One turn of a game: what the agent was shown, what it said, what the game did."""

    step: int = Field(ge=1)
    observation: str
    """The observation the agent acted on."""
    admissible: list[str]
    """The admissible actions it was shown with it."""
    reply: str
    """The agent's public reply."""
    action: str
    """The command read from the reply (empty when it named none)."""
    feedback: str
    """The game's answer to the command."""
    inadmissible: bool
    repeated: bool


class GameResult(_Record):
    """One game of the curriculum, as played."""

    index: int = Field(ge=0)
    """The game's place in the curriculum, from 0."""
    room: int | None
    task_type: str
    split: Split
    seed: int | None
    source: Literal["generated", "official"] = "generated"
    game: str
    """The game's name (the generated game's key, or the official game's file)."""
    goal: str
    won: bool
    actions: int
    """Actions taken (the agent's turns in the game)."""
    inadmissible_actions: int
    repeated_actions: int
    plan_length: int
    """The length of the planner's walkthrough."""
    model_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0
    transcript: list[GameStep] = Field(default_factory=list)


class AlfworldPayload(TaskPayload):
    """A curriculum: its step limit and every game played, in order."""

    kind: Literal["alfworld"] = "alfworld"
    version: int = 1
    max_steps: int
    games: list[GameResult] = Field(default_factory=list)


class AlfworldEvaluation(Evaluation):
    """The curriculum's numbers: success overall, per split and per task type, efficiency,
    inadmissible actions, the learning curve and the cost per game."""

    games: int
    won: int
    success_rate: float | None
    success_by_split: dict[str, float]
    success_by_task_type: dict[str, float]
    actions_per_won_game: float | None
    """Mean actions of the won games (ALFWorld's efficiency measure)."""
    plan_length_per_won_game: float | None
    """Mean walkthrough length of the same games, to read the former against."""
    inadmissible_rate: float | None
    """Inadmissible actions over all actions taken."""
    repeated_rate: float | None
    learning_curve: list[float]
    """The success rate over the first 1, 2, ... games of the curriculum."""
    model_calls_per_game: float | None
    tokens_per_game: float | None


def trial_output(
    payload: AlfworldPayload, evaluation: AlfworldEvaluation, turns: Sequence[Turn] = ()
) -> TrialOutput:
    """The trial's output: the public turns, the evaluation and the payload."""
    return TrialOutput(
        turns=list(turns),
        evaluation=evaluation,
        payload=payload,
    )


__all__ = [
    "AlfworldEvaluation",
    "AlfworldPayload",
    "GameResult",
    "GameStep",
    "trial_output",
]
