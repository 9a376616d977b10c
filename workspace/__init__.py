"""The global workspace: specialists routed over a transition graph around a shared blackboard."""

from workspace.agent import Agent, TurnError
from workspace.graph import Edge, NodeRouting, TransitionGraph
from workspace.registry import SPECIALISTS, ready_made_agents
from workspace.router import PREDICATES, Router
from workspace.spec import AgentSpec, build_agent, load_agent_spec
from workspace.specialist import Specialist, StepContext
from workspace.trace import StepRecord, Trace, Transition
from workspace.workspace import Message, Workspace

__all__ = [
    "PREDICATES",
    "SPECIALISTS",
    "Agent",
    "AgentSpec",
    "Edge",
    "Message",
    "NodeRouting",
    "Router",
    "Specialist",
    "StepContext",
    "StepRecord",
    "Trace",
    "Transition",
    "TransitionGraph",
    "TurnError",
    "Workspace",
    "build_agent",
    "load_agent_spec",
    "ready_made_agents",
]
