"""The memories that learn across games fork into branches that never see each other's games.

A trunk plays two games and is in the middle of a third when it forks into two branches; then
the trunk and each branch finish that game their own way and play one more, in every order.
Each must end exactly as a fresh module that lived through its own history alone, and a fork
must share no game in progress with its trunk (the one part edited in place).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from cogarch.core.memory import EpisodeEnd, MemoryModule
from cogarch.memory.long_term.conceptual import ConceptualMemory
from cogarch.memory.long_term.episodic import EpisodicMemory
from cogarch.memory.reflexion.module import ReflexionMemory
from tests.memory.long_term import test_conceptual as conceptual
from tests.memory.long_term import test_episodic as episodic
from tests.memory.test_reflexion import context as reflexion_context

Play = Callable[[MemoryModule, int, str, bool], Awaitable[None]]


async def play_episodic(module: MemoryModule, episode: int, label: str, won: bool) -> None:
    assert isinstance(module, EpisodicMemory)
    goal = f"put some {label} on desk"
    module.begin_episode(episode, goal, 1 + 2 * episode, episodic.ctx())
    module.write_belief(f"{label} belief of game {episode}", 1 + 2 * episode)
    await module.end_episode(EpisodeEnd(episode, won, label=goal, steps=1), episodic.ctx())


async def play_conceptual(module: MemoryModule, episode: int, label: str, won: bool) -> None:
    assert isinstance(module, ConceptualMemory)
    fake = conceptual.llm()
    ctx = conceptual.context(fake, 5)
    goal = conceptual.TOPICS[episode % len(conceptual.TOPICS)]
    module.begin_episode(episode, goal, ctx)
    module.take_belief(conceptual.belief(episode, 0, f"{label} step towards {goal}"))
    module.note(f"{label} lesson", episode=episode, step=0, turn=1)
    await module.end_episode(EpisodeEnd(episode, won, label=goal, steps=1), ctx)


async def play_reflexion(module: MemoryModule, episode: int, label: str, won: bool) -> None:
    assert isinstance(module, ReflexionMemory)
    info = {"trajectory": f"> {label} action"}
    end = EpisodeEnd(episode, won, label=f"{label} task", info=info)
    await module.end_episode(end, reflexion_context([]))


def build(kind: str) -> MemoryModule:
    if kind == "episodic":
        return episodic.memory(max_episodes=3)
    if kind == "conceptual":
        return conceptual.memory()
    module = ReflexionMemory()
    module.use_provider("m")
    return module


PLAYS: dict[str, Play] = {
    "episodic": play_episodic,
    "conceptual": play_conceptual,
    "reflexion": play_reflexion,
}
History = list[tuple[int, str, bool]]


async def replay(kind: str, history: History) -> MemoryModule:
    fresh = build(kind)
    for episode, label, won in history:
        await PLAYS[kind](fresh, episode, label, won)
    return fresh


def state(module: MemoryModule) -> str:
    return json.dumps(module.save_state(), sort_keys=True)


@pytest.mark.parametrize("kind", sorted(PLAYS))
@pytest.mark.parametrize("order", list(itertools.permutations(["trunk", "left", "right"])))
async def test_games_after_a_fork_stay_where_they_were_played(
    kind: str, order: tuple[str, ...]
) -> None:
    shared: History = [(0, "shared", True), (1, "shared", False)]
    trunk = await replay(kind, shared)
    modules: dict[str, MemoryModule] = {"trunk": trunk}
    modules["left"], modules["right"] = trunk.fork(), trunk.fork()
    histories = {name: list(shared) for name in modules}
    for name in order:
        for episode, won in ((2, name != "left"), (3, name == "right")):
            await PLAYS[kind](modules[name], episode, name, won)
            histories[name].append((episode, name, won))
    for name, module in modules.items():
        assert state(module) == state(await replay(kind, histories[name])), name


@pytest.mark.parametrize("kind", ["episodic", "conceptual"])
async def test_a_game_in_progress_is_not_shared_with_a_fork(kind: str) -> None:
    trunk = await replay(kind, [(0, "shared", True)])
    if isinstance(trunk, EpisodicMemory):
        trunk.begin_episode(1, "put some pen on desk", 3, episodic.ctx())
    else:
        assert isinstance(trunk, ConceptualMemory)
        trunk.begin_episode(1, "put some pen on desk", conceptual.context(conceptual.llm(), 5))
    before = state(trunk)
    branch = trunk.fork()
    assert branch.games[-1] is not trunk.games[-1]  # type: ignore[attr-defined]
    assert branch.games[0] is trunk.games[0]  # type: ignore[attr-defined]
    end = EpisodeEnd(1, True, label="put some pen on desk", steps=1)
    ctx: Any = episodic.ctx() if kind == "episodic" else conceptual.context(conceptual.llm(), 5)
    await branch.end_episode(end, ctx)
    assert state(trunk) == before
