"""Tasks by kind: :func:`build_task` makes one from its kind and parameters (:data:`TASKS`
lists the kinds). The interface a task implements is :class:`cogarch.core.Task`. Each name is
imported from its file on first use."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogarch.lazy import lazy_names

if TYPE_CHECKING:
    from cogarch.tasks.registry import TASKS, build_task

_FROM = {
    "registry": ("TASKS", "build_task"),
}
__getattr__ = lazy_names(__name__, _FROM)

__all__ = [
    "TASKS",
    "build_task",
]
