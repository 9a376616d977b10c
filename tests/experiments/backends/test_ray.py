"""The Ray backend on a local instance: the same trial files as the in-process backend, a
model failure recorded once, and a worker process killed mid-trial losing and duplicating
nothing."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from cogarch.config import read_yaml
from cogarch.core.records import TrialRecord
from cogarch.experiments.results.trial_files import read_trial, trial_path
from cogarch.experiments.running.run_config import RunConfig
from cogarch.experiments.running.runner import Runner
from cogarch.seeds import trial_seed
from tests.experiments.backends.conftest import REPO, RayCluster

pytestmark = pytest.mark.ray

TIMING = ("started_at", "duration_s")


def fakes_config(results: Path, backend: str, trials: int) -> RunConfig:
    data = read_yaml(REPO / "experiments" / "configs" / "hangman_sct_fakes.yaml")
    data["providers"]["broken"] = {
        "kind": "fake",
        "fake": "tests.experiments.slow_fakes:broken_host",
    }
    data["agents"].append({"name": "broken", "agent": "vanilla", "provider": "broken"})
    data.update(trials=trials, results_dir=str(results), execution={"backend": backend})
    return RunConfig.model_validate(data)


def names(results: Path) -> list[Path]:
    return sorted(p.relative_to(results) for p in results.glob("*/trial_*.json"))


def comparable(path: Path) -> dict[str, Any]:
    """A trial file without what may differ between runs: timing, usage and tracebacks."""
    data = json.loads(path.read_text(encoding="utf-8"))
    for key in TIMING:
        data["metadata"].pop(key)
    data.pop("usage")
    for step in data.get("walk") or []:
        step.pop("elapsed_s", None)
    if data["error"] is not None:
        data["error"].pop("traceback")
    return data


async def test_the_ray_backend_writes_the_trial_files_the_local_backend_writes(
    ray_cluster: RayCluster, tmp_path: Path
) -> None:
    ray_cluster.clear_pids()
    results = tmp_path / "run"
    local = await Runner(fakes_config(results, "local", 2), progress=False).run()
    shutil.move(results, tmp_path / "local")
    remote = await Runner(fakes_config(results, "ray", 2), progress=False).run()

    expected = len(fakes_config(results, "local", 2).agents) * 2
    assert (remote.ran, remote.failed) == (local.ran, local.failed) == (expected, 2)
    assert remote.table() == local.table()
    files = names(results)
    assert files == names(tmp_path / "local")
    for name in files:
        assert comparable(results / name) == comparable(tmp_path / "local" / name), name
    broken = read_trial(trial_path(results, "broken", 0))
    assert broken.status == "failed" and broken.error is not None
    assert "the scripted host is broken" in broken.error.message
    # Each broken trial reached its host once on the cluster: a model failure is not retried.
    tries = (ray_cluster.pids / "broken").read_text(encoding="utf-8").split()
    assert sorted(tries) == sorted(str(trial_seed(1337, i)) for i in range(2))
    assert not (results / ".cache").exists()  # workers keep their cache on their own node


def traced_config(results: Path, trials: int) -> RunConfig:
    return RunConfig.model_validate(
        {
            "name": "ray_kill",
            "task": {"kind": "hangman_sct", "t_fork": 3, "n_candidates": 3},
            "trials": trials,
            "seed": 9,
            "concurrency": 2,
            "results_dir": str(results),
            "providers": {
                "traced": {"kind": "fake", "fake": "tests.experiments.slow_fakes:traced_honest"}
            },
            "agents": [{"name": "host", "agent": "vanilla", "provider": "traced"}],
            "execution": {"backend": "ray", "max_retries": 2},
        }
    )


async def test_a_worker_killed_mid_trial_loses_and_duplicates_no_trial(
    ray_cluster: RayCluster, tmp_path: Path
) -> None:
    ray_cluster.clear_pids()
    trials = 6
    written: list[TrialRecord] = []
    run = asyncio.create_task(
        Runner(traced_config(tmp_path, trials), progress=False).run(written.append)
    )
    victim, seed = None, ""
    for _ in range(6000):  # up to a minute for the workers to start playing
        for path in ray_cluster.pids.iterdir():
            calls = path.read_text(encoding="utf-8").split()
            if path.name.isdigit() and 0 < len(calls) <= 2:  # a trial that has just begun
                victim, seed = int(path.name), calls[0]
                break
        if victim is not None:
            break
        await asyncio.sleep(0.01)
    assert victim is not None, "no trial had started on a worker"
    os.kill(victim, signal.SIGKILL)
    report = await run

    assert (report.ran, report.failed) == (trials, 0)
    assert Counter((r.agent, r.trial) for r in written) == {("host", i): 1 for i in range(trials)}
    for i in range(trials):
        record = read_trial(trial_path(tmp_path, "host", i))
        assert record.status == "complete" and record.seed == trial_seed(9, i)
    replayed_by = [
        p.name
        for p in ray_cluster.pids.iterdir()
        if p.name.isdigit() and p.name != str(victim) and seed in p.read_text().split()
    ]
    assert replayed_by, "the killed worker's trial was not played again elsewhere"
