"""The Ray backend: each trial is a Ray task, on a local instance or an existing cluster.

The driver submits plain-data specs and turns what comes back into records; it alone writes
the results directory. Each run's config is put in Ray's object store once; a worker process
fetches it the first time it meets the run and builds the run's setup from it, once. A task
whose worker process or node dies is rerun by Ray, at most ``max_retries`` times (system
failures only: a trial that fails for a model or task reason comes back as a failed record
and is not retried). A trial Ray gives up on is recorded failed, naming the cause, so the
next run reruns it. At most ``concurrency`` trials are in flight.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Mapping
from types import ModuleType
from typing import Any

from cogarch import tracing
from cogarch.core.backend import TrialCancelledError, TrialSpec
from cogarch.core.records import TrialError, TrialRecord
from cogarch.errors import CogarchError, ConfigError

from ..execution import ExecutionConfig
from ..worker import RunSetup
from .gated import GatedBackend
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


class RayBackend(GatedBackend):
    """Runs trial specs as Ray tasks (see the module docstring)."""

    def __init__(
        self, execution: ExecutionConfig, concurrency: int, runs: Mapping[str, RunSetup]
    ) -> None:
        super().__init__(concurrency)
        self._ray = import_ray()
        self._owns_ray = not self._ray.is_initialized()
        self._joining: Joining | None = None
        if self._owns_ray and execution.address is None:
            start_local(self._ray)
        elif self._owns_ray and execution.address is not None:
            probe(execution.address)
            self._joining = Joining(self._ray, execution.address, execution.connect_timeout_s)
        self._runs = dict(runs)
        self._shipped: dict[str, Any] = {}
        """Each run's shipment in Ray's object store, put there once the cluster is joined."""
        self._task = self._ray.remote(play_trial).options(
            max_retries=execution.max_retries,
            retry_exceptions=False,
            num_cpus=execution.cpus_per_trial,
        )
        self._retries = execution.max_retries

    async def _run(self, spec: TrialSpec) -> TrialRecord:
        setup = self._runs.get(spec.run_digest)
        if setup is None:
            raise ConfigError(
                f"trial spec names run {spec.run_digest[:12]}, which this backend was not given"
            )
        if self._joining is not None:
            await self._joining.ready()
        if spec.run_digest not in self._shipped:
            self._shipped[spec.run_digest] = self._ray.put(setup.shipment())
        return await self._gated(spec, functools.partial(self._remote, setup=setup))

    async def _remote(self, spec: TrialSpec, setup: RunSetup) -> TrialRecord:
        """Play ``spec`` as a Ray task; the spans it recorded join the current trace here."""
        exceptions = self._ray.exceptions
        tracer = tracing.current_tracer()
        carrier = tracer.carrier() if tracer is not None else None
        # a list, so Ray passes the reference as it is: the worker fetches it only once
        ref = self._task.remote(
            spec.model_dump(mode="json"), [self._shipped[spec.run_digest]], carrier
        )
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
            return self._lost(spec, setup, exc)
        if tracer is not None:
            tracer.adopt(data["spans"])
        return TrialRecord.read(data["record"], setup.record_types)

    def _lost(self, spec: TrialSpec, setup: RunSetup, exc: Exception) -> TrialRecord:
        """The record of a trial Ray gave up on after its retries: failed, so it reruns."""
        return TrialRecord(
            status="failed",
            run=setup.config.name,
            agent=spec.agent,
            task=setup.config.task.kind,
            trial=spec.index,
            seed=spec.seed,
            error=TrialError(
                type=type(exc).__name__,
                message=f"the cluster lost this trial after {self._retries} retries: {exc}",
            ),
        )

    async def aclose(self) -> None:
        await super().aclose()
        if self._joining is not None and not self._joining.joined:
            return  # never joined (or still trying): nothing of this run is on a cluster
        for actor in self._ray.util.list_named_actors():
            if isinstance(actor, str) and actor.startswith(SERVER_PREFIX):
                self._ray.kill(self._ray.get_actor(actor))
        if self._owns_ray:
            self._ray.shutdown()
