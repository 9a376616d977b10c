"""Serving endpoints: which replica a trial keeps to, and how many requests one may hold.

A provider that lists several ``base_urls`` (one per serving replica) sends every call of a
trial to one of them, chosen from the trial's seed, so the replica's prefix cache stays warm
across the trial's turns and forked branches. ``max_in_flight`` bounds the requests one
process has open against one endpoint at a time; ``n`` processes sharing an endpoint may
together hold up to ``n`` times that many.
"""

from __future__ import annotations

import asyncio
import threading
import weakref

EMBEDDED_ENDPOINT = "embedded llama.cpp"
"""The ``endpoint`` of the models the embedded llama.cpp server answers (``local`` providers)."""

Gates = dict[tuple[str, int], asyncio.Semaphore]
_gates: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Gates] = weakref.WeakKeyDictionary()
_lock = threading.Lock()


def replica_index(seed: int, replicas: int) -> int:
    """The replica a trial with ``seed`` keeps to, out of ``replicas`` (stable across runs)."""
    if replicas < 1:
        raise ValueError(f"replicas must be at least 1, got {replicas}")
    return seed % replicas


def endpoint_gate(endpoint: str, limit: int) -> asyncio.Semaphore:
    """This process's semaphore for ``endpoint`` in the running event loop (``limit`` slots).

    Every model of the process that talks to ``endpoint`` with the same ``limit`` shares it,
    whichever run setup or provider table built the model.
    """
    loop = asyncio.get_running_loop()
    with _lock:
        gates = _gates.setdefault(loop, {})
        return gates.setdefault((endpoint, limit), asyncio.Semaphore(limit))
