"""Chat messages: AutoGen's typed messages, with short constructors and a plain view."""

from __future__ import annotations

from collections.abc import Sequence

from autogen_core.models import (
    AssistantMessage,
    FunctionExecutionResultMessage,
    LLMMessage,
    SystemMessage,
    UserMessage,
)


def system(text: str) -> SystemMessage:
    """A system message."""
    return SystemMessage(content=text)


def user(text: str, source: str = "user") -> UserMessage:
    """A user message."""
    return UserMessage(content=text, source=source)


def assistant(text: str, source: str = "assistant", thought: str | None = None) -> AssistantMessage:
    """An assistant message (``thought``: the reasoning that came with it)."""
    return AssistantMessage(content=text, source=source, thought=thought)


def as_pairs(messages: Sequence[LLMMessage]) -> list[tuple[str, str]]:
    """``(role, text)`` pairs with role in system/user/assistant/tool, for fakes and logs."""
    pairs: list[tuple[str, str]] = []
    for message in messages:
        if isinstance(message, SystemMessage):
            pairs.append(("system", message.content))
        elif isinstance(message, UserMessage):
            content = message.content
            pairs.append(("user", content if isinstance(content, str) else str(content)))
        elif isinstance(message, AssistantMessage):
            said = message.content
            pairs.append(("assistant", said if isinstance(said, str) else str(said)))
        elif isinstance(message, FunctionExecutionResultMessage):
            pairs.append(("tool", "\n".join(r.content for r in message.content)))
    return pairs
