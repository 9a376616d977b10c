"""The Episodex specialists that drive memory open memory-operation spans, as every other
memory-driving specialist does: the game's draw and consolidation are searches, each belief,
action and lesson a record created, a recall a search of both modules."""

from __future__ import annotations

from typing import Any

from cogarch.core.memory import EpisodeEnd
from tests.spans import Spans, attrs, recording
from tests.workspace.episodex import Scripted, episodex
from tests.workspace.episodex.house import apple_house, mug_house, play, play_game

MEMORY_OPS = ("search_memory", "create_memory", "update_memory")


def memory_ops(spans: Spans, step: str, turn: int = 0) -> list[tuple[str, str, Any]]:
    """``(operation, store, record count)`` of the memory spans under the ``turn``-th span of
    ``step``, in order."""
    found = spans.named(f"step {step}")[turn]
    return [
        (s.name, attrs(s)["gen_ai.memory.store.id"], attrs(s).get("gen_ai.memory.record.count"))
        for s in spans.children(found)
        if s.name in MEMORY_OPS
    ]


async def test_memory_work_in_a_game_is_traced_as_memory_operations() -> None:
    brain = Scripted()
    agent = episodex(brain)
    await play(agent, [apple_house()])  # won: one past episode and concepts for the next game
    concepts = agent.memory["conceptual"]
    brain.scripts["router"] = ['{"next": "retrieve_memory"}', '{"next": "learning"}']
    house = mug_house()
    with recording() as spans:
        await agent.respond(house.prompt(house.start()))
        await agent.end_episode(EpisodeEnd(1, False, label=house.task, steps=1))

    k = len(concepts.games[1].retrieved)  # type: ignore[attr-defined]
    assert k >= 1
    assert memory_ops(spans, "conscious") == [
        ("search_memory", "episodic", 1),  # the game begins: ep0 drawn
        ("search_memory", "conceptual", k),  # concepts clustered, every concept retrieved
        ("create_memory", "episodic", 1),  # the belief state
        ("create_memory", "conceptual", 1),  # kept for the abstraction
    ]
    assert memory_ops(spans, "retrieve_memory") == [
        ("search_memory", "episodic", 1),
        ("search_memory", "conceptual", k),
    ]
    assert memory_ops(spans, "record_long_term_memory") == [("create_memory", "conceptual", 1)]
    assert memory_ops(spans, "motor") == [("create_memory", "episodic", 1)]
    kinds = {attrs(s)["cogarch.memory.kind"] for s in spans.all if s.name in MEMORY_OPS}
    assert kinds == {"episodic", "conceptual"}
    ended = [attrs(s)["gen_ai.memory.store.id"] for s in spans.named("update_memory")]
    assert ended == ["episodic", "conceptual"]  # the end of the game, one update per module
    assert not any("gen_ai.memory.records" in attrs(s) for s in spans.all)  # not opted in


async def test_recalled_entries_are_recorded_only_when_contents_are_opted_in() -> None:
    brain = Scripted()
    agent = episodex(brain)
    await play(agent, [apple_house()])
    brain.scripts["router"] = ['{"next": "retrieve_memory"}']
    house = mug_house()
    with recording(capture_content=True) as spans:
        await play_game(agent, house)

    searched = spans.children(spans.named("step retrieve_memory")[0])
    episodes = attrs(searched[0])
    assert episodes["gen_ai.memory.query.text"] == house.task
    assert '"id": "ep0"' in str(episodes["gen_ai.memory.records"])
