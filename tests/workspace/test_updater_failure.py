"""A memory updater whose model call fails leaves the memory as it was; the turn still ends."""

from __future__ import annotations

from collections.abc import Sequence

from autogen_core.models import LLMMessage

from cogarch.memory.working.document import INITIAL_MEMORY
from cogarch.models import CallInfo, FunctionModel, Model, Providers, as_pairs
from cogarch.workspace import build_agent, load_agent_spec


def host(messages: Sequence[LLMMessage], info: CallInfo) -> str:
    system = as_pairs(messages)[0][1]
    if system.startswith("You are a memory updater"):
        raise ValueError("request exceeds the available context size")
    return "_ _ _ _ _"


async def test_a_failing_updater_call_keeps_the_memory_and_the_reply() -> None:
    providers = Providers()
    providers.register("fake", Model(FunctionModel(host), provider="fake", model="f", fake=True))
    agent = build_agent(load_agent_spec("workflow"), providers.get, provider="fake", seed=1)
    reply = await agent.respond("Let's play Hangman.")
    assert reply == "_ _ _ _ _"
    assert agent.memory["working_memory"].private_text() == INITIAL_MEMORY
    outcome = agent.workspace.broadcasts["updater"]
    assert outcome["applied"] == 0
    assert "context size" in outcome["errors"][0]
