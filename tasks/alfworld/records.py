"""What a curriculum trial records: every game as played, and the curriculum's evaluation.

The payload (:class:`AlfworldPayload`) holds, per game, where it was played (room, task type,
split, seed, goal), how it went (``won``, actions, inadmissible and repeated actions against
the planner's shortest plan, cost) and its transcript, with what the agent reported of the
game when it ended (:class:`~cogarch.core.host.EpisodeReport`: each memory module's record of
it, ``memory_activity``, and the focus loop's activations, ``focus``). The agent's private
state is on the record's turns (``Turn.private_state``), which a step names
(``GameStep.turn``).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from cogarch.core.evaluation import Evaluation
from cogarch.core.payload import TaskPayload

from .games import Split


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid")


class GameStep(_Record):
    """One turn of a game: what the agent was shown, what it said, what the game did."""

    step: int = Field(ge=1)
    turn: int | None = None
    """The trial's turn this step was (``Turn.turn`` of the record), where its private state
    is."""
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
    """Not an admissible command, or the game answered "Nothing happens."."""
    repeated: bool
    """The same action from the same observation as an earlier step of the game."""


EndedBy = Literal["won", "actions", "transitions", "error"]
"""Why a game ended: won, its actions spent, its specialist transitions spent, or the engine
failed."""


class GameResult(_Record):
    """One game of the curriculum, as played."""

    index: int = Field(ge=0)
    """The game's place in the curriculum, from 0."""
    room: int | None
    """ALFRED's room (``FloorPlan<room>``); None when an official game does not say."""
    task_type: str
    split: Split
    seed: int | None
    """The generator's seed (None for an official game)."""
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
    """The length of the planner's walkthrough (the shortest plan it found)."""
    model_calls: int = 0
    """Model calls during the game and its end (a reflection on it, say)."""
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0
    transcript: list[GameStep] = Field(default_factory=list)
    memory_activity: dict[str, dict[str, Any]] = Field(default_factory=dict)
    """What each memory module did for the game, by module name, as the agent reported it
    when the game ended (``EpisodeReport.memory``; modules that keep no such record are left
    out)."""
    focus: list[dict[str, Any]] = Field(default_factory=list)
    """The focus loop's activations during the game, in order, as the agent reported them:
    each with its reason, the action proposed and sent after it, and whether the agent's step
    budget ended its turn."""
    budget_ended_steps: list[int] = Field(default_factory=list)
    """The steps whose turn the agent's own step budget ended (its responder made to act
    before its walk was done; empty for an agent without a budget)."""
    error: str | None = None
    """Why the engine could not load or play the game (naming its file), which then counts
    as lost; None for a game played to its end."""
    transitions: int | None = None
    """The agent's specialist transitions during the game (every specialist step of its
    turns); None for an agent that does not say (one without a graph)."""
    held_back: int | None = None
    """Outputs the agent held back during the game (no action of the game: they cost no
    action, the focus loop takes them up); None for an agent that does not say."""
    ended_by: EndedBy | None = None
    """Why the game ended (None in files of earlier versions)."""

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


class AlfworldPayload(TaskPayload):
    """A curriculum: its step limit and every game played, in order."""

    kind: Literal["alfworld"] = "alfworld"
    version: int = 1
    max_steps: int
    max_transitions: int | None = None
    """The specialist transitions a game allowed (None: no limit)."""
    games: list[GameResult] = Field(default_factory=list)


class AlfworldEvaluation(Evaluation):
    """The curriculum's numbers: success overall, per split and per task type, efficiency,
    inadmissible and repeated actions, the learning curve and the cost per game. Rates are
    None where there is nothing to divide by (no game, no won game).

    Attributes:
        outcome: Always None: the task measures a curriculum's games, it does not sort trials
            into classes.
    """

    games: int
    """Games played in the curriculum."""
    won: int
    """Games won."""
    success_rate: float | None
    """Won games over games played."""
    success_by_split: dict[str, float]
    """The success rate of the games of each split played (``train``, ``id``, ``ood``)."""
    success_by_task_type: dict[str, float]
    """The success rate of the games of each task type played."""
    actions: int
    """Actions taken over all games."""
    inadmissible_actions: int
    """Actions over all games that were not admissible commands, or that the game answered
    with "Nothing happens."."""
    repeated_actions: int
    """Actions over all games that repeated an earlier step's action from the same
    observation of the same game."""
    actions_per_won_game: float | None
    """Mean actions of the won games (ALFWorld's efficiency measure)."""
    plan_length_per_won_game: float | None
    """Mean walkthrough length of the same games, to read the former against."""
    inadmissible_rate: float | None
    """Inadmissible actions over all actions taken."""
    repeated_rate: float | None
    """Repeated actions over all actions taken."""
    learning_curve: list[float]
    """The success rate over the first 1, 2, ... games of the curriculum."""
    model_calls_per_game: float | None
    """Mean model calls per game, its end (a reflection on it, say) included."""
    tokens_per_game: float | None
    """Prompt and completion tokens per game."""
