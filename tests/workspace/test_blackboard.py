"""The workspace's typed fields: what specialists share is a field, not a magic key."""

from __future__ import annotations

import json

import pytest

from cogarch.core.memory import TurnRecord
from cogarch.workspace import Workspace
from tests.workspace import Brain, make_agent


async def test_the_gwt_agent_counts_visits_and_reground_runs_in_typed_fields() -> None:
    brain = Brain(route=("focus", "planner", "responder"))
    agent = make_agent("gwt", brain)
    await agent.respond("Hello?")
    ws = agent.workspace
    assert ws.visits == {
        "perception": 1,
        "conscious": 2,
        "focus": 1,
        "planner": 1,
        "responder": 1,
        "updater": 1,
    }
    assert ws.reground_count == 2  # perception and focus are both reground nodes
    assert ws.broadcasts["conscious"].startswith("visit 2 this turn")
    assert all(not key.startswith("_") for key in ws.broadcasts)
    assert ws.private == {}
    await agent.respond("Again?")
    assert ws.visits["perception"] == 1  # counted per turn
    assert ws.reground_count == 4  # counted over the dialogue
    assert ws.acting is None  # a text-only agent never acted
    earlier = ws.save_state()
    earlier["focus_count"] = earlier.pop("reground_count")  # its name before
    assert Workspace.from_state(earlier).reground_count == 4


async def test_completed_turns_and_private_reasoning_are_typed() -> None:
    agent = make_agent("private_cot", Brain())
    await agent.respond("one")
    await agent.respond("two")
    ws = agent.workspace
    assert [t.index for t in ws.turns] == [1, 2]
    assert ws.turns[0] == TurnRecord(1, "one", ws.dialogue[1].content, "thinking 1")
    assert ws.reasoning == {1: "thinking 1", 2: "thinking 2"}
    assert "thinking 2" in agent.private_state()


@pytest.mark.parametrize("turns", [0, 2])
async def test_the_workspace_state_round_trips_through_json(turns: int) -> None:
    agent = make_agent("gwt", Brain())
    for i in range(turns):
        await agent.respond(f"turn {i}?")
    state = json.loads(json.dumps(agent.workspace.save_state()))
    assert Workspace.from_state(state) == agent.workspace
