"""Test helpers that ship with cogarch: a fault-injecting OpenAI-compatible server
(:class:`FaultServer`, scripted by :class:`Step`) and one that answers by a function of the
request (:class:`ScriptedServer`). Each name is imported from its file on first use."""

# ruff: noqa: F401
# (the imports under TYPE_CHECKING are the public names: cogarch.lazy reads them)
from __future__ import annotations

from typing import TYPE_CHECKING

from cogarch.lazy import lazy_module

if TYPE_CHECKING:
    from cogarch.testing.fault_server import FaultServer, RecordedRequest, allowing_model_requests
    from cogarch.testing.fault_steps import FAULT_KINDS, Step
    from cogarch.testing.scripted_server import ScriptedServer

__all__, __getattr__ = lazy_module(__name__)
