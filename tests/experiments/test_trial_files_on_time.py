"""Each trial file is on disk as its trial ends, even when the next trial never waits for a
model: a trial's heavy work leaves the event loop, so the runner's write is not held up."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cogarch.core.backend import TrialFn, TrialSpec
from cogarch.core.records import TrialRecord
from cogarch.experiments.results.trial_files import trial_path
from cogarch.experiments.running.backends.local import LocalBackend
from cogarch.experiments.running.run_config import RunConfig
from cogarch.experiments.running.runner import Runner
from cogarch.tasks.locomo.synthetic import synthetic_locomo


def config(tmp_path: Path, task: dict[str, Any], providers: dict[str, Any]) -> RunConfig:
    return RunConfig.model_validate(
        {
            "name": "on_time",
            "task": task,
            "trials": 2,
            "seed": 4,
            "concurrency": 1,
            "results_dir": str(tmp_path / "run"),
            "cache": False,
            "providers": providers,
            "agents": [
                {
                    "name": "agent",
                    "agent": "raw_turns" if task["kind"] == "locomo" else "vanilla",
                    "provider": "fake",
                    "params": {"embedder": "hash"} if task["kind"] == "locomo" else {},
                }
            ],
        }
    )


def locomo(tmp_path: Path) -> RunConfig:
    data = tmp_path / "locomo.json"
    sample = synthetic_locomo(2, sessions=4, turns_per_session=40, questions=60, seed=3)
    data.write_text(json.dumps(sample), encoding="utf-8")
    return config(
        tmp_path,
        {"kind": "locomo", "data": str(data)},
        {"fake": {"kind": "fake", "fake": "locomo.reader"}},
    )


def hangman(tmp_path: Path) -> RunConfig:
    return config(
        tmp_path,
        {"kind": "hangman_sct", "t_fork": 4, "n_candidates": 5},
        {"fake": {"kind": "fake", "fake": "hangman.honest"}},
    )


@pytest.mark.parametrize("make", [locomo, hangman], ids=["locomo", "hangman"])
async def test_the_first_trial_file_is_written_before_the_second_trial_ends(
    tmp_path: Path, make: Any
) -> None:
    run = make(tmp_path)
    on_disk: dict[int, list[bool]] = {}

    def backend(play: TrialFn, concurrency: int) -> LocalBackend:
        async def watched(spec: TrialSpec) -> TrialRecord:
            record = await play(spec)  # zero-latency fakes: the trial never waits for a model
            on_disk[spec.index] = [
                trial_path(run.output_dir(), "agent", i).exists() for i in (0, 1)
            ]
            return record

        return LocalBackend(watched, concurrency)

    report = await Runner(run, progress=False, backend=backend).run()
    assert report.ran == 2 and report.failed == 0
    assert on_disk == {0: [False, False], 1: [True, False]}
