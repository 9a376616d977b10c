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

from cogarch.errors import ConfigError

from .agent import Agent


class WorkspaceChatAgent(BaseChatAgent):
    """Wraps an ``Agent``; each call answers the incoming messages with one reply.

    ``incoming`` says what the agent is given when several messages arrived since it last
    spoke (the team's task and a partner's first message, say): ``newest`` passes the newest
    one, ``all`` joins them in order, one paragraph each. Messages the adapter itself sent are
    never passed back.

    ``on_reset`` returns the agent to the state it had when the adapter was made (the adapter
    keeps a fork of it). ``save_state`` and ``load_state`` are the agent's own
    (``Agent.save_state``: its workspace, route log and every memory module's state as JSON data),
    so a state loaded into an adapter around a freshly built agent of the same spec goes on
    exactly where the saved one was.

    Args:
        agent: The agent that answers.
        name: The name AutoGen knows it by, a Python identifier (default: the agent's).
        description: What it does, for the team (default: names the agent).
        incoming: What it is given when several messages arrived: ``newest`` or ``all``.

    Raises:
        ConfigError: The name is not a Python identifier, or ``incoming`` is neither
            ``newest`` nor ``all``.
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
        """The agent's state (``Agent.save_state``)."""
        return self._agent.save_state()

    async def load_state(self, state: Mapping[str, Any]) -> None:
        """Go on from a state ``save_state`` returned (``Agent.load_state``)."""
        self._agent.load_state(state)
