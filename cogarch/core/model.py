"""The model interface: what every specialist, memory module and task asks of a model.

Any object with these members can stand in for :class:`cogarch.models.model.Model`, the
implementation over AutoGen clients: a user's own client, a cache, a router across endpoints.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol, runtime_checkable

from pydantic import BaseModel


@dataclass(frozen=True, slots=True)
class Usage:
    """One metered model call.

    A ``cached`` call was served from the on-disk response cache: no request was made now
    (``attempts`` is 0), and its tokens, ``cached_prompt_tokens`` and ``latency_s`` are those
    of the original call it replays, so a replayed trial reports what the original one did.
    """

    caller: str
    provider: str
    model: str
    prompt_tokens: int = 0
    """Prompt tokens sent (as the endpoint counted them)."""
    completion_tokens: int = 0
    reasoning_tokens: int = 0
    latency_s: float = 0.0
    cached: bool = False
    attempts: int = 1
    cached_prompt_tokens: int | None = None
    """Prompt tokens the server served from its prompt (prefix) cache instead of evaluating
    them: ``usage.prompt_tokens_details.cached_tokens``, else llama.cpp's ``timings.cache_n``;
    None when the server reported neither (never a guessed 0)."""

    @property
    def evaluated_prompt_tokens(self) -> int | None:
        """Prompt tokens the server evaluated (sent minus served from its cache, at least 0);
        None when it did not report its cache."""
        if self.cached_prompt_tokens is None:
            return None
        return max(0, self.prompt_tokens - self.cached_prompt_tokens)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class ToolCall:
    name: str
    arguments: dict[str, Any] | str
    id: str = ""


@dataclass(frozen=True, slots=True)
class Completion:
    """A model's answer with its private reasoning kept apart from the public content."""

    content: str
    usage: Usage
    thought: str | None = None
    tool_calls: tuple[ToolCall, ...] = field(default_factory=tuple)
    finish_reason: str = "stop"


@runtime_checkable
class ChatModel(Protocol):
    """A named provider's model: one ``complete`` call per request, and ``aclose``."""

    @property
    def provider(self) -> str:
        """The provider name the model was configured under."""
        ...

    @property
    def model(self) -> str:
        """The model's own name (what the endpoint serves)."""
        ...

    async def complete(
        self,
        messages: Sequence[Any],
        *,
        caller: str,
        seed: int | None = None,
        response_schema: type[BaseModel] | Mapping[str, Any] | None = None,
        tools: Sequence[Any] = (),
        temperature: float | None = None,
        max_tokens: int | None = None,
        role: str | None = None,
    ) -> Completion:
        """Answer ``messages`` (AutoGen ``LLMMessage`` s) once.

        ``caller`` names who asks (a specialist's node name, ``router``, ``memory:<kind>``) and
        is what usage is metered under; ``role`` is the kind of component asking (a specialist
        kind such as ``memory_updater``), for models that answer by role, as fakes do.
        ``response_schema`` asks for JSON of that shape; ``tools`` are AutoGen tool schemas.
        """
        ...

    async def aclose(self) -> None:
        """Release connections; a later call may reopen them."""
        ...


__all__ = ["ChatModel", "Completion", "ToolCall", "Usage"]
