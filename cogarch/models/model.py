"""The model boundary: one ``complete`` call with retries, metering, caching and reasoning split."""

from __future__ import annotations

import asyncio
import random
import re
import time
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, nullcontext
from typing import Any, Literal

import openai
from autogen_core import FunctionCall
from autogen_core.models import ChatCompletionClient, CreateResult, LLMMessage
from autogen_core.tools import ToolSchema
from pydantic import BaseModel, ValidationError

from cogarch.core.model import ChatModel, Completion, ToolCall, Usage
from cogarch.errors import ModelCallError, RealModelBlockedError
from cogarch.io import loads_json
from cogarch.models import prompt_cache
from cogarch.models.cache import CachedCompletion, CachedToolCall, ResponseCache, cache_key
from cogarch.models.endpoints import endpoint_gate
from cogarch.models.fakes import CallOrigin, FakeChatClient
from cogarch.models.guard import model_requests_allowed
from cogarch.models.metering import record as record_usage
from cogarch.models.response_format import response_format_for
from cogarch.models.retry import RetryPolicy, is_transient
from cogarch.models.slots import current_slot
from cogarch.models.tracing import chat_span, record_completion
from cogarch.tokens import count_tokens

ReasoningMode = Literal["auto", "field", "think_tags", "none"]
"""How reasoning arrives: a separate field (``reasoning_content``), ``<think>`` tags in the
content, either (``auto``), or never (``none``)."""

_THINK = re.compile(r"<think>(.*?)(?:</think>|$)", re.DOTALL | re.IGNORECASE)


def split_reasoning(
    content: str, thought: str | None, mode: ReasoningMode
) -> tuple[str, str | None]:
    """Move reasoning out of the public content; return ``(content, thought)``."""
    if mode == "none":
        return content, None
    if mode in ("auto", "think_tags") and "<think>" in content.lower():
        parts = [m.strip() for m in _THINK.findall(content)]
        content = _THINK.sub("", content).strip()
        tagged = "\n".join(p for p in parts if p)
        thought = "\n".join(t for t in (thought, tagged) if t) or None
    return content, thought


class Model:
    """A named provider's model, used by every specialist and memory module.

    ``client`` is any AutoGen ``ChatCompletionClient`` (or a factory that builds one on first
    use, so an embedded server only starts when a call needs it). The prompt tokens a server
    served from its cache are recorded for clients whose HTTP client reads them (those the
    providers build: see :mod:`cogarch.models.prompt_cache`) and for fakes that report them.

    Args:
        client: The AutoGen client that answers, or a function that builds it on first use.
        provider: The provider's name, as metered and named in errors.
        model: The model's name at the endpoint, as metered and part of the cache key.
        temperature: The sampling temperature of every call that gives none (None: the
            client's default).
        max_tokens: The completion limit of every call that gives none (None: the client's).
        extra_body: Further fields sent in every request's body.
        reasoning: Where the model's reasoning arrives: ``field`` (a separate
            ``reasoning_content``), ``think_tags`` (``<think>`` tags in the content), ``auto``
            (either) or ``none``; it is moved out of the public reply into the thought.
        retry: How transient failures are retried (default: :class:`RetryPolicy`'s).
        cache: The response cache for seeded calls (None: no caching).
        endpoint: The server's URL, named in errors and part of the cache key.
        fake: Whether the client is a scripted fake, which may answer where real model
            requests are switched off.
        max_in_flight: At most this many requests open at once against the endpoint, per
            process (None: no limit).
        slots: Keep each trial's calls to one of this many server slots (llama.cpp's
            ``id_slot``; None: no slot pinning).
        slot_server: What the slots are counted per (default: the endpoint, else the
            provider).
    """

    def __init__(
        self,
        client: ChatCompletionClient | Callable[[], ChatCompletionClient],
        *,
        provider: str,
        model: str,
        temperature: float | None = None,
        max_tokens: int | None = None,
        extra_body: Mapping[str, Any] | None = None,
        reasoning: ReasoningMode = "auto",
        retry: RetryPolicy | None = None,
        cache: ResponseCache | None = None,
        endpoint: str | None = None,
        fake: bool = False,
        max_in_flight: int | None = None,
        slots: int | None = None,
        slot_server: str | None = None,
    ) -> None:
        self._client = client if isinstance(client, ChatCompletionClient) else None
        self._factory = None if isinstance(client, ChatCompletionClient) else client
        self._client_lock = asyncio.Lock()
        self.provider = provider
        self.model = model
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.extra_body = dict(extra_body or {})
        self.reasoning: ReasoningMode = reasoning
        self.retry = retry or RetryPolicy()
        self.cache = cache
        self.endpoint = endpoint
        self.fake = fake
        self.max_in_flight = max_in_flight
        """At most this many requests open at once against the endpoint, per process."""
        self.slots = slots or None
        """Keep each trial's calls to one of this many server slots (llama.cpp's ``id_slot``)."""
        self.slot_server = slot_server or endpoint or f"provider:{provider}"
        self._rng = random.Random()

    def __repr__(self) -> str:
        return f"Model(provider={self.provider!r}, model={self.model!r})"

    async def aclose(self) -> None:
        """Close the underlying client's connections (a later call reopens them)."""
        if self._client is not None:
            await self._client.close()
            if self._factory is not None:
                self._client = None

    async def client(self) -> ChatCompletionClient:
        if self._client is None:
            async with self._client_lock:
                if self._client is None:
                    assert self._factory is not None
                    self._client = await asyncio.to_thread(self._factory)
        return self._client

    async def complete(
        self,
        messages: Sequence[LLMMessage],
        *,
        caller: str,
        seed: int | None = None,
        response_schema: type[BaseModel] | Mapping[str, Any] | None = None,
        tools: Sequence[ToolSchema] = (),
        temperature: float | None = None,
        max_tokens: int | None = None,
        role: str | None = None,
    ) -> Completion:
        """Ask the model once (retrying transient failures) and meter the call under ``caller``.

        Calls with a ``seed`` are cached when a cache is configured; calls without one never
        are, so unseeded samples stay independent. A fake client is told ``caller`` and
        ``role``; a real endpoint never sees them.

        Args:
            messages: The conversation to answer.
            caller: Who asks (a specialist's name, ``router``, ``memory:<kind>``), as metered.
            seed: The call's seed (from the trial's), or None.
            response_schema: A pydantic model or JSON schema the answer must follow (sent as the
                response format), or None.
            tools: Tools the model may call.
            temperature: The sampling temperature (default: the provider's).
            max_tokens: The longest answer, in tokens (default: the provider's).
            role: The kind of component asking (``memory_updater``, ``responder``), for fakes.

        Returns:
            The completion: its text, tool calls, reasoning and token counts.

        Raises:
            ModelCallError: When the model cannot be reached after the provider's retries.
        """
        args: dict[str, Any] = {}
        temp = self.temperature if temperature is None else temperature
        limit = self.max_tokens if max_tokens is None else max_tokens
        if temp is not None:
            args["temperature"] = temp
        if limit is not None:
            args["max_tokens"] = limit
        if seed is not None:
            args["seed"] = seed
        if self.extra_body:
            args["extra_body"] = dict(self.extra_body)
        if response_schema is not None:
            args["response_format"] = response_format_for(response_schema)
        with chat_span(self, messages, args, caller=caller, role=role) as span:
            completion = await self._complete(messages, args, tools, caller, role)
            record_completion(span, completion)
        return completion

    async def _complete(
        self,
        messages: Sequence[LLMMessage],
        args: dict[str, Any],
        tools: Sequence[ToolSchema],
        caller: str,
        role: str | None,
    ) -> Completion:
        """The answer from the response cache, else from the client (then cached)."""
        seed = args.get("seed")
        key = None
        if self.cache is not None and seed is not None:
            key = cache_key(
                {
                    "model": self.model,
                    "endpoint": self.endpoint,
                    "args": args,
                    "messages": [m.model_dump(mode="json") for m in messages],
                    "tools": list(tools),
                    "reasoning": self.reasoning,
                }
            )
            hit = self.cache.get(key)
            if hit is not None:
                cached = self._completion_of(hit, caller)
                record_usage(cached.usage)
                return cached

        if not self.fake and not model_requests_allowed():
            raise RealModelBlockedError(
                f"provider '{self.provider}' would call a real model, but model requests are "
                "switched off (the test suite does this); use a fake provider, or mark the test "
                "e2e and run pytest with --e2e"
            )
        origin = CallOrigin(caller, role)
        args = self._with_slot(args)
        result, attempts, latency, served = await self._create_with_retries(
            messages, tools, args, origin
        )
        completion = self._to_completion(result, caller, attempts, latency, served)
        record_usage(completion.usage)
        if key is not None and self.cache is not None:
            try:
                entry = _to_cache(completion)
            except ValidationError:  # a count the cache cannot keep: the answer still stands
                entry = None
            if entry is not None:
                await asyncio.to_thread(self.cache.put, key, entry)  # a synced write
        return completion

    async def _create_with_retries(
        self,
        messages: Sequence[LLMMessage],
        tools: Sequence[ToolSchema],
        args: dict[str, Any],
        origin: CallOrigin,
    ) -> tuple[CreateResult, int, float, int | None]:
        """The result, the attempts it took, the seconds since the first attempt began, and the
        prompt tokens the server served from its cache for the answering attempt (None when it
        did not say)."""
        client = await self.client()
        first = time.perf_counter()
        where = f"provider '{self.provider}' (model {self.model}" + (
            f" at {self.endpoint})" if self.endpoint else ")"
        )
        for attempt in range(self.retry.max_attempts):
            try:
                async with self._gate():
                    with prompt_cache.capture() as served:
                        if isinstance(client, FakeChatClient):
                            result = await client.create(
                                list(messages),
                                tools=list(tools),
                                extra_create_args=args,
                                origin=origin,
                            )
                        else:
                            result = await client.create(
                                list(messages), tools=list(tools), extra_create_args=args
                            )
                latency = time.perf_counter() - first
                return result, attempt + 1, latency, served.cached_tokens
            except Exception as exc:
                if not is_transient(exc):
                    verb = (
                        "rejected the request"
                        if isinstance(exc, openai.APIStatusError)
                        else "failed"
                    )
                    raise ModelCallError(f"{where} {verb}: {type(exc).__name__}: {exc}") from exc
                if attempt + 1 >= self.retry.max_attempts:
                    raise ModelCallError(
                        f"{where} failed after {attempt + 1} attempts; last error: "
                        f"{type(exc).__name__}: {exc}. Check that the endpoint is up and "
                        "reachable, or raise the provider's retry settings."
                    ) from exc
                await asyncio.sleep(self.retry.delay(attempt, self._rng))
        raise AssertionError("unreachable")

    def _with_slot(self, args: dict[str, Any]) -> dict[str, Any]:
        """``args`` with the running trial's slot, when this model keeps trials to slots. The
        slot is left out of the response-cache key: it changes where, not what, is computed."""
        if self.slots is None:
            return args
        slot = current_slot(self.slot_server, self.slots)
        if slot is None:
            return args
        return {**args, "extra_body": {**args.get("extra_body", {}), "id_slot": slot}}

    def _gate(self) -> AbstractAsyncContextManager[object]:
        if self.max_in_flight is None:
            return nullcontext()
        return endpoint_gate(self.endpoint or f"provider:{self.provider}", self.max_in_flight)

    def _to_completion(
        self,
        result: CreateResult,
        caller: str,
        attempts: int,
        latency: float,
        cached_prompt_tokens: int | None = None,
    ) -> Completion:
        calls: list[ToolCall] = []
        if isinstance(result.content, list):
            content = ""
            for item in result.content:
                if isinstance(item, FunctionCall):
                    calls.append(ToolCall(item.name, _parse_arguments(item.arguments), item.id))
        else:
            content = result.content
        content, thought = split_reasoning(content, result.thought, self.reasoning)
        usage = Usage(
            caller=caller,
            provider=self.provider,
            model=self.model,
            prompt_tokens=result.usage.prompt_tokens,
            completion_tokens=result.usage.completion_tokens,
            reasoning_tokens=count_tokens(thought),
            latency_s=round(latency, 6),
            cached=False,
            attempts=attempts,
            cached_prompt_tokens=cached_prompt_tokens,
        )
        return Completion(content, usage, thought, tuple(calls), str(result.finish_reason))

    def _completion_of(self, entry: CachedCompletion, caller: str) -> Completion:
        """A hit reports the original call's tokens, cached prompt tokens and latency."""
        usage = Usage(
            caller=caller,
            provider=self.provider,
            model=self.model,
            prompt_tokens=entry.prompt_tokens,
            completion_tokens=entry.completion_tokens,
            reasoning_tokens=entry.reasoning_tokens,
            latency_s=entry.latency_s,
            cached=True,
            attempts=0,
            cached_prompt_tokens=entry.cached_prompt_tokens,
        )
        calls = tuple(ToolCall(c.name, c.arguments, c.id) for c in entry.tool_calls)
        return Completion(entry.content, usage, entry.thought, calls, entry.finish_reason)


def _parse_arguments(raw: str) -> dict[str, Any] | str:
    try:
        value = loads_json(raw)
    except ValueError:
        return raw
    return value if isinstance(value, dict) else raw


def _to_cache(c: Completion) -> CachedCompletion:
    return CachedCompletion(
        content=c.content,
        thought=c.thought,
        tool_calls=[
            CachedToolCall(name=t.name, arguments=t.arguments, id=t.id) for t in c.tool_calls
        ],
        finish_reason=c.finish_reason,
        prompt_tokens=c.usage.prompt_tokens,
        completion_tokens=c.usage.completion_tokens,
        reasoning_tokens=c.usage.reasoning_tokens,
        cached_prompt_tokens=c.usage.cached_prompt_tokens,
        latency_s=c.usage.latency_s,
    )


class WithRole:
    """A model that tells every call the ``role`` of the component using it (a specialist's
    kind), unless the call names one itself; everything else passes through."""

    def __init__(self, model: ChatModel, role: str) -> None:
        self.inner = model
        self.role = role

    def __repr__(self) -> str:
        return f"WithRole({self.inner!r}, role={self.role!r})"

    @property
    def provider(self) -> str:
        return self.inner.provider

    @property
    def model(self) -> str:
        return self.inner.model

    async def complete(
        self, messages: Sequence[Any], *, caller: str, role: str | None = None, **options: Any
    ) -> Completion:
        return await self.inner.complete(messages, caller=caller, role=role or self.role, **options)

    async def aclose(self) -> None:
        await self.inner.aclose()
