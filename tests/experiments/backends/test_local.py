"""The in-process backend: bounded concurrency, records back per spec, cancellation."""

from __future__ import annotations

import asyncio

import pytest

from cogarch.core.backend import TrialCancelledError, TrialSpec
from cogarch.core.records import TrialRecord
from cogarch.errors import ConfigError
from cogarch.experiments.running.backends.local import LocalBackend


def spec(index: int) -> TrialSpec:
    return TrialSpec(run_digest="0" * 64, agent="a", index=index, seed=100 + index)


class Worker:
    """Plays a spec after ``gate`` opens, counting how many play at once."""

    def __init__(self) -> None:
        self.running = 0
        self.peak = 0
        self.started: list[int] = []
        self.gate = asyncio.Event()

    async def __call__(self, s: TrialSpec) -> TrialRecord:
        self.running += 1
        self.peak = max(self.peak, self.running)
        self.started.append(s.index)
        try:
            await self.gate.wait()
            await asyncio.sleep(0)
        finally:
            self.running -= 1
        return TrialRecord(
            status="complete", run="run", agent=s.agent, task="t", trial=s.index, seed=s.seed
        )


async def test_no_more_trials_run_at_once_than_the_concurrency() -> None:
    worker = Worker()
    backend = LocalBackend(worker, concurrency=3)
    handles = [backend.submit(spec(i)) for i in range(10)]
    for _ in range(5):
        await asyncio.sleep(0)
    assert worker.running == 3
    worker.gate.set()
    records = await asyncio.gather(*(h.record() for h in handles))
    assert [r.trial for r in records] == list(range(10))
    assert [r.seed for r in records] == [100 + i for i in range(10)]
    assert worker.peak == 3
    await backend.aclose()


async def test_a_cancelled_trial_gives_no_record_and_frees_its_slot() -> None:
    worker = Worker()
    backend = LocalBackend(worker, concurrency=1)
    running, waiting, last = (backend.submit(spec(i)) for i in range(3))
    await asyncio.sleep(0)
    assert worker.started == [0]
    running.cancel()
    waiting.cancel()
    with pytest.raises(TrialCancelledError, match="trial 0 of agent 'a' was cancelled"):
        await running.record()
    with pytest.raises(TrialCancelledError):
        await waiting.record()
    worker.gate.set()
    assert (await last.record()).trial == 2
    assert worker.started == [0, 2]  # the cancelled waiting trial never started
    assert last.spec == spec(2)
    await backend.aclose()


async def test_closing_cancels_what_is_still_running() -> None:
    worker = Worker()
    backend = LocalBackend(worker, concurrency=2)
    handles = [backend.submit(spec(i)) for i in range(4)]
    await asyncio.sleep(0)
    await backend.aclose()
    assert worker.running == 0
    for handle in handles:
        with pytest.raises(TrialCancelledError):
            await handle.record()


async def test_waiting_for_a_record_can_be_abandoned_without_cancelling_the_trial() -> None:
    worker = Worker()
    backend = LocalBackend(worker, concurrency=1)
    handle = backend.submit(spec(0))
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(handle.record(), timeout=0.01)
    worker.gate.set()
    assert (await handle.record()).trial == 0
    await backend.aclose()


async def test_a_waiter_cancelled_with_its_trial_ends_cancelled_not_failed() -> None:
    # What asyncio.run does on shutdown: every task, waiter and trial alike, cancelled at once.
    worker = Worker()
    backend = LocalBackend(worker, concurrency=1)
    handle = backend.submit(spec(0))
    waiter = asyncio.create_task(handle.record())
    await asyncio.sleep(0)
    handle.cancel()
    waiter.cancel()
    await asyncio.gather(waiter, return_exceptions=True)
    assert waiter.cancelled()
    await backend.aclose()


def test_concurrency_must_be_positive() -> None:
    with pytest.raises(ConfigError, match="at least 1"):
        LocalBackend(Worker(), concurrency=0)


def test_a_trial_spec_is_plain_data() -> None:
    s = spec(3)
    assert TrialSpec.model_validate_json(s.model_dump_json()) == s
