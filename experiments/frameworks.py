"""Agents of other frameworks in a run: the run config's ``{framework: ..., factory: ...}``
entries, built by the framework's host builder, found in :data:`FRAMEWORKS` by short name or
import path. A bridge (``cogarch.bridges``, the top layer) provides the builder; it is
imported only when a run names its framework, since each bridge is an optional extra."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from pydantic import Field

from cogarch.core.host import AgentHost
from cogarch.core.memory import ModelSource
from cogarch.errors import ConfigError, UnknownNameError
from cogarch.registry import Registry

from .run_config import AgentEntry, FrameworkAgent


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


class FrameworkAgentSpec(FrameworkAgent):
    """A framework entry's agent with the entry's params: what the run records as the agent's
    spec (so a trial file played with other params is told apart on resume)."""

    params: dict[str, Any] = Field(default_factory=dict)

    @classmethod
    def of(cls, entry: AgentEntry) -> FrameworkAgentSpec:
        assert isinstance(entry.agent, FrameworkAgent)
        return cls(**entry.agent.model_dump(), params=entry.params)


def framework_builder(entry: AgentEntry) -> HostBuilder:
    """The builder of a framework entry's agent (its factory imported and checked)."""
    assert isinstance(entry.agent, FrameworkAgent)
    framework = entry.agent.framework
    try:
        make = FRAMEWORKS.get(framework)
    except UnknownNameError as exc:
        if framework not in FRAMEWORKS:
            raise
        raise ConfigError(  # a registered bridge that cannot load: its extra is missing
            f"agent '{entry.label}' is a {framework} agent, whose bridge needs the "
            f"'{framework}' extra: pip install 'cogarch[{framework}]' ({exc})"
        ) from None
    return make(entry.agent.factory, name=entry.label, provider=entry.provider, params=entry.params)


__all__ = ["FrameworkAgentSpec", "framework_builder"]
