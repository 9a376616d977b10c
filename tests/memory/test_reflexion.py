"""Reflexion memory: a lesson after each lost episode, none after a won one."""

from __future__ import annotations

from typing import Any

import pytest

from cogarch.core.memory import EpisodeEnd, MemoryContext, Move, Trajectory
from cogarch.errors import ConfigError
from cogarch.memory.reflexion.module import HEADER, ReflexionMemory, ReflexionParams
from cogarch.models import FunctionModel, Model
from cogarch.models.fakes import CallInfo


def context(seen: list[Any]) -> MemoryContext:
    def reply(messages: Any, info: CallInfo) -> str:
        seen.append(messages)
        return f"  Plan: open the fridge first ({len(seen)}).  "

    model = Model(FunctionModel(reply), provider="m", model="m", fake=True)
    return MemoryContext(model=lambda name: model, seed=3, caller="memory:reflexion")


def lost(n: int) -> EpisodeEnd:
    lived = Trajectory("You are in a room.", (Move("look", "OK"),))
    return EpisodeEnd(episode=n, won=False, label=f"task {n}", trajectory=lived)


async def test_a_lost_episode_writes_a_lesson_from_its_trajectory_and_a_won_one_none() -> None:
    seen: list[Any] = []
    memory = ReflexionMemory()
    memory.use_provider("m")
    await memory.end_episode(EpisodeEnd(episode=0, won=True, label="task 0"), context(seen))
    assert seen == [] and memory.render() == ""
    await memory.end_episode(lost(1), context(seen))
    assert "Task: task 1" in seen[0][-1].content and "> look" in seen[0][-1].content
    assert memory.render() == f"{HEADER}\n- (task 1) Plan: open the fridge first (1)."


async def test_only_the_latest_lessons_are_kept_and_state_round_trips() -> None:
    seen: list[Any] = []
    memory = ReflexionMemory(ReflexionParams(provider="m", max_reflections=2))
    for n in range(3):
        await memory.end_episode(lost(n), context(seen))
    assert [r["episode"] for r in memory.reflections] == [1, 2]
    copy = ReflexionMemory(ReflexionParams(provider="m", max_reflections=2))
    copy.load_state(memory.save_state())
    assert copy.render() == memory.render()
    assert len(memory.render(budget_tokens=12).splitlines()) < 3


async def test_a_module_without_a_provider_says_how_to_give_it_one() -> None:
    with pytest.raises(ConfigError, match="set 'provider'"):
        await ReflexionMemory().end_episode(lost(0), context([]))


async def test_each_episode_records_the_lessons_it_carried_and_the_one_it_wrote() -> None:
    memory = ReflexionMemory(ReflexionParams(provider="m", max_reflections=2))
    seen: list[Any] = []
    await memory.end_episode(lost(0), context(seen))
    await memory.end_episode(EpisodeEnd(episode=1, won=True, label="task 1"), context(seen))
    await memory.end_episode(lost(2), context(seen))

    assert memory.episode_activity(0) == {
        "carried": [],
        "reflection": "Plan: open the fridge first (1).",
    }
    assert memory.episode_activity(1) == {"carried": [0], "reflection": None}
    assert memory.episode_activity(2) == {
        "carried": [0],
        "reflection": "Plan: open the fridge first (2).",
    }
    assert memory.episode_activity(3) is None
    copy = ReflexionMemory(ReflexionParams(provider="m", max_reflections=2))
    copy.load_state(memory.save_state())
    assert copy.episode_activity(2) == memory.episode_activity(2)
    copy.activity[2]["carried"].append(9)  # the copy shares nothing mutable
    assert memory.episode_activity(2) == {
        "carried": [0],
        "reflection": "Plan: open the fridge first (2).",
    }
