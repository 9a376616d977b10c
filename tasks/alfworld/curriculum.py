"""Which games a trial plays, in order: drawn from the trial's seed, made before play starts.

Each part of a curriculum names a split and a number of games. ``train`` draws ALFRED's seen
rooms with seeds from ``[0, SEED_SPAN)``; ``id`` the same rooms with held-out seeds from
``[SEED_SPAN, 2 * SEED_SPAN)``; ``ood`` the unseen rooms. Task types take turns within a part
(from a seeded starting point), each game in a room drawn among those that can host its type.
A game the planner cannot solve is drawn again, and so is one whose room and goal an earlier
game of the trial already had (two games that start alike would be indistinguishable). The
same seed and settings always give the same games.
"""

from __future__ import annotations

import asyncio
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from cogarch.errors import ConfigError

from .cache import GameCache
from .games import Game, Split, generated_game, generated_games
from .generator import GameSpec, InfeasibleGameError, feasible
from .official import OfficialGame, load_official, official_games
from .planner import PlanTimeoutError, UnsolvableGameError
from .wheel import room, rules

SEED_SPAN: Final = 1_000_000
MAX_DRAWS: Final = 20
"""Draws per game before the curriculum gives up (unsolvable or repeated games)."""


@dataclass(frozen=True)
class Part:
    split: Split
    games: int


@dataclass(frozen=True)
class Settings:
    """What the curriculum may draw from."""

    parts: tuple[Part, ...]
    task_types: tuple[str, ...]
    rooms: tuple[int, ...] | None = None
    max_receptacles: int | None = None
    official: str | None = None
    cache_dir: str | None = None
    plan_timeout_s: float = 600.0


def split_rooms(split: Split, settings: Settings) -> list[int]:
    """The rooms a split draws from, narrowed by the settings."""
    r = rules()
    pool = r.unseen_rooms if split == "ood" else r.seen_rooms
    chosen = [n for n in pool if settings.rooms is None or n in settings.rooms]
    if settings.max_receptacles is not None:
        chosen = [n for n in chosen if len(room(n).receptacles) <= settings.max_receptacles]
    return sorted(chosen)


def hosts(split: Split, settings: Settings) -> dict[str, list[int]]:
    """For each allowed task type, the split's rooms that can host it (types without any are
    left out)."""
    rooms = split_rooms(split, settings)
    found = {t: [n for n in rooms if feasible(n, t)] for t in settings.task_types}
    return {t: ns for t, ns in found.items() if ns}


def check(settings: Settings) -> None:
    """Refuse settings under which some part of the curriculum has no game to draw."""
    if settings.official is not None:
        for part in settings.parts:
            official_games(settings.official, part.split)
        return
    GameCache(settings.cache_dir).check()
    for part in settings.parts:
        if not hosts(part.split, settings):
            raise ConfigError(
                f"no room of the {part.split} split can host the task types "
                f"{', '.join(settings.task_types)} under these settings (rooms, "
                "max_receptacles); allow more rooms or other task types"
            )


async def build(seed: int, settings: Settings) -> list[Game]:
    """The games of the trial with ``seed``, in playing order."""
    rng = random.Random(f"alfworld-curriculum:{seed}")
    if settings.official is not None:
        return await _official(rng, settings.official, settings)
    cache = GameCache(settings.cache_dir)
    games: list[Game] = []
    seen: set[tuple[int | None, str]] = set()
    for part in settings.parts:
        rooms = hosts(part.split, settings)
        types = sorted(rooms, key=settings.task_types.index)
        start = rng.randrange(len(types))
        order = [types[(start + k) % len(types)] for k in range(part.games)]
        draws = [_draw(rng, part.split, t, rooms[t]) for t in order]
        made = await generated_games(draws, part.split, cache, timeout_s=settings.plan_timeout_s)
        for task_type, outcome in zip(order, made, strict=True):
            tries, timeouts = 1, int(isinstance(outcome, PlanTimeoutError))
            game = outcome if isinstance(outcome, Game) else None
            while game is None or (game.room, game.goal) in seen:
                if tries >= MAX_DRAWS:
                    raise ConfigError(_no_game(task_type, part.split, timeouts, settings))
                spec = _draw(rng, part.split, task_type, rooms[task_type])
                outcome = await _make(spec, part.split, cache, settings)
                timeouts += isinstance(outcome, PlanTimeoutError)
                game = outcome if isinstance(outcome, Game) else None
                tries += 1
            seen.add((game.room, game.goal))
            games.append(game)
    return games


def _draw(rng: random.Random, split: Split, task_type: str, rooms: list[int]) -> GameSpec:
    base = SEED_SPAN if split == "id" else 0
    return GameSpec(
        room=rng.choice(rooms),
        task_type=task_type,
        seed=base + rng.randrange(SEED_SPAN),
    )


def _no_game(task_type: str, split: Split, timeouts: int, settings: Settings) -> str:
    """Why no game could be drawn: the planner's time when it ran out on some, else rooms."""
    if timeouts:
        return (
            f"could not draw a solvable {task_type} game of the {split} split in {MAX_DRAWS} "
            f"tries: the planner ran out of time on {timeouts} of them (plan_timeout_s = "
            f"{settings.plan_timeout_s:g} s); raise task.plan_timeout_s (planning takes "
            "2-46 s on big kitchens)"
        )
    return (
        f"could not draw a new solvable {task_type} game of the {split} split in {MAX_DRAWS} "
        "tries; allow more rooms"
    )


async def _make(
    spec: GameSpec, split: Split, cache: GameCache, settings: Settings
) -> Game | UnsolvableGameError | InfeasibleGameError:
    try:
        return await generated_game(spec, split, cache, timeout_s=settings.plan_timeout_s)
    except (UnsolvableGameError, InfeasibleGameError) as exc:
        return exc


async def _official(rng: random.Random, root: str, settings: Settings) -> list[Game]:
    games: list[Game] = []
    seen: set[tuple[int | None, str]] = set()
    for part in settings.parts:
        found = await asyncio.to_thread(official_games, root, part.split)
        pool: Sequence[OfficialGame] = [g for g in found if g.task_type in settings.task_types]
        if len(pool) < part.games:
            raise ConfigError(
                f"the {part.split} split has {len(pool)} official games of the chosen task "
                f"types, fewer than the {part.games} asked"
            )
        added = 0
        for entry in rng.sample(list(pool), len(pool)):
            if added == part.games:
                break
            try:
                game = await load_official(entry, timeout_s=settings.plan_timeout_s)
            except (ConfigError, UnsolvableGameError) as exc:
                sys.stderr.write(f"warning: skipping an official game: {exc}\n")
                continue
            if (game.room, game.goal) in seen:
                continue
            seen.add((game.room, game.goal))
            games.append(game)
            added += 1
        if added < part.games:
            raise ConfigError(
                f"only {added} official {part.split} games could be played, fewer than the "
                f"{part.games} asked"
            )
    return games


__all__ = ["MAX_DRAWS", "SEED_SPAN", "Part", "Settings", "build", "check", "hosts", "split_rooms"]
