"""The global workspace: an agent composed from a spec (:func:`load_agent_spec`,
:func:`build_agent`), the :class:`Agent` it makes, a specialist of your own
(:class:`BaseSpecialist` with its :class:`StepContext`), and a composed agent as an AutoGen
chat agent (:class:`WorkspaceChatAgent`); :data:`SPECIALISTS` names the specialist kinds.
Each name is imported from its file on first use."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogarch.lazy import lazy_names

if TYPE_CHECKING:
    from cogarch.workspace.agent import Agent, TurnError
    from cogarch.workspace.autogen_adapter import WorkspaceChatAgent
    from cogarch.workspace.registry import SPECIALISTS, ready_made_agents
    from cogarch.workspace.spec import AgentSpec, build_agent, load_agent_spec
    from cogarch.workspace.specialist import BaseSpecialist, StepContext
    from cogarch.workspace.workspace import Message, Workspace

_FROM = {
    "agent": ("Agent", "TurnError"),
    "autogen_adapter": ("WorkspaceChatAgent",),
    "registry": ("SPECIALISTS", "ready_made_agents"),
    "spec": ("AgentSpec", "build_agent", "load_agent_spec"),
    "specialist": ("BaseSpecialist", "StepContext"),
    "workspace": ("Message", "Workspace"),
}
__getattr__ = lazy_names(__name__, _FROM)

__all__ = [
    "SPECIALISTS",
    "Agent",
    "AgentSpec",
    "BaseSpecialist",
    "Message",
    "StepContext",
    "TurnError",
    "Workspace",
    "WorkspaceChatAgent",
    "build_agent",
    "load_agent_spec",
    "ready_made_agents",
]
