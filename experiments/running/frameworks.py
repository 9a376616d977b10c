"""Agents of other frameworks in a run: the run config's ``{framework: ..., factory: ...}``
entries, built by the framework's host builder (``framework_hosts.FRAMEWORKS``)."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from cogarch.errors import ConfigError, UnknownNameError

from .framework_hosts import FRAMEWORKS, HostBuilder
from .run_config import AgentEntry, FrameworkAgent


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
