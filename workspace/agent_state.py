"""Saving an agent's state as JSON data and going on from it: the workspace, the route log,
the per-turn sizes and every memory module's state, loaded all or nothing."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from cogarch.core.cow import CowList
from cogarch.core.memory import MemoryModule
from cogarch.core.state import StateError, state_object, state_part, state_value
from cogarch.errors import CogarchError

from .route_log import RouteLog
from .workspace import Workspace

STATE_TYPE = "cogarch.Agent"
STATE_VERSION = 1


class Agent(Protocol):
    """What saving and loading read and replace on a ``cogarch.workspace.agent.Agent``."""

    name: str
    memory: dict[str, MemoryModule]
    workspace: Workspace
    route_log: RouteLog
    state_sizes: CowList[int]
    memory_footprints: CowList[int | None]


def save_agent_state(agent: Agent) -> dict[str, Any]:
    """``agent``'s workspace, route log and every memory module's state, as JSON data."""
    return {
        "type": STATE_TYPE,
        "version": STATE_VERSION,
        "agent": agent.name,
        "workspace": agent.workspace.save_state(),
        "route_log": agent.route_log.save_state(),
        "state_sizes": list(agent.state_sizes),
        "memory_footprints": list(agent.memory_footprints),
        "memory": {name: module.save_state() for name, module in agent.memory.items()},
    }


def load_agent_state(agent: Agent, state: Mapping[str, Any]) -> None:
    """Go on from ``state`` (what :func:`save_agent_state` returned) in ``agent``; all or
    nothing (see ``Agent.load_state``)."""
    owner = f"agent '{agent.name}'"
    state = state_object(state, owner)
    if state.get("type") != STATE_TYPE or state.get("version") != STATE_VERSION:
        raise StateError(
            f"agent '{agent.name}' was given a state that is not a {STATE_TYPE} state of "
            f"version {STATE_VERSION}; pass what Agent.save_state (or an adapter's "
            "WorkspaceChatAgent.save_state) returned"
        )
    memory = state_value(state, "memory", dict, owner)
    saved, have = sorted(memory), sorted(agent.memory)
    if state.get("agent") != agent.name or saved != have:
        raise StateError(
            f"the state of agent '{state.get('agent')}' (memory: "
            f"{', '.join(map(str, saved)) or 'none'}) does not fit agent '{agent.name}' "
            f"(memory: {', '.join(have) or 'none'}); load it into an agent built from the "
            "same spec"
        )
    with state_part(owner, "workspace"):
        workspace = Workspace.from_state(state_value(state, "workspace", dict, owner))
    with state_part(owner, "route_log"):
        route_log = RouteLog.from_state(state_value(state, "route_log", dict, owner))
    sizes = _counts(state_value(state, "state_sizes", list, owner), "state_sizes", owner)
    footprints = state.get("memory_footprints", [])
    state_value({"memory_footprints": footprints}, "memory_footprints", list, owner)
    _counts([f for f in footprints if f is not None], "memory_footprints", owner)
    _load_memory(agent, memory)
    agent.workspace, agent.route_log = workspace, route_log
    agent.state_sizes, agent.memory_footprints = CowList(sizes), CowList(footprints)


def _load_memory(agent: Agent, memory: Mapping[str, Any]) -> None:
    """Load every module's state, or none: a module that refuses its state puts back
    those loaded before it."""
    loaded: list[tuple[MemoryModule, dict[str, Any]]] = []
    try:
        for name, module in agent.memory.items():
            before = module.save_state()
            try:
                module.load_state(memory[name])
            except CogarchError as exc:  # a malformed state or the module's own refusal
                raise StateError(f"agent '{agent.name}', memory module '{name}': {exc}") from None
            loaded.append((module, before))
    except BaseException:
        for module, before in reversed(loaded):
            module.load_state(before)
        raise


def _counts(values: list[Any], part: str, owner: str) -> list[int]:
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        raise StateError(f"the {owner} state's '{part}' holds values that are not counts")
    return values
