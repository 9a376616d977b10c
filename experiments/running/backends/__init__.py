"""Execution backends: where the runner's trials run."""

from __future__ import annotations

from collections.abc import Callable

from cogarch.core.backend import ExecutionBackend

from ..execution import ExecutionConfig
from ..worker import TrialWorker
from .local import LocalBackend


def backend_factory(
    execution: ExecutionConfig,
) -> Callable[[TrialWorker, int], ExecutionBackend]:
    """The backend ``execution`` asks for, from the driver's worker and concurrency (the
    local backend plays with it; Ray ships each of its runs to the cluster's workers).

    Ray is imported only when it is chosen, so the package works without it.
    """
    if execution.backend == "ray":
        from .ray import RayBackend

        return lambda worker, concurrency: RayBackend(execution, concurrency, worker.setups)
    return lambda worker, concurrency: LocalBackend(worker, concurrency)
