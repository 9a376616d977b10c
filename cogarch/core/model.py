"""The model interface: what every specialist, memory module and task asks of a model.

Any object with these members can stand in for :class:`cogarch.models.model.Model`, the
implementation over AutoGen clients: a user's own client, a cache, a router across endpoints.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from pydantic import BaseModel

from .usage import CallRecord

Usage = CallRecord
"""One metered model call: the model layer's name for the per-call record (one definition,
:class:`cogarch.core.usage.CallRecord`, which a trial file's ``usage.calls`` holds)."""


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
