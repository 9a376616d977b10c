"""``Model.complete`` through the real OpenAI client against the local fault server.

Behaviour documented here, per fault:
- 429, 500, 503, a delay past the client timeout, a dropped connection, a body cut in the
  middle (``truncated``) and a 200 answer whose body is not JSON (``malformed``) are
  transient: retried with backoff; ``Usage.attempts`` counts them.
- A 400 is not retried: ``ModelCallError`` at once, with the server's message.
- An endpoint where nothing listens fails after all attempts, naming the URL and the provider.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from autogen_core.models import LLMMessage
from autogen_core.tools import ToolSchema
from pydantic import BaseModel

from cogarch.errors import ModelCallError, RealModelBlockedError
from cogarch.models import Meter, system, user
from cogarch.models.providers import build_model
from cogarch.models.response_format import response_format_for
from cogarch.testing import FaultServer, Step, allowing_model_requests
from cogarch.tokens import count_tokens
from tests.cogarch import FAST_RETRY, TIMEOUT_S, LiveModels, closed_port_url, openai_config

HELLO = [user("Say hello.")]


@pytest.fixture
async def live(_no_real_models: None) -> AsyncIterator[LiveModels]:
    """Real OpenAI clients against local fault servers.

    Such a client counts as a real model, which the suite refuses by default (the autouse
    ``_no_real_models`` guard). This fixture runs after that guard and allows requests for the
    tests that ask for it, only while they run; the guard is restored afterwards.
    """
    with allowing_model_requests():
        async with LiveModels() as models:
            yield models


async def test_rate_limit_then_ok_succeeds_in_two_metered_attempts(live: LiveModels) -> None:
    server = live.serve(["429", "ok"])
    model = live.model(server)
    with Meter().active() as meter:
        completion = await model.complete(HELLO, caller="responder")
    assert completion.content == "Hello from the fault server."
    assert completion.usage.attempts == 2
    assert [r.attempts for r in meter.records] == [2]
    assert meter.model_calls == 1
    assert server.served == ["429", "ok"]


@pytest.mark.parametrize("script", [["500", "ok"], ["503", "ok"], ["500", "503", "ok"]])
async def test_server_errors_are_retried(live: LiveModels, script: list[str]) -> None:
    server = live.serve(script)
    completion = await live.model(server).complete(HELLO, caller="t")
    assert completion.usage.attempts == len(script)
    assert server.hits == len(script)


async def test_a_delay_past_the_timeout_is_retried(live: LiveModels) -> None:
    server = live.serve(["delay:3", "ok"])
    completion = await live.model(server).complete(HELLO, caller="t")
    assert completion.usage.attempts == 2
    assert server.served == ["delay:3", "ok"]
    assert completion.usage.latency_s >= TIMEOUT_S  # latency covers every attempt and backoff


@pytest.mark.parametrize("fault", ["drop", "truncated"])
async def test_a_connection_closed_early_is_retried(live: LiveModels, fault: str) -> None:
    server = live.serve([fault, "ok"])
    completion = await live.model(server).complete(HELLO, caller="t")
    assert completion.usage.attempts == 2
    assert completion.content == "Hello from the fault server."


async def test_a_malformed_body_is_retried(live: LiveModels) -> None:
    server = live.serve(["malformed", "ok"])
    completion = await live.model(server, name="flaky").complete(HELLO, caller="t")
    assert completion.usage.attempts == 2
    assert server.hits == 2


async def test_an_unreachable_endpoint_names_url_and_provider(live: LiveModels) -> None:
    url = closed_port_url()
    with pytest.raises(ModelCallError) as info:
        await live.model(url, name="offline-box").complete(HELLO, caller="t")
    message = str(info.value)
    assert url in message
    assert "provider 'offline-box'" in message
    assert f"after {FAST_RETRY.max_attempts} attempts" in message


async def test_persistent_server_errors_fail_after_the_retries(live: LiveModels) -> None:
    server = live.serve(["503"] * 10)
    with pytest.raises(ModelCallError, match=r"failed after 4 attempts.*503"):
        await live.model(server).complete(HELLO, caller="t")
    assert server.hits == FAST_RETRY.max_attempts


async def test_a_bad_request_fails_at_once(live: LiveModels) -> None:
    server = live.serve(["400", "ok"])
    with pytest.raises(ModelCallError) as info:
        await live.model(server, name="strict").complete(HELLO, caller="t")
    message = str(info.value)
    assert "provider 'strict'" in message
    assert "rejected the request" in message
    assert "400" in message and "injected fault" in message
    assert server.hits == 1


async def test_reasoning_content_is_kept_apart(live: LiveModels) -> None:
    reasoning = "The user wants a greeting; keep it short."
    server = live.serve([Step("ok", content="Hello!", reasoning=reasoning)])
    completion = await live.model(server).complete(HELLO, caller="t")
    assert completion.content == "Hello!"
    assert completion.thought == reasoning
    assert completion.usage.reasoning_tokens == count_tokens(reasoning)


async def test_think_tags_are_moved_out_of_the_content(live: LiveModels) -> None:
    server = live.serve(
        [
            Step("ok", content="<think>The word is APPLE.</think>\nSix letters? No, five."),
            Step("ok", content="<think>first</think>Shown.", reasoning="from the field"),
        ]
    )
    model = live.model(server)
    tagged = await model.complete(HELLO, caller="t")
    assert tagged.content == "Six letters? No, five."
    assert tagged.thought == "The word is APPLE."
    both = await model.complete(HELLO, caller="t")
    assert both.content == "Shown."
    assert both.thought == "from the field\nfirst"


async def test_reasoning_mode_none_leaves_content_alone(live: LiveModels) -> None:
    server = live.serve([Step("ok", content="<think>x</think>y", reasoning="r")])
    completion = await live.model(server, reasoning="none").complete(HELLO, caller="t")
    assert completion.content == "<think>x</think>y"
    assert completion.thought is None


async def test_meter_sums_the_per_call_records(live: LiveModels) -> None:
    server = live.serve(
        [
            Step("ok", prompt_tokens=20, completion_tokens=5, reasoning="one two three"),
            "500",
            Step("ok", prompt_tokens=30, completion_tokens=8),
        ]
    )
    model = live.model(server)
    with Meter().active() as meter:
        await model.complete(HELLO, caller="responder")
        await model.complete(HELLO, caller="memory")
    first, second = meter.records
    assert (first.caller, first.prompt_tokens, first.completion_tokens) == ("responder", 20, 5)
    assert first.reasoning_tokens == count_tokens("one two three")
    assert (second.caller, second.attempts, second.cached) == ("memory", 2, False)
    assert first.latency_s > 0 and second.latency_s > 0
    assert (first.provider, first.model) == ("faulty", "test-model")
    summary = meter.summary()
    assert summary["model_calls"] == 2
    assert summary["cache_hits"] == 0
    assert summary["prompt_tokens"] == 50
    assert summary["completion_tokens"] == 13
    assert summary["reasoning_tokens"] == first.reasoning_tokens
    assert summary["latency_s"] == pytest.approx(first.latency_s + second.latency_s, abs=1e-3)
    assert set(summary["by_caller"]) == {"responder", "memory"}
    assert summary["by_caller"]["memory"]["prompt_tokens"] == 30


class Answer(BaseModel):
    letter: str
    count: int


async def test_settings_and_schema_reach_the_server(live: LiveModels) -> None:
    server = live.serve(["ok", "ok"])
    model = live.model(server, temperature=0.7, max_tokens=333)
    messages: list[LLMMessage] = [system("You host Hangman."), user("Is there an E?")]
    await model.complete(
        messages, caller="t", seed=1234, temperature=0.0, max_tokens=64, response_schema=Answer
    )
    await model.complete(messages, caller="t")
    explicit, defaults = server.bodies
    assert explicit["model"] == "test-model"
    assert (explicit["seed"], explicit["temperature"], explicit["max_tokens"]) == (1234, 0.0, 64)
    schema = explicit["response_format"]
    assert schema["type"] == "json_schema"
    assert schema["json_schema"]["name"] == "Answer"
    assert set(schema["json_schema"]["schema"]["properties"]) == {"letter", "count"}
    roles = [(m["role"], m["content"]) for m in explicit["messages"]]
    assert roles == [("system", "You host Hangman."), ("user", "Is there an E?")]
    assert (defaults["temperature"], defaults["max_tokens"]) == (0.7, 333)
    assert "seed" not in defaults and "response_format" not in defaults


async def test_extra_body_is_merged_into_the_request(live: LiveModels) -> None:
    server = live.serve(["ok"])
    await live.model(server, extra_body={"top_k": 5}).complete(HELLO, caller="t")
    assert server.bodies[0]["top_k"] == 5


LOOKUP: ToolSchema = {
    "name": "lookup",
    "description": "Look a word up.",
    "parameters": {"type": "object", "properties": {"word": {"type": "string"}}},
}


async def test_tool_calls_and_their_absence(live: LiveModels) -> None:
    server = live.serve(
        [Step("tool_call", tool_arguments={"word": "apple"}), "no_tool_call", "empty"]
    )
    model = live.model(server)
    called = await model.complete(HELLO, caller="t", tools=[LOOKUP])
    assert called.finish_reason == "function_calls"
    assert [(c.name, c.arguments) for c in called.tool_calls] == [("lookup", {"word": "apple"})]
    assert server.bodies[0]["tools"][0]["function"]["name"] == "lookup"
    plain = await model.complete(HELLO, caller="t", tools=[LOOKUP])
    assert plain.tool_calls == ()
    assert "plain text" in plain.content
    empty = await model.complete(HELLO, caller="t")
    assert (empty.content, empty.thought, empty.usage.attempts) == ("", None, 1)


async def test_real_clients_are_refused_without_the_fixture() -> None:
    with FaultServer(["ok"]) as server:
        model = build_model("faulty", openai_config(server.base_url))
        with pytest.raises(RealModelBlockedError, match="provider 'faulty'"):
            await model.complete(HELLO, caller="t")
        assert server.hits == 0


def test_the_decoder_schema_requires_every_field_even_those_with_defaults() -> None:
    class Inner(BaseModel):
        note: str = ""

    class Outer(BaseModel):
        items: list[Inner] = []
        properties: dict[str, int] = {"properties": 1}
        label: str | None = None
        count: int

    schema = response_format_for(Outer)["json_schema"]["schema"]
    assert schema["required"] == ["items", "properties", "label", "count"]
    assert schema["$defs"]["Inner"]["required"] == ["note"]
    assert schema["properties"]["properties"]["default"] == {"properties": 1}
    assert "required" not in schema["properties"]
    assert Outer.model_validate({"count": 1}).items == []  # validation keeps the defaults
