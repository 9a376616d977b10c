"""An Agent Framework agent as the host a cogarch task plays.

The host is an agent and one session of it. It answers (``respond``: one ``agent.run`` on its
session), forks by copying its session (``AgentSession.to_dict`` into ``from_dict``, under a
new session id, the agent shared: Agent Framework agents keep a conversation's state in the
session, not in themselves), shows as private state what the session's providers keep besides
the public history, and saves and loads the session as its state. That is every capability the
Self-Consistency Test asks for (:class:`~cogarch.tasks.sct.engine.SCTHost`); what an Agent
Framework agent cannot give (taking a turn in without replying, episodes, a walk through a
graph) raises :class:`UnsupportedCapabilityError` saying so.

A fork is only a fork when the whole conversation lives in the session. :func:`check_copyable`
refuses an agent or session whose state is elsewhere, with the reason: a service-side
conversation or thread (a ``service_session_id``, a ``conversation_id`` option, a client that
stores conversations on its service), a context provider not known to keep its state in the
session (it may keep it in files or on a service: mark one that does with
``session_copyable = True``), or session state that does not survive serialisation.
"""

from __future__ import annotations

import json
import uuid
import warnings
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, Self

from agent_framework import AgentSession, InMemoryHistoryProvider, SupportsAgentRun

from cogarch.core.host import EpisodeReport, Observation, ReplyReport
from cogarch.core.memory import EpisodeEnd
from cogarch.core.records import WalkStep
from cogarch.core.state import StateError, state_object, state_part, state_value
from cogarch.errors import CogarchError, ConfigError

from .memory_provider import MemoryContextProvider
from .workspace_agent import WorkspaceFrameworkAgent


class SessionCopyError(ConfigError):
    """The agent's conversation state cannot be copied by copying its session."""


class UnsupportedCapabilityError(CogarchError):
    """A task asked an Agent Framework agent for something it cannot do."""


def _copy_problem(agent: SupportsAgentRun, session: AgentSession | None) -> str | None:
    """Why copying ``session`` would not copy the conversation, or None when it would."""
    if session is not None and session.service_session_id is not None:
        return (
            f"its session holds a service-side conversation id ({session.service_session_id!r}): "
            "the conversation lives on the service, so a copy of the session would go on with "
            "the same remote conversation instead of a branch of it"
        )
    options: dict[str, Any] = dict(getattr(agent, "default_options", None) or {})
    if options.get("conversation_id"):
        return (
            f"it is built with conversation_id {options['conversation_id']!r}: every session "
            "continues that service-side conversation, so copies would share it"
        )
    client = getattr(agent, "client", None)
    store = options.get("store")
    if store or (store is None and getattr(client, "STORES_BY_DEFAULT", False)):
        return (
            f"its chat client ({type(client).__name__}) keeps the conversation on its service"
            + (" (store=True)" if store else " by default")
            + "; build the agent with default_options={'store': False} so the history stays "
            "in the session"
        )
    for provider in getattr(agent, "context_providers", None) or []:
        if isinstance(provider, (InMemoryHistoryProvider, MemoryContextProvider)):
            continue
        if getattr(provider, "session_copyable", False):
            continue
        return (
            f"its context provider '{provider.source_id}' ({type(provider).__name__}) is not "
            "known to keep its state in the session (it may keep it in files or on a "
            "service, where copies of the session would share it); set "
            "session_copyable = True on a provider whose state is all in the session"
        )
    if session is not None:
        with warnings.catch_warnings():
            warnings.simplefilter("error", RuntimeWarning)
            try:
                json.dumps(session.to_dict())
            except (RuntimeWarning, TypeError, ValueError) as exc:
                return f"its session state cannot be serialised ({exc})"
    return None


def check_copyable(
    agent: SupportsAgentRun, session: AgentSession | None = None, *, name: str | None = None
) -> None:
    """Refuse an agent (and session) whose conversation does not live in the session alone, so
    copying the session cannot fork it.

    Args:
        agent: The Agent Framework agent.
        session: Its session, when it has one already.
        name: What the error calls the agent (default: its own name).

    Raises:
        SessionCopyError: When the conversation lives on a service (a service-side id, a
            ``conversation_id``, a client that stores it), a context provider may keep state
            outside the session, or the session cannot be serialised; the message says which.
    """
    problem = _copy_problem(agent, session)
    if problem is not None:
        name = name or getattr(agent, "name", None) or type(agent).__name__
        raise SessionCopyError(
            f"the Agent Framework agent '{name}' cannot be forked by copying its session: {problem}"
        )


def copy_session(session: AgentSession) -> AgentSession:
    """An independent copy of ``session`` under a new id, through its serialised form."""
    data = json.loads(json.dumps(session.to_dict()))
    data["session_id"] = str(uuid.uuid4())
    return AgentSession.from_dict(data)


class FrameworkHost:
    """An Agent Framework agent and one session of it, as a cogarch task's host.

    Args:
        agent: The Agent Framework agent.
        session: The session it talks in (default: a new one of the agent's).

    Raises:
        SessionCopyError: The session cannot be copied for a fork (it holds a service-side
            conversation).
    """

    def __init__(self, agent: SupportsAgentRun, session: AgentSession | None = None) -> None:
        self.agent = agent
        self.session = session if session is not None else agent.create_session()
        check_copyable(agent, self.session)
        self.name = getattr(agent, "name", None) or "agent"

    # -- Host ------------------------------------------------------------------------------
    async def respond(self, text: str) -> str:
        response = await self.agent.run(text, session=self.session)
        return response.text

    # -- Forking ---------------------------------------------------------------------------
    def fork(self) -> Self:
        """A branch: the same agent on a copy of the session (refused when the session came
        to hold a service-side conversation since it was made)."""
        check_copyable(self.agent, self.session)
        return type(self)(self.agent, copy_session(self.session))

    # -- PrivateState ----------------------------------------------------------------------
    def private_state(self) -> str:
        """What the session keeps besides the public history: each memory module's private
        text, a composed agent's private state, any other provider's state as JSON."""
        owners: dict[str, Any] = {
            p.source_id: p for p in getattr(self.agent, "context_providers", []) or []
        }
        if isinstance(self.agent, WorkspaceFrameworkAgent):
            owners[self.agent.source_id] = self.agent
        parts: list[str] = []
        for key, value in self.session.to_dict()["state"].items():
            owner = owners.get(key)
            if isinstance(owner, InMemoryHistoryProvider):
                continue  # the public dialogue
            if isinstance(owner, MemoryContextProvider | WorkspaceFrameworkAgent):
                text = owner.private_text(self.session)
            else:
                text = json.dumps(value, sort_keys=True, default=str)
            parts.append(f"[{key}]\n{text}")
        return "\n\n".join(parts)

    def task_state(self) -> dict[str, str] | None:
        return None

    # -- ReplyReporting, Walking -----------------------------------------------------------
    def last_reply(self) -> ReplyReport:
        return ReplyReport()

    def walk(self) -> list[WalkStep]:
        return []

    def transition_counts(self) -> Counter[tuple[str, str]]:
        return Counter()

    # -- StateSaving -----------------------------------------------------------------------
    def save_state(self) -> dict[str, Any]:
        """The session, serialised (``AgentSession.to_dict``)."""
        return json.loads(json.dumps(self.session.to_dict()))

    def load_state(self, state: dict[str, Any]) -> None:
        """Go on from a saved session; one that is not a session's JSON raises
        ``StateError`` naming the part, and the host keeps its session."""
        owner = f"Agent Framework agent '{self.name}'"
        saved = state_object(state, owner)
        state_value(saved, "session_id", str, owner)
        if saved.get("service_session_id") is not None:
            raise StateError(
                f"the {owner} state holds a service-side conversation "
                f"({saved['service_session_id']!r}): the conversation lives on the service, so "
                "this session could not be forked; save a session whose history it holds"
            )
        if "state" in saved:
            state_value(saved, "state", dict, owner)
            self._check_provider_states(saved["state"], owner)
        with state_part(owner, "session"):
            session = AgentSession.from_dict(dict(saved))
        try:
            check_copyable(self.agent, session, name=self.name)
        except SessionCopyError as exc:
            raise StateError(str(exc)) from None
        self.session = session

    def _check_provider_states(self, states: Mapping[str, Any], owner: str) -> None:
        """Check each provider's part of a saved session's state as the provider will read it
        (a memory module's state loaded into a copy, the history's messages listed), so a
        damaged part is refused now, never raised in the middle of a later turn."""
        owners: dict[str, Any] = {
            p.source_id: p for p in getattr(self.agent, "context_providers", []) or []
        }
        if isinstance(self.agent, WorkspaceFrameworkAgent):
            owners[self.agent.source_id] = self.agent
        for key, value in states.items():
            found = owners.get(key)
            if isinstance(found, MemoryContextProvider | WorkspaceFrameworkAgent):
                found.check_state(value, f"{owner}'s '{key}'")
            elif isinstance(found, InMemoryHistoryProvider):
                part = state_object(value, f"{owner}'s '{key}' history")
                if "messages" in part:
                    state_value(part, "messages", list, f"{owner}'s '{key}' history")

    # -- what an Agent Framework agent cannot do -------------------------------------------
    def _unsupported(self, what: str) -> UnsupportedCapabilityError:
        return UnsupportedCapabilityError(
            f"the task asked the Agent Framework agent '{self.name}' to {what}, which the "
            "bridge cannot do; play it in a task that only talks to its host (the SCT tasks)"
        )

    async def observe(
        self, text: str, *, source_ids: Sequence[str] = (), time: str | None = None
    ) -> None:
        raise self._unsupported("take a turn in without replying")

    async def observe_many(self, turns: Sequence[Observation]) -> None:
        raise self._unsupported("take turns in without replying")

    async def end_episode(self, end: EpisodeEnd) -> EpisodeReport:
        raise self._unsupported("end an episode")

    def trim_dialogue(self, budget_tokens: int) -> None:
        raise self._unsupported("trim its dialogue")
