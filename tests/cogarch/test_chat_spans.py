"""The ``chat {model}`` span of a model call: the GenAI request and usage attributes, INTERNAL
for an in-process model and CLIENT (with the server's address) for an endpoint, whether the
response cache answered, failures, and contents only when opted in."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from pydantic import BaseModel

from cogarch.errors import ModelCallError
from cogarch.models import FakeReply, FunctionModel, Model, ResponseCache, system, user
from cogarch.testing import allowing_model_requests
from tests.cogarch import LiveModels
from tests.spans import attrs, recording

ASK = [system("You are terse."), user("Say hello.")]
CONTENT_KEYS = {"gen_ai.input.messages", "gen_ai.output.messages", "gen_ai.system_instructions"}


class Greeting(BaseModel):
    text: str


def fake(reply: FakeReply, cache: ResponseCache | None = None) -> Model:
    client = FunctionModel(lambda messages, info: reply)
    return Model(
        client,
        provider="scripted",
        model="tiny-fake",
        temperature=0.2,
        max_tokens=64,
        fake=True,
        cache=cache,
    )


@pytest.fixture
async def live(_no_real_models: None) -> AsyncIterator[LiveModels]:
    with allowing_model_requests():
        async with LiveModels() as models:
            yield models


async def test_a_call_of_an_in_process_model_carries_the_conventions_attributes(
    tmp_path: Path,
) -> None:
    reply = FakeReply(content='{"text": "hi"}', thought="greet", cached_prompt_tokens=3)
    model = fake(reply, ResponseCache(tmp_path))
    with recording() as spans:
        first = await model.complete(
            ASK, caller="responder", role="responder", seed=7, response_schema=Greeting
        )
        again = await model.complete(
            ASK, caller="responder", role="responder", seed=7, response_schema=Greeting
        )

    made, replayed = spans.named("chat ")
    assert made.name == "chat tiny-fake"
    assert made.kind.name == "INTERNAL"
    assert attrs(made) == {
        "gen_ai.operation.name": "chat",
        "gen_ai.provider.name": "cogarch.fake",
        "gen_ai.request.model": "tiny-fake",
        "gen_ai.request.temperature": 0.2,
        "gen_ai.request.max_tokens": 64,
        "gen_ai.request.seed": 7,
        "gen_ai.output.type": "json",
        "cogarch.provider": "scripted",
        "cogarch.caller": "responder",
        "cogarch.role": "responder",
        "gen_ai.response.model": "tiny-fake",
        "gen_ai.response.finish_reasons": ("stop",),
        "gen_ai.usage.input_tokens": first.usage.prompt_tokens,
        "gen_ai.usage.output_tokens": first.usage.completion_tokens,
        "gen_ai.usage.reasoning.output_tokens": first.usage.reasoning_tokens,
        "gen_ai.usage.cache_read.input_tokens": 3,
        "cogarch.response_cache.hit": False,
        "cogarch.attempts": 1,
        "cogarch.latency_s": first.usage.latency_s,
    }
    assert first.usage.prompt_tokens > 0 and first.usage.reasoning_tokens > 0
    assert again.usage.cached
    assert attrs(replayed)["cogarch.response_cache.hit"] is True
    assert attrs(replayed)["cogarch.attempts"] == 0
    assert attrs(replayed)["gen_ai.usage.input_tokens"] == first.usage.prompt_tokens


async def test_a_call_without_options_leaves_their_attributes_out() -> None:
    model = Model(
        FunctionModel(lambda messages, info: "hello"), provider="bare", model="m", fake=True
    )
    with recording() as spans:
        await model.complete(ASK, caller="cli")
    found = attrs(spans.all[0])
    assert found["gen_ai.output.type"] == "text"
    absent = {"gen_ai.request.temperature", "gen_ai.request.max_tokens", "gen_ai.request.seed"}
    assert not absent & set(found)
    assert "gen_ai.usage.cache_read.input_tokens" not in found  # the fake reported no cache
    assert "cogarch.role" not in found


async def test_an_endpoint_call_is_a_client_span_naming_the_server(live: LiveModels) -> None:
    server = live.serve(["ok"])
    model = live.model(server, name="remote")
    with recording() as spans:
        await model.complete(ASK, caller="responder")
    [span] = spans.all
    assert span.name == "chat test-model"
    assert span.kind.name == "CLIENT"
    found = attrs(span)
    assert found["gen_ai.provider.name"] == "openai"
    assert found["cogarch.provider"] == "remote"
    assert found["server.address"] == "127.0.0.1"
    assert found["server.port"] == int(server.base_url.split(":")[2].split("/")[0])


async def test_a_failed_call_is_a_failed_span_with_its_error_type(live: LiveModels) -> None:
    server = live.serve(["400"])
    model = live.model(server)
    with recording() as spans, pytest.raises(ModelCallError):
        await model.complete(ASK, caller="responder")
    [span] = spans.all
    assert attrs(span)["error.type"] == "ModelCallError"
    assert span.status.status_code.name == "ERROR"
    assert "gen_ai.usage.input_tokens" not in attrs(span)


async def test_messages_are_recorded_only_when_opted_in() -> None:
    reply = FakeReply(thought="plan", tool_calls=(("note", {"text": "x"}),))
    model = fake(reply)
    with recording() as hidden:
        await model.complete(ASK, caller="updater")
    assert not CONTENT_KEYS & set(attrs(hidden.all[0]))
    assert "Say hello." not in json.dumps(dict(attrs(hidden.all[0])))

    with recording(capture_content=True) as shown:
        await model.complete(ASK, caller="updater")
    found = attrs(shown.all[0])
    assert json.loads(str(found["gen_ai.system_instructions"])) == [
        {"type": "text", "content": "You are terse."}
    ]
    assert json.loads(str(found["gen_ai.input.messages"])) == [
        {"role": "user", "parts": [{"type": "text", "content": "Say hello."}]}
    ]
    [output] = json.loads(str(found["gen_ai.output.messages"]))
    assert output["finish_reason"] == "function_calls"
    assert output["parts"][0] == {"type": "reasoning", "content": "plan"}
    assert output["parts"][1]["type"] == "tool_call"
    assert output["parts"][1]["name"] == "note"
    assert output["parts"][1]["arguments"] == {"text": "x"}
