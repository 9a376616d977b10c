"""A game ready to play: where it comes from, its goal, its problem and the planner's plan."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Sequence
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from .cache import CachedGame, GameCache
from .engine import game_data
from .gamefile import read_game_file
from .generator import GENERATOR_VERSION, GameSpec, InfeasibleGameError, Problem, write_problem
from .planner import (
    DEFAULT_TIMEOUT_S,
    Outcome,
    PlanRequest,
    Solution,
    UnsolvableGameError,
    solve_many,
)

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
        """The game as the engine loads it (an official game's file is read and checked
        again: blocking, call it off the event loop)."""
        if self.path is None:
            return game_data(self.pddl_problem, self.goal, list(self.walkthrough))
        data = read_game_file(self.path)  # read afresh: checked again
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
    (made,) = await generated_games([spec], split, cache, timeout_s=timeout_s)
    if isinstance(made, Exception):
        raise made
    return made


async def generated_games(
    specs: Sequence[GameSpec],
    split: Split,
    cache: GameCache | None = None,
    *,
    timeout_s: float = DEFAULT_TIMEOUT_S,
) -> list[Game | UnsolvableGameError | InfeasibleGameError]:
    """:func:`generated_game` for several games at once, in order, each failure in its place:
    the games the cache lacks are planned in as many child processes as there are CPU cores,
    each checking its share one after another."""
    cache = cache if cache is not None else GameCache()
    unique = sorted(set(specs), key=lambda s: s.key)
    async with AsyncExitStack() as held:
        for spec in unique:  # always in the same order, so two callers never wait on each other
            await held.enter_async_context(_making(cache.path(spec)))
        made = await _cached_or_made(unique, split, cache, timeout_s)
    return [made[spec] for spec in specs]


@asynccontextmanager
async def _making(path: Path) -> AsyncIterator[None]:
    key = (asyncio.get_running_loop(), str(path))
    lock, users = _MAKING.setdefault(key, (asyncio.Lock(), [0]))
    users[0] += 1
    try:
        async with lock:
            yield
    finally:
        users[0] -= 1
        if not users[0]:
            del _MAKING[key]


async def _cached_or_made(
    specs: Sequence[GameSpec], split: Split, cache: GameCache, timeout_s: float
) -> dict[GameSpec, Game | UnsolvableGameError | InfeasibleGameError]:
    entries: dict[GameSpec, CachedGame] = {}
    failed: dict[GameSpec, UnsolvableGameError | InfeasibleGameError] = {}
    problems: dict[GameSpec, Problem] = {}
    for spec in specs:
        try:
            problem = write_problem(spec)
        except InfeasibleGameError as exc:
            failed[spec] = exc
            continue
        entry = await asyncio.to_thread(cache.get, spec)
        if entry is not None and (entry.pddl_problem, entry.goal) != (problem.pddl, problem.goal):
            # what is played must be what the generator writes (and the planner checked)
            await asyncio.to_thread(
                cache.set_aside, spec, "it holds another problem than the generator writes"
            )
            entry = None
        if entry is not None:
            entries[spec] = entry
        else:
            problems[spec] = problem
    for spec, outcome in zip(
        problems, await _plan(list(problems.values()), timeout_s), strict=True
    ):
        problem = problems[spec]
        if isinstance(outcome, Solution):
            entries[spec] = _entry(
                spec, problem.goal, problem.pddl, "solvable", outcome.walkthrough, outcome.seconds
            )
            await asyncio.to_thread(cache.put, entries[spec])
            continue
        failed[spec] = outcome
        if "is not solvable" in str(outcome):
            unsolvable = _entry(spec, problem.goal, problem.pddl, "unsolvable", reason=str(outcome))
            await asyncio.to_thread(cache.put, unsolvable)
    made: dict[GameSpec, Game | UnsolvableGameError | InfeasibleGameError] = dict(failed)
    for spec, entry in entries.items():
        if entry.status == "unsolvable":
            made[spec] = UnsolvableGameError(entry.reason or f"{spec.key} is not solvable")
            continue
        made[spec] = Game(
            room=spec.room,
            task_type=spec.task_type,
            split=split,
            seed=spec.seed,
            goal=entry.goal,
            pddl_problem=entry.pddl_problem,
            walkthrough=tuple(entry.walkthrough),
        )
    return made


async def _plan(problems: Sequence[Problem], timeout_s: float) -> list[Outcome]:
    """Plan the problems in up to one child process per CPU core, in order."""
    if not problems:
        return []
    shares = min(len(problems), max(1, os.cpu_count() or 1))
    requests = [
        PlanRequest(
            p.spec.key,
            game_data(p.pddl, p.goal),
            planning_game=game_data(p.planning_pddl, p.goal),
        )
        for p in problems
    ]
    chunks = [requests[i::shares] for i in range(shares)]
    done = await asyncio.gather(*(solve_many(c, timeout_s=timeout_s) for c in chunks))
    by_label = {
        r.label: o
        for chunk, outs in zip(chunks, done, strict=True)
        for r, o in zip(chunk, outs, strict=True)
    }
    return [by_label[r.label] for r in requests]


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
