"""What a model call returns and what it costs."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Usage:
    """One metered model call. ``cached`` calls cost nothing and are not model calls."""

    caller: str
    provider: str
    model: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    reasoning_tokens: int = 0
    latency_s: float = 0.0
    cached: bool = False
    attempts: int = 1

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
