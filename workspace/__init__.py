"""The global workspace: specialists routed over a transition graph around a shared blackboard."""

from .agent import Agent, TurnError
from .conditions import PREDICATES
from .graph import Edge, NodeRouting, TransitionGraph
from .registry import SPECIALISTS, ready_made_agents
from .route_log import RouteLog, StepRecord, Transition
from .router import Router
from .spec import AgentSpec, build_agent, load_agent_spec
from .specialist import BaseSpecialist, StepContext
from .workspace import Message, Workspace

__all__ = [
    "PREDICATES",
    "SPECIALISTS",
    "Agent",
    "AgentSpec",
    "BaseSpecialist",
    "Edge",
    "Message",
    "NodeRouting",
    "RouteLog",
    "Router",
    "StepContext",
    "StepRecord",
    "Transition",
    "TransitionGraph",
    "TurnError",
    "Workspace",
    "build_agent",
    "load_agent_spec",
    "ready_made_agents",
]
