"""Memory modules by kind: :func:`build_memory` makes one from its kind and parameters
(:data:`MEMORY_MODULES` lists the kinds), :class:`WorkingMemory` is the private working memory.
The interface a module implements is :class:`cogarch.core.MemoryModule`. Each name is imported
from its file on first use."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogarch.lazy import lazy_names

if TYPE_CHECKING:
    from cogarch.memory.registry import MEMORY_MODULES, build_memory
    from cogarch.memory.working.module import WorkingMemory

_FROM = {
    "registry": ("MEMORY_MODULES", "build_memory"),
    "working.module": ("WorkingMemory",),
}
__getattr__ = lazy_names(__name__, _FROM)

__all__ = [
    "MEMORY_MODULES",
    "WorkingMemory",
    "build_memory",
]
