"""The scripted side of a task's dialogue, and the helper that proposes candidate secrets.

The other side, the agent under test, is a host (see :mod:`cogarch.core.host`). Scripted
hosts (the fake models of the tests) are plain functions of the dialogue so far and the
trial's seed. A proposer is the helper model asking for candidate secrets.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Protocol

Propose = Callable[[int], Awaitable[list[str]]]
"""Ask the helper model for at least ``k`` candidate secrets (it may return fewer)."""


class Player(Protocol):
    """The scripted side of a dialogue: it opens, then reads each reply and asks again."""

    def opener(self) -> str: ...

    def next_message(self) -> str: ...

    def observe(self, reply: str) -> None:
        """Read the host's public reply to the latest message."""
