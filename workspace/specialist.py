"""The specialist interface: a name, what it reads and writes, and one async step."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from cogarch.errors import UnknownNameError
from cogarch.models.model import Model
from memory.base import MemoryContext, MemoryModule
from workspace.workspace import Workspace

if TYPE_CHECKING:
    from workspace.trace import Trace


@dataclass
class StepContext:
    """What a step may use besides the workspace."""

    agent: str
    models: Callable[[str], Model]
    memory: dict[str, MemoryModule]
    trace: Trace
    seed: int | None = None

    def memory_module(self, name: str) -> MemoryModule:
        try:
            return self.memory[name]
        except KeyError:
            valid = ", ".join(sorted(self.memory)) or "(none)"
            raise UnknownNameError(
                f"agent '{self.agent}' has no memory module '{name}'; its modules: {valid}"
            ) from None

    def memory_context(self, caller: str) -> MemoryContext:
        return MemoryContext(model=self.models, seed=self.seed, caller=caller)


class Specialist(ABC):
    """A unit with one job inside an agent.

    Subclasses set ``kind`` (the registry name), ``reads`` and ``writes`` (workspace fields or
    broadcast keys, for documentation and drawing) and implement ``step``. Specialists keep no
    per-dialogue state of their own: that lives in the workspace or a memory module, which is
    what makes an agent forkable.
    """

    kind: ClassVar[str] = "specialist"
    reads: ClassVar[tuple[str, ...]] = ()
    writes: ClassVar[tuple[str, ...]] = ()

    def __init__(self, name: str, provider: str | None = None) -> None:
        self.name = name
        self.provider = provider

    def model(self, ctx: StepContext) -> Model:
        if self.provider is None:
            raise UnknownNameError(
                f"specialist '{self.name}' needs a provider; set 'provider' on it or on the agent"
            )
        return ctx.models(self.provider)

    @abstractmethod
    async def step(self, ws: Workspace, ctx: StepContext) -> None: ...

    def describe(self) -> dict[str, Any]:
        return {"kind": self.kind, "provider": self.provider}
