"""What both backends share: each trial an asyncio task, at most ``concurrency`` playing.

``GatedBackend.submit`` starts a trial's task and hands back a ``LocalHandle``; ``_gated``
plays it once a place is free, inside the trial's span; ``aclose`` cancels what is still
running. A backend says how a trial is played (``_run``). Its places are its own, or a
``Gate`` it is given: the places one queue shares among several runs (a suite's cells, see
``suite_queue``).
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from typing import Protocol

from cogarch.core.backend import TrialCancelledError, TrialSpec
from cogarch.core.records import TrialRecord
from cogarch.errors import ConfigError

from .trial_span import record_trial, trial_span


class LocalHandle:
    """A trial submitted to a backend, running as a task in this event loop."""

    def __init__(self, spec: TrialSpec, task: asyncio.Task[TrialRecord]) -> None:
        self._spec = spec
        self._task = task

    @property
    def spec(self) -> TrialSpec:
        return self._spec

    async def record(self) -> TrialRecord:
        try:
            return await asyncio.shield(self._task)
        except asyncio.CancelledError:
            waiter = asyncio.current_task()
            if self._task.cancelled() and not (waiter and waiter.cancelling()):
                raise TrialCancelledError(
                    f"trial {self._spec.index} of agent '{self._spec.agent}' was cancelled"
                ) from None
            raise

    def cancel(self) -> None:
        self._task.cancel()


class Gate(Protocol):
    """Where a trial waits for a place to play in, and holds it while it plays."""

    def place(self, spec: TrialSpec) -> AbstractAsyncContextManager[None]: ...


class _Places:
    """``concurrency`` places of one backend's own."""

    def __init__(self, concurrency: int) -> None:
        self._semaphore = asyncio.Semaphore(concurrency)

    def place(self, spec: TrialSpec) -> AbstractAsyncContextManager[None]:
        return self._semaphore


class GatedBackend(ABC):
    """Submits each trial as a task of this event loop, ``concurrency`` playing at a time
    (or as many as ``gate`` lets play, when given)."""

    def __init__(self, concurrency: int, gate: Gate | None = None) -> None:
        if concurrency < 1:
            raise ConfigError(f"concurrency must be at least 1, got {concurrency}")
        self._gate: Gate = _Places(concurrency) if gate is None else gate
        self._running: set[asyncio.Task[TrialRecord]] = set()

    def submit(self, spec: TrialSpec) -> LocalHandle:
        task = asyncio.get_running_loop().create_task(self._run(spec))
        self._running.add(task)
        task.add_done_callback(self._running.discard)
        return LocalHandle(spec, task)

    @abstractmethod
    async def _run(self, spec: TrialSpec) -> TrialRecord:
        """Play ``spec`` (through ``_gated``), with whatever the backend prepares first."""

    async def _gated(
        self, spec: TrialSpec, play: Callable[[TrialSpec], Awaitable[TrialRecord]]
    ) -> TrialRecord:
        """``play(spec)`` once the gate gives it a place, in the trial's span."""
        async with self._gate.place(spec):
            with trial_span(spec) as span:
                record = await play(spec)
                record_trial(span, record)
        return record

    async def aclose(self) -> None:
        """Cancel every trial still running and wait for them to end."""
        pending = list(self._running)
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
