"""The ``chat {model}`` span of one model call, in the GenAI conventions' attributes.

The span covers the whole logical call: the response-cache lookup, every retry, the answer.
``cogarch.response_cache.hit`` says whether the answer came from cogarch's own response cache
(no request was made; the tokens are the original call's); ``gen_ai.usage.cache_read.
input_tokens`` is the server's prompt cache, reported only when the server reported it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol
from urllib.parse import urlsplit

from autogen_core import FunctionCall
from autogen_core.models import (
    AssistantMessage,
    FunctionExecutionResultMessage,
    SystemMessage,
    UserMessage,
)

from cogarch import tracing
from cogarch.core.model import Completion
from cogarch.models.endpoints import EMBEDDED_ENDPOINT
from cogarch.tracing import AttributeValue, Span, SpanKind, to_json


class Model(Protocol):
    """What the span reads of a :class:`cogarch.models.model.Model`."""

    provider: str
    model: str
    endpoint: str | None
    fake: bool


def provider_name(model: Model) -> str:
    """``gen_ai.provider.name``: the API flavour the model speaks (the conventions' own name
    for OpenAI-compatible endpoints, and cogarch's for its in-process models)."""
    if model.fake:
        return "cogarch.fake"
    if model.endpoint == EMBEDDED_ENDPOINT:
        return "llama.cpp"
    return "openai"


def span_kind(model: Model) -> SpanKind:
    """INTERNAL for a model in this process (fakes, the embedded server), CLIENT otherwise."""
    return "internal" if model.fake or model.endpoint == EMBEDDED_ENDPOINT else "client"


def chat_span(
    model: Model,
    messages: Sequence[Any],
    args: Mapping[str, Any],
    *,
    caller: str,
    role: str | None,
) -> AbstractContextManager[Span]:
    """The span of one call of ``model`` with the request ``args`` it sends (temperature,
    max_tokens, seed, response_format), or :data:`cogarch.tracing.NO_SPAN` while tracing is
    off."""
    tracer = tracing.current_tracer()
    if tracer is None:
        return tracing.NO_SPAN
    attributes: dict[str, AttributeValue] = {
        tracing.OPERATION: "chat",
        "gen_ai.provider.name": provider_name(model),
        "gen_ai.request.model": model.model,
        "gen_ai.output.type": "json" if "response_format" in args else "text",
        "cogarch.provider": model.provider,
        "cogarch.caller": caller,
    }
    for key in ("temperature", "max_tokens", "seed"):
        if args.get(key) is not None:
            attributes[f"gen_ai.request.{key}"] = args[key]
    if role is not None:
        attributes["cogarch.role"] = role
    kind = span_kind(model)
    if kind == "client" and model.endpoint:
        attributes.update(_server(model.endpoint))
    if tracer.capture_content:
        attributes.update(_request_content(messages))
    return tracer.span(f"chat {model.model}", attributes, kind)


def record_completion(span: Span, completion: Completion) -> None:
    """The answer's attributes: finish reason, token usage, whether the cache answered."""
    if not span.is_recording():
        return
    usage = completion.usage
    attributes: dict[str, AttributeValue] = {
        "gen_ai.response.model": usage.model,
        "gen_ai.response.finish_reasons": [completion.finish_reason],
        "gen_ai.usage.input_tokens": usage.prompt_tokens,
        "gen_ai.usage.output_tokens": usage.completion_tokens,
        "gen_ai.usage.reasoning.output_tokens": usage.reasoning_tokens,
        "cogarch.response_cache.hit": usage.cached,
        "cogarch.attempts": usage.attempts,
        "cogarch.latency_s": usage.latency_s,
    }
    if usage.cached_prompt_tokens is not None:
        attributes["gen_ai.usage.cache_read.input_tokens"] = usage.cached_prompt_tokens
    if tracing.capture_content():
        attributes["gen_ai.output.messages"] = to_json([_output_message(completion)])
    span.set_attributes(attributes)


def _server(endpoint: str) -> dict[str, AttributeValue]:
    parts = urlsplit(endpoint)
    if not parts.hostname:
        return {}
    port = parts.port or {"https": 443, "http": 80}.get(parts.scheme)
    found: dict[str, AttributeValue] = {"server.address": parts.hostname}
    if port is not None:
        found["server.port"] = port
    return found


def _request_content(messages: Sequence[Any]) -> dict[str, AttributeValue]:
    """``gen_ai.system_instructions`` and ``gen_ai.input.messages`` (opted-in content)."""
    instructions: list[dict[str, Any]] = []
    history: list[dict[str, Any]] = []
    for message in messages:
        if isinstance(message, SystemMessage):
            instructions.append({"type": "text", "content": message.content})
        elif isinstance(message, UserMessage):
            history.append({"role": "user", "parts": _parts(message.content)})
        elif isinstance(message, AssistantMessage):
            history.append({"role": "assistant", "parts": _parts(message.content)})
        elif isinstance(message, FunctionExecutionResultMessage):
            parts = [
                {"type": "tool_call_response", "id": r.call_id, "response": r.content}
                for r in message.content
            ]
            history.append({"role": "tool", "parts": parts})
    found: dict[str, AttributeValue] = {"gen_ai.input.messages": to_json(history)}
    if instructions:
        found["gen_ai.system_instructions"] = to_json(instructions)
    return found


def _parts(content: Any) -> list[dict[str, Any]]:
    if isinstance(content, str):
        return [{"type": "text", "content": content}]
    parts: list[dict[str, Any]] = []
    for item in content:
        if isinstance(item, str):
            parts.append({"type": "text", "content": item})
        elif isinstance(item, FunctionCall):
            parts.append(
                {"type": "tool_call", "id": item.id, "name": item.name, "arguments": item.arguments}
            )
        else:
            parts.append({"type": type(item).__name__.lower()})
    return parts


def _output_message(completion: Completion) -> dict[str, Any]:
    parts: list[dict[str, Any]] = []
    if completion.thought:
        parts.append({"type": "reasoning", "content": completion.thought})
    if completion.content:
        parts.append({"type": "text", "content": completion.content})
    parts += [
        {"type": "tool_call", "id": c.id, "name": c.name, "arguments": c.arguments}
        for c in completion.tool_calls
    ]
    return {"role": "assistant", "parts": parts, "finish_reason": completion.finish_reason}
