"""Ctrl-C during a suite whose cells run at once: one Ctrl-C stops every cell's trials and
starts no further cell, the finished trials are kept, Ctrl-C's handler is put back, and the
same suite resumes."""

from __future__ import annotations

import asyncio
import os
import signal
import threading
import time
from pathlib import Path

import pytest

from cogarch.experiments.suites.config import SuiteConfig
from cogarch.experiments.suites.runner import run_suite
from tests.experiments.slow_fakes import DELAY_ENV

TRIALS = 4


def slow_suite(results: Path) -> SuiteConfig:
    return SuiteConfig.model_validate(
        {
            "name": "stopped",
            "seed": 2,
            "trials": TRIALS,
            "concurrency": 1,
            "parallel_cells": 2,
            "cache": False,
            "results_dir": results,
            "providers": {
                "slow": {"kind": "fake", "fake": "tests.experiments.slow_fakes:slow_honest"}
            },
            "tasks": [{"kind": "hangman_sct", "t_fork": 3, "n_candidates": 3}],
            "agents": [
                {"name": "a", "agent": "vanilla", "provider": "slow"},
                {"name": "b", "agent": "vanilla", "provider": "slow"},
                {"name": "c", "agent": "vanilla", "provider": "slow"},  # waits for a cell
            ],
        }
    )


def test_one_ctrl_c_stops_every_cell_and_the_suite_resumes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(DELAY_ENV, "0.3")  # a trial takes seconds; a cell, tens of seconds
    config = slow_suite(tmp_path / "out")
    before = signal.getsignal(signal.SIGINT)
    timer = threading.Timer(2.0, os.kill, (os.getpid(), signal.SIGINT))
    start = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            asyncio.run(run_suite(config, progress=False, reports=False))
    finally:
        timer.cancel()
    assert time.monotonic() - start < 15  # both cells stopped, not played to their end
    assert signal.getsignal(signal.SIGINT) is before
    kept = [len(list((tmp_path / "out" / "hangman_sct" / a).glob("*/trial_*.json"))) for a in "abc"]
    assert all(n < TRIALS for n in kept) and kept[2] == 0  # the third cell never began

    monkeypatch.setenv(DELAY_ENV, "0")
    resumed = asyncio.run(run_suite(config, progress=False, reports=False))
    assert [c.skipped for c in resumed.cells] == kept
    assert [c.ran + c.skipped for c in resumed.cells] == [TRIALS] * 3
