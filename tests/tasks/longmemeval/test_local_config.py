"""The shipped LongMemEval config of the embedded model, played with the scripted reader and
judge in place of the model: its controls all play, the full-history control's prompt stays
within the window the config gives it, and its judge audit runs beside a second judge."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from cogarch.experiments.running.run_config import RunConfig
from cogarch.experiments.running.runner import Runner
from cogarch.tasks.longmemeval.write_synthetic import main as write_synthetic

REPO = Path(__file__).resolve().parents[3]
CONFIG = REPO / "experiments" / "configs" / "longmemeval_local.yaml"


def faked(tmp_path: Path) -> RunConfig:
    data = tmp_path / "synthetic.json"
    sizes = ["--questions-per-type", "1", "--sessions", "12", "--words", "2"]
    assert write_synthetic([str(data), *sizes]) == 0
    raw = yaml.safe_load(CONFIG.read_text(encoding="utf-8"))
    assert raw["providers"]["local"]["kind"] == "local"
    raw["providers"]["local"] = {"kind": "fake", "fake": "longmemeval.reader"}
    raw["providers"]["judge"] = {"kind": "fake", "fake": "longmemeval.judge"}
    raw["helper_provider"] = "judge"
    raw["task"]["data"] = str(data)
    raw["results_dir"] = str(tmp_path / "run")
    raw["cache"] = False
    for agent in raw["agents"]:
        if agent["agent"] in ("longmemeval_sessions", "longmemeval_rounds", "raw_turns_hybrid"):
            agent.setdefault("params", {})["embedder"] = "hash"
    return RunConfig.model_validate(raw)


async def test_every_control_plays_and_the_full_history_fits_the_window(tmp_path: Path) -> None:
    cfg = faked(tmp_path)
    budget = next(a.params["history_tokens"] for a in cfg.agents if a.control == "full_history")
    n_ctx = yaml.safe_load(CONFIG.read_text(encoding="utf-8"))["providers"]["local"]["n_ctx"]
    assert budget <= n_ctx - 128 - 1000  # the window less the answer less the official 1000
    report = await Runner(cfg, progress=False).run()
    assert report.failed == 0
    folder = tmp_path / "run"
    for control in ("no_memory", "full_history", "oracle"):
        trials = sorted((folder / control).glob("trial_*.json"))
        assert len(trials) == 6
        for path in trials:
            record = json.loads(path.read_text(encoding="utf-8"))
            assert record["status"] == "complete"
            if control == "full_history":  # haystacks of about 3.5k tokens, cut
                assert 0 < record["payload"]["memory_tokens"] <= budget
    assert report.audit is not None
    assert [j.provider for j in report.audit.judges] == ["judge", "lexical"]
    assert report.audit.agreement is not None
