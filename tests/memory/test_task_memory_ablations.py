"""The TME paper's ablations as task-graph parameters: random intents, and a flat log."""

from __future__ import annotations

from cogarch.core.memory import MemoryContext
from cogarch.memory.task_graph.module import TaskMemory
from tests.memory.test_task_memory import TRIP, classifier


async def play(mem: TaskMemory, seed: int | None) -> list[list[str]]:
    model = classifier(TRIP)
    context = MemoryContext(model=lambda name: model, seed=seed, caller="task_tracker")
    for turn, text in enumerate(TRIP, start=1):
        await mem.observe(text, turn, context, provider="fake")
    return [[i.intent for i in r.intents] for r in mem.reports]


async def test_random_intents_are_drawn_with_the_trial_seed() -> None:
    model_intents = await play(TaskMemory(), seed=1)
    random_params = TaskMemory.Params(intents="random")
    first = await play(TaskMemory(random_params), seed=1)
    again = await play(TaskMemory(random_params), seed=1)
    other = await play(TaskMemory(random_params), seed=2)
    assert first == again  # the same trial seed draws the same intents
    assert first != other and first != model_intents
    assert {i for row in first for i in row} <= {"new", "update", "check"}
    mem = TaskMemory(random_params)
    await play(mem, seed=1)
    slots = [i.slot for r in mem.reports for i in r.intents]
    assert slots == [i["slot"] for rows in TRIP.values() for i in rows]  # decomposition kept


async def test_a_flat_module_keeps_a_log_and_no_graph() -> None:
    mem = TaskMemory(TaskMemory.Params(structure="flat"))
    await play(mem, seed=1)
    assert len(mem.graph) == 0 and mem.task_values() is None
    log = mem.render()
    lines = log.splitlines()
    assert lines[0].startswith("Task log")
    assert "turn 2: new destination = Lisbon" in lines
    assert "turn 5: update destination = Porto (replaces Lisbon)" in lines
    assert "turn 6: update rollback destination" in lines
    assert lines[-1] == "turn 8: check all"  # the whole log, oldest first, every turn
    assert mem.private_text() == log
