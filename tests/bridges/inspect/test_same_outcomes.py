"""Under Inspect, each scripted fake of a shipped fake config plays the same trials as under
``cogarch run``: the same seeds and, trial by trial, the same outcome classes. The -T
parameters are read off the config itself (its task's settings, trials, seed, and each
agent's spec, params and fake)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from cogarch.bridges.inspect.scoring import FAILED, RECORD_KEY
from cogarch.experiments.running.run_config import RunConfig, load_run_config
from cogarch.experiments.running.runner import Runner
from cogarch.registry import is_file_path

from .conftest import INSPECT_WARNINGS, REPO, run_eval

pytestmark = INSPECT_WARNINGS

CONFIGS = [
    REPO / "experiments" / "configs" / "hangman_sct_fakes.yaml",
    REPO / "experiments" / "configs" / "diagnosis_sct_fakes.yaml",
    REPO / "examples" / "custom_task.yaml",
]


def cogarch_outcomes(config: RunConfig) -> dict[tuple[str, int], tuple[int, str]]:
    """``cogarch run``'s trials: (agent, trial) -> (seed, outcome class or 'failed')."""
    runner = Runner(config, progress=False)
    asyncio.run(runner.run())
    return {
        key: (r.seed, (r.evaluation.outcome or "") if r.status == "complete" else FAILED)
        for key, r in runner.records.items()
    }


def inspect_args(config: RunConfig, label: str) -> tuple[str, dict[str, Any]]:
    """The Inspect task and -T parameters that play ``label``'s trials of ``config``."""
    entry = next(e for e in config.agents if e.label == label)
    assert entry.provider is not None
    fake = config.providers[entry.provider].fake
    args: dict[str, Any] = {
        **config.task.params(),
        **{f"agent.{k}": v for k, v in entry.params.items()},
        "agent": entry.agent,
        "name": label,
        "fake": fake,
        "trials": config.trials,
        "seed": config.seed,
        "cache": False,
    }
    kind = config.task.kind
    if not is_file_path(kind):
        return f"cogarch/{kind}", args
    file, _, cls = kind.rpartition(":")
    return "cogarch/task", {**args, "task": f"{Path(file).resolve()}:{cls}"}


@pytest.mark.parametrize("path", CONFIGS, ids=lambda p: p.stem)
def test_each_fake_lands_where_cogarch_run_puts_it(path: Path, tmp_path: Path) -> None:
    config = load_run_config(path).model_copy(update={"results_dir": tmp_path / "run"})
    expected = cogarch_outcomes(config)
    found: dict[tuple[str, int], tuple[int, str]] = {}
    for entry in config.agents:
        name, args = inspect_args(config, entry.label)
        log = run_eval(name, args, tmp_path / "logs")
        assert log.status == "success", log.error
        assert log.eval.task == name
        for sample in log.samples:
            record = sample.store[RECORD_KEY]
            assert sample.id == f"trial_{record['trial']}"
            found[(record["agent"], record["trial"])] = (
                record["seed"],
                sample.scores["trial_outcome"].value,
            )
    assert found == expected
    assert len({outcome for _, outcome in expected.values()}) > 1  # the fakes differ
