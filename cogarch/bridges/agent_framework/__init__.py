"""Microsoft Agent Framework (``agent-framework-core``), both ways.

- :class:`MemoryContextProvider`: any cogarch memory module as a context provider, its state
  in the agent session;
- :class:`FrameworkHost`: any Agent Framework agent as the host a task plays, forked by
  copying its serialised session (built by a factory a run config names, see
  :mod:`.hosting`);
- :class:`WorkspaceFrameworkAgent`: a composed cogarch agent as an Agent Framework agent;
- :class:`CogarchChatClient`: Agent Framework's chat-client interface over a cogarch model,
  scripted fakes included (:func:`scripted_chat_client`).

Needs the ``agent-framework`` extra: ``pip install 'cogarch[agent-framework]'``.
"""

# ruff: noqa: F401
# (these imports are the public names: cogarch.lazy reads them)
from __future__ import annotations

try:
    import agent_framework
except ImportError as exc:  # pragma: no cover - the extra is missing
    raise ImportError(
        "the Agent Framework bridge needs agent-framework-core: "
        "pip install 'cogarch[agent-framework]'"
    ) from exc

from cogarch.lazy import lazy_module

from .chat_client import CogarchChatClient, fake_chat_client, scripted_chat_client
from .host import FrameworkHost, SessionCopyError, check_copyable
from .hosting import FactoryContext, FrameworkAgentBuilder
from .memory_provider import MemoryContextProvider
from .workspace_agent import WorkspaceFrameworkAgent

__all__, __getattr__ = lazy_module(__name__)
