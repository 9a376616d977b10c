"""Forking: a branch can go its own way without touching the original, memory included."""

from __future__ import annotations

import dataclasses
import itertools
from typing import Any

import pytest

from cogarch.memory import WorkingMemory
from cogarch.workspace import Agent, build_agent, load_agent_spec
from cogarch.workspace.registry import ready_made_agents
from tests.workspace import Brain, make_agent, providers
from tests.workspace.memory_fakes import MemoryBrain

from .libraries import skip_without_its_libraries

BRANCH_EDITS: dict[str, tuple[str, dict[str, Any]]] = {
    "overwrite": ("overwrite_memory", {"new_memory": "## 1. Goals and Plans\n- branch only\n"}),
    "append_delete": ("delete_from_memory", {"section_title": "Active Notes", "lines": ["note 1"]}),
    "patch_replace": (
        "replace_in_memory",
        {"old_string": "note 1", "new_string": "branch note", "explanation": "edit"},
    ),
}
"""A direct edit of the branch's memory, per strategy."""

IMMUTABLE = (str, bytes, int, float, bool, complex, type(None), frozenset, range, type)


def mutable_objects(root: object) -> dict[int, object]:
    """Every mutable object reachable from ``root`` (containers and objects with state)."""
    found: dict[int, object] = {}
    seen: set[int] = set()
    stack = [root]
    while stack:
        obj = stack.pop()
        if isinstance(obj, IMMUTABLE) or id(obj) in seen:
            continue
        seen.add(id(obj))
        if isinstance(obj, dict):
            found[id(obj)] = obj
            stack += [*obj.keys(), *obj.values()]
        elif isinstance(obj, list | set | bytearray):
            found[id(obj)] = obj
            stack += list(obj)
        elif isinstance(obj, tuple):
            stack += list(obj)
        elif dataclasses.is_dataclass(obj):
            params = getattr(obj, "__dataclass_params__", None)
            if params is None or not params.frozen:
                found[id(obj)] = obj
            stack += [getattr(obj, f.name) for f in dataclasses.fields(obj)]
        elif hasattr(obj, "__dict__"):
            found[id(obj)] = obj
            stack += list(vars(obj).values())
    return found


def state_of(agent: Agent) -> dict[str, Any]:
    """What a dialogue changes: the workspace, every memory module, the route log and sizes."""
    return {
        "workspace": agent.workspace,
        "memory": agent.memory,
        "route_log": agent.route_log,
        "state_sizes": agent.state_sizes,
    }


def snapshot(agent: Agent) -> dict[str, Any]:
    ws = agent.workspace
    return {
        "dialogue": list(ws.dialogue),
        "turn": ws.turn,
        "private": repr(ws.private),
        "memory": {k: m.private_text() for k, m in agent.memory.items()},
        "edits": {k: repr(vars(m)) for k, m in agent.memory.items()},
        "transitions": list(agent.route_log.transitions),
        "steps": len(agent.route_log.steps),
        "state_sizes": list(agent.state_sizes),
    }


def working_memory(agent: Agent) -> WorkingMemory:
    module = agent.memory["working_memory"]
    assert isinstance(module, WorkingMemory)
    return module


@pytest.mark.parametrize(
    ("family", "params"),
    [
        ("workflow", {"strategy": "append_delete"}),
        ("gwt", {"strategy": "overwrite"}),
        ("autonomous", {"strategy": "patch_replace"}),
        ("private_cot", {}),
    ],
)
async def test_a_branch_changes_without_changing_the_original(
    family: str, params: dict[str, Any]
) -> None:
    original = make_agent(family, Brain(), **params)
    await original.respond("first")
    await original.respond("second")
    before = snapshot(original)

    branch = original.fork()
    assert snapshot(branch) == before  # a fork starts as an exact copy
    await branch.respond("third, only in the branch")
    await branch.respond("fourth, only in the branch")
    if "working_memory" in branch.memory:
        name, arguments = BRANCH_EDITS[params["strategy"]]
        working_memory(branch).apply(name, arguments)
    branch.workspace.private["scratch"] = ["branch"]

    assert snapshot(original) == before
    assert branch.workspace.turn == 4 and original.workspace.turn == 2
    assert len(branch.workspace.dialogue) == 8 and len(original.workspace.dialogue) == 4
    if "working_memory" in branch.memory:
        assert working_memory(branch).text != working_memory(original).text

    # the original carries on independently, and the branch does not see it
    branch_now = snapshot(branch)
    await original.respond("third, only in the original")
    assert snapshot(branch) == branch_now
    assert original.workspace.dialogue[4].content == "third, only in the original"
    assert branch.workspace.dialogue[4].content == "third, only in the branch"


async def test_two_branches_share_nothing_mutable() -> None:
    agent = make_agent("gwt", Brain(), strategy="append_delete")
    await agent.respond("hello")
    await agent.respond("again")
    left, right = agent.fork(), agent.fork()

    assert len(mutable_objects(state_of(left))) > 10  # the walk really reaches the state
    for a, b in ((left, right), (agent, left), (agent, right)):
        shared = mutable_objects(state_of(a)).keys() & mutable_objects(state_of(b)).keys()
        assert shared == set()
    # configuration is shared on purpose: it never changes during a dialogue
    assert left.graph is agent.graph
    assert left.specialists is agent.specialists


async def test_forking_twice_in_a_row_gives_independent_generations() -> None:
    agent = make_agent("workflow", Brain(), strategy="overwrite")
    await agent.respond("one")
    child = agent.fork()
    await child.respond("two")
    grandchild = child.fork()
    await grandchild.respond("three")
    assert [len(a.workspace.dialogue) for a in (agent, child, grandchild)] == [2, 4, 6]
    notes = [working_memory(a).text.count("- note") for a in (agent, child, grandchild)]
    assert notes == [1, 2, 3]
    assert [len(a.state_sizes) for a in (agent, child, grandchild)] == [1, 2, 3]


def full_state(agent: Agent) -> dict[str, Any]:
    """Everything a dialogue changes, as JSON data (step timings left out)."""
    return {
        "workspace": agent.workspace.save_state(),
        "transitions": agent.route_log.save_state()["transitions"],
        "steps": [(s.turn, s.step, s.node) for s in agent.route_log.steps],
        "memory": {name: module.save_state() for name, module in agent.memory.items()},
        "state_sizes": list(agent.state_sizes),
        "memory_footprints": list(agent.memory_footprints),
    }


@pytest.mark.parametrize("name", sorted(ready_made_agents()))
@pytest.mark.parametrize("order", list(itertools.permutations(["trunk", "left", "right"])))
async def test_no_write_after_a_fork_shows_in_another_branch_in_any_order(
    name: str, order: tuple[str, ...]
) -> None:
    skip_without_its_libraries(name)
    declared = load_agent_spec(name).params
    params = {"embedder": "hash"} if "embedder" in declared else None
    found, _ = providers(MemoryBrain())
    trunk = build_agent(load_agent_spec(name, params), found.get, provider="fake", seed=3)
    await trunk.respond("Plan a trip to Lisbon with my sister.")
    await trunk.respond("We fly out of Denver on Friday.")
    agents = {"trunk": trunk, "left": trunk.fork(), "right": trunk.fork()}
    assert full_state(agents["left"]) == full_state(trunk)
    seen = {n: full_state(a) for n, a in agents.items()}
    for who in order:
        await agents[who].respond(f"Only the {who} asks this: book the hotel by the river.")
        agents[who].workspace.private[f"{who}.scratch"] = [who]
        for other, agent in agents.items():
            if other != who:
                assert full_state(agent) == seen[other], f"{who}'s write showed in {other}"
        seen[who] = full_state(agents[who])
    for who, agent in agents.items():
        said = [m.content for m in agent.workspace.dialogue if m.role == "user"]
        assert said[2:] == [f"Only the {who} asks this: book the hotel by the river."]
