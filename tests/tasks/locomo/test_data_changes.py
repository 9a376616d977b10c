"""A resumed LoCoMo run plays again the trials of a conversation changed in the data file,
saying why, and keeps the others."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from cogarch.experiments.running.run_config import RunConfig
from cogarch.experiments.running.runner import Runner

DATA = Path(__file__).parent / "data" / "synthetic.json"


def config(tmp_path: Path, data: Path) -> RunConfig:
    return RunConfig.model_validate(
        {
            "name": "locomo",
            "task": {"kind": "locomo", "data": str(data)},
            "trials": 2,
            "seed": 5,
            "results_dir": str(tmp_path / "runs"),
            "cache": False,
            "providers": {"reader": {"kind": "fake", "fake": "locomo.reader"}},
            "agents": [{"name": "transcript", "agent": "transcript", "provider": "reader"}],
        }
    )


async def test_a_changed_gold_answer_replays_only_its_conversation(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "locomo.json"
    shutil.copyfile(DATA, data)
    cfg = config(tmp_path, data)
    assert (await Runner(cfg, progress=False).run()).ran == 2
    samples = json.loads(data.read_text(encoding="utf-8"))
    samples[1]["qa"][0]["answer"] = "a gold answer edited since"
    data.write_text(json.dumps(samples), encoding="utf-8")
    again = await Runner(cfg, progress=False).run()
    assert (again.ran, again.skipped) == (1, 1)
    assert "'syn-2', which has changed in the data file" in capsys.readouterr().err
