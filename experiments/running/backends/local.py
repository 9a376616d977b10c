"""The in-process backend: trials run as asyncio tasks, at most ``concurrency`` at once.

What a trial hands to a worker thread (embedding a batch, a vector store's call, the runner
syncing a finished trial's file) goes to the event loop's default executor, which asyncio sizes
by the machine's cores (six threads on two), not by the run: with 64 trials playing, a trial
waited for threads that other trials' file syncs held, and the endpoint went idle meanwhile.
The backend therefore gives the loop, while it runs, an executor of ``concurrency`` plus a few
threads, and gives the previous one back when it closes.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from cogarch.core.backend import TrialFn, TrialSpec
from cogarch.core.records import TrialRecord

from .gated import Gate, GatedBackend, LocalHandle

SPARE_THREADS = 4
"""Threads beyond one per trial in flight: the runner's file writes, the model clients' set-up."""


class LocalBackend(GatedBackend):
    """Runs trial specs with ``play`` in this event loop, ``concurrency`` at a time (or as
    ``gate`` lets them, when given: places shared with other runs)."""

    def __init__(self, play: TrialFn, concurrency: int, gate: Gate | None = None) -> None:
        super().__init__(concurrency, gate)
        self._play = play
        self.threads = concurrency + SPARE_THREADS
        self._executor: ThreadPoolExecutor | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._previous: Any = None

    def submit(self, spec: TrialSpec) -> LocalHandle:
        if self._executor is None:
            self._widen(asyncio.get_running_loop())
        return super().submit(spec)

    def _widen(self, loop: asyncio.AbstractEventLoop) -> None:
        previous = getattr(loop, "_default_executor", None)
        if isinstance(previous, ThreadPoolExecutor) and previous._max_workers >= self.threads:
            return
        self._executor = ThreadPoolExecutor(self.threads, thread_name_prefix="cogarch-trial")
        self._loop, self._previous = loop, previous
        loop.set_default_executor(self._executor)

    async def _run(self, spec: TrialSpec) -> TrialRecord:
        return await self._gated(spec, self._play)

    async def aclose(self) -> None:
        await super().aclose()
        executor = self._executor
        loop = self._loop
        if executor is None or loop is None:
            return
        shutdown = executor.shutdown
        if getattr(loop, "_default_executor", None) is executor:
            loop._default_executor = self._previous  # type: ignore[attr-defined]
        self._executor, self._loop, self._previous = None, None, None
        await asyncio.to_thread(shutdown, wait=True)
