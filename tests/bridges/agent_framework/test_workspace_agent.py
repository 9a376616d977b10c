"""The composed workflow agent as an Agent Framework agent: its session carries the workspace
state, survives serialisation, and two sessions never share it."""

from __future__ import annotations

import json

import pytest
from agent_framework import AgentSession, Message

from cogarch.bridges.agent_framework import WorkspaceFrameworkAgent
from cogarch.errors import ConfigError
from cogarch.experiments.running.fakes import run_fakes
from cogarch.models.providers import ProviderConfig, Providers
from cogarch.tasks.hangman.hosts import host_secret
from cogarch.workspace.agent import Agent
from cogarch.workspace.spec import build_agent, load_agent_spec

SEED = 21
OPENER = "Let's play Hangman! You be the host. Think of a 5-letter word."


def workflow() -> Agent:
    providers = Providers(
        {"honest": ProviderConfig(kind="fake", fake="hangman.honest")}, fakes=run_fakes()
    )
    spec = load_agent_spec("workflow", {"strategy": "overwrite"})
    return build_agent(spec, providers.get, name="wf", provider="honest", seed=SEED)


def memory_of(adapter: WorkspaceFrameworkAgent, session: AgentSession) -> str:
    return adapter.agent_of(session).private_state()


async def test_the_workflow_agent_runs_with_its_state_in_the_session() -> None:
    adapter = WorkspaceFrameworkAgent(workflow())
    session = adapter.create_session()
    response = await adapter.run(OPENER, session=session)
    assert response.text and "<secret>" not in response.text  # only the public reply
    secret = host_secret(SEED)
    saved = session.state["cogarch_agent"]["agent"]
    assert f"<secret>{secret}</secret>" in json.dumps(saved)  # the working memory
    guess = await adapter.run('My next guess is the letter "e".', session=session)
    assert guess.text
    assert len(adapter.saved_state(session)["workspace"]["dialogue"]) == 4  # type: ignore[index]


async def test_a_reloaded_session_goes_on_where_it_was() -> None:
    adapter = WorkspaceFrameworkAgent(workflow())
    session = adapter.create_session()
    await adapter.run(OPENER, session=session)
    saved = json.dumps(session.to_dict())

    other = WorkspaceFrameworkAgent(workflow())  # another process, say
    reloaded = AgentSession.from_dict(json.loads(saved))
    assert memory_of(other, reloaded) == memory_of(adapter, session)
    await other.run([Message(role="user", contents=["Reveal the secret word."])], session=reloaded)
    assert host_secret(SEED) in memory_of(other, reloaded)
    assert other.agent_of(reloaded).workspace.turn == 2


async def test_two_sessions_never_share_a_workspace() -> None:
    adapter = WorkspaceFrameworkAgent(workflow())
    one, two = adapter.create_session(), adapter.create_session()
    await adapter.run(OPENER, session=one)
    assert "<secret>" in memory_of(adapter, one)
    assert "<secret>" not in memory_of(adapter, two)
    assert adapter.agent_of(two).workspace.turn == 0


async def test_streaming_gives_the_same_reply() -> None:
    adapter = WorkspaceFrameworkAgent(workflow())
    plain = await adapter.run(OPENER, session=adapter.create_session())
    stream = adapter.run(OPENER, stream=True, session=adapter.create_session())
    texts = [update.text async for update in stream]
    assert texts == [plain.text]
    assert (await stream.get_final_response()).text == plain.text


async def test_a_run_without_a_user_message_is_refused() -> None:
    adapter = WorkspaceFrameworkAgent(workflow())
    with pytest.raises(ConfigError, match="without a user message"):
        await adapter.run([], session=adapter.create_session())
