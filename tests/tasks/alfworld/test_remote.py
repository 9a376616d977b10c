"""The engine in a process of its own: a game that ends, breaks or hangs it fails alone."""

from __future__ import annotations

import asyncio
import json
import sys
import time
from pathlib import Path

import pytest

from cogarch.tasks.alfworld import remote
from cogarch.tasks.alfworld.cache import GameCache
from cogarch.tasks.alfworld.games import Game, generated_game
from cogarch.tasks.alfworld.generator import GameSpec, write_problem
from cogarch.tasks.alfworld.remote import EngineFailure
from cogarch.tasks.alfworld.session import GameSession
from cogarch.tasks.registry import build_task
from tests.tasks.alfworld.conftest import SMALL_UNSEEN, player_model, trial_context

pytestmark = pytest.mark.usefixtures("engine")

LOOK = GameSpec(SMALL_UNSEEN[1], "look_at_obj_in_light", 3)
GAME = {
    "room": LOOK.room,
    "task_type": LOOK.task_type,
    "split": "ood",
    "seed": LOOK.seed,
    "goal": "look at a book under the desklamp",
    "walkthrough": ["look"],
}


def doubled(pddl: str) -> str:
    """The problem with a duplicate object (fast-downward ends its process on it)."""
    return pddl.replace("(:objects", "(:objects\n    agent1 - agent", 1)


def official(root: Path, name: str, data: object, room: int = LOOK.room) -> Path:
    trial = root / "json_2.1.1" / "valid_unseen" / f"look_at_obj_in_light-{name}-{room}" / "t0"
    trial.mkdir(parents=True)
    path = trial / "game.tw-pddl"
    path.write_text(json.dumps(data))
    return path


async def test_a_game_that_ends_the_engines_process_is_a_failed_game_naming_its_file(
    tmp_path: Path, game_cache: Path
) -> None:
    game = await generated_game(LOOK, "ood", GameCache(game_cache))
    good = {**game.data(), "solvable": True}
    bad = official(tmp_path, "Bad", {**good, "pddl_problem": doubled(game.pddl_problem)}, 999)
    official(tmp_path, "Good", good)
    params = {"curriculum": [{"split": "ood", "games": 2}], "official": str(tmp_path)}
    task = build_task("alfworld", params)
    out = await task.run_trial(trial_context(player_model("oracle")))
    played = {g.game: g for g in out.payload.games}  # type: ignore[attr-defined]
    failed = played[str(bad)]
    assert not failed.won and failed.error is not None
    assert str(bad) in failed.error and "duplicate object" in failed.error
    (other,) = [g for name, g in played.items() if name != str(bad)]
    assert other.won and other.error is None  # the run went on


async def test_a_problem_the_engine_raises_stopiteration_on_fails_the_game_only() -> None:
    problem = write_problem(LOOK)
    empty = Game(
        room=LOOK.room,
        task_type=LOOK.task_type,
        split="ood",
        seed=LOOK.seed,
        goal=problem.goal,
        pddl_problem="",
        walkthrough=("look",),
    )
    session = GameSession(empty)
    with pytest.raises(EngineFailure, match=rf"{empty.name}.*StopIteration"):
        await session.reset()
    session.close()
    fine = GameSession(empty.model_copy(update={"pddl_problem": problem.pddl}))
    assert "Your task is to" in await fine.reset()
    fine.close()


async def test_an_engine_past_its_deadline_is_killed_and_the_game_fails(
    game_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = await generated_game(LOOK, "ood", GameCache(game_cache))
    monkeypatch.setattr(remote, "LOAD_TIMEOUT_S", 0.01)
    session = GameSession(game)
    with pytest.raises(EngineFailure, match=r"took longer than 0\.01 s"):
        await session.reset()
    monkeypatch.undo()
    assert (await session.reset()).startswith("-= Welcome")
    monkeypatch.setattr(remote, "STEP_TIMEOUT_S", 0.0)
    with pytest.raises(EngineFailure, match=rf"{game.name} \(step\).*longer than 0 s"):
        await session.step(game.walkthrough[0])
    session.close()


async def test_games_played_one_after_another_reuse_one_engine_process(
    game_cache: Path,
) -> None:
    game = await generated_game(LOOK, "ood", GameCache(game_cache))
    pids = set()
    for _ in range(3):
        session = GameSession(game)
        await session.reset()
        assert not (await session.step(game.walkthrough[0])).inadmissible
        pids.add(session._env._child.proc.pid)
        session.close()
    assert len(pids) == 1
    assert len(remote._IDLE) <= remote.max_idle()
    remote.shutdown()
    assert not remote._IDLE


async def test_engine_and_planner_processes_never_import_from_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    marker = tmp_path / "imported"
    (tmp_path / "json.py").write_text(f"open({str(marker)!r}, 'w').close()\nraise SystemExit(3)\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))  # as `python -m` started here would have it
    remote.shutdown()  # new engine processes, started here
    made = await generated_game(LOOK, "ood", GameCache(tmp_path / "cache"))
    session = GameSession(made)
    assert "Your task is to" in await session.reset()
    session.close()
    remote.shutdown()
    assert not marker.exists()


def hanging(monkeypatch: pytest.MonkeyPatch) -> None:
    """Engine processes that never answer (an engine looping on its game)."""
    monkeypatch.setattr(
        remote,
        "child_command",
        lambda module: [sys.executable, "-c", "import time; time.sleep(60)"],
    )
    remote.shutdown()


async def test_an_engine_that_never_answers_fails_its_game_at_the_deadline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    hanging(monkeypatch)
    monkeypatch.setattr(remote, "LOAD_TIMEOUT_S", 0.5)
    session = GameSession(Game.model_validate({**GAME, "pddl_problem": "(define)"}))
    started = time.monotonic()
    with pytest.raises(EngineFailure, match=r"\(load\): it took longer than 0\.5 s"):
        await session.reset()
    assert time.monotonic() - started < 30
    assert not remote._LIVE  # killed


async def test_a_cancelled_game_kills_its_engine_process(monkeypatch: pytest.MonkeyPatch) -> None:
    hanging(monkeypatch)
    session = GameSession(Game.model_validate({**GAME, "pddl_problem": "(define)"}))
    playing = asyncio.ensure_future(session.reset())
    while not remote._LIVE:
        await asyncio.sleep(0.05)
    (child,) = list(remote._LIVE)
    playing.cancel()
    with pytest.raises(asyncio.CancelledError):
        await playing
    session.close()  # as the task's curriculum does when a trial is cancelled
    assert child.proc.wait(timeout=10) is not None
