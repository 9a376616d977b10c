"""A composed agent inside an AutoGen team, through ``WorkspaceChatAgent``."""

from __future__ import annotations

import pytest
from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import MaxMessageTermination
from autogen_agentchat.messages import TextMessage
from autogen_agentchat.teams import RoundRobinGroupChat
from autogen_core import CancellationToken
from autogen_ext.models.replay import ReplayChatCompletionClient

from cogarch.errors import ConfigError
from cogarch.memory import WorkingMemory
from cogarch.models import ScriptedModel
from cogarch.workspace.autogen_adapter import WorkspaceChatAgent
from tests.workspace import SECRET, Brain, make_agent

HOST_LINES = ["Is there an A?", "Is there an E?", "Is there an S?"]


def working_memory_text(adapter: WorkspaceChatAgent) -> str:
    module = adapter.agent.memory["working_memory"]
    assert isinstance(module, WorkingMemory)
    return module.text


async def test_the_composed_agent_takes_turns_in_a_round_robin_team() -> None:
    ours = WorkspaceChatAgent(make_agent("workflow", Brain(), strategy="append_delete"))
    host = AssistantAgent("host", model_client=ReplayChatCompletionClient(HOST_LINES))
    team = RoundRobinGroupChat([host, ours], termination_condition=MaxMessageTermination(6))

    result = await team.run(task="Let's play hangman.")

    said = [(m.source, m.to_text()) for m in result.messages]
    assert said == [
        ("user", "Let's play hangman."),
        ("host", "Is there an A?"),
        ("workflow", "answer 1"),
        ("host", "Is there an E?"),
        ("workflow", "answer 2"),
        ("host", "Is there an S?"),
    ]
    assert all(SECRET not in text for _, text in said)
    assert all(isinstance(m, TextMessage) for m in result.messages)
    # the composed agent kept its own dialogue and private memory
    dialogue = [(m.role, m.content) for m in ours.agent.workspace.dialogue]
    assert dialogue == [
        ("user", "Is there an A?"),
        ("assistant", "answer 1"),
        ("user", "Is there an E?"),
        ("assistant", "answer 2"),
    ]
    assert "- note 2" in working_memory_text(ours)


async def test_a_scripted_partner_on_our_own_fake_model() -> None:
    ours = WorkspaceChatAgent(make_agent("gwt", Brain()), name="player")
    host = AssistantAgent("host", model_client=ScriptedModel(["First?", "Second?"]))
    team = RoundRobinGroupChat([ours, host], termination_condition=MaxMessageTermination(4))

    result = await team.run(task="Hello!")

    assert [(m.source, m.to_text()) for m in result.messages] == [
        ("user", "Hello!"),
        ("player", "answer 1"),
        ("host", "First?"),
        ("player", "answer 2"),
    ]
    assert ours.agent.route_log.counts()[("conscious", "focus")] == 2


async def test_resetting_the_team_gives_a_fresh_agent() -> None:
    agent = make_agent("workflow", Brain(), strategy="overwrite")
    fresh_memory = agent.memory["working_memory"].private_text()
    ours = WorkspaceChatAgent(agent)
    host = AssistantAgent("host", model_client=ReplayChatCompletionClient(HOST_LINES * 2))
    team = RoundRobinGroupChat([host, ours], termination_condition=MaxMessageTermination(3))
    await team.run(task="Round one")
    assert len(ours.agent.workspace.dialogue) == 2

    await team.reset()

    assert ours.agent is not agent
    assert ours.agent.workspace.dialogue == []
    assert ours.agent.route_log.transitions == []
    assert working_memory_text(ours) == fresh_memory
    result = await team.run(task="Round two")
    assert result.messages[-1].to_text().startswith("answer")
    assert len(ours.agent.workspace.dialogue) == 2


async def test_newest_or_all_incoming_messages() -> None:
    messages = [
        TextMessage(content="The task.", source="user"),
        TextMessage(content="A question?", source="host"),
    ]
    newest = WorkspaceChatAgent(make_agent("vanilla", Brain()))
    response = await newest.on_messages(messages, CancellationToken())
    assert response.chat_message.to_text() == "answer 1"
    assert newest.agent.workspace.dialogue[0].content == "A question?"

    both = WorkspaceChatAgent(make_agent("vanilla", Brain()), incoming="all")
    await both.on_messages(messages, CancellationToken())
    assert both.agent.workspace.dialogue[0].content == "The task.\n\nA question?"
    assert both.produced_message_types == (TextMessage,)


async def test_misuse_is_reported_clearly() -> None:
    ours = WorkspaceChatAgent(make_agent("vanilla", Brain()))
    own = TextMessage(content="my own words", source="vanilla")
    with pytest.raises(ConfigError, match="without a new message to answer"):
        await ours.on_messages([own], CancellationToken())
    with pytest.raises(ConfigError, match="Python identifier"):
        WorkspaceChatAgent(make_agent("vanilla", Brain()), name="my agent")
