"""Agents of other frameworks in a run: the run config's ``{framework: ..., factory: ...}``
entries, built through their bridge (``cogarch.bridges``), which loads only when a run names
one (each bridge is an optional extra)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import Field

from cogarch.errors import ConfigError

from .run_config import AgentEntry, FrameworkAgent

if TYPE_CHECKING:
    from cogarch.bridges.agent_framework.hosting import FrameworkAgentBuilder

EXTRAS = {"agent-framework": "agent-framework"}
"""The package extra each framework's bridge needs, by framework name."""


class FrameworkAgentSpec(FrameworkAgent):
    """A framework entry's agent with the entry's params: what the run records as the agent's
    spec (so a trial file played with other params is told apart on resume)."""

    params: dict[str, Any] = Field(default_factory=dict)

    @classmethod
    def of(cls, entry: AgentEntry) -> FrameworkAgentSpec:
        assert isinstance(entry.agent, FrameworkAgent)
        return cls(**entry.agent.model_dump(), params=entry.params)


def framework_builder(entry: AgentEntry) -> FrameworkAgentBuilder:
    """The builder of a framework entry's agent (its factory imported and checked)."""
    assert isinstance(entry.agent, FrameworkAgent)
    try:
        from cogarch.bridges.agent_framework.hosting import FrameworkAgentBuilder
    except ImportError as exc:
        extra = EXTRAS[entry.agent.framework]
        raise ConfigError(
            f"agent '{entry.label}' is a {entry.agent.framework} agent, whose bridge needs the "
            f"'{extra}' extra: pip install 'cogarch[{extra}]' ({exc})"
        ) from None
    return FrameworkAgentBuilder(
        entry.agent.factory, name=entry.label, provider=entry.provider, params=entry.params
    )
