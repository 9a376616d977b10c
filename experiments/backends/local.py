"""The in-process backend: trials run as asyncio tasks, at most ``concurrency`` at once."""

from __future__ import annotations

from cogarch.core.backend import TrialFn, TrialSpec
from cogarch.core.records import TrialRecord

from .gated import GatedBackend


class LocalBackend(GatedBackend):
    """Runs trial specs with ``play`` in this event loop, ``concurrency`` at a time."""

    def __init__(self, play: TrialFn, concurrency: int) -> None:
        super().__init__(concurrency)
        self._play = play

    async def _run(self, spec: TrialSpec) -> TrialRecord:
        return await self._gated(spec, self._play)
