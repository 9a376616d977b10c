"""One short ALFWorld game on the embedded model, through the runner."""

from __future__ import annotations

import importlib.util
import json
import os
from pathlib import Path

import pytest

from cogarch.experiments.config import RunConfig
from cogarch.experiments.runner import Runner

pytestmark = pytest.mark.e2e


async def test_a_short_alfworld_game_runs_on_the_embedded_model(tmp_path: Path) -> None:
    if importlib.util.find_spec("textworld") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI must run the ALFWorld tests, but the alfworld extra is missing")
        pytest.skip("needs the alfworld extra: pip install -e '.[alfworld]'")
    config = RunConfig.model_validate(
        {
            "name": "e2e_alfworld",
            "task": {
                "kind": "alfworld",
                "curriculum": [{"split": "train", "games": 1}],
                "max_receptacles": 7,
                "max_steps": 3,
                "cache_dir": str(tmp_path / "games"),
            },
            "trials": 1,
            "results_dir": str(tmp_path / "run"),
            "providers": {"small": {"kind": "local", "max_tokens": 96, "n_ctx": 8192}},
            "agents": [{"name": "react", "agent": "alfworld_react", "provider": "small"}],
        }
    )
    report = await Runner(config, progress=False).run()
    trial = json.loads((tmp_path / "run" / "react" / "trial_0000.json").read_text())
    assert report.failed == 0, trial.get("error")
    (game,) = trial["payload"]["data"]["games"]
    assert 1 <= game["actions"] <= 3 and len(game["transcript"]) == game["actions"]
    assert all(step["reply"] for step in game["transcript"])
    assert trial["evaluation"]["games"] == 1
