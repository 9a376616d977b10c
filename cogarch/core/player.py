"""The two sides of a task's dialogue: the scripted player and the host (the agent under test).

A task talks to its host through ``respond``; the SCT also forks it and reads its private
state. Scripted hosts (the fake models of the tests) are plain functions of the dialogue so
far and the trial's seed. A proposer is the helper model asking for candidate secrets.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol, Self

Propose = Callable[[int], Awaitable[list[str]]]
"""Ask the helper model for at least ``k`` candidate secrets (it may return fewer)."""


class Player(Protocol):
    """The scripted side of a dialogue: it opens, then reads each reply and asks again."""

    def opener(self) -> str: ...

    def next_message(self) -> str: ...

    def observe(self, reply: str) -> None:
        """Read the host's public reply to the latest message."""


class Host(Protocol):
    """Anything a task can talk to: one async call per user turn, returning the public reply."""

    async def respond(self, text: str) -> str: ...


class TransitionCounts(Protocol):
    def counts(self) -> Counter[tuple[str, str]]: ...


class ForkableHost(Host, Protocol):
    """A host whose state can be read, measured and forked into independent branches."""

    @property
    def state_sizes(self) -> Sequence[int]:
        """Private state tokens after each turn."""
        ...

    @property
    def trace(self) -> TransitionCounts: ...

    def private_state(self) -> str: ...

    def fork(self) -> Self: ...


__all__ = ["ForkableHost", "Host", "Player", "Propose", "TransitionCounts"]
