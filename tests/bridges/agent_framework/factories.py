"""Agent factories the bridge's run-config tests name by import path."""

from __future__ import annotations

from typing import Any, ClassVar

from agent_framework import Agent, ContextProvider

from cogarch.bridges.agent_framework import FactoryContext, WorkspaceFrameworkAgent
from cogarch.workspace.spec import build_agent, load_agent_spec


def vanilla(ctx: FactoryContext) -> Agent:
    """A plain Agent Framework agent over the entry's provider, prompted as cogarch's vanilla
    agent is."""
    assert ctx.chat_client is not None
    return Agent(ctx.chat_client, "You are a helpful assistant.", name=ctx.name)


def workflow(ctx: FactoryContext) -> WorkspaceFrameworkAgent:
    """cogarch's composed workflow agent, as an Agent Framework agent."""
    spec = load_agent_spec("workflow", dict(ctx.params))
    agent = build_agent(spec, ctx.models, name=ctx.name, provider=ctx.provider, seed=ctx.seed)
    return WorkspaceFrameworkAgent(agent)


def service_thread(ctx: FactoryContext) -> Agent:
    """An agent that continues a service-side conversation: it cannot be forked."""
    assert ctx.chat_client is not None
    return Agent(ctx.chat_client, default_options={"conversation_id": "conv_1"})


class RemoteNotes(ContextProvider):
    """Keeps notes outside the session (a dict standing for a memory service)."""

    service: ClassVar[dict[str, list[str]]] = {}

    async def after_run(self, *, agent: Any, session: Any, context: Any, state: Any) -> None:
        self.service.setdefault("user", []).append(context.response.text)


def remote_memory(ctx: FactoryContext) -> Agent:
    """An agent whose memory lives on a service: it cannot be forked by a session copy."""
    assert ctx.chat_client is not None
    return Agent(ctx.chat_client, context_providers=[RemoteNotes("notes")])


def not_an_agent(ctx: FactoryContext) -> str:
    return "agent"
