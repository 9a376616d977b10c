"""The Ray backend: each trial is a Ray task, on a local instance or an existing cluster.

The driver submits plain-data specs and turns what comes back into records; it alone writes
the results directory. A task whose worker process or node dies is rerun by Ray, at most
``max_retries`` times (system failures only: a trial that fails for a model or task reason
comes back as a failed record and is not retried). A trial Ray gives up on is recorded failed,
naming the cause, so the next run reruns it. At most ``concurrency`` trials are in flight.
"""

from __future__ import annotations

import asyncio
from types import ModuleType

from cogarch.core.backend import TrialCancelledError, TrialSpec
from cogarch.core.records import TrialError, TrialRecord
from cogarch.errors import CogarchError, ConfigError

from ..execution import ExecutionConfig
from .local import LocalHandle
from .ray_connect import Joining, one_line, probe, start_local
from .ray_worker import SERVER_PREFIX, play_trial

RAY_MISSING = "the ray backend needs Ray: pip install 'cogarch[ray]'"


def import_ray() -> ModuleType:
    try:
        import ray
    except ImportError:
        raise ConfigError(RAY_MISSING) from None
    return ray


class RayWorkerError(CogarchError):
    """A Ray worker could not play a trial at all (it lacks a package or an import path)."""


class RayBackend:
    """Runs trial specs as Ray tasks (see the module docstring)."""

    def __init__(self, execution: ExecutionConfig, concurrency: int) -> None:
        if concurrency < 1:
            raise ConfigError(f"concurrency must be at least 1, got {concurrency}")
        self._ray = import_ray()
        self._owns_ray = not self._ray.is_initialized()
        self._joining: Joining | None = None
        if self._owns_ray and execution.address is None:
            start_local(self._ray)
        elif self._owns_ray and execution.address is not None:
            probe(execution.address)
            self._joining = Joining(self._ray, execution.address, execution.connect_timeout_s)
        self._task = self._ray.remote(play_trial).options(
            max_retries=execution.max_retries,
            retry_exceptions=False,
            num_cpus=execution.cpus_per_trial,
        )
        self._retries = execution.max_retries
        self._gate = asyncio.Semaphore(concurrency)
        self._running: set[asyncio.Task[TrialRecord]] = set()

    def submit(self, spec: TrialSpec) -> LocalHandle:
        task = asyncio.get_running_loop().create_task(self._run(spec))
        self._running.add(task)
        task.add_done_callback(self._running.discard)
        return LocalHandle(spec, task)

    async def _run(self, spec: TrialSpec) -> TrialRecord:
        if self._joining is not None:
            await self._joining.ready()
        exceptions = self._ray.exceptions
        async with self._gate:
            ref = self._task.remote(spec.model_dump(mode="json"))
            try:
                data = await asyncio.wrap_future(ref.future())
            except asyncio.CancelledError:
                self._ray.cancel(ref, force=True)
                raise
            except exceptions.TaskCancelledError:
                raise TrialCancelledError(
                    f"trial {spec.index} of agent '{spec.agent}' was cancelled on the cluster"
                ) from None
            except exceptions.RayTaskError as exc:  # the worker could not play it at all
                raise RayWorkerError(
                    f"a Ray worker could not play trial {spec.index} of agent '{spec.agent}' "
                    f"({one_line(getattr(exc, 'cause', None) or exc)}); every node needs "
                    "cogarch, the same extras and the import paths the run config names"
                ) from None
            except exceptions.RayError as exc:
                return self._lost(spec, exc)
        return TrialRecord.model_validate(data)

    def _lost(self, spec: TrialSpec, exc: Exception) -> TrialRecord:
        """The record of a trial Ray gave up on after its retries: failed, so it reruns."""
        task = spec.config.get("task")
        return TrialRecord(
            status="failed",
            run=str(spec.config.get("name", "")),
            agent=spec.agent,
            task=str(task.get("kind", "")) if isinstance(task, dict) else "",
            trial=spec.index,
            seed=spec.seed,
            error=TrialError(
                type=type(exc).__name__,
                message=f"the cluster lost this trial after {self._retries} retries: {exc}",
            ),
        )

    async def aclose(self) -> None:
        pending = list(self._running)
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        if self._joining is not None and not self._joining.joined:
            return  # never joined (or still trying): nothing of this run is on a cluster
        for actor in self._ray.util.list_named_actors():
            if isinstance(actor, str) and actor.startswith(SERVER_PREFIX):
                self._ray.kill(self._ray.get_actor(actor))
        if self._owns_ray:
            self._ray.shutdown()


__all__ = ["RAY_MISSING", "RayBackend", "RayWorkerError", "import_ray"]
