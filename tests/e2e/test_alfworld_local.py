"""A very short ALFWorld curriculum on the embedded model, through the runner: one game on a
seen room and one on an unseen room, played by the Reflexion-style agent."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

from cogarch.experiments.results.trial_files import read_trial, trial_path
from cogarch.experiments.running.run_config import RunConfig
from cogarch.experiments.running.runner import Runner
from cogarch.tasks.alfworld.records import AlfworldEvaluation, AlfworldPayload

pytestmark = pytest.mark.e2e


async def test_a_short_curriculum_runs_on_the_embedded_model(tmp_path: Path) -> None:
    if importlib.util.find_spec("textworld") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI must run the ALFWorld tests, but the alfworld extra is missing")
        pytest.skip("needs the alfworld extra: pip install -e '.[alfworld]'")
    config = RunConfig.model_validate(
        {
            "name": "e2e_alfworld",
            "task": {
                "kind": "alfworld",
                "curriculum": [{"split": "train", "games": 1}, {"split": "ood", "games": 1}],
                "max_receptacles": 12,
                "max_steps": 2,
                "cache_dir": str(tmp_path / "games"),
            },
            "trials": 1,
            "results_dir": str(tmp_path / "run"),
            "providers": {"small": {"kind": "local", "max_tokens": 64, "n_ctx": 8192}},
            "agents": [
                {
                    "name": "reflexion",
                    "agent": "alfworld_reflexion",
                    "provider": "small",
                    "params": {"max_tokens": 64},
                }
            ],
        }
    )
    report = await Runner(config, progress=False).run()
    record = read_trial(trial_path(tmp_path / "run", "reflexion", 0))
    assert report.failed == 0, record.error
    assert isinstance(record.payload, AlfworldPayload)
    assert isinstance(record.evaluation, AlfworldEvaluation)
    train, ood = record.payload.games
    assert (train.split, ood.split) == ("train", "ood")
    for game in (train, ood):
        assert 1 <= game.actions <= 2 and len(game.transcript) == game.actions
        assert all(step.reply for step in game.transcript)
        # the Reflexion module reports on every game; a lost one leaves a lesson
        assert game.memory_activity["reflexion"]["reflection"] is not None or game.won
    assert ood.memory_activity["reflexion"]["carried"] == ([] if train.won else [0])
    assert record.evaluation.games == 2 and record.evaluation.success_rate is not None
