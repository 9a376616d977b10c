"""An Agent Framework agent as a task's host: forks are independent session copies, private
state leaves out the public history, and what cannot be copied or done is refused."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import pytest
from agent_framework import Agent, AgentSession, ContextProvider

from cogarch.bridges.agent_framework import (
    CogarchChatClient,
    FrameworkHost,
    MemoryContextProvider,
    SessionCopyError,
    check_copyable,
    scripted_chat_client,
)
from cogarch.bridges.agent_framework.host import UnsupportedCapabilityError
from cogarch.core.memory import EpisodeEnd
from cogarch.core.state import StateError
from cogarch.models import CallInfo


def counting(pairs: Sequence[tuple[str, str]], seed: int, call: CallInfo) -> str:
    said = [text for role, text in pairs if role == "user"]
    return f"I have heard: {' | '.join(said)}"


def agent(**kwargs: Any) -> Agent:
    return Agent(scripted_chat_client(counting), "Be brief.", **kwargs)


async def test_a_fork_is_a_copy_of_the_session_that_goes_its_own_way() -> None:
    host = FrameworkHost(agent())
    await host.respond("one")
    branch = host.fork()
    assert branch.agent is host.agent and branch.session is not host.session
    assert await branch.respond("two") == "I have heard: one | two"
    assert await host.respond("three") == "I have heard: one | three"
    assert await branch.respond("four") == "I have heard: one | two | four"


async def test_private_state_shows_memory_but_not_the_public_history() -> None:
    memory = MemoryContextProvider("raw_turns", {"embedder": "hash"}, source_id="turns")
    host = FrameworkHost(agent(context_providers=[memory]))
    await host.respond("the secret is plum")
    private = host.private_state()
    assert private.startswith("[turns]\n[t1.user] the secret is plum")
    assert "in_memory" not in private


async def test_saved_state_loads_into_a_host_of_a_fresh_agent() -> None:
    host = FrameworkHost(agent())
    await host.respond("one")
    other = FrameworkHost(agent())
    other.load_state(host.save_state())
    assert await other.respond("two") == "I have heard: one | two"


@pytest.mark.parametrize(
    "state",
    [None, [], {}, {"session_id": 5}, {"session_id": "s", "state": 3}, {"type": "x"}],
)
async def test_a_state_that_is_not_a_session_is_refused_and_the_host_keeps_its_own(
    state: Any,
) -> None:
    host = FrameworkHost(agent())
    await host.respond("one")
    with pytest.raises(StateError):
        host.load_state(state)
    assert await host.respond("two") == "I have heard: one | two"


class ServiceClient(CogarchChatClient):
    STORES_BY_DEFAULT: ClassVar[bool] = True


def test_a_client_that_stores_conversations_on_its_service_is_refused() -> None:
    client = ServiceClient(scripted_chat_client(counting).model)
    with pytest.raises(SessionCopyError, match=r"keeps the conversation on its service"):
        check_copyable(Agent(client))
    check_copyable(Agent(client, default_options={"store": False}))  # history in the session


async def test_a_session_that_came_to_hold_a_service_conversation_cannot_fork() -> None:
    host = FrameworkHost(agent())
    await host.respond("one")
    host.session.service_session_id = "resp_123"
    with pytest.raises(SessionCopyError, match="service-side conversation id"):
        host.fork()


class Notes(ContextProvider):
    session_copyable = True


def test_a_provider_may_declare_its_state_is_all_in_the_session() -> None:
    check_copyable(agent(context_providers=[Notes("notes")]), AgentSession())


def test_session_state_that_cannot_be_serialised_is_refused() -> None:
    session = AgentSession()
    session.state["notes"] = {"when": object()}
    with pytest.raises(SessionCopyError, match="cannot be serialised"):
        check_copyable(agent(), session)


async def test_what_the_bridge_cannot_do_is_refused_by_name() -> None:
    host = FrameworkHost(agent())
    with pytest.raises(UnsupportedCapabilityError, match="take a turn in without replying"):
        await host.observe("hello")
    with pytest.raises(UnsupportedCapabilityError, match="end an episode"):
        await host.end_episode(EpisodeEnd(0, won=True))
