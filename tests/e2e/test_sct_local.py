"""The whole pipeline on the embedded model: one short Hangman SCT trial per agent family."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cogarch.experiments.running.run_config import RunConfig
from cogarch.experiments.running.runner import Runner

pytestmark = pytest.mark.e2e


async def test_a_short_hangman_sct_runs_on_the_embedded_model(tmp_path: Path) -> None:
    config = RunConfig.model_validate(
        {
            "name": "e2e_local",
            "task": {"kind": "hangman_sct", "t_fork": 2, "n_candidates": 2},
            "trials": 1,
            "concurrency": 2,
            "results_dir": str(tmp_path),
            "providers": {
                "small": {"kind": "local", "max_tokens": 96, "n_ctx": 8192, "n_parallel": 2}
            },
            "agents": [
                {"name": "vanilla", "agent": "vanilla", "provider": "small"},
                {"name": "workflow", "agent": "workflow", "provider": "small"},
            ],
        }
    )
    report = await Runner(config, progress=False).run()
    assert report.failed == 0, [
        json.loads(p.read_text())["error"] for p in tmp_path.glob("*/*.json")
    ]
    for agent in ("vanilla", "workflow"):
        trial = json.loads((tmp_path / agent / "trial_0000.json").read_text())
        assert trial["status"] == "complete"
        assert trial["evaluation"]["outcome"] in {
            "self_consistent",
            "over_confirmation",
            "state_substitution",
            "all_denial",
            "leakage",
        }
        assert len(trial["turns"]) == 2
        assert len(trial["branches"]) == 1 + len(trial["payload"]["candidates"])
        assert trial["usage"]["model_calls"] > 0
    workflow = json.loads((tmp_path / "workflow" / "trial_0000.json").read_text())
    assert workflow["usage"]["by_caller"]["updater"]["calls"] >= 2
    assert "## 2. Facts and Knowledge" in workflow["payload"]["snapshot"]
