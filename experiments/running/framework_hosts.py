"""Where the runner finds an agent of another framework: its host builder, by framework name
or import path. A bridge (``cogarch.bridges``, the top layer) provides the builder; it is
named here by import path and imported only when a run names its framework, since each
bridge is an optional extra."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from cogarch.core.host import AgentHost
from cogarch.core.memory import ModelSource
from cogarch.registry import Registry


class HostBuilder(Protocol):
    """What the runner asks of a framework entry's builder, made once per run as
    ``builder(factory, name=..., provider=..., params=...)``."""

    def host(self, models: ModelSource, seed: int) -> AgentHost:
        """A fresh agent for one trial."""
        ...

    def check(self, models: ModelSource) -> None:
        """Refuse, before the first trial, an agent a task could not play (fork, say)."""
        ...


FRAMEWORKS: Registry[Callable[..., HostBuilder]] = Registry("agent framework")
"""Host builders by framework name (each also the name of the package extra its bridge
needs); a run config may also name one by import path (``package.module:Builder``)."""
FRAMEWORKS.register(
    "agent-framework", "cogarch.bridges.agent_framework.hosting:FrameworkAgentBuilder"
)
