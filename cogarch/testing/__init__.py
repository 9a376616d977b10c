"""Test helpers that ship with cogarch: a fault-injecting OpenAI-compatible server
(:class:`FaultServer`, scripted by :class:`Step`) and one that answers by a function of the
request (:class:`ScriptedServer`). Each name is imported from its file on first use."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogarch.lazy import lazy_names

if TYPE_CHECKING:
    from cogarch.testing.fault_server import FaultServer, RecordedRequest, allowing_model_requests
    from cogarch.testing.fault_steps import FAULT_KINDS, Step
    from cogarch.testing.scripted_server import ScriptedServer

_FROM = {
    "fault_server": ("FaultServer", "RecordedRequest", "allowing_model_requests"),
    "fault_steps": ("FAULT_KINDS", "Step"),
    "scripted_server": ("ScriptedServer",),
}
__getattr__ = lazy_names(__name__, _FROM)

__all__ = [
    "FAULT_KINDS",
    "FaultServer",
    "RecordedRequest",
    "ScriptedServer",
    "Step",
    "allowing_model_requests",
]
