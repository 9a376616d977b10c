"""The shipped genmem configs: the embedded-model run and suite load and plan (no model is
started), and the same suite played with the scripted reader ranks every agent on one
leaderboard of paired items, and resumes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from cogarch.experiments.cli.command import main
from cogarch.experiments.running.run_config import load_run_config
from cogarch.experiments.suites.config import load_suite_config

REPO = Path(__file__).resolve().parents[3]
SUITE = REPO / "experiments" / "configs" / "suite_genmem_local.yaml"


@pytest.mark.parametrize(
    "name", ["genmem_local.yaml", "genmem_fakes.yaml", "genmem_calibration_local.yaml"]
)
def test_the_run_configs_load_and_plan(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    config = load_run_config(REPO / "experiments" / "configs" / name)
    assert config.task.kind == "genmem"
    readings = config.task.params()["readings"]
    assert readings == {"no_memory": "none", "oracle": "oracle"}
    assert {"no_memory", "oracle"} <= {a.label for a in config.agents}
    assert main(["run", str(REPO / "experiments" / "configs" / name), "--dry-run"]) == 0
    assert "questions (extraction" in capsys.readouterr().out


def test_the_local_suite_has_the_controls_and_three_kinds_of_memory(
    capsys: pytest.CaptureFixture[str],
) -> None:
    config = load_suite_config(SUITE)
    agents = {a.label: a for a in config.agents}
    roles = {n: a.control for n, a in agents.items()}
    assert roles["no_memory"] == "no_memory" and roles["oracle"] == "oracle"
    assert roles["full_window"] == "full_history"
    kinds = {str(a.agent) for a in agents.values() if a.control is None}
    assert {"raw_turns", "raw_turns_hybrid"} <= kinds
    assert any(k.endswith("agents/genmem_sessions.yaml") for k in kinds)
    assert main(["suite", str(SUITE), "--dry-run", "--results-dir", "/nonexistent/x"]) == 0
    assert "6 cells" in capsys.readouterr().out


def test_the_suite_on_the_scripted_reader_ranks_paired_items(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    raw = yaml.safe_load(SUITE.read_text(encoding="utf-8"))
    raw["providers"] = {"local": {"kind": "fake", "fake": "genmem.reader"}}
    raw["cache"] = False
    raw["concurrency"] = 2
    for agent in raw["agents"]:
        if "control" not in agent:
            agent["params"] = {**agent.get("params", {}), "embedder": "hash"}
        if str(agent["agent"]).startswith("agents/"):
            agent["agent"] = str(SUITE.parent / agent["agent"])
    path = tmp_path / "suite.yaml"
    path.write_text(yaml.safe_dump(raw), encoding="utf-8")
    out = tmp_path / "suite"
    assert main(["suite", str(path), "--results-dir", str(out), "--quiet"]) == 0
    assert "6 cells: 144 trials run" in capsys.readouterr().out
    board = json.loads((out / "leaderboard.json").read_text(encoding="utf-8"))
    value = {c["agent"]: c["value"] for c in board["cells"]}
    assert value["oracle"] > value["no_memory"]
    assert main(["suite", str(path), "--results-dir", str(out), "--quiet"]) == 0
    assert "0 trials run, 144 already complete" in capsys.readouterr().out
