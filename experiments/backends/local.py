"""The in-process backend: trials run as asyncio tasks, at most ``concurrency`` at once."""

from __future__ import annotations

import asyncio

from cogarch.core.backend import TrialCancelledError, TrialFn, TrialSpec
from cogarch.core.records import TrialRecord
from cogarch.errors import ConfigError

from .trial_span import record_trial, trial_span


class LocalHandle:
    """A trial submitted to a :class:`LocalBackend`."""

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


class LocalBackend:
    """Runs trial specs with ``play`` in this event loop, ``concurrency`` at a time."""

    def __init__(self, play: TrialFn, concurrency: int) -> None:
        if concurrency < 1:
            raise ConfigError(f"concurrency must be at least 1, got {concurrency}")
        self._play = play
        self._gate = asyncio.Semaphore(concurrency)
        self._running: set[asyncio.Task[TrialRecord]] = set()

    def submit(self, spec: TrialSpec) -> LocalHandle:
        task = asyncio.get_running_loop().create_task(self._run(spec))
        self._running.add(task)
        task.add_done_callback(self._running.discard)
        return LocalHandle(spec, task)

    async def _run(self, spec: TrialSpec) -> TrialRecord:
        async with self._gate:
            with trial_span(spec) as span:
                record = await self._play(spec)
                record_trial(span, record)
            return record

    async def aclose(self) -> None:
        pending = list(self._running)
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)


__all__ = ["LocalBackend", "LocalHandle"]
