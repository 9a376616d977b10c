"""Agent Framework agents in a run: built by a factory the run config names by import path.

A run config's agent entry ``agent: {framework: agent-framework, factory: my_pkg.agents:build}``
names a function ``build(ctx: FactoryContext) -> agent`` that returns any Agent Framework
agent (``agent_framework.Agent`` or anything with ``run`` and ``create_session``). The run
calls it once per trial (and each fork copies that agent's session, see
:mod:`.host`); ``ctx.chat_client`` is a chat client over the entry's provider, seeded with
the trial's seed, so the agent's calls are metered, cached and seeded like a composed
agent's, and a ``kind: fake`` provider plays its model in tests. Before the first trial the
run builds one agent and refuses it, with the reason, when its conversation could not be
forked by copying its session.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from agent_framework import SupportsAgentRun

from cogarch.core.model import ChatModel
from cogarch.errors import CogarchError, ConfigError, debug_enabled, one_line
from cogarch.registry import import_object

from .chat_client import CogarchChatClient
from .host import FrameworkHost, check_copyable


@dataclass(frozen=True)
class FactoryContext:
    """What a factory is given to build one trial's agent."""

    name: str
    """The agent's name in the run (its results folder)."""
    seed: int
    """The trial's seed."""
    chat_client: CogarchChatClient | None
    """A chat client over the entry's provider (None when the entry names none)."""
    models: Callable[[str], ChatModel]
    """The run's models by provider name (for context providers of cogarch memory)."""
    provider: str | None = None
    """The entry's provider (None when it names none)."""
    params: Mapping[str, Any] = field(default_factory=dict)
    """The entry's ``params``."""


Factory = Callable[[FactoryContext], Any]


def load_factory(path: str) -> Factory:
    """The factory function at import path ``path`` (``module:function`` or
    ``file.py:function``), refused with the reason when it is not one."""
    found = import_object(path)
    if not callable(found) or isinstance(found, type):
        raise ConfigError(
            f"factory '{path}' is a {type(found).__name__}, not a function; name a function "
            "build(ctx) that returns the Agent Framework agent"
        )
    try:
        inspect.signature(found).bind(None)
    except TypeError:
        raise ConfigError(
            f"factory '{path}' does not take one argument; define it as build(ctx) (ctx: "
            "cogarch.bridges.agent_framework.FactoryContext)"
        ) from None
    except ValueError:
        pass  # no signature to read; calling it will tell
    return found


class FrameworkAgentBuilder:
    """Builds a run entry's Agent Framework agent for each trial, and its host: the host
    builder the runner finds as ``agent-framework``
    (``cogarch.experiments.running.framework_hosts``).

    Args:
        factory: The import path of the factory function (``module:function`` or
            ``file.py:function``), called with a :class:`FactoryContext` for each trial.
        name: The agent's name in the run.
        provider: The provider whose model the chat client handed to the factory calls
            (None: the factory gets no chat client).
        params: The entry's ``params``, handed to the factory.

    Raises:
        ConfigError: ``factory`` names no function that takes one argument.
    """

    def __init__(
        self,
        factory: str,
        *,
        name: str,
        provider: str | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> None:
        self.path = factory
        self.factory = load_factory(factory)
        self.name = name
        self.provider = provider
        self.params = dict(params or {})

    def build(self, models: Callable[[str], ChatModel], seed: int) -> SupportsAgentRun:
        client = None
        if self.provider is not None:
            client = CogarchChatClient(models(self.provider), seed=seed, caller=self.name)
        ctx = FactoryContext(self.name, seed, client, models, self.provider, self.params)
        try:
            agent = self.factory(ctx)
        except CogarchError:
            raise
        except Exception as exc:  # the factory's own code: one line naming it
            if debug_enabled():
                raise
            raise ConfigError(
                f"factory '{self.path}' of agent '{self.name}' raised {one_line(exc)}; fix the "
                "factory (COGARCH_DEBUG=1 shows the traceback)"
            ) from exc
        if inspect.isawaitable(agent):
            raise ConfigError(
                f"factory '{self.path}' returned an awaitable; make it a plain function that "
                "returns the agent"
            )
        if not callable(getattr(agent, "run", None)) or not callable(
            getattr(agent, "create_session", None)
        ):
            raise ConfigError(
                f"factory '{self.path}' returned a {type(agent).__name__}, not an Agent "
                "Framework agent (it needs run() and create_session())"
            )
        return agent

    def host(self, models: Callable[[str], ChatModel], seed: int) -> FrameworkHost:
        """A fresh agent for one trial, on a new session."""
        return FrameworkHost(self.build(models, seed))

    def check(self, models: Callable[[str], ChatModel]) -> None:
        """Build one agent and refuse it when a task could not fork it (see
        :func:`~.host.check_copyable`); run before the first trial."""
        agent = self.build(models, 0)
        check_copyable(agent, agent.create_session(), name=self.name)
