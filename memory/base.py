"""The memory-module interface every private or retrieval memory implements."""

from __future__ import annotations

import copy
from abc import ABC
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Self

from cogarch.tokens import count_tokens

if TYPE_CHECKING:
    from cogarch.core.model import ChatModel


@dataclass(frozen=True)
class TurnRecord:
    """One completed exchange: what the user said, what the agent answered (and thought)."""

    index: int
    user: str
    assistant: str
    thought: str | None = None


@dataclass(frozen=True)
class MemoryItem:
    """A retrieved entry; ``fields`` carries module-specific metadata (tags, timestamps...)."""

    id: str
    text: str
    score: float = 0.0
    fields: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class MemoryContext:
    """What a module may use while it works: a model (by provider name) and the call seed."""

    model: Callable[[str], ChatModel]
    seed: int | None = None
    caller: str = "memory"


class MemoryModule(ABC):  # noqa: B024 - every method has a usable default
    """Ingest turns, retrieve for a query, render for a prompt, fork, save and load state.

    Model calls a module makes go through the model layer with ``caller`` set to the module's
    name, so the active meter records them like any specialist's calls.
    """

    kind: ClassVar[str] = "memory"

    async def ingest(self, turn: TurnRecord, ctx: MemoryContext) -> None:  # noqa: B027
        """Take in a completed turn. The default keeps nothing."""

    async def retrieve(self, query: str, ctx: MemoryContext) -> list[MemoryItem]:
        """Entries relevant to ``query``. The default returns none."""
        return []

    def render(self, budget_tokens: int | None = None) -> str:
        """The text a prompt shows of this memory, within ``budget_tokens`` when given."""
        return ""

    def private_text(self) -> str:
        """The module's private state as text (what the SCT snapshots at the fork)."""
        return self.render()

    def size_tokens(self) -> int:
        return count_tokens(self.private_text())

    def fork(self) -> Self:
        """An independent copy: writes to the copy never reach the original."""
        return copy.deepcopy(self)

    def state(self) -> dict[str, Any]:
        return {k: copy.deepcopy(v) for k, v in vars(self).items() if not k.startswith("_")}

    def load_state(self, state: dict[str, Any]) -> None:
        for key, value in state.items():
            setattr(self, key, copy.deepcopy(value))


def truncate_to_budget(text: str, budget_tokens: int | None) -> str:
    """Keep whole lines from the top until the budget is reached."""
    if budget_tokens is None or count_tokens(text) <= budget_tokens:
        return text
    kept: list[str] = []
    used = 0
    for line in text.splitlines():
        cost = count_tokens(line) + 1
        if used + cost > budget_tokens:
            break
        kept.append(line)
        used += cost
    return "\n".join(kept)
