"""The queue of a suite whose cells play one after another: places handed out in cell order,
a cell's first trial before its others, the cells' first trials one after another, and the
next cell's trials in the places the last trials of the cell before leave."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

import pytest

from cogarch.core.backend import TrialSpec
from cogarch.experiments.suites.queue import SuiteQueue


def spec(index: int) -> TrialSpec:
    return TrialSpec(run_digest="d", agent="a", index=index, seed=index, run_name="r", task="t")


class Trials:
    """Trials that take a place from a queue and hold it until the test ends them."""

    def __init__(self, queue: SuiteQueue) -> None:
        self.queue = queue
        self.playing: list[tuple[int, int]] = []
        self.started: list[tuple[int, int]] = []
        self._ends: dict[tuple[int, int], asyncio.Event] = {}
        self.tasks: dict[tuple[int, int], asyncio.Task[None]] = {}

    def submit(self, cell: int, index: int) -> None:
        self._ends[(cell, index)] = asyncio.Event()
        self.tasks[(cell, index)] = asyncio.create_task(self._play(cell, index))

    async def _play(self, cell: int, index: int) -> None:
        async with self.queue.gate(cell).place(spec(index)):
            self.playing.append((cell, index))
            self.started.append((cell, index))
            try:
                await self._ends[(cell, index)].wait()
            finally:
                self.playing.remove((cell, index))

    async def end(self, cell: int, index: int) -> None:
        self._ends[(cell, index)].set()
        await self.tasks[(cell, index)]
        await settle()


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


def run(test: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(test())


def test_a_cells_first_trial_plays_alone_then_its_others_fill_the_places() -> None:
    async def test() -> None:
        trials = Trials(SuiteQueue(places=2, cells=1))
        for i in range(4):
            trials.submit(0, i)
        await settle()
        assert trials.playing == [(0, 0)]
        await trials.end(0, 0)
        assert trials.playing == [(0, 1), (0, 2)]
        await trials.end(0, 2)
        assert trials.playing == [(0, 1), (0, 3)]

    run(test)


def test_the_next_cells_trials_take_the_places_the_last_trials_leave() -> None:
    async def test() -> None:
        trials = Trials(SuiteQueue(places=2, cells=2))
        for cell in (0, 1):
            for i in range(3):
                trials.submit(cell, i)
        await settle()
        assert trials.playing == [(0, 0)]  # the second cell's first trial waits for it
        await trials.end(0, 0)
        assert trials.playing == [(0, 1), (0, 2)]
        await trials.end(0, 1)
        assert trials.playing == [(0, 2), (1, 0)]  # while the first cell's last trial plays
        await trials.end(1, 0)
        assert trials.playing == [(0, 2), (1, 1)]
        await trials.end(0, 2)
        await trials.end(1, 1)
        await trials.end(1, 2)
        assert trials.started == [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)]

    run(test)


def test_the_cells_first_trials_play_one_after_another_in_cell_order() -> None:
    async def test() -> None:
        trials = Trials(SuiteQueue(places=3, cells=3))
        for cell in (2, 1, 0):
            trials.submit(cell, 0)
        await settle()
        assert trials.playing == [(0, 0)]
        await trials.end(0, 0)
        assert trials.playing == [(1, 0)]
        await trials.end(1, 0)
        assert trials.playing == [(2, 0)]

    run(test)


def test_a_cell_over_without_a_trial_does_not_hold_up_the_next() -> None:
    async def test() -> None:
        queue = SuiteQueue(places=2, cells=3)
        trials = Trials(queue)
        trials.submit(2, 5)
        await settle()
        assert trials.playing == []
        queue.close(0)
        await settle()
        assert trials.playing == []  # the middle cell has not played its first trial
        queue.close(1)
        await settle()
        assert trials.playing == [(2, 5)]

    run(test)


def test_a_trial_cancelled_while_waiting_or_playing_gives_its_place_back() -> None:
    async def test() -> None:
        queue = SuiteQueue(places=1, cells=1)
        trials = Trials(queue)
        for i in range(3):
            trials.submit(0, i)
        await settle()
        trials.tasks[(0, 1)].cancel()  # waiting
        trials.tasks[(0, 0)].cancel()  # playing: its place goes to the next
        await settle()
        assert trials.playing == [(0, 2)]
        assert queue.waiting == 0
        await trials.end(0, 2)
        assert trials.started == [(0, 0), (0, 2)]

    run(test)


def test_a_queue_refuses_no_place_and_an_unknown_cell() -> None:
    with pytest.raises(ValueError, match="at least one trial"):
        SuiteQueue(places=0, cells=1)
    with pytest.raises(ValueError, match="has 2 cells, not a cell 2"):
        SuiteQueue(places=1, cells=2).gate(2)
