"""One game being played: reset, observe, act, until it is won or the step limit is reached.

The engine is ALFWorld's (textworld's PDDL environment with ALFWorld's names). An action is
inadmissible when it is not among the admissible commands or the game answers "Nothing
happens."; it still takes a step, as in ALFWorld (and the engine, which would answer it with
"Nothing happens." and change nothing, is not asked). The engine runs in a process of its own
(``remote.py``), called from a worker thread so the event loop (and other trials' model calls)
go on meanwhile; a game the engine cannot load or play raises :class:`EngineFailure` naming it.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any, Final, Literal

from cogarch.core.acting import ActionChoice, normalize_action, read_action
from cogarch.errors import CogarchError

from .games import Game
from .remote import EngineFailure, RemoteEngine

DEFAULT_MAX_STEPS: Final = 50
"""ALFWorld's step limit per game."""
NOTHING_HAPPENS: Final = "Nothing happens."
NOT_ADMISSIBLE: Final = (
    "The action {action} is not in the list of admissible actions for the current timestep."
)
"""The Episodex paper's answer to an inadmissible command (its appendix A.2.3)."""
InadmissibleReply = Literal["nothing_happens", "admissible_list"]


def inadmissible_answer(action: str, reply: InadmissibleReply = "nothing_happens") -> str:
    """What the agent is told of ``action`` when the game does not admit it."""
    if reply == "admissible_list":
        return NOT_ADMISSIBLE.format(action=action.strip() or "(none)")
    return NOTHING_HAPPENS


class SessionError(CogarchError):
    """The game was driven out of order (a step before reset, or after it ended)."""


@dataclass(frozen=True)
class StepResult:
    action: str
    observation: str
    admissible: tuple[str, ...]
    """The commands admissible after this step."""
    won: bool
    done: bool
    """Won, or the step limit reached."""
    inadmissible: bool
    repeated: bool
    """The same action from the same observation as an earlier step of this game (a loop)."""


class GameSession:
    """Plays ``game``: ``await reset()`` gives the first observation (with the goal), then
    ``await step(action)`` until ``done``."""

    def __init__(
        self,
        game: Game,
        *,
        max_steps: int = DEFAULT_MAX_STEPS,
        memoise: bool = True,
        inadmissible_reply: InadmissibleReply = "nothing_happens",
    ) -> None:
        if max_steps < 1:
            raise ValueError(f"max_steps must be at least 1, got {max_steps}")
        self.game = game
        self.max_steps = max_steps
        self.inadmissible_reply: InadmissibleReply = inadmissible_reply
        self.memoise = memoise
        self._env: Any = None
        self.observation = ""
        self.admissible: tuple[str, ...] = ()
        self.steps = 0
        self.won = False
        self._seen: set[tuple[str, str]] = set()

    @property
    def done(self) -> bool:
        return self.won or self.steps >= self.max_steps

    async def reset(self) -> str:
        """Start the game afresh; the first observation, which states the goal."""
        state = await asyncio.to_thread(self._reset)
        self.steps, self.won, self._seen = 0, bool(state["won"]), set()
        self.observation = str(state["feedback"]).strip()
        self.admissible = tuple(state["admissible_commands"])
        return self.observation

    def _reset(self) -> Any:
        if self._env is None:
            try:
                data = self.game.data()
            except CogarchError as exc:
                raise EngineFailure(f"the game {self.game.name} cannot be read: {exc}") from None
            env = self._env = RemoteEngine(label=self.game.name)  # close() can stop the load
            try:
                env.load(data, memoise=self.memoise)
            except EngineFailure:
                self._env = None  # the next reset tries again, in a new engine process
                raise
            if self._env is not env:  # closed while it loaded
                env.close()
                raise EngineFailure(f"the game {self.game.name} was closed while it loaded")
        return self._env.reset()

    async def step(self, action: str | ActionChoice) -> StepResult:
        """Send the action: a choice already read against the admissible commands, or text,
        which the action reader reads (case, spacing and ALFWorld 0.3's ``put`` form aside)."""
        if self._env is None:
            raise SessionError("reset() the game before its first step (and not after close())")
        if self.done:
            raise SessionError(f"the game is over after {self.steps} steps (won: {self.won})")
        if isinstance(action, ActionChoice):
            choice = action
        else:
            choice = read_action(action, self.admissible)
        sent = choice.sent
        before = self.observation
        command = sent if sent in self.admissible else None
        self.steps += 1
        if command is None:
            # the engine answers any other command with "Nothing happens." and changes nothing
            observation = inadmissible_answer(sent, self.inadmissible_reply)
        else:
            state = await asyncio.to_thread(self._step, command)
            self.won = bool(state["won"])
            observation = str(state["feedback"]).strip()
            self.admissible = tuple(state["admissible_commands"])
        inadmissible = command is None or observation == NOTHING_HAPPENS
        self.observation = observation
        key = (before, normalize_action(sent))
        repeated = key in self._seen
        self._seen.add(key)
        return StepResult(
            action=sent,
            observation=observation,
            admissible=self.admissible,
            won=self.won,
            done=self.done,
            inadmissible=inadmissible,
            repeated=repeated,
        )

    def close(self) -> None:
        """Release the engine (its copy of the planner's library); the session is over."""
        if self._env is not None:
            self._env.close()
            self._env = None

    def _step(self, command: str) -> Any:
        state, _, _ = self._env.step(command)
        return state
