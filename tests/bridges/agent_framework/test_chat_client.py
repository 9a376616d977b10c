"""The chat client over cogarch's models: instructions as a system message, seeds, metering,
streaming, and the package's fakes by name."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from agent_framework import Agent, Message

from cogarch.bridges.agent_framework import fake_chat_client, scripted_chat_client
from cogarch.errors import UnknownNameError
from cogarch.models import CallInfo, Meter
from cogarch.tasks.hangman.hosts import host_secret


def seen(pairs: Sequence[tuple[str, str]], seed: int, call: CallInfo) -> str:
    return f"seed={seed} caller={call.caller} " + " / ".join(f"{r}:{t}" for r, t in pairs)


async def test_the_model_sees_instructions_then_the_messages_by_role() -> None:
    client = scripted_chat_client(seen, seed=4, caller="mine")
    response = await client.get_response(
        [Message(role="user", contents=["hi"]), Message(role="assistant", contents=["yo"])],
        options={"instructions": "Be kind."},
    )
    assert response.text == "seed=4 caller=mine system:Be kind. / user:hi / assistant:yo"
    assert client.calls == [[("system", "Be kind."), ("user", "hi"), ("assistant", "yo")]]


async def test_a_run_option_seed_wins_over_the_clients() -> None:
    agent = Agent(scripted_chat_client(seen, seed=4))
    response = await agent.run("hi", options={"seed": 9})
    assert response.text.startswith("seed=9 ")


async def test_calls_are_metered_as_cogarchs_own() -> None:
    meter = Meter()
    with meter.active():
        await Agent(scripted_chat_client(seen, caller="host")).run("hi")
    [call] = meter.usage().calls
    assert call.caller == "host" and call.provider == "scripted"


async def test_streaming_gives_the_same_text() -> None:
    client = scripted_chat_client(seen)
    messages = [Message(role="user", contents=["hi"])]
    stream = client.get_response(messages, stream=True)
    assert [u.text async for u in stream] == [(await client.get_response(messages)).text]


async def test_a_package_fake_plays_by_name() -> None:
    agent = Agent(fake_chat_client("hangman.leaky", seed=3))
    reply = await agent.run("Let's play Hangman! You be the host. Think of a 5-letter word.")
    assert host_secret(3) in reply.text.lower()


def test_an_unknown_fake_lists_the_valid_names() -> None:
    with pytest.raises(UnknownNameError, match=r"hangman\.honest"):
        fake_chat_client("hangman.liar")
