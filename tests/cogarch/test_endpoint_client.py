"""The lean endpoint client against AutoGen's OpenAI client (the OpenAI SDK), on the same
fault servers: the same request bodies, the same results, the same errors."""

from __future__ import annotations

import asyncio
import gzip
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import openai
import pytest
from autogen_core.models import (
    AssistantMessage,
    ChatCompletionClient,
    CreateResult,
    LLMMessage,
    ModelInfo,
    SystemMessage,
    UserMessage,
)
from autogen_core.tools import ToolSchema
from autogen_ext.models.openai import OpenAIChatCompletionClient

from cogarch.models import Meter, user
from cogarch.models.endpoint_client import EndpointClient
from cogarch.models.http_pool import HttpPool, proxied
from cogarch.models.prompt_cache import capture, http_client
from cogarch.models.providers import DEFAULT_MODEL_INFO, build_model
from cogarch.testing import FaultServer, Step, allowing_model_requests
from tests.cogarch import TIMEOUT_S, closed_port_url, openai_config

INFO: ModelInfo = DEFAULT_MODEL_INFO  # type: ignore[assignment]

CONVERSATION: list[LLMMessage] = [
    SystemMessage(content="You host Hangman."),
    SystemMessage(content="Answer briefly.  \n"),
    UserMessage(content="Is there an E?", source="player"),
    AssistantMessage(content="No E.", source="host"),
    UserMessage(content="Is there an A? ünïcode", source="user"),
]

LOOKUP: ToolSchema = {
    "name": "lookup",
    "description": "Look a word up.",
    "parameters": {"type": "object", "properties": {"word": {"type": "string"}}},
}

ARGS = {"temperature": 0.2, "max_tokens": 64, "seed": 7, "extra_body": {"top_k": 5}}


class Pair:
    """AutoGen's client (the SDK) and the lean one, each on its own server playing the same
    script."""

    def __init__(self, script: list[str | Step], **options: Any) -> None:
        self.servers = [FaultServer(script, **options).start() for _ in range(2)]
        self.sdk = OpenAIChatCompletionClient(
            model="test-model",
            base_url=self.servers[0].base_url,
            api_key="sk-test",
            timeout=TIMEOUT_S,
            max_retries=0,
            model_info=INFO,
            http_client=http_client(),  # type: ignore[call-arg]  # with the cache report hook
        )
        url = self.servers[1].base_url
        self.lean = EndpointClient("test-model", url, "sk-test", timeout=TIMEOUT_S, model_info=INFO)

    async def both(self, call: Callable[[ChatCompletionClient], Awaitable[Any]]) -> tuple[Any, Any]:
        """``call`` on AutoGen's client, then on the lean one: results or raised errors."""
        found = []
        for client in (self.sdk, self.lean):
            try:
                found.append(await call(client))
            except Exception as exc:  # compared below, class and message
                found.append(exc)
        return found[0], found[1]

    async def close(self) -> None:
        await self.sdk.close()
        await self.lean.close()
        for server in self.servers:
            server.close()


@pytest.fixture
async def pair(_no_real_models: None) -> AsyncIterator[Callable[..., Pair]]:
    made: list[Pair] = []

    def make(script: list[str | Step] | None = None, **options: Any) -> Pair:
        made.append(Pair(script or [], **options))
        return made[-1]

    with allowing_model_requests():
        yield make
    for p in made:
        await p.close()


def _same_result(sdk: CreateResult, lean: CreateResult) -> None:
    assert isinstance(lean, CreateResult), lean
    assert lean.model_dump() == sdk.model_dump()


async def test_the_request_body_is_the_one_autogen_sends(pair: Callable[..., Pair]) -> None:
    p = pair(default="ok")
    sdk, lean = await p.both(
        lambda c: c.create(CONVERSATION, tools=[LOOKUP], extra_create_args=ARGS)
    )
    _same_result(sdk, lean)
    (sent_by_sdk,), (sent_by_lean,) = (server.bodies for server in p.servers)
    assert sent_by_lean == sent_by_sdk
    assert sent_by_lean["top_k"] == 5 and sent_by_lean["tool_choice"] == "auto"
    assert sent_by_lean["messages"][0] == {
        "content": "You host Hangman.\nAnswer briefly.",
        "role": "system",
    }
    for server in p.servers:
        headers = server.requests[0].headers
        assert headers["authorization"] == "Bearer sk-test"
        assert headers["content-type"] == "application/json"


@pytest.mark.parametrize(
    "step",
    [
        Step("ok", content="Hello!", reasoning="Greet.", prompt_tokens=21, completion_tokens=3),
        Step("tool_call", tool_arguments={"word": "apple"}),
        Step("empty"),
        Step("ok", cached_tokens=9, cache_report="both"),
    ],
    ids=["reasoning", "tool_call", "empty", "cache_report"],
)
async def test_answers_read_as_autogen_reads_them(pair: Callable[..., Pair], step: Step) -> None:
    p = pair([step])
    reports = []

    async def call(client: ChatCompletionClient) -> CreateResult:
        with capture() as report:
            result = await client.create([user("hi")], tools=[LOOKUP])
        reports.append(report.cached_tokens)
        return result

    sdk, lean = await p.both(call)
    _same_result(sdk, lean)
    assert reports[0] == reports[1] == step.cached_tokens


@pytest.mark.parametrize(
    "fault", ["429", "500", "503", "400", "401", "403", "404", "422", "malformed"]
)
async def test_error_answers_raise_what_the_sdk_raises(
    pair: Callable[..., Pair], fault: str
) -> None:
    p = pair([fault])
    sdk, lean = await p.both(lambda c: c.create([user("hi")]))
    assert isinstance(sdk, Exception) and type(lean) is type(sdk)
    assert str(lean) == str(sdk)
    if isinstance(sdk, openai.APIStatusError):
        assert isinstance(lean, openai.APIStatusError)
        assert (lean.status_code, lean.body) == (sdk.status_code, sdk.body)


@pytest.mark.parametrize("fault", ["delay:3", "drop", "truncated"])
async def test_broken_exchanges_raise_what_the_sdk_raises(
    pair: Callable[..., Pair], fault: str
) -> None:
    p = pair([fault])
    sdk, lean = await p.both(lambda c: c.create([user("hi")]))
    assert type(lean) is type(sdk) and str(lean) == str(sdk)
    assert isinstance(lean, openai.APIConnectionError)


async def test_one_connection_carries_the_calls_one_after_another(
    pair: Callable[..., Pair],
) -> None:
    p = pair(default="ok", keep_alive=True)
    for _ in range(3):
        await p.lean.create([user("hi")])
    assert len(p.lean.pool._idle) == 1
    await p.lean.close()
    assert p.lean.pool._idle == []


async def test_a_model_over_the_lean_client_retries_and_meters(_no_real_models: None) -> None:
    with allowing_model_requests(), FaultServer(["500", "drop", "ok"]) as server:
        model = build_model("lean", openai_config(server.base_url))
        assert isinstance(await model.client(), EndpointClient)
        with Meter().active() as meter:
            completion = await model.complete([user("hi")], caller="t")
        await model.aclose()
    assert completion.content == "Hello from the fault server."
    assert [r.attempts for r in meter.records] == [3]


async def test_nothing_listening_is_a_connection_error(_no_real_models: None) -> None:
    client = EndpointClient("m", closed_port_url(), "k", timeout=TIMEOUT_S, model_info=INFO)
    with pytest.raises(openai.APIConnectionError, match="Connection error"):
        await client.create([user("hi")])
    await client.close()


async def _serve_once(
    reply: Callable[[bytes], bytes],
) -> tuple[asyncio.Server, str, list[bytes]]:
    """A raw HTTP server answering every request with ``reply(request head and body)``."""
    seen: list[bytes] = []

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = await reader.readuntil(b"\r\n\r\n")
        length = next(
            int(line.split(b":")[1])
            for line in head.split(b"\r\n")
            if line.lower().startswith(b"content-length")
        )
        request = head + await reader.readexactly(length)
        seen.append(request)
        writer.write(reply(request))
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    return server, f"http://127.0.0.1:{port}/v1", seen


ANSWER = {
    "choices": [{"index": 0, "message": {"role": "assistant", "content": "hi"}}],
    "usage": {"prompt_tokens": 3, "completion_tokens": 1},
}


async def test_a_chunked_gzip_answer_is_read_whole() -> None:
    packed = gzip.compress(json.dumps(ANSWER).encode())
    chunks = b"".join(
        b"%x\r\n%s\r\n" % (len(packed[i : i + 7]), packed[i : i + 7])
        for i in range(0, len(packed), 7)
    )

    def reply(request: bytes) -> bytes:
        return (
            b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\nContent-Encoding: gzip\r\nConnection: close\r\n\r\n"
            + chunks
            + b"0\r\n\r\n"
        )

    server, url, seen = await _serve_once(reply)
    async with server:
        client = EndpointClient("m", url, "k", timeout=TIMEOUT_S, model_info=INFO)
        result = await client.create([user("hi")])
        await client.close()
    assert (result.content, result.usage.prompt_tokens) == ("hi", 3)
    assert result.finish_reason == "unknown"  # the answer gave none
    assert seen[0].startswith(b"POST /v1/chat/completions HTTP/1.1\r\n")
    assert client.pool._idle == []  # the server closed it


async def test_an_answer_running_to_the_close_is_read_whole() -> None:
    def reply(request: bytes) -> bytes:
        return b"HTTP/1.0 200 OK\r\n\r\n" + json.dumps(ANSWER).encode()

    server, url, _ = await _serve_once(reply)
    async with server:
        pool = HttpPool(url, {})
        answer = await pool.post("/chat/completions", b"{}", TIMEOUT_S)
        await pool.aclose()
    assert (answer.status, json.loads(answer.body)) == (200, ANSWER)


def test_a_proxy_sends_the_provider_through_the_sdk(monkeypatch: pytest.MonkeyPatch) -> None:
    local = "http://127.0.0.1:8000/v1"
    assert not proxied(local)
    monkeypatch.setenv("HTTP_PROXY", "http://proxy.example:3128")
    monkeypatch.setenv("NO_PROXY", "")
    assert proxied(local)
    model = build_model("proxied", openai_config(local))
    assert isinstance(model._factory() if model._factory else None, OpenAIChatCompletionClient)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    assert not proxied(local)


def test_options_that_are_not_body_fields_are_refused() -> None:
    client = EndpointClient("m", "http://127.0.0.1:1/v1", "k", timeout=1.0, model_info=INFO)
    with pytest.raises(ValueError, match="'extra_headers' is not sent"):
        client.body([user("hi")], [], "auto", None, {"extra_headers": {"X": "1"}})
