"""Memory modules by kind: :func:`build_memory` makes one from its kind and parameters
(:data:`MEMORY_MODULES` lists the kinds), :class:`WorkingMemory` is the private working memory.
The interface a module implements is :class:`cogarch.core.MemoryModule`. Each name is imported
from its file on first use."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cogarch.memory.registry import MEMORY_MODULES, build_memory
    from cogarch.memory.working.module import WorkingMemory

_FROM = {
    "registry": ("MEMORY_MODULES", "build_memory"),
    "working.module": ("WorkingMemory",),
}
_WHERE = {name: module for module, names in _FROM.items() for name in names}


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{_WHERE[name]}"), name)


__all__ = [
    "MEMORY_MODULES",
    "WorkingMemory",
    "build_memory",
]
