"""The specialist interface: a named unit with one job, run as one step of an agent's turn.

A specialist reads the agent's blackboard, may call a model, and writes its output back. The
interface is generic in the blackboard (``W``) and the step context (``C``) it is given, so
this module needs neither; :class:`cogarch.workspace.specialist.BaseSpecialist` is the base
class the workspace's own specialists derive from, with ``W`` its ``Workspace`` and ``C`` its
``StepContext``. Any object with these members can be a node of an agent.
"""

from __future__ import annotations

from typing import Any, Protocol, TypeVar, runtime_checkable

W = TypeVar("W", contravariant=True)
C = TypeVar("C", contravariant=True)


@runtime_checkable
class Specialist(Protocol[W, C]):
    """One job inside an agent. Specialists keep no per-dialogue state of their own (that
    lives on the blackboard or in a memory module), which is what makes an agent forkable."""

    @property
    def name(self) -> str:
        """The node name in the agent's transition graph."""
        ...

    @property
    def kind(self) -> str:
        """The registry name of what the specialist does (``responder``, ``planner``...)."""
        ...

    @property
    def provider(self) -> str | None:
        """The provider whose model the specialist calls, if it calls one."""
        ...

    async def step(self, ws: W, ctx: C) -> None:
        """Do the job once: read ``ws``, write the output back to it."""
        ...

    def describe(self) -> dict[str, Any]:
        """The specialist's kind, provider and parameters, as plain data."""
        ...
