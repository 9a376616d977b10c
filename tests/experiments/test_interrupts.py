"""Ctrl-C while a task's code holds the event loop: the first one stops that trial at once (it
is not held until the code lets go), the trials finished are kept, the run ends as interrupted
and the same command resumes."""

from __future__ import annotations

import asyncio
import os
import signal
import threading
import time
from pathlib import Path

import pytest

from cogarch.experiments.results.trial_files import iter_trials
from cogarch.experiments.running.run_config import RunConfig
from cogarch.experiments.running.runner import Runner
from tests.experiments.misbehaving_runs import misbehaving_config


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COGARCH_CACHE_DIR", str(tmp_path / "cache"))


def config(results: Path, **params: object) -> RunConfig:
    return RunConfig.model_validate(misbehaving_config(results, "blocking", **params))


def test_the_first_ctrl_c_stops_a_trial_that_blocks_the_event_loop(tmp_path: Path) -> None:
    results = tmp_path / "run"
    hold = tmp_path / "hold"
    hold.touch()
    blocking = config(results, mode="block", bad_trial=1, block_s=20.0, block_while=str(hold))
    timer = threading.Timer(1.5, os.kill, (os.getpid(), signal.SIGINT))
    start = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            asyncio.run(Runner(blocking, progress=False).run())
    finally:
        timer.cancel()
    assert time.monotonic() - start < 10  # not held until the blocking code let go (20 s)
    kept = {record.trial: record.status for _, record in iter_trials(results)}  # type: ignore[union-attr]
    assert 1 not in kept and set(kept) <= {0, 2}
    assert all(status == "complete" for status in kept.values())
    hold.unlink()  # the same command again, its task no longer blocking
    resumed = asyncio.run(Runner(blocking, progress=False).run())
    assert resumed.skipped == len(kept) and resumed.ran == 3 - len(kept)
    assert resumed.failed == 0
