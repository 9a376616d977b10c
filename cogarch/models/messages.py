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
    """A system message.

    Args:
        text: The system prompt.

    Returns:
        The AutoGen system message.
    """
    return SystemMessage(content=text)


def user(text: str, source: str = "user") -> UserMessage:
    """A user message.

    Args:
        text: What the user said.
        source: The message's source name.

    Returns:
        The AutoGen user message.
    """
    return UserMessage(content=text, source=source)


def assistant(text: str, source: str = "assistant", thought: str | None = None) -> AssistantMessage:
    """An assistant message.

    Args:
        text: What the assistant said.
        source: The message's source name.
        thought: The reasoning that came with it, if any.

    Returns:
        The AutoGen assistant message.
    """
    return AssistantMessage(content=text, source=source, thought=thought)


def as_pairs(messages: Sequence[LLMMessage]) -> list[tuple[str, str]]:
    """Messages as ``(role, text)`` pairs, for fakes and logs.

    Args:
        messages: AutoGen messages.

    Returns:
        One ``(role, text)`` pair per message, the role one of system, user, assistant, tool.
    """
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
