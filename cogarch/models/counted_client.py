"""A chat client that answers each call whole and counts its own usage (estimated tokens).

``CountedClient`` is the part of ``ChatCompletionClient`` that the fake models and the bridge
to Inspect's models share: usage summed over calls (``_count``), a stream that yields the one
reply, token counts estimated from the messages, and the capabilities of a model that calls
functions and writes JSON. A subclass writes ``create``.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Mapping, Sequence
from typing import Any, Literal

from autogen_core import CancellationToken
from autogen_core.models import (
    ChatCompletionClient,
    CreateResult,
    LLMMessage,
    ModelCapabilities,
    ModelFamily,
    ModelInfo,
    RequestUsage,
)
from autogen_core.tools import Tool, ToolSchema
from pydantic import BaseModel

from cogarch.models.messages import as_pairs
from cogarch.tokens import count_tokens

CONTEXT_TOKENS = 1_000_000
"""The context such a client claims (``remaining_tokens``)."""

INFO: ModelInfo = {
    "vision": False,
    "function_calling": True,
    "json_output": True,
    "family": ModelFamily.UNKNOWN,
    "structured_output": True,
    "multiple_system_messages": True,
}


class CountedClient(ChatCompletionClient):
    """A client answering each ``create`` whole, its usage summed here (see the module)."""

    def __init__(self) -> None:
        self._usage = RequestUsage(prompt_tokens=0, completion_tokens=0)

    def _count(self, usage: RequestUsage) -> None:
        """Add one call's usage to the total."""
        self._usage = RequestUsage(
            prompt_tokens=self._usage.prompt_tokens + usage.prompt_tokens,
            completion_tokens=self._usage.completion_tokens + usage.completion_tokens,
        )

    def create_stream(
        self,
        messages: Sequence[LLMMessage],
        *,
        tools: Sequence[Tool | ToolSchema] = [],
        tool_choice: Tool | Literal["auto", "required", "none"] = "auto",
        json_output: bool | type[BaseModel] | None = None,
        extra_create_args: Mapping[str, Any] = {},
        cancellation_token: CancellationToken | None = None,
    ) -> AsyncGenerator[str | CreateResult, None]:
        """The whole reply of ``create`` (its text first, when it is text)."""

        async def stream() -> AsyncGenerator[str | CreateResult, None]:
            result = await self.create(
                messages, tools=tools, json_output=json_output, extra_create_args=extra_create_args
            )
            if isinstance(result.content, str):
                yield result.content
            yield result

        return stream()

    async def close(self) -> None:
        return None

    def actual_usage(self) -> RequestUsage:
        return self._usage

    def total_usage(self) -> RequestUsage:
        return self._usage

    def count_tokens(
        self, messages: Sequence[LLMMessage], *, tools: Sequence[Tool | ToolSchema] = []
    ) -> int:
        return sum(count_tokens(text) for _, text in as_pairs(messages))

    def remaining_tokens(
        self, messages: Sequence[LLMMessage], *, tools: Sequence[Tool | ToolSchema] = []
    ) -> int:
        return CONTEXT_TOKENS - self.count_tokens(messages)

    @property
    def capabilities(self) -> ModelCapabilities:
        return {"vision": False, "function_calling": True, "json_output": True}

    @property
    def model_info(self) -> ModelInfo:
        return INFO
