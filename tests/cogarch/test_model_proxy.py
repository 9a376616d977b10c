"""The model proxy: a library's own OpenAI client reaches cogarch's model layer through it, and
every call is metered in the context of the operation that made it."""

from __future__ import annotations

import asyncio
import threading

import openai
import pytest
from openai import OpenAI

from cogarch.models.fakes import CallInfo, pairs_model
from cogarch.models.metering import Meter
from cogarch.models.model import Model
from cogarch.models.proxy import get_proxy, response_schema_of

SEEN: list[CallInfo] = []


def echo(pairs: list[tuple[str, str]], seed: int, call: CallInfo) -> str:
    SEEN.append(call)
    return f"echo: {pairs[-1][1]}"


def fake(max_tokens: int | None = None) -> Model:
    return Model(pairs_model(echo), provider="fk", model="fk", fake=True, max_tokens=max_tokens)


def ask(base_url: str, token: str, **extra: object) -> str:
    client = OpenAI(api_key=token, base_url=base_url, max_retries=0)
    reply = client.chat.completions.create(
        model="anything",
        messages=[{"role": "system", "content": "Be brief."}, {"role": "user", "content": "hi"}],
        **extra,  # type: ignore[arg-type]
    )
    return reply.choices[0].message.content or ""


async def test_a_request_is_answered_by_the_bound_model_and_metered() -> None:
    SEEN.clear()
    session = get_proxy().session()
    assert session.base_url.startswith("http://127.0.0.1:")
    meter = Meter()
    with meter.active():
        session.bind(fake(max_tokens=50), caller="memory:lib", role="lib", seed=9)

        def from_a_pool() -> str:  # a library's own worker thread, without our context
            out: list[str] = []
            worker = threading.Thread(
                target=lambda: out.append(
                    ask(
                        session.base_url,
                        session.token,
                        response_format={"type": "json_object"},
                        max_tokens=2000,
                        temperature=0.2,
                    )
                )
            )
            worker.start()
            worker.join()
            return out[0]

        answer = await asyncio.to_thread(from_a_pool)
    assert answer == "echo: hi"
    assert meter.model_calls == 1 and meter.records[0].caller == "memory:lib"
    call = SEEN[-1]
    assert call.seed == 9 and call.role == "lib"
    assert call.args["max_tokens"] == 50  # the provider's limit caps the library's
    assert call.args["temperature"] == 0.2
    assert call.response_format is not None
    assert call.response_format["json_schema"]["schema"]["type"] == "object"
    assert session.requests == 1


async def test_unknown_unbound_and_unsupported_requests_are_refused() -> None:
    proxy = get_proxy()
    session = proxy.session()
    with pytest.raises(openai.AuthenticationError):
        await asyncio.to_thread(ask, proxy.base_url, "not-a-session")
    with pytest.raises(openai.APIStatusError, match="not bound"):
        await asyncio.to_thread(ask, session.base_url, session.token)
    session.bind(fake(), caller="memory:lib")
    tools = [{"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}]
    with pytest.raises(openai.BadRequestError, match="tool calls are not supported"):
        await asyncio.to_thread(ask, session.base_url, session.token, tools=tools)
    assert session.take_errors() == ["ValueError: tool calls are not supported by the proxy"]
    assert session.take_errors() == []


def test_response_formats_become_schemas() -> None:
    assert response_schema_of({}) is None
    assert response_schema_of({"response_format": {"type": "text"}}) is None
    assert response_schema_of({"response_format": {"type": "json_object"}}) == {
        "title": "json_object",
        "type": "object",
    }
    spec = {"name": "Note", "schema": {"type": "object", "properties": {"a": {"type": "string"}}}}
    schema = response_schema_of({"response_format": {"type": "json_schema", "json_schema": spec}})
    assert schema is not None and schema["title"] == "Note" and "a" in schema["properties"]
    with pytest.raises(ValueError, match="unsupported response_format"):
        response_schema_of({"response_format": {"type": "grammar"}})
