"""Which games a trial plays, in order: drawn from the trial's seed, made before play starts.

Each part of a curriculum names a split and a number of games. ``ood`` is played in ALFWorld's
out-of-distribution rooms: the four scenes of its ``valid_unseen`` split (its
``eval_out_of_distribution`` games), FloorPlan 10, 219, 308 and 424 (``UNSEEN_ROOMS``).
``train`` draws ALFRED's seen rooms (``TRAIN_SCENE_NUMBERS``) without those four, with seeds
from ``[0, SEED_SPAN)``; ``id`` the same rooms with held-out seeds from
``[SEED_SPAN, 2 * SEED_SPAN)``. With ``task_mix: uniform`` task types take turns within a part
(from a seeded starting point); with ``task_mix: alfworld`` a part holds each type in
``valid_unseen``'s proportions (``ALFWORLD_MIX``: 24, 17, 18, 31, 23 and 21 of its 134 games;
largest remainders for other sizes, among the types the part's rooms can host), in a seeded
order. Each game is played in a room drawn among those that can host its type.
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
from typing import Final, Literal

from cogarch.errors import ConfigError

from .cache import GameCache
from .games import Game, Split, generated_game, generated_games
from .generator import GameSpec, InfeasibleGameError, feasible
from .official import OfficialGame, load_official, official_games
from .planner import PlanTimeoutError, UnsolvableGameError
from .wheel import room, rules

SEED_SPAN: Final = 1_000_000
UNSEEN_ROOMS: Final = (10, 219, 308, 424)
"""ALFWorld's out-of-distribution rooms: the scenes of its valid_unseen split (ALFRED's four
unseen validation scenes). ALFRED's generation constants put them among the training rooms."""
ALFWORLD_MIX: Final = {
    "pick_and_place_simple": 24,
    "pick_two_obj_and_place": 17,
    "look_at_obj_in_light": 18,
    "pick_clean_then_place_in_recep": 31,
    "pick_heat_then_place_in_recep": 23,
    "pick_cool_then_place_in_recep": 21,
}
"""The task types of ALFWorld's valid_unseen split (134 games)."""
TaskMix = Literal["uniform", "alfworld"]
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
    task_mix: TaskMix = "uniform"
    rooms: tuple[int, ...] | None = None
    max_receptacles: int | None = None
    official: str | None = None
    cache_dir: str | None = None
    plan_timeout_s: float = 600.0


def split_rooms(split: Split, settings: Settings) -> list[int]:
    """The rooms a split draws from, narrowed by the settings."""
    pool = (
        UNSEEN_ROOMS if split == "ood" else [n for n in rules().seen_rooms if n not in UNSEEN_ROOMS]
    )
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
            hint = ""
            if part.split == "ood":
                sizes = ", ".join(f"{n} ({len(room(n).receptacles)})" for n in UNSEEN_ROOMS)
                hint = (
                    f"; the ood split is ALFWorld's four unseen rooms, FloorPlan {sizes} "
                    "receptacles, so max_receptacles must be at least "
                    f"{min(len(room(n).receptacles) for n in UNSEEN_ROOMS)}"
                )
            raise ConfigError(
                f"no room of the {part.split} split can host the task types "
                f"{', '.join(settings.task_types)} under these settings (rooms, "
                f"max_receptacles); allow more rooms or other task types{hint}"
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
        order = task_order(rng, types, part.games, settings.task_mix)
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


def mix_counts(types: Sequence[str], games: int) -> dict[str, int]:
    """How many of ``games`` each of ``types`` gets in ALFWorld's valid_unseen proportions
    (largest remainders; ties to the type listed first in ``ALFWORLD_MIX``)."""
    weights = {t: ALFWORLD_MIX.get(t, 0) for t in types}
    total = sum(weights.values())
    if total == 0:
        raise ConfigError(f"none of the task types {list(types)} is in ALFWorld's mix")
    exact = {t: games * w / total for t, w in weights.items()}
    counts = {t: int(x) for t, x in exact.items()}
    rank = list(ALFWORLD_MIX)
    left = sorted(types, key=lambda t: (-(exact[t] - counts[t]), rank.index(t)))
    for t in left[: games - sum(counts.values())]:
        counts[t] += 1
    return counts


def task_order(
    rng: random.Random, types: Sequence[str], games: int, mix: TaskMix = "uniform"
) -> list[str]:
    """The task types of a part's ``games``, in playing order."""
    if mix == "alfworld":
        counts = mix_counts(types, games)
        order = [t for t in types for _ in range(counts[t])]
        rng.shuffle(order)
        return order
    start = rng.randrange(len(types))
    return [types[(start + k) % len(types)] for k in range(games)]


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
