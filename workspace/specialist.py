"""The base class of the workspace's specialists, and the context a step is given.

The interface itself is :class:`cogarch.core.specialist.Specialist`; an agent takes any object
that has its members. :class:`BaseSpecialist`, the base class of the workspace's own
specialists, adds what they share: validated ``Params``, ``reads`` / ``writes`` for
documentation, and the model of their provider.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from cogarch.core.memory import MemoryContext, MemoryModule
from cogarch.core.model import ChatModel
from cogarch.errors import ConfigError, UnknownNameError
from cogarch.models.model import WithRole

from .workspace import Workspace

if TYPE_CHECKING:
    from .route_log import RouteLog


M = TypeVar("M", bound=MemoryModule)


@dataclass
class StepContext:
    """What a step may use besides the workspace."""

    agent: str
    """The agent's name."""
    models: Callable[[str], ChatModel]
    """Gives the model of a provider name."""
    memory: dict[str, MemoryModule]
    """The agent's memory modules, by name."""
    route_log: RouteLog
    """Every transition the router took and every step it ran, oldest first."""
    seed: int | None = None
    """The seed of the step's model calls (None: unseeded)."""

    def memory_module(self, name: str) -> MemoryModule:
        try:
            return self.memory[name]
        except KeyError:
            valid = ", ".join(sorted(self.memory)) or "(none)"
            raise UnknownNameError(
                f"agent '{self.agent}' has no memory module '{name}'; its modules: {valid}"
            ) from None

    def memory_of(self, name: str, kind: type[M], user: str) -> M:
        """The memory module ``name``, which ``user`` needs to be a ``kind``."""
        module = self.memory_module(name)
        if not isinstance(module, kind):
            raise ConfigError(
                f"'{user}' needs memory '{name}' to be a '{kind.kind}' module, but it is a "
                f"'{module.kind}' module; point its 'memory' at a module of kind '{kind.kind}'"
            )
        return module

    def memory_context(self, caller: str) -> MemoryContext:
        return MemoryContext(model=self.models, seed=self.seed, caller=caller)


class BaseSpecialist(ABC):
    """A unit with one job inside an agent (implements ``cogarch.core.specialist.Specialist``
    over ``Workspace`` and ``StepContext``).

    Subclasses set ``kind`` (the registry name), ``reads`` and ``writes`` (workspace fields or
    broadcast keys, for documentation and drawing) and implement ``step``. Specialists keep no
    per-dialogue state of their own: that lives in the workspace or a memory module, which is
    what makes an agent forkable.

    Args:
        name: The specialist's node name in its agent.
        provider: The provider whose model it calls (None: it calls none, or takes the
            agent's).
        params: Its validated ``Params`` (default: the model's defaults, when it declares
            one).
    """

    kind: ClassVar[str] = "specialist"
    reads: ClassVar[tuple[str, ...]] = ()
    writes: ClassVar[tuple[str, ...]] = ()

    params: Any
    """The validated ``Params`` of a subclass that declares a nested ``Params`` model."""

    def __init__(self, name: str, provider: str | None = None, params: Any = None) -> None:
        self.name = name
        self.provider = provider
        param_model = getattr(type(self), "Params", None)
        self.params = params if params is not None or param_model is None else param_model()

    def model(self, ctx: StepContext) -> ChatModel:
        """The provider's model; its calls carry this specialist's ``kind`` as their role."""
        if self.provider is None:
            raise UnknownNameError(
                f"specialist '{self.name}' needs a provider; set 'provider' on it or on the agent"
            )
        return WithRole(ctx.models(self.provider), self.kind)

    @abstractmethod
    async def step(self, ws: Workspace, ctx: StepContext) -> None: ...

    def describe(self) -> dict[str, Any]:
        """Kind, provider and the parameters that differ from their defaults."""
        params = self.params.model_dump(exclude_defaults=True) if self.params is not None else {}
        return {"kind": self.kind, "provider": self.provider, **params}
