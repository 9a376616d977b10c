"""A hostile updater reply (JSON nested far too deep) is shown back to the model as an error."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from autogen_core.models import LLMMessage

from cogarch.memory.working.document import INITIAL_MEMORY
from cogarch.memory.working.edit_meta import MemoryToolError
from cogarch.memory.working.tool_calls import parse_tool_calls
from cogarch.models import CallInfo, FunctionModel, Model, Providers, as_pairs
from cogarch.workspace import build_agent, load_agent_spec

HOSTILE = ["[" * 1500, "[" * 200_000, '{"tool_calls": ' * 5000, "[" * 800 + "]" * 800]


@pytest.mark.parametrize("reply", HOSTILE, ids=["1500", "200000", "objects", "closed"])
def test_deep_json_is_a_tool_error(reply: str) -> None:
    with pytest.raises(MemoryToolError):
        parse_tool_calls(reply)


async def test_a_deep_reply_is_fed_back_and_the_turn_ends() -> None:
    seen: list[str] = []

    def host(messages: Sequence[LLMMessage], info: CallInfo) -> str:
        pairs = as_pairs(messages)
        if pairs[0][1].startswith("You are a memory updater"):
            seen.append(pairs[-1][1])
            return "[" * 1500
        return "_ _ _ _ _"

    providers = Providers()
    providers.register("fake", Model(FunctionModel(host), provider="fake", model="f", fake=True))
    agent = build_agent(load_agent_spec("workflow"), providers.get, provider="fake", seed=1)
    assert await agent.respond("Let's play Hangman.") == "_ _ _ _ _"
    assert agent.memory["working_memory"].private_text() == INITIAL_MEMORY
    outcome = agent.workspace.broadcasts["updater"]
    assert outcome["applied"] == 0 and len(outcome["errors"]) >= 2
    assert any("The tool call failed" in text and "too deeply" in text for text in seen)
