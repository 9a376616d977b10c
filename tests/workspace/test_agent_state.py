"""Saving a composed agent's state through AutoGen and loading it into a fresh agent."""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import pytest

from cogarch.core.state import StateError
from cogarch.errors import ConfigError
from cogarch.models import FunctionModel, Model
from cogarch.workspace import build_agent, load_agent_spec
from cogarch.workspace.autogen_adapter import WorkspaceChatAgent
from tests.memory import FakeLLM
from tests.memory.test_mem0 import add_all
from tests.workspace import Brain, make_agent


async def saved_after_two_turns(adapter: WorkspaceChatAgent) -> dict[str, Any]:
    await adapter.agent.respond("Let's play Hangman. I have 6 lives.")
    await adapter.agent.respond('My next guess is the letter "e".')
    state = await adapter.save_state()
    return json.loads(json.dumps(state))  # what a JSON file would give back


@pytest.mark.parametrize("strategy", ["overwrite", "patch_replace"])
async def test_a_loaded_workflow_agent_takes_the_next_turn_as_the_original(strategy: str) -> None:
    brain = Brain()
    original = WorkspaceChatAgent(make_agent("workflow", brain, strategy=strategy))
    state = await saved_after_two_turns(original)

    twin = copy.deepcopy(brain)  # the same fake model, in the same state
    restored = WorkspaceChatAgent(make_agent("workflow", twin, strategy=strategy))
    await restored.load_state(state)
    assert restored.agent.private_state() == original.agent.private_state()

    seen = len(brain.calls)
    for adapter in (original, restored):
        await adapter.agent.respond('My next guess is the letter "a".')
    assert twin.calls[seen:] == brain.calls[seen:]  # every prompt of the third turn
    assert restored.agent.workspace == original.agent.workspace
    assert restored.agent.private_state() == original.agent.private_state()
    assert restored.agent.route_log.transitions == original.agent.route_log.transitions
    assert restored.agent.state_sizes == original.agent.state_sizes


def mem0_adapter() -> tuple[WorkspaceChatAgent, FakeLLM]:
    def facts(text: str) -> dict[str, Any]:
        said = re.findall(r"[Uu]ser: (.+)", text)
        return {"facts": [f"Said: {line}" for line in said[-1:]]}

    llm = FakeLLM(FactList=facts, UpdatePlan=add_all, reply="Okay!")
    model = Model(FunctionModel(llm), provider="fake", model="fake", fake=True)
    spec = load_agent_spec("mem0", {"embedder": "hash"})
    agent = build_agent(spec, lambda name: model, provider="fake", seed=3)
    return WorkspaceChatAgent(agent), llm


async def test_a_loaded_retrieval_agent_retrieves_what_the_original_stored() -> None:
    original, llm = mem0_adapter()
    state = await saved_after_two_turns(original)
    restored, twin = mem0_adapter()
    await restored.load_state(state)

    seen = len(llm.prompts)
    for adapter in (original, restored):
        await adapter.agent.respond("Which letters have I guessed?")
    assert twin.prompts == llm.prompts[seen:]
    assert "Said: Let's play Hangman" in twin.of("reply")[0]
    assert restored.agent.workspace.ingested == original.agent.workspace.ingested == {"mem0": 2}
    assert restored.agent.memory["mem0"].save_state() == original.agent.memory["mem0"].save_state()


async def test_a_state_loads_only_into_an_agent_of_the_same_spec() -> None:
    state = await saved_after_two_turns(WorkspaceChatAgent(make_agent("workflow", Brain())))
    vanilla = WorkspaceChatAgent(make_agent("vanilla", Brain()))
    with pytest.raises(ConfigError, match=r"does not fit agent 'vanilla' \(memory: none\)"):
        await vanilla.load_state(state)
    with pytest.raises(ConfigError, match=r"pass what Agent\.save_state \(or an adapter's"):
        await vanilla.load_state({"workspace": {}})


def episodex(**params: Any) -> Any:
    model = Model(FunctionModel(FakeLLM(reply="look")), provider="fake", model="fake", fake=True)
    spec = load_agent_spec("episodex", {"embedder": "hash", **params})
    return build_agent(spec, lambda name: model, provider="fake", seed=3)


async def test_a_state_failing_part_way_leaves_the_agent_as_it_was() -> None:
    agent = episodex()
    state = json.loads(json.dumps(agent.save_state()))
    before = json.dumps(state, sort_keys=True)
    assert list(state["memory"]) == ["episodic", "conceptual"]  # loaded in this order
    good = json.loads(json.dumps(episodex(max_episodes=7).save_state()))
    assert good["memory"]["episodic"] != state["memory"]["episodic"]
    # the first module's state is good, the second one's is not: nothing may be loaded
    broken = copy.deepcopy(good)
    broken["memory"]["conceptual"]["concepts"] = [{"not": "a concept"}]
    with pytest.raises(StateError, match=r"memory module 'conceptual'.*'concepts'"):
        agent.load_state(broken)
    assert json.dumps(agent.save_state(), sort_keys=True) == before


@pytest.mark.parametrize(
    ("part", "value"),
    [
        ("workspace", [1]),
        ("workspace", {"dialogue": "x"}),
        ("route_log", {"transitions": [{"nope": 1}], "steps": []}),
        ("route_log", None),
        ("state_sizes", ["a"]),
        ("memory_footprints", "x"),
        ("memory", [1]),
        ("memory", {"episodic": {"kind": "reflexion"}, "conceptual": {}}),
    ],
)
async def test_a_malformed_agent_state_is_refused_naming_the_part(part: str, value: Any) -> None:
    agent = episodex()
    state = json.loads(json.dumps(agent.save_state()))
    before = json.dumps(state, sort_keys=True)
    if part == "workspace" and isinstance(value, dict):
        value = {**state["workspace"], **value}
    with pytest.raises(StateError, match=part if part != "memory" else "memory"):
        agent.load_state({**state, part: value})
    assert json.dumps(agent.save_state(), sort_keys=True) == before
    for junk in (None, [], "state"):
        with pytest.raises(StateError):
            agent.load_state(junk)  # type: ignore[arg-type]


async def test_a_reflexion_agent_refuses_another_kind_s_state_and_keeps_its_lessons() -> None:
    llm = FakeLLM(reply="Plan: open the fridge.")
    model = Model(FunctionModel(llm), provider="fake", model="fake", fake=True)
    spec = load_agent_spec("alfworld_reflexion", {})
    agent = build_agent(spec, lambda name: model, provider="fake", seed=3)
    module = agent.memory["reflexion"]
    lessons = [{"episode": i, "task": "t", "text": f"lesson {i}"} for i in range(9)]
    module.load_state({**module.save_state(), "reflections": lessons})
    limit = module.params.max_reflections  # type: ignore[attr-defined]
    assert len(module.save_state()["reflections"]) == limit
    state = agent.save_state()
    state["memory"]["reflexion"] = episodex().memory["episodic"].save_state()
    with pytest.raises(StateError, match="cannot load a 'episodic' state into a 'reflexion'"):
        agent.load_state(state)
    assert "lesson 8" in module.render()
