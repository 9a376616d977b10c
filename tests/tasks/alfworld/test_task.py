"""The alfworld task with its scripted players: who wins, what is counted, what is carried."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from cogarch.core.affordances import split_input
from cogarch.core.records import TrialOutput
from cogarch.memory.reflexion import HEADER, ReflexionMemory
from cogarch.tasks.alfworld.curriculum import SEED_SPAN
from cogarch.tasks.alfworld.records import AlfworldPayload
from cogarch.tasks.alfworld.wheel import TASK_TYPES
from cogarch.tasks.registry import build_task
from cogarch.workspace import Agent
from tests.tasks.alfworld.conftest import (
    SEEN_KITCHEN,
    SMALL_SEEN,
    SMALL_UNSEEN,
    UNSEEN_KITCHEN,
    player_model,
    trial_context,
)

pytestmark = pytest.mark.usefixtures("engine")

EVERY_TYPE = {
    "curriculum": [{"split": "train", "games": 6}, {"split": "ood", "games": 6}],
    "rooms": [*SMALL_SEEN, SEEN_KITCHEN, *SMALL_UNSEEN, UNSEEN_KITCHEN],
}
SMALL = {
    "curriculum": [{"split": "train", "games": 1}, {"split": "ood", "games": 1}],
    "rooms": SMALL_SEEN + SMALL_UNSEEN,
}


async def play(
    cache: Path, player: str, params: dict[str, Any], **context: Any
) -> tuple[TrialOutput, AlfworldPayload]:
    task = build_task("alfworld", {**params, "cache_dir": str(cache)})
    out = await task.run_trial(trial_context(player_model(player), **context))
    assert isinstance(out.payload, AlfworldPayload)
    return out, out.payload


async def test_the_oracle_wins_every_game_of_every_type_on_seen_and_unseen_rooms(
    game_cache: Path,
) -> None:
    out, payload = await play(game_cache, "oracle", EVERY_TYPE)

    played = Counter((g.split, g.task_type) for g in payload.games)
    assert played == Counter({(s, t): 1 for s in ("train", "ood") for t in TASK_TYPES})
    assert all(g.won for g in payload.games)
    assert [g.actions for g in payload.games] == [g.plan_length for g in payload.games]
    assert all(g.inadmissible_actions == 0 and g.repeated_actions == 0 for g in payload.games)
    unseen = {g.room for g in payload.games if g.split == "ood"}
    assert unseen <= {*SMALL_UNSEEN, UNSEEN_KITCHEN}
    metrics = out.evaluation.model_dump()
    assert metrics["success_rate"] == 1.0 and metrics["won"] == 12
    assert metrics["success_by_split"] == {"ood": 1.0, "train": 1.0}
    assert metrics["success_by_task_type"] == {t: 1.0 for t in sorted(TASK_TYPES)}
    assert metrics["learning_curve"] == [1.0] * 12
    assert metrics["actions_per_won_game"] == metrics["plan_length_per_won_game"]
    # the trial file holds, per game, what a reader needs
    first = out.payload.model_dump()["games"][0]
    assert {"room", "task_type", "split", "goal", "won", "actions", "transcript"} <= set(first)
    assert first["transcript"][0]["observation"].endswith(f"Your task is to: {first['goal']}.")
    assert first["transcript"][0]["admissible"]


async def test_the_hallucinating_player_wins_nothing_and_every_action_is_inadmissible(
    game_cache: Path,
) -> None:
    out, payload = await play(game_cache, "hallucinating", {**SMALL, "max_steps": 8})

    assert not any(g.won for g in payload.games)
    assert all(g.actions == 8 == g.inadmissible_actions for g in payload.games)
    for game in payload.games:
        assert all(s.feedback == "Nothing happens." for s in game.transcript)
        assert all(s.action not in s.admissible for s in game.transcript)
    assert out.evaluation.model_dump()["inadmissible_rate"] == 1.0
    assert out.evaluation.model_dump()["success_rate"] == 0.0


async def test_a_silent_player_plays_to_the_step_limit_and_the_trial_completes(
    game_cache: Path,
) -> None:
    out, payload = await play(game_cache, "silent", {**SMALL, "max_steps": 6})

    assert [g.actions for g in payload.games] == [6, 6]
    assert all(not g.won and g.inadmissible_actions == 6 for g in payload.games)
    assert all(s.action == "" and s.reply == "" for g in payload.games for s in g.transcript)
    assert len(out.turns) == 12
    assert out.evaluation.model_dump()["actions_per_won_game"] is None


async def test_the_random_player_only_takes_admissible_actions(game_cache: Path) -> None:
    _, payload = await play(game_cache, "random", {**SMALL, "max_steps": 10})

    for game in payload.games:
        assert all(s.action in s.admissible for s in game.transcript)
        assert game.model_calls == game.actions
        assert game.prompt_tokens > 0


async def test_held_out_games_are_on_seen_rooms_with_seeds_train_never_draws(
    game_cache: Path,
) -> None:
    params = {
        "curriculum": [{"split": "train", "games": 1}, {"split": "id", "games": 1}],
        "rooms": SMALL_SEEN,
        "max_steps": 1,
    }
    _, payload = await play(game_cache, "silent", params)
    train, held_out = payload.games
    assert {train.split, held_out.split} == {"train", "id"}
    assert train.room in SMALL_SEEN and held_out.room in SMALL_SEEN
    assert train.seed is not None and train.seed < SEED_SPAN
    assert held_out.seed is not None and held_out.seed >= SEED_SPAN


async def test_the_same_seed_plays_the_same_games_and_another_seed_others(
    game_cache: Path,
) -> None:
    params = {**SMALL, "max_steps": 2}
    _, once = await play(game_cache, "silent", params, seed=7)
    _, again = await play(game_cache, "silent", params, seed=7)
    _, other = await play(game_cache, "silent", params, seed=12)

    def names(p: AlfworldPayload) -> list[str]:
        return [g.game for g in p.games]

    assert names(once) == names(again)
    assert names(once) != names(other)
    assert [g.goal for g in once.games] == [g.goal for g in again.games]


async def test_memory_carries_lessons_from_game_to_game_but_never_to_another_trial(
    game_cache: Path,
) -> None:
    params = {"curriculum": [{"split": "train", "games": 2}], "rooms": SMALL_SEEN, "max_steps": 3}
    task = build_task("alfworld", {**params, "cache_dir": str(game_cache)})
    calls: list[Any] = []
    built: list[Agent] = []
    model = player_model("hallucinating", calls=calls)

    await task.run_trial(trial_context(model, agent="alfworld_reflexion", built=built))
    game_turns = [c for c in calls if split_input(c[-1][1]).actions is not None]
    first_game, second_game = game_turns[:3], game_turns[3:]
    assert all(HEADER not in c[0][1] for c in first_game)
    assert all(HEADER in c[0][1] for c in second_game)
    memory = built[0].memory["reflexion"]
    assert isinstance(memory, ReflexionMemory) and len(memory.reflections) == 2

    calls.clear()
    await task.run_trial(trial_context(model, agent="alfworld_reflexion", trial=1, built=built))
    assert HEADER not in calls[0][0][1]  # a new trial starts from a fresh agent


async def test_a_won_game_writes_no_reflection(game_cache: Path) -> None:
    built: list[Agent] = []
    await play(game_cache, "oracle", SMALL, agent="alfworld_reflexion", built=built)
    memory = built[0].memory["reflexion"]
    assert isinstance(memory, ReflexionMemory) and memory.reflections == []


async def test_an_existing_memory_agent_plugs_in_and_keeps_earlier_games(
    game_cache: Path,
) -> None:
    params = {"curriculum": [{"split": "train", "games": 2}], "rooms": SMALL_SEEN, "max_steps": 2}
    task = build_task("alfworld", {**params, "cache_dir": str(game_cache)})
    calls: list[Any] = []
    built: list[Agent] = []
    model = player_model("random", calls=calls)
    context = trial_context(model, agent="raw_turns", built=built, params={"embedder": "hash"})

    out = await task.run_trial(context)
    assert len(out.turns) == 4
    # before the last turn of the second game, memory held every earlier turn, the first
    # game's included, and the prompt showed some of them
    memory = built[0].memory["turns"]
    assert len(memory.store) == 6  # type: ignore[attr-defined]
    assert built[0].workspace.episode == 2 and len(built[0].workspace.turns) == 4
    assert any(out.turns[0].reply in text for _, text in calls[-1][:1])
