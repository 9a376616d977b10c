"""A suite whose cells play one after another (``parallel_cells: 1``) keeps its places busy
across cells: the next cell's first trial starts while the last trials of the cell before
still play, and a cell's first trial ends before the cell's others start."""

from __future__ import annotations

import asyncio
from datetime import datetime
from pathlib import Path

from cogarch.experiments.results.trial_files import read_trial
from cogarch.experiments.suites.config import SuiteConfig
from cogarch.experiments.suites.runner import run_suite

TRIALS = 4
ROUNDING = 0.001
"""Trial files give durations to the millisecond."""


def _config(folder: Path) -> SuiteConfig:
    return SuiteConfig.model_validate(
        {
            "name": "pipelined",
            "seed": 3,
            "trials": TRIALS,
            "concurrency": 2,
            "parallel_cells": 1,
            "cache": False,
            "results_dir": str(folder / "out"),
            "providers": {
                "slow": {"kind": "fake", "fake": "tests.experiments.slow_fakes:slow_honest"}
            },
            "tasks": [{"kind": "hangman_sct", "t_fork": 3, "n_candidates": 3}],
            "agents": [
                {"name": "first", "agent": "vanilla", "provider": "slow"},
                {"name": "second", "agent": "vanilla", "provider": "slow"},
            ],
        }
    )


def _spans(folder: Path) -> dict[int, tuple[float, float]]:
    spans = {}
    for path in sorted(folder.glob("*/trial_*.json")):
        record = read_trial(path, within=folder)
        begun = datetime.fromisoformat(str(record.metadata.started_at)).timestamp()
        spans[record.trial] = (begun, begun + float(record.metadata.duration_s or 0.0))
    return spans


def test_the_next_cell_starts_while_the_last_trials_of_the_one_before_play(
    tmp_path: Path,
) -> None:
    result = asyncio.run(run_suite(_config(tmp_path), progress=False, reports=False))
    assert [(c.ran, c.failed, c.error) for c in result.cells] == [(TRIALS, 0, None)] * 2
    first = _spans(result.results_dir / "hangman_sct" / "first")
    second = _spans(result.results_dir / "hangman_sct" / "second")
    assert len(first) == len(second) == TRIALS
    assert all(first[0][1] - ROUNDING <= first[i][0] for i in range(1, TRIALS))
    assert all(second[0][1] - ROUNDING <= second[i][0] for i in range(1, TRIALS))
    assert second[0][0] < max(end for _, end in first.values())
