"""A composed agent as an AutoGen chat agent, so it can take part in AutoGen teams.

AutoGen hands a chat agent only the messages that are new to it; the composed agent keeps its
own public dialogue, private state and memory, so the adapter passes on just the newest text
and returns the agent's public reply. Nothing private crosses the boundary: AutoGen sees the
reply and nothing else.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from autogen_agentchat.agents import BaseChatAgent
from autogen_agentchat.base import Response
from autogen_agentchat.messages import BaseChatMessage, TextMessage
from autogen_core import CancellationToken

from cogarch.core.cow import CowList
from cogarch.errors import ConfigError

from .agent import Agent
from .trace import Trace
from .workspace import Workspace

STATE_TYPE = "cogarch.WorkspaceChatAgent"
STATE_VERSION = 1


class WorkspaceChatAgent(BaseChatAgent):
    """Wraps an ``Agent``; each call answers the incoming messages with one reply.

    ``incoming`` says what the agent is given when several messages arrived since it last
    spoke (the team's task and a partner's first message, say): ``newest`` passes the newest
    one, ``all`` joins them in order, one paragraph each. Messages the adapter itself sent are
    never passed back.

    ``on_reset`` returns the agent to the state it had when the adapter was made (the adapter
    keeps a fork of it). ``save_state`` exports the agent's workspace, trace and every memory
    module's state as JSON data; ``load_state`` puts it into an adapter around a freshly built
    agent of the same spec, which then goes on exactly where the saved one was.
    """

    def __init__(
        self,
        agent: Agent,
        *,
        name: str | None = None,
        description: str = "",
        incoming: Literal["newest", "all"] = "newest",
    ) -> None:
        label = name or agent.name
        if not label.isidentifier():
            raise ConfigError(
                f"AutoGen needs a Python identifier as agent name, got '{label}'; pass "
                "name='...' to WorkspaceChatAgent"
            )
        super().__init__(label, description or f"cogarch agent '{agent.name}'")
        if incoming not in ("newest", "all"):
            raise ConfigError(f"incoming must be 'newest' or 'all', got {incoming!r}")
        self.incoming = incoming
        self._initial = agent.fork()
        self._agent = agent

    @property
    def agent(self) -> Agent:
        """The composed agent currently answering (replaced by a fresh fork on reset)."""
        return self._agent

    @property
    def produced_message_types(self) -> Sequence[type[BaseChatMessage]]:
        return (TextMessage,)

    async def on_messages(
        self, messages: Sequence[BaseChatMessage], cancellation_token: CancellationToken
    ) -> Response:
        new = [m for m in messages if m.source != self.name]
        if not new:
            raise ConfigError(
                f"agent '{self.name}' was asked to speak without a new message to answer; give "
                "the team a task, or let another participant speak first"
            )
        if self.incoming == "newest":
            text = new[-1].to_text()
        else:
            text = "\n\n".join(m.to_text() for m in new)
        reply = await self._agent.respond(text)
        return Response(chat_message=TextMessage(content=reply, source=self.name))

    async def on_reset(self, cancellation_token: CancellationToken) -> None:
        self._agent = self._initial.fork()

    async def save_state(self) -> Mapping[str, Any]:
        return agent_state(self._agent)

    async def load_state(self, state: Mapping[str, Any]) -> None:
        load_agent_state(self._agent, state, name=self.name)


def agent_state(agent: Agent) -> dict[str, Any]:
    """The agent's workspace, trace and every memory module's state, as JSON data (what
    ``WorkspaceChatAgent.save_state`` returns)."""
    return {
        "type": STATE_TYPE,
        "version": STATE_VERSION,
        "agent": agent.name,
        "workspace": agent.workspace.state(),
        "trace": agent.trace.to_dict(),
        "state_sizes": list(agent.state_sizes),
        "memory_footprints": list(agent.memory_footprints),
        "memory": {name: module.state() for name, module in agent.memory.items()},
    }


def load_agent_state(agent: Agent, state: Mapping[str, Any], *, name: str | None = None) -> None:
    """Put a state ``agent_state`` made into ``agent``, built from the same spec."""
    label = name or agent.name
    if state.get("type") != STATE_TYPE or state.get("version") != STATE_VERSION:
        raise ConfigError(
            f"agent '{label}' was given a state that is not a {STATE_TYPE} state of "
            f"version {STATE_VERSION}; pass what WorkspaceChatAgent.save_state returned"
        )
    saved, have = sorted(state["memory"]), sorted(agent.memory)
    if state["agent"] != agent.name or saved != have:
        raise ConfigError(
            f"the state of agent '{state['agent']}' (memory: {', '.join(saved) or 'none'}) "
            f"does not fit agent '{agent.name}' (memory: {', '.join(have) or 'none'}); load "
            "it into an agent built from the same spec"
        )
    for module_name, module in agent.memory.items():
        module.load_state(state["memory"][module_name])
    agent.workspace = Workspace.from_state(state["workspace"])
    agent.trace = Trace.from_dict(state["trace"])
    agent.state_sizes = CowList(state["state_sizes"])
    agent.memory_footprints = CowList(state.get("memory_footprints", []))


__all__ = ["WorkspaceChatAgent", "agent_state", "load_agent_state"]
