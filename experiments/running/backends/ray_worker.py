"""The worker side of the Ray backend: what runs inside a Ray worker process.

Each worker process keeps one :class:`TrialWorker` (so providers, the task and the agent specs
are built once per process and run, not once per trial) and one event loop that every trial
of the process runs on, so pooled HTTP connections stay valid between trials. A trial comes
with a reference to its run's shipment (the config and the task's source, put in Ray's object
store once by the driver); the worker fetches and validates it only the first time it meets
the run.

The embedded model runs once per node: ``local`` providers ask their node's
:class:`NodeServer` actor (named after the node and the server settings, created by the first
worker of the node that needs it, with ``get_if_exists``) for its address, and talk to it over
loopback. An actor rather than a per-process singleton because a node runs one worker process
per CPU, and each would otherwise load its own copy of the weights and compete for the same
cores; the actor reserves no CPU, so it never takes a trial's slot.
"""

from __future__ import annotations

import asyncio
import hashlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cogarch.core.backend import TrialSpec
from cogarch.models.weights import model_cache_dir

from ...results.names import safe_name
from ..run_config import RunConfig
from ..worker import RunSetup, TrialWorker

if TYPE_CHECKING:
    from cogarch.models.local import LocalServerSettings

SERVER_PREFIX = "cogarch-llama-"
"""Names of the per-node embedded-server actors start with this (the driver removes them)."""

_worker: TrialWorker | None = None
_loop: asyncio.AbstractEventLoop | None = None


def node_cache_dir(config: RunConfig) -> Path:
    """Where a worker caches a run's seeded model calls: on its own node, never in the
    driver's results directory."""
    return model_cache_dir() / "runs" / safe_name(config.name)


class NodeServer:
    """Owns the embedded llama.cpp server of one node (run as a Ray actor)."""

    def __init__(self, settings: dict[str, Any]) -> None:
        from cogarch.models.local import LocalServerSettings, get_local_server

        self._server = get_local_server(LocalServerSettings.model_validate(settings))

    def endpoint(self) -> tuple[str, str]:
        return self._server.model_name, self._server.base_url


def node_local_server(settings: LocalServerSettings) -> tuple[str, str]:
    """This node's shared embedded server for ``settings``: (model name, base URL)."""
    import ray
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    node = ray.get_runtime_context().get_node_id()
    blob = settings.model_dump_json().encode()
    name = f"{SERVER_PREFIX}{node[:16]}-{hashlib.sha256(blob).hexdigest()[:12]}"
    actor: Any = (
        ray.remote(NodeServer)
        .options(
            name=name,
            get_if_exists=True,
            lifetime="detached",  # outlives the worker that made it; the driver removes it
            num_cpus=0,
            scheduling_strategy=NodeAffinitySchedulingStrategy(node, soft=False),
        )
        .remote(settings.model_dump(mode="json"))
    )
    model_name, base_url = ray.get(actor.endpoint.remote())
    return str(model_name), str(base_url)


def setup_from(shipment: dict[str, Any]) -> RunSetup:
    """A run's setup on this node, from what the driver shipped (``RunSetup.shipment``)."""
    config = RunConfig.model_validate(shipment["config"])
    return RunSetup(
        config,
        task_source=shipment.get("task_source"),
        code=shipment.get("code"),
        cache_dir=node_cache_dir(config),
        local_server=node_local_server,
    )


def play_trial(
    spec: dict[str, Any], shipment: list[Any], trace: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The Ray task: play one trial spec (plain data); return its record and the spans it
    recorded (plain data), ``{"record": ..., "spans": [...]}``.

    ``shipment`` holds a reference to the run's shipment, fetched the first time this process
    meets the run. ``trace`` is the driver's trace context (``Tracer.carrier``): given, the
    trial's spans join the driver's trace; without it nothing is traced. A trial that fails
    for a model or task reason comes back as a failed record, so Ray sees an error only when
    the worker itself cannot play the spec.
    """
    global _worker, _loop
    if _worker is None:
        _worker = TrialWorker()
    if _loop is None:
        _loop = asyncio.new_event_loop()
    trial = TrialSpec.model_validate(spec)
    if trial.run_digest not in _worker.setups:
        import ray

        _worker.add(setup_from(ray.get(shipment[0])))
    play = _worker(trial)
    if trace is None:
        record = _loop.run_until_complete(play)
        return {"record": record.model_dump(mode="json"), "spans": []}
    from ...otel.worker import recording

    with recording(trace) as spans:
        record = _loop.run_until_complete(play)
    return {"record": record.model_dump(mode="json"), "spans": spans}
