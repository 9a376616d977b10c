"""Cached prompt tokens: read from the server's answer, per call, into ``Completion.usage``.

Through the real OpenAI client against the fault server (both ways servers report it, and
not at all), through fakes, under concurrency, on error and retry paths, for streams, and
through the on-disk response cache (old entries included).
"""

from __future__ import annotations

import asyncio
import importlib
import json
import re
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import openai
import pytest
from autogen_core.models import LLMMessage

from cogarch.errors import ModelCallError
from cogarch.models import FakeReply, FunctionModel, Meter, Model, ResponseCache, user
from cogarch.models.fakes import CallInfo
from cogarch.models.prompt_cache import cached_prompt_tokens_of, capture, http_client
from cogarch.testing import Step, allowing_model_requests
from tests.cogarch import LiveModels

HELLO = [user("Say hello.")]


@pytest.fixture
async def live(_no_real_models: None) -> AsyncIterator[LiveModels]:
    """Real clients against local fault servers; requests allowed for these tests only."""
    with allowing_model_requests():
        async with LiveModels() as models:
            yield models


# -- reading a body ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({"usage": {"prompt_tokens": 9, "prompt_tokens_details": {"cached_tokens": 6}}}, 6),
        ({"usage": {"prompt_tokens_details": {"cached_tokens": 0}}}, 0),  # reported: nothing
        ({"usage": {"prompt_tokens": 9}, "timings": {"cache_n": 4, "prompt_n": 5}}, 4),
        (  # both: the OpenAI field wins
            {"usage": {"prompt_tokens_details": {"cached_tokens": 3}}, "timings": {"cache_n": 4}},
            3,
        ),
        (  # vLLM without --enable-prompt-tokens-details sends null
            {"usage": {"prompt_tokens_details": None}, "timings": {"cache_n": 2}},
            2,
        ),
        ({"usage": {"prompt_tokens_details": None}}, None),
        ({"usage": {"prompt_tokens": 9, "completion_tokens": 1}}, None),
        ({"usage": {"prompt_tokens_details": {"audio_tokens": 0}}}, None),
        ({"usage": {"prompt_tokens_details": {"cached_tokens": "6"}}}, None),
        ({"usage": {"prompt_tokens_details": {"cached_tokens": True}}}, None),
        ({"usage": {"prompt_tokens_details": {"cached_tokens": -1}}}, None),
        ({"usage": {"prompt_tokens_details": {"cached_tokens": 2.5}}}, None),
        ({"timings": {"cache_n": 7.0}}, 7),
        ({"timings": "fast"}, None),
        ({}, None),
        ([1, 2], None),
        (None, None),
    ],
)
def test_cached_prompt_tokens_are_read_from_either_field(body: Any, expected: int | None) -> None:
    assert cached_prompt_tokens_of(body) == expected


# -- the real client against the fault server ----------------------------------------------


@pytest.mark.parametrize("where", ["details", "timings", "both"])
async def test_the_server_report_reaches_the_completion(live: LiveModels, where: str) -> None:
    server = live.serve(prompt_tokens=40, cached_tokens=32, cache_report=where)
    with Meter().active() as meter:
        completion = await live.model(server).complete(HELLO, caller="responder")
    assert completion.usage.prompt_tokens == 40
    assert completion.usage.cached_prompt_tokens == 32
    assert completion.usage.evaluated_prompt_tokens == 8
    assert [r.cached_prompt_tokens for r in meter.records] == [32]


async def test_a_server_that_reports_nothing_leaves_it_absent(live: LiveModels) -> None:
    server = live.serve()
    completion = await live.model(server).complete(HELLO, caller="responder")
    assert completion.usage.cached_prompt_tokens is None  # absent, not 0
    assert completion.usage.evaluated_prompt_tokens is None


async def test_each_call_gets_its_own_report(live: LiveModels) -> None:
    server = live.serve(
        [
            Step("ok", cached_tokens=5),
            Step("ok"),
            Step("ok", cached_tokens=0, cache_report="timings"),
            Step("ok", cached_tokens=9, prompt_tokens=12),
        ]
    )
    model = live.model(server)
    found = [(await model.complete(HELLO, caller="t")).usage for _ in range(4)]
    assert [u.cached_prompt_tokens for u in found] == [5, None, 0, 9]
    assert [u.evaluated_prompt_tokens for u in found] == [6, None, 11, 3]


@pytest.mark.parametrize("fault", ["500", "429", "malformed", "truncated", "drop", "delay:3"])
async def test_after_a_fault_the_answering_attempt_reports(live: LiveModels, fault: str) -> None:
    server = live.serve([Step.parse(fault), Step("ok", cached_tokens=7)], cached_tokens=99)
    completion = await live.model(server).complete(HELLO, caller="t")
    assert completion.usage.attempts == 2
    assert completion.usage.cached_prompt_tokens == 7


async def test_a_failed_attempt_does_not_report_for_the_next_one(live: LiveModels) -> None:
    # the first answer carries a report, but the attempt fails after it (here: the client
    # gives up); the retry is answered without a report, and none is carried over
    server = live.serve([Step("ok", cached_tokens=3), Step("ok")])
    model = live.model(server)
    real = await model.client()
    calls = 0
    original = real.create

    async def create(*args: Any, **kwargs: Any) -> Any:
        nonlocal calls
        calls += 1
        result = await original(*args, **kwargs)
        if calls == 1:
            raise TimeoutError("the client gave up on the first answer")
        return result

    real.create = create  # type: ignore[method-assign]
    completion = await model.complete(HELLO, caller="t")
    assert (completion.usage.attempts, completion.usage.cached_prompt_tokens) == (2, None)


async def test_a_rejected_request_records_nothing_and_fails(live: LiveModels) -> None:
    server = live.serve(["400", Step("ok", cached_tokens=4)])
    model = live.model(server)
    with Meter().active() as meter, pytest.raises(ModelCallError, match="rejected the request"):
        await model.complete(HELLO, caller="t")
    assert meter.records == []
    assert (await model.complete(HELLO, caller="t")).usage.cached_prompt_tokens == 4


async def test_concurrent_requests_each_get_their_own_number(live: LiveModels) -> None:
    """The server is slow, so the requests overlap; each answer names its own count."""

    def cached(body: Any) -> int | None:
        text = body["messages"][-1]["content"]
        n = int(re.findall(r"\d+", text)[0])
        return None if n % 4 == 0 else n

    server = live.serve(default="delay:0.2", cached_tokens=cached)
    model = live.model(server)
    with Meter().active() as meter:
        done = await asyncio.gather(
            *(model.complete([user(f"call {n}")], caller=f"c{n}") for n in range(1, 13))
        )
    assert [c.usage.cached_prompt_tokens for c in done] == [
        None if n % 4 == 0 else n for n in range(1, 13)
    ]
    assert {r.caller: r.cached_prompt_tokens for r in meter.records} == {
        f"c{n}": None if n % 4 == 0 else n for n in range(1, 13)
    }


async def test_a_request_without_capture_is_left_alone(live: LiveModels) -> None:
    server = live.serve(cached_tokens=5)
    client = await live.model(server).client()
    result = await client.create(HELLO)  # straight through the client: nothing to fill
    assert result.content == "Hello from the fault server."


# -- fakes ---------------------------------------------------------------------------------


async def test_fakes_report_cached_tokens_and_concurrent_calls_keep_theirs() -> None:
    async def reply(messages: Sequence[LLMMessage], info: CallInfo) -> FakeReply:
        n = int(str(messages[-1].content).split()[-1])
        await asyncio.sleep(0.01 * (10 - n))  # the first asked answers last
        return FakeReply(content="ok", cached_prompt_tokens=None if n == 5 else n)

    model = Model(FunctionModel(reply), provider="fake", model="fake", fake=True)
    done = await asyncio.gather(*(model.complete([user(f"n {n}")], caller="t") for n in range(10)))
    assert [c.usage.cached_prompt_tokens for c in done] == [
        None if n == 5 else n for n in range(10)
    ]


async def test_plain_text_fakes_report_nothing() -> None:
    model = Model(FunctionModel(lambda m, i: "ok"), provider="fake", model="fake", fake=True)
    assert (await model.complete(HELLO, caller="t")).usage.cached_prompt_tokens is None


# -- streams and error bodies on the HTTP client ----------------------------------------------


def _chunk(content: str, usage: dict[str, Any] | None = None) -> bytes:
    body: dict[str, Any] = {
        "id": "c",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": "m",
        "choices": [{"index": 0, "delta": {"content": content}, "finish_reason": None}],
    }
    if usage is not None:
        body["usage"] = usage
    return b"data: " + json.dumps(body).encode() + b"\n\n"


def _httpx() -> Any:
    """The HTTP library the installed OpenAI SDK is built on (``httpx``, or its successor)."""
    base = next(c for c in openai.DefaultAsyncHttpxClient.__mro__ if c.__name__ == "AsyncClient")
    return importlib.import_module(base.__module__.split(".")[0])


def _mock_client(status: int, content_type: str, body: bytes) -> openai.AsyncOpenAI:
    """An OpenAI client whose every request gets this answer, through our HTTP client."""
    httpx = _httpx()

    def handler(request: Any) -> Any:
        return httpx.Response(status, headers={"content-type": content_type}, content=body)

    transport = httpx.MockTransport(handler)
    return openai.AsyncOpenAI(
        api_key="x",
        base_url="http://mock/v1",
        max_retries=0,
        http_client=http_client(transport=transport),
    )


async def test_streams_pass_through_unread() -> None:
    usage = {"prompt_tokens": 5, "completion_tokens": 2}
    events = _chunk("Hel") + _chunk("lo", usage) + b"data: [DONE]\n\n"
    client = _mock_client(200, "text/event-stream", events)
    with capture() as report:
        stream = await client.chat.completions.create(
            model="m", messages=[{"role": "user", "content": "hi"}], stream=True
        )
        parts = [c.choices[0].delta.content async for c in stream if c.choices]
    assert "".join(p or "" for p in parts) == "Hello"
    assert report.cached_tokens is None  # a stream is never read by the hook
    await client.close()


async def test_a_json_answer_is_read_by_the_hook() -> None:
    body = {
        "id": "c",
        "object": "chat.completion",
        "created": 0,
        "model": "m",
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": "hi"}, "finish_reason": "stop"}
        ],
        "usage": {"prompt_tokens": 5, "completion_tokens": 1, "total_tokens": 6},
        "timings": {"cache_n": 4, "prompt_n": 1},
    }
    client = _mock_client(200, "application/json; charset=utf-8", json.dumps(body).encode())
    with capture() as report:
        answer = await client.chat.completions.create(
            model="m", messages=[{"role": "user", "content": "hi"}]
        )
    assert answer.choices[0].message.content == "hi"
    assert report.cached_tokens == 4
    await client.close()


@pytest.mark.parametrize(
    ("status", "content_type", "body"),
    [
        (500, "application/json", {"error": {"message": "boom"}, "timings": {"cache_n": 3}}),
        (400, "application/json", {"error": {"message": "no"}, "timings": {"cache_n": 3}}),
        (200, "application/json", "{not json"),
    ],
)
async def test_errors_and_odd_bodies_record_nothing(
    status: int, content_type: str, body: Any
) -> None:
    raw = body.encode() if isinstance(body, str) else json.dumps(body).encode()
    client = _mock_client(status, content_type, raw)
    with capture() as report, pytest.raises((openai.OpenAIError, ValueError)):
        await client.chat.completions.create(
            model="m", messages=[{"role": "user", "content": "hi"}]
        )
    assert report.cached_tokens is None
    await client.close()


# -- the response cache --------------------------------------------------------------------


async def test_a_cache_hit_reports_the_original_call(live: LiveModels, tmp_path: Path) -> None:
    server = live.serve([Step("ok", cached_tokens=8, prompt_tokens=20)])
    cache = ResponseCache(tmp_path)
    model = live.model(server, cache=cache)
    first = await model.complete(HELLO, caller="t", seed=1)
    hit = await live.model(server, cache=ResponseCache(tmp_path)).complete(
        HELLO, caller="t", seed=1
    )
    assert server.hits == 1
    assert hit.usage.cached and hit.usage.attempts == 0
    assert (hit.usage.prompt_tokens, hit.usage.cached_prompt_tokens) == (20, 8)
    assert hit.usage.latency_s == first.usage.latency_s > 0


async def test_old_cache_entries_still_hit(live: LiveModels, tmp_path: Path) -> None:
    server = live.serve([Step("ok", content="first", cached_tokens=8)])
    cache = ResponseCache(tmp_path)
    await live.model(server, cache=cache).complete(HELLO, caller="t", seed=2)
    (entry,) = tmp_path.rglob("*.json")
    data = json.loads(entry.read_text(encoding="utf-8"))
    for key in ("cached_prompt_tokens", "latency_s"):
        del data[key]  # as written before these were stored
    entry.write_text(json.dumps(data), encoding="utf-8")
    hit = await live.model(server, cache=ResponseCache(tmp_path)).complete(
        HELLO, caller="t", seed=2
    )
    assert (hit.content, hit.usage.cached) == ("first", True)
    assert (hit.usage.cached_prompt_tokens, hit.usage.latency_s) == (None, 0.0)
    assert server.hits == 1
