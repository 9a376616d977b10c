"""Execution backends: where the runner's trials run."""

from __future__ import annotations

from collections.abc import Callable

from cogarch.core.backend import ExecutionBackend, TrialFn

from ..execution import ExecutionConfig
from .local import LocalBackend, LocalHandle


def backend_factory(execution: ExecutionConfig) -> Callable[[TrialFn, int], ExecutionBackend]:
    """The backend ``execution`` asks for, from the driver's trial function and concurrency.

    Ray is imported only when it is chosen, so the package works without it.
    """
    if execution.backend == "ray":
        from .ray import RayBackend

        return lambda _play, concurrency: RayBackend(execution, concurrency)
    return lambda play, concurrency: LocalBackend(play, concurrency)


__all__ = ["LocalBackend", "LocalHandle", "backend_factory"]
