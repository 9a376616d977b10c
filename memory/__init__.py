"""Memory modules by kind: :func:`build_memory` makes one from its kind and parameters
(:data:`MEMORY_MODULES` lists the kinds), :class:`WorkingMemory` is the private working memory.
The interface a module implements is :class:`cogarch.core.MemoryModule`; a module that calls a
model of its own does so with :func:`ask_model`, its ``Params`` based on
:class:`ModelCallParams` (its ``provider``, falling back on the one the driving specialist
lends it). Each name is imported from its file on first use."""

# ruff: noqa: F401
# (the imports under TYPE_CHECKING are the public names: cogarch.lazy reads them)
from __future__ import annotations

from typing import TYPE_CHECKING

from cogarch.lazy import lazy_module

if TYPE_CHECKING:
    from cogarch.memory.model_call import ask_model
    from cogarch.memory.provider_param import ModelCallParams
    from cogarch.memory.registry import MEMORY_MODULES, build_memory
    from cogarch.memory.working.module import WorkingMemory

__all__, __getattr__ = lazy_module(__name__)
