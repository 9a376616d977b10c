"""Play the player's side of an SCT game against a composed agent, and fork it at any turn.

The person writes each message (or takes the scripted player's suggestion); the agent answers
as it would in a trial. A fork runs the SCT's own fork (``tasks.sct.fork_sct``) on copies of
the agent, so the game goes on unchanged afterwards.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cogarch.core.records import TrialRecord, Turn
from cogarch.errors import ConfigError
from cogarch.models.providers import Providers
from cogarch.tasks.registry import build_task
from cogarch.tasks.sct.engine import SCTTask, fork_sct
from cogarch.tasks.sct.records import SCTEvaluation
from cogarch.tasks.sct.score import score
from cogarch.workspace.agent import Agent
from cogarch.workspace.spec import build_agent, check_agent_spec, load_agent_spec

from .trial_view import TrialView, TurnView, trial_view

GAMES = {"hangman": "hangman_sct", "diagnosis": "diagnosis_sct"}


class PlaySession:
    """One game: the agent, the game's parts, and the turns played so far."""

    def __init__(
        self, game: str, agent: str, provider: str, providers: Providers, *, seed: int = 0
    ) -> None:
        if game not in GAMES:
            raise ConfigError(f"unknown game '{game}'; games: {', '.join(GAMES)}")
        providers.config(provider)  # an unknown provider fails here, naming the known ones
        task = build_task(GAMES[game], {})
        if not isinstance(task, SCTTask):
            raise ConfigError(f"game '{game}' is not a Self-Consistency Test")
        self.game_name, self.agent_name, self.provider = game, agent, provider
        self.task, self.seed = task, seed
        plan = check_agent_spec(load_agent_spec(agent), provider=provider)
        self._build: Callable[[], Agent] = lambda: build_agent(plan, providers.get, seed=seed)
        self.reset()

    def reset(self) -> None:
        self.agent = self._build()
        self.game = self.task.new_game(self.seed)
        self.turns: list[Turn] = []
        self.pending: str | None = None
        self._opened = False

    def suggest(self) -> str:
        """The scripted player's next message (the opener first)."""
        if self.pending is None:
            player = self.game.player
            self.pending = player.next_message() if self._opened else player.opener()
            self._opened = True
        return self.pending

    async def send(self, text: str) -> TurnView:
        """The agent's answer to ``text``, with its private state and graph walk."""
        if not text.strip():
            raise ConfigError("write a message first (or take the player's suggestion)")
        reply = await self.agent.respond(text)
        if text == self.pending:
            self.game.player.observe(reply)
            self.pending = None
        self.turns.append(
            Turn(
                turn=len(self.turns) + 1,
                user=text,
                reply=reply,
                private_state=self.agent.private_state(),
                private_state_tokens=self.agent.state_sizes[-1],
            )
        )
        return self.views()[-1]

    def views(self) -> list[TurnView]:
        return trial_view(self.record()).turns

    def record(self, extra: dict[str, Any] | None = None) -> TrialRecord:
        """The game so far as a trial record (what the trial page draws)."""
        return TrialRecord(
            status="complete",
            run="play",
            agent=self.agent_name,
            task=self.task.kind,
            trial=0,
            seed=self.seed,
            turns=list(self.turns),
            walk=self.agent.route_log.walk(),
            **(extra or {}),
        )

    async def fork(self) -> TrialView:
        """Fork the SCT from the current state and let every branch answer."""
        if not self.turns:
            raise ConfigError("play at least one turn before forking")
        fork = await fork_sct(
            self.agent, self.game, self.turns, n=self.task.params.n_candidates, seed=self.seed
        )
        played = fork.played(self.turns, self.game)
        record = self.record(
            {
                "branches": [fork.reveal, *fork.candidates],
                "evaluation": SCTEvaluation.model_validate(
                    score(played, self.game.rules, self.game.rules)
                ),
                "payload": fork.payload(len(self.turns), played, self.game),
                "scoring": self.task.scoring,
            }
        )
        return trial_view(record)
