"""An Agent Framework host validates a saved session on load: a service-side session and a
damaged provider state (a memory module's, a composed agent's, the history's) are refused as
one ``StateError`` there, never as a raw Python error later, nor after the agent has replied."""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from agent_framework import Agent, AgentSession

from cogarch.bridges.agent_framework import (
    FrameworkHost,
    MemoryContextProvider,
    scripted_chat_client,
)
from cogarch.core.state import StateError
from cogarch.models import CallInfo

SPOKEN: list[str] = []


def counting(pairs: Sequence[tuple[str, str]], seed: int, call: CallInfo) -> str:
    said = [text for role, text in pairs if role == "user"]
    SPOKEN.append(said[-1])
    return f"I have heard: {' | '.join(said)}"


def host() -> FrameworkHost:
    memory = MemoryContextProvider("raw_turns", {"embedder": "hash"}, source_id="turns")
    return FrameworkHost(
        Agent(scripted_chat_client(counting), "Be brief.", context_providers=[memory])
    )


def turns(state: dict[str, Any]) -> dict[str, Any]:
    found: dict[str, Any] = state["state"]["turns"]
    return found


SPOILS: dict[str, Callable[[dict[str, Any]], None]] = {
    "a service-side session": lambda s: s.update(service_session_id="resp_123"),
    "provider state as a list": lambda s: s["state"].update(turns=[1, 2]),
    "a turn count as text": lambda s: turns(s).update(turn="two"),
    "a negative turn count": lambda s: turns(s).update(turn=-1),
    "dialogue of another shape": lambda s: turns(s).update(dialogue=[["user"]]),
    "dialogue as text": lambda s: turns(s).update(dialogue="hello"),
    "failed turns as text": lambda s: turns(s).update(failed_turns=["x"]),
    "a module state of another kind": lambda s: turns(s).update(module={"kind": "mem0"}),
    "a module state that is text": lambda s: turns(s).update(module="x"),
    "history messages as text": lambda s: s["state"].update(in_memory={"messages": "x"}),
}


@pytest.mark.parametrize("case", sorted(SPOILS))
async def test_a_damaged_saved_session_is_refused_on_load(case: str) -> None:
    first = host()
    await first.respond("the secret is plum")
    state = copy.deepcopy(first.save_state())
    SPOILS[case](state)
    other = host()
    await other.respond("one")
    with pytest.raises(StateError) as info:
        other.load_state(state)
    assert len(str(info.value).splitlines()) == 1
    assert await other.respond("two") == "I have heard: one | two"  # it kept its session


async def test_a_damaged_session_given_straight_to_a_run_is_refused_before_the_reply() -> None:
    first = host()
    await first.respond("the secret is plum")
    data = copy.deepcopy(first.save_state())
    turns(data).update(turn="two")
    session = AgentSession.from_dict(data)
    SPOKEN.clear()
    with pytest.raises(StateError):
        await first.agent.run("again", session=session)
    assert SPOKEN == []  # the model was never asked
