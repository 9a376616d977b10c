"""The spans of an agent: ``invoke_agent {agent}`` per user turn, one per specialist step."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol

from cogarch import tracing
from cogarch.tracing import AttributeValue, Span, text_message, to_json

from .route_log import RouteLog
from .workspace import Workspace

TURN = "cogarch.turn.index"


class Agent(Protocol):
    """What the spans read of a :class:`cogarch.workspace.agent.Agent`."""

    name: str
    workspace: Workspace
    route_log: RouteLog

    @property
    def state_sizes(self) -> Sequence[int]: ...

    @property
    def memory_footprints(self) -> Sequence[int | None]: ...

    @property
    def specialists(self) -> Mapping[str, Any]: ...


def turn_span(agent: Agent, text: str) -> AbstractContextManager[Span]:
    """The span of the turn ``agent`` is about to answer (the user's ``text`` is recorded only
    when contents are captured)."""
    tracer = tracing.current_tracer()
    if tracer is None:
        return tracing.NO_SPAN
    attributes: dict[str, AttributeValue] = {
        tracing.OPERATION: "invoke_agent",
        "gen_ai.agent.name": agent.name,
        TURN: agent.workspace.turn + 1,
        "cogarch.episode": agent.workspace.episode,
    }
    if tracer.capture_content:
        attributes["gen_ai.input.messages"] = to_json([text_message("user", text)])
    return tracer.span(f"invoke_agent {agent.name}", attributes)


def record_turn(span: Span, agent: Agent, reply: str) -> None:
    """What the turn took: its steps, the private state and memory it left, (opted in) the
    reply."""
    if not span.is_recording():
        return
    turn = agent.workspace.turn
    attributes: dict[str, AttributeValue] = {
        "cogarch.turn.steps": sum(1 for s in agent.route_log.steps if s.turn == turn),
        "cogarch.private_state.tokens": agent.state_sizes[-1],
    }
    carried = agent.memory_footprints[-1]
    if carried is not None:
        attributes["cogarch.memory.prompt_tokens"] = carried
    if tracing.capture_content():
        message = text_message("assistant", reply, finish_reason="stop")
        attributes["gen_ai.output.messages"] = to_json([message])
    span.set_attributes(attributes)


def step_span(agent: Agent, node: str, step: int) -> AbstractContextManager[Span]:
    """The span of one specialist step: the node, its kind, and how the router chose it (the
    transition just recorded into ``node``)."""
    tracer = tracing.current_tracer()
    if tracer is None:
        return tracing.NO_SPAN
    into = agent.route_log.transitions[-1] if agent.route_log.transitions else None
    specialist = agent.specialists[node]
    attributes: dict[str, AttributeValue] = {
        "cogarch.step.node": node,
        "cogarch.step.kind": specialist.kind,
        "cogarch.step.index": step,
        "cogarch.step.how": into.how if into is not None and into.target == node else "entry",
        TURN: agent.workspace.turn,
    }
    if into is not None and into.target == node:
        attributes["cogarch.step.source"] = into.source
    return tracer.span(f"step {node}", attributes)
