"""A game session on the engine, and the memoised parses that speed it up without changing it."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from cogarch.tasks.alfworld import speedup
from cogarch.tasks.alfworld.cache import GameCache
from cogarch.tasks.alfworld.games import Game, generated_game
from cogarch.tasks.alfworld.generator import GameSpec
from cogarch.tasks.alfworld.session import NOTHING_HAPPENS, GameSession, SessionError
from tests.tasks.alfworld.conftest import SMALL_SEEN

pytestmark = pytest.mark.usefixtures("engine")


@pytest.fixture
async def game(game_cache: Path) -> Game:
    spec = GameSpec(SMALL_SEEN[0], "pick_two_obj_and_place", 5)
    return await generated_game(spec, "train", GameCache(game_cache))


async def test_the_first_observation_states_the_goal_and_the_walkthrough_wins(game: Game) -> None:
    session = GameSession(game)
    first = await session.reset()
    assert first.startswith("-= Welcome to TextWorld, ALFRED! =-")
    assert first.endswith(f"Your task is to: {game.goal}.")
    assert {"look", "inventory"} <= set(session.admissible)
    for action in game.walkthrough:
        result = await session.step(action)
        assert not result.inadmissible
    assert result.won and result.done and session.steps == game.plan_length
    with pytest.raises(SessionError, match="the game is over"):
        await session.step("look")
    session.close()
    session.close()  # closing twice is harmless
    assert await session.reset() == first  # a closed session can start the game again


async def test_an_inadmissible_action_changes_nothing_and_counts(game: Game) -> None:
    session = GameSession(game, max_steps=3)
    with pytest.raises(SessionError, match="reset"):
        await session.step("look")
    await session.reset()
    allowed = session.admissible
    results = [await session.step("fly to the moon") for _ in range(3)]
    assert all(r.observation == NOTHING_HAPPENS and r.inadmissible for r in results)
    assert all(r.admissible == allowed for r in results)
    assert [r.repeated for r in results] == [False, False, True]
    assert session.done and not session.won


async def test_an_admissible_action_is_matched_whatever_its_case_and_spacing(game: Game) -> None:
    session = GameSession(game)
    await session.reset()
    command = next(a for a in session.admissible if a.startswith("go to"))
    result = await session.step("  " + command.upper().replace(" ", "  ") + " ")
    assert not result.inadmissible and result.observation.startswith("You arrive at")


async def test_memoised_parses_give_the_same_game_as_the_stock_engine(game: Game) -> None:
    async def trace(memoise: bool) -> list[tuple[str, tuple[str, ...]]]:
        session = GameSession(game, max_steps=12, memoise=memoise)
        seen = [(await session.reset(), session.admissible)]
        rng = random.Random(3)
        while not session.done:
            result = await session.step(rng.choice(session.admissible))
            seen.append((result.observation, result.admissible))
        return seen

    speedup.uninstall_parse_cache()
    try:
        stock = await trace(memoise=False)
        assert not speedup.parse_cache_installed()
    finally:
        speedup.install_parse_cache()
    assert await trace(memoise=True) == stock
