"""Tasks by kind: :func:`build_task` makes one from its kind and parameters (:data:`TASKS`
lists the kinds). The interface a task implements is :class:`cogarch.core.Task`. Each name is
imported from its file on first use."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cogarch.tasks.registry import TASKS, build_task

_FROM = {
    "registry": ("TASKS", "build_task"),
}
_WHERE = {name: module for module, names in _FROM.items() for name in names}


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{_WHERE[name]}"), name)


__all__ = [
    "TASKS",
    "build_task",
]
