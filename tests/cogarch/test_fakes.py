"""The packaged fake models: they see what a remote model would, and need no network."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from autogen_core.models import LLMMessage
from autogen_core.tools import ToolSchema

from cogarch.errors import ModelCallError
from cogarch.models import (
    CallInfo,
    FakeReply,
    FunctionModel,
    Model,
    ScriptedModel,
    as_pairs,
    assistant,
    pairs_model,
    system,
    user,
)
from cogarch.models.fakes import ScriptExhaustedError
from cogarch.models.guard import model_requests_allowed
from cogarch.tokens import count_tokens

LOOKUP: ToolSchema = {
    "name": "lookup",
    "description": "d",
    "parameters": {"type": "object", "properties": {}},
}


def fake(client: FunctionModel | ScriptedModel) -> Model:
    return Model(client, provider="fake", model="fake", fake=True)


async def test_function_model_sees_seed_schema_and_tools() -> None:
    seen: list[CallInfo] = []

    def reply(messages: Sequence[LLMMessage], info: CallInfo) -> str:
        seen.append(info)
        return f"{len(messages)} messages"

    client = FunctionModel(reply)
    model = fake(client)
    schema = {"title": "Pick", "type": "object"}
    out = await model.complete(
        [system("s"), user("u")],
        caller="t",
        seed=5,
        response_schema=schema,
        tools=[LOOKUP],
        temperature=0.4,
    )
    assert out.content == "2 messages"
    (info,) = seen
    assert (info.index, info.seed, info.tools) == (0, 5, ("lookup",))
    assert info.response_format is not None
    assert info.response_format["json_schema"]["name"] == "Pick"
    assert info.args["temperature"] == 0.4
    assert "max_tokens" not in info.args  # neither the model nor the call set a limit
    assert len(client.calls) == 1


async def test_async_reply_functions_are_awaited() -> None:
    async def reply(messages: Sequence[LLMMessage], info: CallInfo) -> str:
        return "later"

    assert (await fake(FunctionModel(reply)).complete([user("x")], caller="t")).content == "later"


async def test_scripted_model_replays_then_refuses() -> None:
    model = fake(ScriptedModel(["one", FakeReply("two", thought="because")]))
    assert (await model.complete([user("a")], caller="t")).content == "one"
    second = await model.complete([user("b")], caller="t")
    assert (second.content, second.thought) == ("two", "because")
    with pytest.raises(ModelCallError, match="script has 2 replies but call 3") as info:
        await model.complete([user("c")], caller="t")
    assert isinstance(info.value.__cause__, ScriptExhaustedError)


async def test_fake_tool_calls_become_completion_tool_calls() -> None:
    reply = FakeReply("thinking aloud", tool_calls=(("lookup", {"word": "apple"}),))
    out = await fake(ScriptedModel([reply])).complete([user("a")], caller="t", tools=[LOOKUP])
    assert [(c.name, c.arguments, c.id) for c in out.tool_calls] == [
        ("lookup", {"word": "apple"}, "call_0_0")
    ]
    assert out.thought == "thinking aloud"
    assert out.content == ""


async def test_pairs_model_gets_plain_pairs_a_seed_and_the_caller() -> None:
    got: list[tuple[list[tuple[str, str]], int]] = []
    callers: list[tuple[str, str | None]] = []

    def host(pairs: Sequence[tuple[str, str]], seed: int, call: CallInfo) -> str:
        got.append((list(pairs), seed))
        callers.append((call.caller, call.role))
        return "ok"

    model = fake(pairs_model(host))
    messages: list[LLMMessage] = [
        system("rules"),
        user("hi"),
        assistant("hello"),
        user("guess e"),
    ]
    await model.complete(messages, caller="t", seed=11)
    await model.complete(messages, caller="updater", role="memory_updater")
    assert got[0] == (as_pairs(messages), 11)
    assert callers == [("t", None), ("updater", "memory_updater")]
    assert got[0][0][-1] == ("user", "guess e")
    assert got[1][1] == 0  # no seed -> 0


async def test_fakes_work_while_real_requests_are_refused() -> None:
    assert not model_requests_allowed()
    out = await fake(ScriptedModel(["a reply of five words"])).complete([user("q")], caller="t")
    assert out.usage.completion_tokens == count_tokens("a reply of five words")
    assert out.usage.prompt_tokens == count_tokens("q")
    assert out.usage.attempts == 1
