"""The global workspace: an agent composed from a spec (:func:`load_agent_spec`,
:func:`build_agent`), the :class:`Agent` it makes, a specialist of your own
(:class:`BaseSpecialist` with its :class:`StepContext`), and a composed agent as an AutoGen
chat agent (:class:`WorkspaceChatAgent`); :data:`SPECIALISTS` names the specialist kinds.
Each name is imported from its file on first use."""

# ruff: noqa: F401
# (the imports under TYPE_CHECKING are the public names: cogarch.lazy reads them)
from __future__ import annotations

from typing import TYPE_CHECKING

from cogarch.lazy import lazy_module

if TYPE_CHECKING:
    from cogarch.workspace.agent import Agent, TurnError
    from cogarch.workspace.autogen_adapter import WorkspaceChatAgent
    from cogarch.workspace.registry import SPECIALISTS, ready_made_agents
    from cogarch.workspace.spec import AgentSpec, build_agent, load_agent_spec
    from cogarch.workspace.specialist import BaseSpecialist, StepContext
    from cogarch.workspace.workspace import Message, Workspace

__all__, __getattr__ = lazy_module(__name__)
