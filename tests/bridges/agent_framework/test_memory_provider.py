"""cogarch memory modules as Agent Framework context providers: what the first turn stored is
in the fourth call's messages, a serialised and reloaded session keeps the memory, and two
sessions never share it (raw_turns, mem0, working memory)."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Sequence

import pytest
from agent_framework import Agent, AgentSession
from autogen_core.models import LLMMessage

from cogarch.bridges.agent_framework import (
    CogarchChatClient,
    MemoryContextProvider,
    fake_chat_client,
    scripted_chat_client,
)
from cogarch.errors import ConfigError
from cogarch.models import CallInfo, FunctionModel, Model, as_pairs
from cogarch.tasks.hangman.hosts import host_secret

FIRST = "My cat is called Tomasz and she is grey."
LATER = ["I like green tea.", "It rains today.", "What is my cat called?"]


def chatty(pairs: Sequence[tuple[str, str]], seed: int, call: CallInfo) -> str:
    return f"Noted ({len(pairs)} messages)."


def fact_model() -> Model:
    """A model for Mem0's own calls: every user sentence is a fact, and every fact is added."""

    def reply(messages: Sequence[LLMMessage], info: CallInfo) -> str:
        text = "\n".join(t for _, t in as_pairs(messages))
        schema = (info.response_format or {}).get("json_schema", {}).get("name")
        if schema == "FactList":
            said = re.findall(r"user: (.+)", text)
            return json.dumps({"facts": [said[-1]] if said else []})
        facts = json.loads(text.split("New facts:")[1].split("Return ONLY")[0])
        return json.dumps({"memory": [{"id": "new", "text": f, "event": "ADD"} for f in facts]})

    return Model(FunctionModel(reply), provider="facts", model="facts", fake=True)


def provider_for(kind: str) -> MemoryContextProvider:
    if kind == "raw_turns":
        return MemoryContextProvider("raw_turns", {"embedder": "hash", "top_k": 3})
    if kind == "mem0":
        return MemoryContextProvider("mem0", {"embedder": "hash"}, model=fact_model())
    honest = fake_chat_client("hangman.honest").model  # the updater's model
    return MemoryContextProvider("working_memory", model=honest, seed=11)


def agent_for(kind: str) -> tuple[Agent, CogarchChatClient, str, str]:
    """An agent with the module as its only memory (no history is replayed), its client, and
    the text the first turn stores."""
    if kind == "working_memory":
        client = fake_chat_client("hangman.honest", seed=11)
        first, stored = "Let's play Hangman! You be the host.", host_secret(11)
    else:
        client, first, stored = scripted_chat_client(chatty), FIRST, "Tomasz"
    agent = Agent(
        client,
        "Be brief.",
        context_providers=[provider_for(kind)],
        default_options={"store": True},  # no local history: only the memory carries turns
    )
    return agent, client, first, stored


KINDS = ["raw_turns", "mem0", "working_memory"]


async def talk(agent: Agent, session: AgentSession, first: str) -> None:
    for text in [first, *LATER]:
        await agent.run(text, session=session)


def system_text(call: list[tuple[str, str]]) -> str:
    return "\n".join(text for role, text in call if role == "system")


@pytest.mark.parametrize("kind", KINDS)
async def test_the_fourth_call_holds_what_the_first_turn_stored(kind: str) -> None:
    agent, client, first, stored = agent_for(kind)
    session = agent.create_session()
    await talk(agent, session, first)
    fourth = client.calls[3]
    assert [role for role, _ in fourth] == ["system", "user"]  # the memory, then the input
    assert stored in system_text(fourth)
    assert stored not in system_text(client.calls[0])


@pytest.mark.parametrize("kind", KINDS)
async def test_a_serialised_session_reloads_with_its_memory(kind: str) -> None:
    agent, _, first, stored = agent_for(kind)
    session = agent.create_session()
    await agent.run(first, session=session)
    saved = json.dumps(session.to_dict())

    fresh_agent, fresh_client, _, _ = agent_for(kind)  # another process, say
    reloaded = AgentSession.from_dict(json.loads(saved))
    await fresh_agent.run(LATER[-1], session=reloaded)
    assert stored in system_text(fresh_client.calls[-1])
    source = fresh_agent.context_providers[0].source_id
    assert reloaded.state[source]["turn"] == 2


@pytest.mark.parametrize("kind", KINDS)
async def test_two_sessions_never_share_memory(kind: str) -> None:
    agent, client, first, stored = agent_for(kind)
    one, two = agent.create_session(), agent.create_session()
    await agent.run(first, session=one)
    await agent.run(LATER[-1], session=two)
    assert stored not in system_text(client.calls[-1])
    await agent.run(LATER[-1], session=one)
    assert stored in system_text(client.calls[-1])


async def test_the_block_is_placed_as_the_modules_responder_places_it() -> None:
    agent, client, first, _ = agent_for("mem0")
    session = agent.create_session()
    await talk(agent, session, first)
    shown = system_text(client.calls[3])
    assert shown.startswith("Be brief.\nYou are a helpful assistant that uses retrieved")
    assert re.search(r"RETRIEVED MEMORIES\n\n.*Tomasz", shown)


async def test_a_module_that_calls_a_model_needs_one() -> None:
    agent = Agent(
        scripted_chat_client(chatty),
        context_providers=[MemoryContextProvider("mem0", {"embedder": "hash"})],
    )
    with pytest.raises(ConfigError, match="give its context provider a model"):
        await agent.run(FIRST, session=agent.create_session())


def test_a_module_object_takes_no_params() -> None:
    provider = MemoryContextProvider("raw_turns", {"embedder": "hash"})
    with pytest.raises(ConfigError, match="already has its parameters"):
        MemoryContextProvider(provider.template, {"top_k": 2})


def test_an_unknown_module_kind_lists_the_valid_ones() -> None:
    with pytest.raises(ConfigError, match=r"valid names: .*raw_turns"):
        MemoryContextProvider("photographic")


async def test_a_session_state_set_back_is_read_as_it_now_is() -> None:
    agent, client, first, stored = agent_for("raw_turns")
    session = agent.create_session()
    source = agent.context_providers[0].source_id
    await agent.run(LATER[0], session=session)
    earlier = copy.deepcopy(session.state[source])
    await agent.run(first, session=session)
    session.state[source] = earlier  # a session store's older copy, say
    await agent.run(LATER[-1], session=session)
    assert stored not in system_text(client.calls[-1])
    assert session.state[source]["turn"] == 2


async def test_three_modules_on_one_agent_each_carry_the_first_turn() -> None:
    client = fake_chat_client("hangman.honest", seed=5)
    raw = MemoryContextProvider("raw_turns", {"embedder": "hash", "top_k": 2})
    mem0 = MemoryContextProvider("mem0", {"embedder": "hash"}, model=fact_model())
    working = MemoryContextProvider("working_memory", model=client.model)  # seeded as the client
    agent = Agent(client, context_providers=[raw, mem0, working])
    session = agent.create_session()
    opener = "Let's play Hangman! You be the host. Think of a 5-letter word."
    for text in [opener, 'My next guess is the letter "e".', 'My next guess is the letter "a".']:
        await agent.run(text, session=session)
    await agent.run("Which game did I say we play? Hangman?", session=session)
    fourth = system_text(client.calls[3])
    assert f"<secret>{host_secret(5)}</secret>" in fourth  # the working memory's
    assert fourth.count("Let's play Hangman") == 2  # raw_turns' block and mem0's fact
    assert {raw.source_id, mem0.source_id, working.source_id} <= set(session.state)


def test_a_prompt_without_the_blocks_placeholder_is_refused() -> None:
    with pytest.raises(ConfigError, match=r"put one of .*\{memories\}"):
        MemoryContextProvider("raw_turns", {"embedder": "hash"}, prompt="Be kind.")


async def test_a_prompt_of_ones_own_shows_the_block() -> None:
    client = scripted_chat_client(chatty)
    memory = MemoryContextProvider("raw_turns", {"embedder": "hash"}, prompt="Notes:\n{memories}")
    agent = Agent(client, context_providers=[memory])
    session = agent.create_session()
    await agent.run(FIRST, session=session)
    await agent.run(LATER[-1], session=session)
    assert system_text(client.calls[-1]).startswith(f"Notes:\n[t1.user] {FIRST}")


def test_bad_updater_params_are_a_config_error() -> None:
    with pytest.raises(ConfigError, match="max_attempts"):
        MemoryContextProvider("working_memory", updater={"max_attempts": 0})
