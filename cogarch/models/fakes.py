"""Fake models that ship with the package: a function plays the model, or a script is replayed.

They are real AutoGen ``ChatCompletionClient``s, so they exercise the same code paths as a
remote model, and they see the seed, response format and tools of each call and, through
:class:`~cogarch.models.model.Model`, who made it (``caller`` and ``role``), so a fake can answer
by role without reading the prompt's wording.
"""

from __future__ import annotations

import asyncio
import inspect
import json
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from autogen_core import CancellationToken, FunctionCall
from autogen_core.models import (
    CreateResult,
    LLMMessage,
    RequestUsage,
)
from autogen_core.tools import Tool, ToolSchema
from pydantic import BaseModel

from cogarch.models import prompt_cache
from cogarch.models.counted_client import CountedClient
from cogarch.models.messages import as_pairs
from cogarch.tokens import count_tokens


@dataclass(frozen=True)
class CallInfo:
    """What a fake sees about a call besides the messages."""

    index: int
    """How many calls the client answered before this one."""
    seed: int | None
    """The call's seed (None: unseeded)."""
    response_format: Mapping[str, Any] | None
    """The structured output the call asks for (its JSON schema), if any."""
    tools: tuple[str, ...]
    """The names of the tools the call offers."""
    args: Mapping[str, Any] = field(default_factory=dict)
    """Every extra argument of the call (seed, temperature, response format...)."""
    caller: str = ""
    """Who asked, as metered (a node name, ``router``, ``memory:<kind>``); empty when the
    client is called directly rather than through a ``Model``."""
    role: str | None = None
    """The kind of component that asked (e.g. ``memory_updater``, ``responder``), when known."""

    def schema_names(self) -> tuple[str, ...]:
        """The names a JSON response format allows under ``properties.name.enum`` (the tool
        names of a tool-call schema), in order."""
        if self.response_format is None:
            return ()
        schema = self.response_format.get("json_schema", {}).get("schema", {})
        options = schema.get("anyOf", [schema])
        names: list[str] = []
        for option in options:
            prop = option.get("properties", {}).get("name", {})
            names += [n for n in prop.get("enum", []) if isinstance(n, str)]
        return tuple(names)


@dataclass(frozen=True)
class CallOrigin:
    """Who makes a call: what :class:`~cogarch.models.model.Model` passes to a fake client."""

    caller: str
    role: str | None = None


@dataclass(frozen=True)
class FakeReply:
    """A scripted answer with optional reasoning and native tool calls.

    ``cached_prompt_tokens`` plays a server that reports its prompt cache: the prompt tokens
    it says it served from the cache (None: it reports nothing, as most fakes do).
    """

    content: str = ""
    """The public reply."""
    thought: str | None = None
    """Reasoning, returned apart from the reply as a reasoning model's."""
    tool_calls: tuple[tuple[str, dict[str, Any]], ...] = ()
    """Native tool calls, each ``(tool name, arguments)``."""
    cached_prompt_tokens: int | None = None
    """The prompt tokens the server says it served from its cache (None: it reports
    nothing)."""


Reply = str | FakeReply
ReplyFn = Callable[[Sequence[LLMMessage], CallInfo], Reply | Awaitable[Reply]]


class FakeChatClient(CountedClient):
    """Base of the fakes: turns a reply into a ``CreateResult`` with estimated usage."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[list[LLMMessage]] = []

    async def _reply(self, messages: Sequence[LLMMessage], info: CallInfo) -> Reply:
        raise NotImplementedError

    async def create(
        self,
        messages: Sequence[LLMMessage],
        *,
        tools: Sequence[Tool | ToolSchema] = [],
        tool_choice: Tool | Literal["auto", "required", "none"] = "auto",
        json_output: bool | type[BaseModel] | None = None,
        extra_create_args: Mapping[str, Any] = {},
        cancellation_token: CancellationToken | None = None,
        origin: CallOrigin | None = None,
    ) -> CreateResult:
        info = CallInfo(
            index=len(self.calls),
            seed=extra_create_args.get("seed"),
            response_format=extra_create_args.get("response_format"),
            tools=tuple(t.name if isinstance(t, Tool) else t["name"] for t in tools),
            args=dict(extra_create_args),
            caller=origin.caller if origin else "",
            role=origin.role if origin else None,
        )
        self.calls.append(list(messages))
        await asyncio.sleep(0)  # a call leaves the event loop to others, as a real one does
        reply = await self._reply(messages, info)
        if isinstance(reply, str):
            reply = FakeReply(content=reply)
        prompt_cache.report(reply.cached_prompt_tokens)
        prompt = sum(count_tokens(text) for _, text in as_pairs(messages))
        completion = count_tokens(reply.content) + count_tokens(reply.thought)
        usage = RequestUsage(prompt_tokens=prompt, completion_tokens=completion)
        self._count(usage)
        if reply.tool_calls:
            calls = [
                FunctionCall(id=f"call_{info.index}_{i}", name=name, arguments=json.dumps(args))
                for i, (name, args) in enumerate(reply.tool_calls)
            ]
            return CreateResult(
                finish_reason="function_calls",
                content=calls,
                usage=usage,
                cached=False,
                thought=reply.content or reply.thought,
            )
        return CreateResult(
            finish_reason="stop",
            content=reply.content,
            usage=usage,
            cached=False,
            thought=reply.thought,
        )


class FunctionModel(FakeChatClient):
    """A Python function plays the model.

    Args:
        fn: ``fn(messages, info) -> str | FakeReply`` (or an awaitable of one): the call's
            AutoGen messages and its :class:`CallInfo` (who asks, the seed, the response
            format and tools).
    """

    def __init__(self, fn: ReplyFn) -> None:
        super().__init__()
        self.fn = fn

    async def _reply(self, messages: Sequence[LLMMessage], info: CallInfo) -> Reply:
        reply = self.fn(messages, info)
        if inspect.isawaitable(reply):
            reply = await reply
        return reply


class ScriptExhaustedError(RuntimeError):
    pass


class ScriptedModel(FakeChatClient):
    """Replays a fixed list of replies in order.

    Args:
        replies: The replies, text or :class:`FakeReply`, one per call; a call past the
            last is an error (``ScriptExhaustedError``).
    """

    def __init__(self, replies: Sequence[Reply]) -> None:
        super().__init__()
        self.replies = list(replies)

    async def _reply(self, messages: Sequence[LLMMessage], info: CallInfo) -> Reply:
        if info.index >= len(self.replies):
            raise ScriptExhaustedError(
                f"the script has {len(self.replies)} replies but call {info.index + 1} was made"
            )
        return self.replies[info.index]


PairsFn = Callable[[Sequence[tuple[str, str]], int, CallInfo], Reply | Awaitable[Reply]]
"""A scripted fake over plain ``(role, text)`` pairs: ``fn(pairs, seed, call) -> text``.

``call`` says who asks (``call.role == "memory_updater"`` for a memory updater) and what the
answer may be (its response format and tools), so a fake never has to read prompt wording.
It may answer with a :class:`FakeReply` instead of text (to report cached prompt tokens, say).
"""


def pairs_model(fn: PairsFn) -> FunctionModel:
    """A fake model played by a ``(pairs, seed, call) -> reply`` function (as the scripted
    hosts and patients are).

    Args:
        fn: The function: ``pairs`` are the call's ``(role, text)`` messages, ``seed`` the
            call's seed (0 when it has none), ``call`` the :class:`CallInfo` (who asks, the
            response format and tools); it returns text or a :class:`FakeReply`, or an
            awaitable of one.

    Returns:
        A :class:`FunctionModel` that answers every call with ``fn``.
    """

    def reply(messages: Sequence[LLMMessage], info: CallInfo) -> Reply | Awaitable[Reply]:
        return fn(as_pairs(messages), info.seed if info.seed is not None else 0, info)

    return FunctionModel(reply)
