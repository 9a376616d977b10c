"""The curriculum's rooms and task mix: ood games in ALFWorld's four unseen rooms and train
games never there; task types drawn uniformly (taking turns) or in valid_unseen's
proportions."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from cogarch.tasks.alfworld.curriculum import (
    ALFWORLD_MIX,
    UNSEEN_ROOMS,
    Part,
    Settings,
    build,
    hosts,
    mix_counts,
    split_rooms,
    task_order,
)
from cogarch.tasks.alfworld.params import AlfworldParams
from cogarch.tasks.alfworld.wheel import TASK_TYPES
from cogarch.tasks.registry import build_task

VALID_UNSEEN = {
    "pick_and_place_simple": 24,
    "pick_two_obj_and_place": 17,
    "look_at_obj_in_light": 18,
    "pick_clean_then_place_in_recep": 31,
    "pick_heat_then_place_in_recep": 23,
    "pick_cool_then_place_in_recep": 21,
}


def settings(**changes: object) -> Settings:
    fields: dict[str, object] = {"parts": (Part("ood", 1),), "task_types": TASK_TYPES}
    return Settings(**{**fields, **changes})  # type: ignore[arg-type]


@pytest.mark.usefixtures("engine")
def test_ood_rooms_are_exactly_alfworlds_four_unseen_rooms_and_train_never_uses_them() -> None:
    assert UNSEEN_ROOMS == (10, 219, 308, 424)
    every = settings()
    assert split_rooms("ood", every) == [10, 219, 308, 424]
    for split in ("train", "id"):
        rooms = split_rooms(split, every)
        assert rooms and not set(rooms) & set(UNSEEN_ROOMS)
    by_type = hosts("ood", every)
    assert set(by_type) == set(TASK_TYPES)  # every type has an unseen room to be played in
    assert {n for ns in by_type.values() for n in ns} == set(UNSEEN_ROOMS)
    # narrowing settings keep each split to its own rooms
    assert split_rooms("ood", settings(rooms=(10, 316))) == [10]
    assert split_rooms("train", settings(rooms=(10, 316))) == [316]


@pytest.mark.usefixtures("engine")
def test_a_cap_on_receptacles_below_the_smallest_unseen_room_is_refused_naming_it() -> None:
    from cogarch.errors import ConfigError

    with pytest.raises(ConfigError, match="max_receptacles must be at least 12"):
        build_task("alfworld", {"curriculum": [{"split": "ood", "games": 1}], "max_receptacles": 9})


def test_the_alfworld_mix_gives_valid_unseens_proportions() -> None:
    assert ALFWORLD_MIX == VALID_UNSEEN
    assert mix_counts(TASK_TYPES, 134) == VALID_UNSEEN
    assert sum(mix_counts(TASK_TYPES, 20).values()) == 20
    for games in (1, 7, 20, 50, 63, 134, 268):
        counts = mix_counts(TASK_TYPES, games)
        assert sum(counts.values()) == games
        for t in TASK_TYPES:  # each within one game of its exact share
            assert abs(counts[t] - games * VALID_UNSEEN[t] / 134) < 1
    assert mix_counts(TASK_TYPES, 268) == {t: 2 * n for t, n in VALID_UNSEEN.items()}
    # among fewer types, their proportions among themselves
    two = mix_counts(["pick_and_place_simple", "pick_clean_then_place_in_recep"], 55)
    assert two == {"pick_and_place_simple": 24, "pick_clean_then_place_in_recep": 31}


def test_the_order_is_seeded_and_holds_the_counts() -> None:
    order = task_order(random.Random("a"), TASK_TYPES, 134, "alfworld")
    assert Counter(order) == Counter(VALID_UNSEEN)
    assert order == task_order(random.Random("a"), TASK_TYPES, 134, "alfworld")
    assert order != task_order(random.Random("b"), TASK_TYPES, 134, "alfworld")
    uniform = task_order(random.Random("a"), TASK_TYPES, 12, "uniform")
    assert Counter(uniform) == Counter({t: 2 for t in TASK_TYPES})  # they take turns


def test_uniform_stays_the_default_so_earlier_configs_draw_as_before() -> None:
    assert AlfworldParams().task_mix == "uniform"
    assert AlfworldParams(task_mix="alfworld").settings().task_mix == "alfworld"


@pytest.mark.usefixtures("engine")
async def test_a_generated_ood_curriculum_plays_in_the_unseen_rooms_in_the_mix(
    game_cache: Path,
) -> None:
    chosen = ("pick_and_place_simple", "pick_two_obj_and_place")
    mixed = Settings(
        parts=(Part("train", 2), Part("ood", 4)),
        task_types=chosen,
        task_mix="alfworld",
        max_receptacles=14,
        cache_dir=str(game_cache),
    )
    games = await build(3, mixed)
    assert [g.split for g in games] == ["train"] * 2 + ["ood"] * 4
    assert all(g.room in (308, 424) for g in games if g.split == "ood")
    assert all(g.room not in UNSEEN_ROOMS for g in games if g.split == "train")
    ood = Counter(g.task_type for g in games if g.split == "ood")
    assert ood == Counter(mix_counts(chosen, 4))
