"""A composed cogarch agent as an Agent Framework agent, so it can run where those run.

Agent Framework keeps a conversation's state in the session; so does this adapter: the
composed agent's whole state (``Agent.save_state``: its workspace, route log and every memory
module, as JSON data) is kept in the session's state under the adapter's ``source_id``, and
each run goes on from it (``Agent.load_state`` into a fresh copy of the agent the adapter
was made with). A session serialised with ``to_dict`` and restored with ``from_dict``, or
kept in a session store, goes on exactly where it was; two sessions never share a
workspace. Between runs of one live session the agent stays in memory and is reloaded only
when the session's state is not the one it last wrote.

As with the AutoGen adapter, only the public reply crosses the boundary: each run passes
the new user messages (one paragraph each) to ``Agent.respond`` and returns its reply.
"""

from __future__ import annotations

import uuid
import weakref
from collections.abc import Awaitable, Mapping
from typing import Any

from agent_framework import (
    AgentResponse,
    AgentResponseUpdate,
    AgentSession,
    BaseAgent,
    Content,
    Message,
    ResponseStream,
    normalize_messages,
)

from cogarch.core.state import state_object, state_part
from cogarch.errors import ConfigError
from cogarch.workspace.agent import Agent

STATE_KEY = "cogarch_agent"


class WorkspaceFrameworkAgent(BaseAgent):
    """Wraps a composed ``Agent``; every session starts from the state it had when wrapped.

    Args:
        agent: The composed agent (a fork of it is kept as every new session's start).
        name: The name Agent Framework knows it by (default: the agent's).
        description: What it does (default: names the agent).
        source_id: Its key in the session state, where the agent's state is kept.
    """

    def __init__(
        self,
        agent: Agent,
        *,
        name: str | None = None,
        description: str | None = None,
        source_id: str = STATE_KEY,
    ) -> None:
        super().__init__(
            name=name or agent.name, description=description or f"cogarch agent '{agent.name}'"
        )
        self.source_id = source_id
        self._initial = agent.fork()
        self._live: weakref.WeakKeyDictionary[AgentSession, tuple[str, Agent]] = (
            weakref.WeakKeyDictionary()
        )

    def agent_of(self, session: AgentSession) -> Agent:
        """The composed agent as ``session`` holds it (a fresh copy for a new session)."""
        state = state_object(
            session.state.get(self.source_id) or {}, f"session state of '{self.source_id}'"
        )
        revision = str(state.get("revision"))
        cached = self._live.get(session)
        if cached is not None and cached[0] == revision:
            return cached[1]
        agent = self._initial.fork()
        if "agent" in state:
            with state_part(f"session state of '{self.source_id}'", "agent"):
                agent.load_state(state["agent"])
        self._live[session] = (revision, agent)
        return agent

    def check_state(self, value: Any, owner: str) -> None:
        """Refuse (``StateError``, naming ``owner``) a session's state of this agent that it
        could not go on from: not an object, or an agent state the composed agent refuses."""
        state = state_object(value, owner)
        if "agent" in state:
            with state_part(owner, "agent"):
                self._initial.fork().load_state(state["agent"])

    def run(
        self,
        messages: Any = None,
        *,
        stream: bool = False,
        session: AgentSession | None = None,
        **kwargs: Any,
    ) -> Awaitable[AgentResponse[Any]] | ResponseStream[AgentResponseUpdate, AgentResponse[Any]]:
        """Answer the new user messages; ``session`` carries the agent's state (None: a
        one-off run from the initial state)."""
        if stream:

            async def updates() -> Any:
                response = await self._run(messages, session)
                yield AgentResponseUpdate(
                    role="assistant",
                    contents=[Content.from_text(response.text)],
                    author_name=self.name,
                )

            return ResponseStream(updates(), finalizer=AgentResponse.from_updates)
        return self._run(messages, session)

    async def _run(self, messages: Any, session: AgentSession | None) -> AgentResponse[Any]:
        texts = [m.text for m in normalize_messages(messages) if str(m.role) == "user" and m.text]
        if not texts:
            raise ConfigError(
                f"agent '{self.name}' was run without a user message to answer; pass the "
                "user's text (or a Message with role 'user')"
            )
        live = session if session is not None else AgentSession()
        agent = self.agent_of(live)
        reply = await agent.respond("\n\n".join(texts))
        revision = uuid.uuid4().hex
        live.state[self.source_id] = {"agent": agent.save_state(), "revision": revision}
        self._live[live] = (revision, agent)
        return AgentResponse(
            messages=[Message(role="assistant", contents=[reply], author_name=self.name)],
            agent_id=self.id,
        )

    def private_text(self, session: AgentSession) -> str:
        """The composed agent's private state in ``session`` (``Agent.private_state``)."""
        return self.agent_of(session).private_state()

    def saved_state(self, session: AgentSession) -> Mapping[str, Any] | None:
        """The composed agent's saved state in ``session`` (None before its first run)."""
        state = session.state.get(self.source_id)
        return state.get("agent") if state else None
