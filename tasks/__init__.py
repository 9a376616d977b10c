"""Tasks by kind: :func:`build_task` makes one from its kind and parameters (:data:`TASKS`
lists the kinds). The interface a task implements is :class:`cogarch.core.Task`. Each name is
imported from its file on first use."""

# ruff: noqa: F401
# (the imports under TYPE_CHECKING are the public names: cogarch.lazy reads them)
from __future__ import annotations

from typing import TYPE_CHECKING

from cogarch.lazy import lazy_module

if TYPE_CHECKING:
    from cogarch.tasks.registry import TASKS, build_task

__all__, __getattr__ = lazy_module(__name__)
