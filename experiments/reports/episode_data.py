"""The games of a run's multi-episode trials, per agent, as the episode report reads them.

A task that plays several episodes (games) per trial with one agent records them in its
payload as a list ``games``, each with whether it was won and how many actions it took, and,
where the task stores what ``Agent.end_episode`` returned for it
(:class:`cogarch.core.host.EpisodeReport`), ``memory_activity`` (by module name, the
module's ``episode_activity``) and ``focus`` (the focus-loop activations). That is the whole
contract: the payload is read as JSON data, so the same code reads a task's typed payload and
a payload kept as generic data. The agent's spec name and parameters come from the record's metadata
(the spec as run), so agents built on one spec with different parameters can be compared.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from cogarch.core.records import TrialRecord


class FocusRun(BaseModel):
    """One focus-loop activation as the workspace logs it (``FocusActivation``)."""

    model_config = ConfigDict(extra="ignore")

    reason: str = "chosen"
    next_admissible: bool | None = None
    next_valid: bool | None = None
    """Whether the next proposal was an action; None in files of earlier versions, whose
    ``next_admissible`` said it."""
    next_action: str | None = None
    ended_by_budget: bool = False

    @property
    def recovered(self) -> bool | None:
        """Whether the next proposal was an action (None: none came)."""
        return self.next_valid if self.next_valid is not None else self.next_admissible


class GameRow(BaseModel):
    """One game of a trial: its outcome, its length and what the agent did in it."""

    model_config = ConfigDict(extra="ignore")

    won: bool | None = None
    actions: int | None = Field(default=None, ge=0)
    split: str | None = None
    memory: dict[str, dict[str, Any]] | None = Field(
        default=None, validation_alias=AliasChoices("memory_activity", "memory")
    )
    """By memory module name, what the module did for the game (None: not recorded)."""
    focus: list[FocusRun] | None = None
    """The focus-loop activations during the game (None: not recorded)."""
    budget_ended_steps: list[int] | None = None
    """The steps whose turn the agent's step budget ended (None: not recorded)."""
    transitions: int | None = None
    """The agent's specialist transitions during the game (None: not recorded)."""
    held_back: int | None = None
    """Outputs the agent held back during the game (None: not recorded)."""
    ended_by: str | None = None
    """Why the game ended: won, actions, transitions, error (None: not recorded)."""
    source: str | None = None
    """Where the game came from: official or generated (None: not recorded)."""


_GAMES = TypeAdapter(list[GameRow])


@dataclass
class AgentGames:
    """Every game an agent played over its complete trials, with the spec it ran."""

    agent: str
    family: str
    """The name of the agent spec it was built on (``episodex``)."""
    params: dict[str, Any]
    """The spec's parameters as run (defaults included)."""
    provider: str | None
    trials: int = 0
    model: str | None = None
    """The model its provider served (from the provider's recorded settings)."""
    games: list[GameRow] = field(default_factory=list)


@dataclass
class RunGames:
    """The agents of a run that played multi-episode trials, and what could not be read."""

    agents: list[AgentGames] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def games_of(record: TrialRecord) -> list[GameRow] | None:
    """The games ``record``'s payload lists (None when it lists none). Raises
    ``ValidationError`` for games not in the shape above."""
    games = record.payload.model_dump(mode="json").get("games")
    if not isinstance(games, list) or not games:
        return None
    return _GAMES.validate_python(games)


def _spec(record: TrialRecord) -> tuple[str, dict[str, Any]]:
    spec = record.metadata.agent_spec or {}
    name = spec.get("name")
    params = spec.get("params")
    return (
        name if isinstance(name, str) and name else record.agent,
        dict(params) if isinstance(params, dict) else {},
    )


def run_games(records: Sequence[TrialRecord]) -> RunGames:
    """Per agent (in the records' order), the games of its complete multi-episode trials."""
    found: dict[str, AgentGames] = {}
    problems: list[str] = []
    for record in records:
        if record.status != "complete":
            continue
        try:
            games = games_of(record)
        except ValidationError as exc:
            first = exc.errors()[0]
            game, *where = first["loc"]
            problems.append(
                f"{record.agent} trial {record.trial}: game {game} is not in the expected "
                f"shape ({'.'.join(map(str, where))}: {first['msg']}); the trial is left out"
            )
            continue
        if games is None:
            continue
        family, params = _spec(record)
        agent = found.get(record.agent)
        if agent is None:
            settings = record.metadata.provider_settings or {}
            model = settings.get("model") or settings.get("fake") or settings.get("kind")
            agent = AgentGames(record.agent, family, params, record.metadata.provider)
            agent.model = str(model) if model else None
            found[record.agent] = agent
        elif (family, _key(params)) != (agent.family, _key(agent.params)):
            problems.append(
                f"{record.agent} trial {record.trial} ran other parameters than the agent's "
                "first trial; it is left out"
            )
            continue
        agent.trials += 1
        agent.games += games
    return RunGames(list(found.values()), problems)


def game_sources(records: Sequence[TrialRecord]) -> set[str]:
    """The sources of the games the complete trials played (``official``, ``generated``);
    empty when no payload says."""
    found: set[str] = set()
    for record in records:
        if record.status != "complete":
            continue
        try:
            games = games_of(record)
        except ValidationError:
            continue
        found |= {g.source for g in games or [] if g.source}
    return found


def _key(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str)
