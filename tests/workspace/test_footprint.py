"""The memory footprint counts the memory an agent carries, never its fixed instructions."""

from __future__ import annotations

from typing import Any

import pytest

from cogarch.tasks.constraints.metrics import respond_measured
from cogarch.tokens import count_tokens
from cogarch.workspace import build_agent, load_agent_spec
from cogarch.workspace.prompts import resolve_prompt
from cogarch.workspace.registry import SPECIALISTS, ready_made_agents
from cogarch.workspace.spec import AgentSpec
from tests.workspace import providers
from tests.workspace.memory_fakes import MemoryBrain

from .libraries import skip_without_its_libraries

TURNS = [
    "Plan a trip to Lisbon from Denver.",
    "Actually make it Porto.",
    "Which city did I pick first?",
    "Summarise the plan.",
]
LONGER = "\nFollow the house style guide in every reply. " * 40
ANSWERING = {"responder", "tool_responder", "react", "motor", "history_reader"}


def spec_of(name: str, longer: bool) -> AgentSpec:
    declared = load_agent_spec(name).params
    spec = load_agent_spec(name, {"embedder": "hash"} if "embedder" in declared else None)
    if longer:
        for component in spec.specialists.values():
            if component.kind in ANSWERING:
                extra = component.model_extra
                assert extra is not None
                params = SPECIALISTS.get(component.kind).Params  # type: ignore[attr-defined]
                default = params.model_fields["prompt"].default
                extra["prompt"] = resolve_prompt(extra.get("prompt", default)) + LONGER
    return spec


async def footprints(name: str, longer: bool) -> tuple[list[int | None], list[Any]]:
    found, _ = providers(MemoryBrain())
    agent = build_agent(spec_of(name, longer), found.get, provider="fake", seed=5)
    measured = [await respond_measured(agent, text, i) for i, text in enumerate(TURNS, 1)]
    return [f.memory_tokens for _, f in measured], [f.responder_prompt_tokens for _, f in measured]


@pytest.mark.parametrize("name", sorted(ready_made_agents()))
async def test_a_longer_system_prompt_leaves_the_footprint_unchanged(name: str) -> None:
    skip_without_its_libraries(name)
    plain, plain_prompts = await footprints(name, longer=False)
    longer, longer_prompts = await footprints(name, longer=True)
    assert None not in plain
    assert plain == longer
    assert all(a < b for a, b in zip(plain_prompts, longer_prompts, strict=True))


async def test_the_footprint_is_the_memory_each_agent_carries() -> None:
    """Transcript replay carries the earlier dialogue; ACC its rendered state; RAG the
    retrieved block (top 5 raw artifacts); TME the subgraph."""
    found, _ = providers(MemoryBrain())
    agents = {
        name: build_agent(spec_of(name, longer=False), found.get, provider="fake")
        for name in ("transcript", "acc", "rag", "tme")
    }
    carried: dict[str, list[int]] = {name: [] for name in agents}
    for text in TURNS:
        for name, agent in agents.items():
            await agent.respond(text)
            memory = {
                "transcript": "".join(m.content for m in agent.workspace.dialogue[:-2]),
                "acc": agent.memory.get("ccs") and agent.memory["ccs"].render(),
                "rag": agent.workspace.broadcasts.get("rag"),
                "tme": agent.workspace.broadcasts.get("tasks"),
            }[name]
            carried[name].append(count_tokens(memory or ""))
    for name, agent in agents.items():
        if name == "transcript":  # one count per message, as the prompt carries them
            dialogue = agent.workspace.dialogue
            expected = [
                sum(count_tokens(m.content) for m in dialogue[: 2 * t]) for t in range(len(TURNS))
            ]
            assert agent.memory_footprints == expected and expected[-1] > expected[1] > 0
        else:
            assert agent.memory_footprints == carried[name], name
    rag_block = agents["rag"].workspace.broadcasts["rag"]
    assert rag_block.count("[t") == 5 and ".assistant]" in rag_block  # replies are stored too
