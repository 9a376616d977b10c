"""A game ready to play: where it comes from, its goal, its problem and the planner's plan."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from cogarch.errors import ConfigError

from .cache import CachedGame, GameCache
from .engine import game_data
from .generator import GENERATOR_VERSION, GameSpec, write_problem
from .planner import DEFAULT_TIMEOUT_S, UnsolvableGameError, solve

Split = Literal["train", "id", "ood"]
SPLITS: tuple[Split, ...] = ("train", "id", "ood")


class Game(BaseModel):
    """One game of a curriculum."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    room: int | None
    """ALFRED's room number (``FloorPlan<room>``); None when an official game does not say."""
    task_type: str
    split: Split
    seed: int | None
    """The generator's seed (None for an official game)."""
    goal: str
    pddl_problem: str
    walkthrough: tuple[str, ...]
    """The planner's winning plan, stored when the game was made."""
    source: Literal["generated", "official"] = "generated"
    path: str | None = None
    """The official game file (``game.tw-pddl``) the game was read from."""

    @property
    def plan_length(self) -> int:
        return len(self.walkthrough)

    @property
    def name(self) -> str:
        if self.path is not None:
            return self.path
        return GameSpec(self.room or 0, self.task_type, self.seed or 0).key

    def data(self) -> dict[str, Any]:
        """The game as the engine loads it."""
        if self.path is None:
            return game_data(self.pddl_problem, self.goal, list(self.walkthrough))
        try:
            data = json.loads(Path(self.path).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise ConfigError(f"cannot read the ALFWorld game {self.path}: {exc}") from exc
        return {**data, "walkthrough": list(self.walkthrough)}


_MAKING: dict[tuple[asyncio.AbstractEventLoop, str], tuple[asyncio.Lock, list[int]]] = {}
"""Games being made in this process, so trials that need the same game plan it once."""


async def generated_game(
    spec: GameSpec,
    split: Split,
    cache: GameCache | None = None,
    *,
    timeout_s: float = DEFAULT_TIMEOUT_S,
) -> Game:
    """The game ``spec`` names, from the cache or generated and checked by the planner (then
    cached). Raises :class:`UnsolvableGameError` when the planner finds no winning plan and
    ``InfeasibleGameError`` when the room cannot host the task type."""
    cache = cache if cache is not None else GameCache()
    key = (asyncio.get_running_loop(), str(cache.path(spec)))
    lock, users = _MAKING.setdefault(key, (asyncio.Lock(), [0]))
    users[0] += 1
    try:
        async with lock:
            return await _cached_or_made(spec, split, cache, timeout_s)
    finally:
        users[0] -= 1
        if not users[0]:
            del _MAKING[key]


async def _cached_or_made(spec: GameSpec, split: Split, cache: GameCache, timeout_s: float) -> Game:
    entry = cache.get(spec)
    if entry is None:
        problem = write_problem(spec)
        try:
            solution = await solve(
                game_data(problem.pddl, problem.goal),
                planning_game=game_data(problem.planning_pddl, problem.goal),
                timeout_s=timeout_s,
                label=spec.key,
            )
        except UnsolvableGameError as exc:
            if "is not solvable" in str(exc):
                cache.put(_entry(spec, problem.goal, problem.pddl, "unsolvable", reason=str(exc)))
            raise
        entry = _entry(
            spec, problem.goal, problem.pddl, "solvable", solution.walkthrough, solution.seconds
        )
        cache.put(entry)
    if entry.status == "unsolvable":
        raise UnsolvableGameError(entry.reason or f"{spec.key} is not solvable")
    return Game(
        room=spec.room,
        task_type=spec.task_type,
        split=split,
        seed=spec.seed,
        goal=entry.goal,
        pddl_problem=entry.pddl_problem,
        walkthrough=tuple(entry.walkthrough),
    )


def _entry(
    spec: GameSpec,
    goal: str,
    pddl: str,
    status: Literal["solvable", "unsolvable"],
    walkthrough: list[str] | None = None,
    seconds: float = 0.0,
    reason: str = "",
) -> CachedGame:
    return CachedGame(
        room=spec.room,
        task_type=spec.task_type,
        seed=spec.seed,
        generator_version=GENERATOR_VERSION,
        goal=goal,
        pddl_problem=pddl,
        status=status,
        walkthrough=walkthrough or [],
        reason=reason,
        plan_seconds=round(seconds, 3),
    )


__all__ = ["SPLITS", "Game", "Split", "generated_game"]
