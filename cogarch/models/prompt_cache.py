"""What the server says about its prompt cache: the prompt tokens it reused for one call.

Servers that cache prompt prefixes report the reuse in the response body:
``usage.prompt_tokens_details.cached_tokens`` (OpenAI; llama.cpp's server; vLLM with
``--enable-prompt-tokens-details``; SGLang with ``--enable-cache-report``) or llama.cpp's
top-level ``timings.cache_n``. AutoGen's ``CreateResult`` keeps neither, so the body is read
where it arrives: the HTTP client given to the OpenAI client (:func:`http_client`) has a
response hook that parses successful JSON bodies and hands the number to the capture that
:class:`~cogarch.models.model.Model` opens around each request (:func:`capture`). The hook runs
in the requesting task's context, so concurrent calls each fill their own capture. Fake
clients report through :func:`report` directly.

Streams (``text/event-stream``), error statuses and bodies that are not JSON are left alone:
the call then records nothing (None), as does a call made with no capture open.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Protocol

from cogarch.io import loads_json


@dataclass
class PromptCacheReport:
    """Filled during one request: the prompt tokens the server served from its cache."""

    cached_tokens: int | None = None


_CURRENT: ContextVar[PromptCacheReport | None] = ContextVar("cogarch_prompt_cache", default=None)


@contextmanager
def capture() -> Iterator[PromptCacheReport]:
    """Collect what the server reports for the request made inside the block.

    The report is a mutable object shared by reference, so tasks the client spawns for the
    request (they copy the context) fill the same one; each block gets its own.
    """
    slot = PromptCacheReport()
    token = _CURRENT.set(slot)
    try:
        yield slot
    finally:
        _CURRENT.reset(token)


def report(cached_tokens: int | None) -> None:
    """Record ``cached_tokens`` for the request in progress (nothing when None or no capture)."""
    slot = _CURRENT.get()
    if slot is not None and cached_tokens is not None:
        slot.cached_tokens = cached_tokens


def _count(value: Any) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    number = int(value)
    return number if number == value and number >= 0 else None


def cached_prompt_tokens_of(body: Any) -> int | None:
    """The prompt tokens a chat completion body says were served from the server's cache:
    ``usage.prompt_tokens_details.cached_tokens``, else ``timings.cache_n``; None when it says
    neither (or says something that is not a count)."""
    if not isinstance(body, Mapping):
        return None
    usage = body.get("usage")
    details = usage.get("prompt_tokens_details") if isinstance(usage, Mapping) else None
    if isinstance(details, Mapping):
        found = _count(details.get("cached_tokens"))
        if found is not None:
            return found
    timings = body.get("timings")
    return _count(timings.get("cache_n")) if isinstance(timings, Mapping) else None


class _Response(Protocol):
    """The part of an ``httpx`` response the hook reads."""

    @property
    def is_success(self) -> bool: ...
    @property
    def headers(self) -> Mapping[str, str]: ...
    @property
    def content(self) -> bytes: ...
    async def aread(self) -> bytes: ...


_REPORT_KEYS = (b'"cached_tokens"', b'"cache_n"')
"""The keys a body that reports its prompt cache holds (as JSON text)."""


async def _on_response(response: _Response) -> None:
    if _CURRENT.get() is None or not response.is_success:
        return
    if "json" not in response.headers.get("content-type", "").lower():
        return  # a stream (text/event-stream) or something else: never buffered here
    # A body cut short raises here as it would when the client reads it next, inside the
    # same send, so the client reports the same error as without the hook.
    await response.aread()
    content = response.content
    if not any(key in content for key in _REPORT_KEYS):
        return  # says nothing about a cache: not parsed twice (the client parses it too)
    try:
        body = loads_json(content)
    except ValueError:
        return  # not JSON: the client reports that itself
    report(cached_prompt_tokens_of(body))


def http_client(**options: Any) -> Any:
    """The OpenAI SDK's default async HTTP client (its timeouts, limits and redirects) with the
    hook that reads the prompt cache report; ``options`` go to the client."""
    import openai

    hooks = {"response": [_on_response]}
    return openai.DefaultAsyncHttpxClient(event_hooks=hooks, **options)
