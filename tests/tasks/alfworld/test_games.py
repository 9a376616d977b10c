"""Making games: pure problems, the planner in its own process, the cache, official games."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from cogarch.errors import ConfigError
from cogarch.tasks.alfworld import games as games_mod
from cogarch.tasks.alfworld.cache import GameCache
from cogarch.tasks.alfworld.engine import game_data
from cogarch.tasks.alfworld.gamefile import GameFileError
from cogarch.tasks.alfworld.games import generated_game
from cogarch.tasks.alfworld.generator import (
    GameSpec,
    InfeasibleGameError,
    feasible,
    write_problem,
)
from cogarch.tasks.alfworld.official import load_official, official_games
from cogarch.tasks.alfworld.planner import (
    PlanRequest,
    Solution,
    UnsolvableGameError,
    solve,
    solve_many,
)
from cogarch.tasks.alfworld.wheel import TASK_TYPES, all_rooms, goals
from cogarch.tasks.registry import build_task
from tests.tasks.alfworld.conftest import SMALL_UNSEEN, player_model, trial_context

pytestmark = pytest.mark.usefixtures("engine")

LOOK = GameSpec(SMALL_UNSEEN[1], "look_at_obj_in_light", 3)


def test_a_problem_is_a_pure_function_of_its_room_type_and_seed() -> None:
    one, again, other = (
        write_problem(LOOK),
        write_problem(LOOK),
        write_problem(GameSpec(304, LOOK.task_type, 4)),
    )
    assert one == again
    assert one.pddl != other.pddl
    templates = goals()[LOOK.task_type].templates
    assert any(
        one.goal == t.format(obj=one.target.obj.lower(), toggle=one.target.toggle.lower())
        for t in templates
    )
    assert "_bar_" in one.pddl and "|" not in one.pddl  # ids mangled as ALFWorld mangles them


def test_rooms_host_the_task_types_as_alfred_allows() -> None:
    hosted = Counter(t for n in all_rooms() for t in TASK_TYPES if feasible(n, t))
    assert hosted["pick_and_place_simple"] == hosted["pick_two_obj_and_place"] == 120
    assert hosted["pick_heat_then_place_in_recep"] == hosted["pick_cool_then_place_in_recep"] == 30
    assert 50 <= hosted["look_at_obj_in_light"] <= 55
    assert 55 <= hosted["pick_clean_then_place_in_recep"] <= 62


def test_a_room_that_cannot_host_a_type_and_an_unknown_type_are_refused() -> None:
    with pytest.raises(InfeasibleGameError, match="cannot host pick_heat"):
        write_problem(GameSpec(304, "pick_heat_then_place_in_recep", 1))
    with pytest.raises(ConfigError, match="unknown ALFWorld task type"):
        GameSpec(304, "pick_and_juggle", 1)


async def test_a_malformed_problem_ends_only_the_planners_process() -> None:
    problem = write_problem(LOOK)
    doubled = problem.pddl.replace("(:objects", "(:objects\n    agent1 - agent", 1)
    with pytest.raises(UnsolvableGameError, match="process ended"):
        await solve(game_data(doubled, problem.goal), label="doubled")
    assert (await solve(game_data(problem.pddl, problem.goal))).walkthrough  # still here


async def test_games_after_one_that_ends_the_planners_process_are_checked_in_a_new_one() -> None:
    good = write_problem(LOOK)
    other = write_problem(GameSpec(SMALL_UNSEEN[0], "pick_and_place_simple", 1))
    doubled = good.pddl.replace("(:objects", "(:objects\n    agent1 - agent", 1)
    outcomes = await solve_many(
        [
            PlanRequest("good", game_data(good.pddl, good.goal)),
            PlanRequest("doubled", game_data(doubled, good.goal)),
            PlanRequest("other", game_data(other.pddl, other.goal)),
        ]
    )
    assert isinstance(outcomes[0], Solution) and isinstance(outcomes[2], Solution)
    assert isinstance(outcomes[1], UnsolvableGameError) and "on doubled" in str(outcomes[1])


async def test_an_unsolvable_problem_is_refused_and_remembered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    problem = write_problem(LOOK)
    lampless = problem.pddl.replace("(toggleable ", "(pickupable ")
    monkeypatch.setattr(
        games_mod,
        "write_problem",
        lambda spec: type(problem)(spec, problem.goal, problem.target, lampless, lampless),
    )
    cache = GameCache(tmp_path)
    with pytest.raises(UnsolvableGameError, match="not solvable"):
        await generated_game(LOOK, "ood", cache)
    entry = cache.get(LOOK)
    assert entry is not None and entry.status == "unsolvable"

    async def no_planner(*args: object, **kwargs: object) -> None:
        raise AssertionError("an unsolvable game was planned again")

    monkeypatch.setattr(games_mod, "solve_many", no_planner)
    with pytest.raises(UnsolvableGameError):
        await generated_game(LOOK, "ood", cache)


async def test_a_damaged_cache_entry_is_set_aside_and_the_game_made_again(
    tmp_path: Path, game_cache: Path
) -> None:
    made = await generated_game(LOOK, "ood", GameCache(game_cache))
    cache = GameCache(tmp_path)
    path = cache.path(LOOK)
    path.write_text('{"room": 304, "task_t')
    again = await generated_game(LOOK, "ood", cache)
    assert again == made
    assert path.with_name(path.name + ".corrupt").read_text().startswith('{"room"')

    other = GameSpec(LOOK.room, LOOK.task_type, LOOK.seed + 1)
    shutil.copy(path, cache.path(other))  # an entry filed under another game's name
    assert cache.get(other) is None
    assert cache.path(other).with_name(cache.path(other).name + ".corrupt").exists()
    assert cache.get(LOOK) is not None

    path.unlink()
    path.mkdir()  # a folder where the entry should be
    assert cache.get(LOOK) is None and not path.exists()
    assert path.with_name(path.name + ".corrupt.1").is_dir()


async def test_official_games_in_alfworld_downloads_layout_play_instead(
    tmp_path: Path, game_cache: Path
) -> None:
    game = await generated_game(LOOK, "ood", GameCache(game_cache))
    split = tmp_path / "json_2.1.1" / "valid_unseen"
    data = {**game.data(), "solvable": True}
    for task_dir, keep in [
        (f"look_at_obj_in_light-Book-None-DeskLamp-{LOOK.room}", True),
        (f"pick_and_place_with_movable_recep-Book-Box-Desk-{LOOK.room}", False),
    ]:
        trial = split / task_dir / "trial_T0"
        trial.mkdir(parents=True)
        (trial / "game.tw-pddl").write_text(json.dumps(data if keep else {**data, "x": 1}))
        (trial / "traj_data.json").write_text(
            json.dumps({"scene": {"floor_plan": f"FloorPlan{LOOK.room}"}})
        )
    params = {"curriculum": [{"split": "ood", "games": 1}], "official": str(tmp_path)}
    task = build_task("alfworld", params)
    out = await task.run_trial(trial_context(player_model("oracle")))
    (played,) = out.payload.model_dump()["games"]
    assert played["source"] == "official" and played["won"] is True
    assert played["room"] == LOOK.room and played["goal"] == game.goal
    assert played["game"].endswith(
        f"look_at_obj_in_light-Book-None-DeskLamp-{LOOK.room}/trial_T0/game.tw-pddl"
    )

    with pytest.raises(ConfigError, match="no valid_seen folder"):
        build_task("alfworld", {**params, "curriculum": [{"split": "id", "games": 1}]})
    with pytest.raises(ConfigError, match="fewer than the 2 asked"):
        await build_task(
            "alfworld", {**params, "curriculum": [{"split": "ood", "games": 2}]}
        ).run_trial(trial_context(player_model("oracle")))


async def test_trials_that_need_the_same_game_at_once_plan_it_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    planned: list[str] = []
    real = games_mod.solve_many

    async def counted(requests: Any, **kwargs: Any) -> Any:
        planned.extend(r.label for r in requests)
        return await real(requests, **kwargs)

    monkeypatch.setattr(games_mod, "solve_many", counted)
    cache = GameCache(tmp_path)
    made = await asyncio.gather(*(generated_game(LOOK, "ood", cache) for _ in range(3)))
    assert planned == [LOOK.key] and made[0] == made[1] == made[2]
    assert games_mod._MAKING == {}


def doubled(pddl: str) -> str:
    return pddl.replace("(:objects", "(:objects\n    agent1 - agent", 1)


@pytest.mark.parametrize(
    "damage",
    ["empty problem", "duplicate object", "fifo", "link to /dev/zero", "not an object"],
)
async def test_a_cache_entry_that_cannot_be_played_is_set_aside_and_made_again(
    tmp_path: Path, game_cache: Path, damage: str
) -> None:
    made = await generated_game(LOOK, "ood", GameCache(game_cache))
    cache = GameCache(tmp_path)
    path = cache.path(LOOK)
    path.parent.mkdir(parents=True, exist_ok=True)
    entry = json.loads(GameCache(game_cache).path(LOOK).read_text())
    if damage == "fifo":
        os.mkfifo(path)
    elif damage == "link to /dev/zero":
        path.symlink_to("/dev/zero")
    elif damage == "not an object":
        path.write_text("[1, 2]")
    else:
        problem = "" if damage == "empty problem" else doubled(entry["pddl_problem"])
        path.write_text(json.dumps({**entry, "pddl_problem": problem}))
    again = await asyncio.wait_for(generated_game(LOOK, "ood", cache), 300)
    assert again == made
    assert os.path.lexists(path.with_name(path.name + ".corrupt"))
    assert cache.get(LOOK) is not None  # made again and cached


async def test_official_games_that_are_not_games_are_skipped_naming_their_file(
    tmp_path: Path, game_cache: Path
) -> None:
    game = await generated_game(LOOK, "ood", GameCache(game_cache))
    good = {**game.data(), "solvable": True}
    split = tmp_path / "valid_unseen"
    bad: dict[str, Any] = {
        "list": [good],
        "noproblem": {k: v for k, v in good.items() if k != "pddl_problem"},
        "emptyproblem": {**good, "pddl_problem": " "},
        "fifo": None,
        "zero": None,
    }
    for n, name in enumerate([*bad, "good"]):
        trial = split / f"look_at_obj_in_light-{name}-None-DeskLamp-{LOOK.room + n}" / "t0"
        trial.mkdir(parents=True)
        path = trial / "game.tw-pddl"
        if name == "fifo":
            os.mkfifo(path)
            os.mkfifo(trial / "traj_data.json")
        elif name == "zero":
            path.symlink_to("/dev/zero")
        else:
            path.write_text(json.dumps(bad.get(name, good)))
    for entry in official_games(str(tmp_path), "ood"):
        if "-good-" in str(entry.path):
            continue
        with pytest.raises(GameFileError, match=re.escape(str(entry.path))):
            await asyncio.wait_for(load_official(entry), 60)
    params = {"curriculum": [{"split": "ood", "games": 1}], "official": str(tmp_path)}
    out = await asyncio.wait_for(
        build_task("alfworld", params).run_trial(trial_context(player_model("oracle"))), 300
    )
    (played,) = out.payload.model_dump()["games"]
    assert "-good-" in played["game"] and played["won"]


async def test_a_planner_out_of_time_is_blamed_on_the_timeout_not_the_rooms(
    tmp_path: Path,
) -> None:
    params = {
        "curriculum": [{"split": "ood", "games": 1}],
        "rooms": [LOOK.room],
        "task_types": [LOOK.task_type],
        "cache_dir": str(tmp_path),
        "plan_timeout_s": 0.001,
    }
    task = build_task("alfworld", params)
    with pytest.raises(ConfigError, match=r"plan_timeout_s = 0\.001 s.*raise task\.plan_timeout_s"):
        await task.run_trial(trial_context(player_model("oracle")))
    assert not list(tmp_path.glob("*.json"))  # a timeout is not remembered as unsolvable


def test_a_cache_dir_that_is_a_file_is_a_config_error(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    for where in ("file", "file/below"):
        with pytest.raises(ConfigError, match="cache_dir"):
            build_task("alfworld", {"cache_dir": str(tmp_path / where)})
