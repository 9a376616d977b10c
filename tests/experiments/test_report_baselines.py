"""Which agents a report tests the others against, and which trial files it counts."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from cogarch.errors import ConfigError
from cogarch.experiments.cli.command import main
from cogarch.experiments.reports.report import build_report
from cogarch.experiments.results.trial_files import trial_path
from cogarch.experiments.running.run_config import RunConfig, load_run_config
from cogarch.experiments.running.runner import Runner
from cogarch.experiments.tables.tidy import tidy_run
from tests.experiments.test_report import summary_row


def fake_run(results: Path, **changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "name": "baselines",
        "task": {"kind": "hangman_sct", "t_fork": 3, "n_candidates": 3},
        "trials": 4,
        "cache": False,
        "results_dir": str(results),
        "providers": {
            "honest": {"kind": "fake", "fake": "hangman.honest"},
            "denier": {"kind": "fake", "fake": "hangman.denier"},
        },
        "agents": [
            {"name": "plain", "agent": "vanilla", "provider": "denier"},
            {"name": "memory", "agent": "workflow", "provider": "honest"},
            {"name": "other", "agent": "vanilla", "provider": "honest"},
        ],
    }
    data.update(changes)
    return data


def report_md(results: Path) -> str:
    return (results / "report" / "report.md").read_text("utf-8")


async def test_a_run_without_baselines_gets_the_default_ones(tmp_path: Path) -> None:
    results = tmp_path / "run"
    await Runner(RunConfig.model_validate(fake_run(results)), progress=False).run()
    build_report(results)
    md = report_md(results)
    assert "baselines (default: agents built on vanilla, " in md
    assert "): plain, other\n" in md
    assert summary_row(md, "plain")[2] == "baseline"
    assert summary_row(md, "memory")[2] == "method"
    assert "## Tests against the baselines" in md


async def test_config_and_command_line_choose_the_baselines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results = tmp_path / "run"
    config = RunConfig.model_validate(fake_run(results, baselines=["memory"]))
    await Runner(config, progress=False).run()
    build_report(results)
    assert "baselines (named by the run config): memory\n" in report_md(results)
    assert main(["report", str(results), "--baselines", "plain, other"]) == 0
    md = report_md(results)
    assert "baselines (chosen for this report): plain, other\n" in md
    assert summary_row(md, "memory")[2] == "method"
    assert main(["report", str(results), "--baselines", "nosuch"]) == 2
    assert "nosuch" in capsys.readouterr().err
    assert main(["report", str(results), "--baselines", ","]) == 2
    assert "--baselines names no agent" in capsys.readouterr().err


@pytest.mark.parametrize("baselines", ["[nosuch]", "[a, nosuch]"])
def test_a_config_naming_unknown_baselines_is_refused_before_any_trial(
    tmp_path: Path, baselines: str
) -> None:
    message = "baselines name agents this run does not have: nosuch"
    path = tmp_path / "run.yaml"
    path.write_text(
        "name: x\ntask: {kind: hangman_sct}\n"
        "agents: [{name: a, agent: vanilla}, {name: b, agent: vanilla}]\n"
        f"baselines: {baselines}\n",
        encoding="utf-8",
    )
    with pytest.raises(ConfigError, match=message):
        load_run_config(path)
    assert main(["run", str(path), "--results-dir", str(tmp_path / "out")]) == 2
    assert not (tmp_path / "out").exists()


async def test_a_copied_trial_file_counts_for_its_folder_and_is_flagged(tmp_path: Path) -> None:
    results = tmp_path / "run"
    await Runner(RunConfig.model_validate(fake_run(results)), progress=False).run()
    shutil.copyfile(trial_path(results, "memory", 0), trial_path(results, "plain", 1))
    shutil.copyfile(trial_path(results, "other", 3), trial_path(results, "other", 2))
    rows = {(r.agent, r.trial): r for r in tidy_run(results).rows}
    assert len(rows) == 12
    copied, renamed = rows[("plain", 1)], rows[("other", 2)]
    assert copied.status == renamed.status == "corrupt"
    assert "records agent 'memory', trial 0" in (copied.error_message or "")
    assert "records agent 'other', trial 3" in (renamed.error_message or "")
    build_report(results)
    md = report_md(results)
    # trials, complete, failed, corrupt
    assert summary_row(md, "plain")[3:7] == ["4", "3", "0", "1"]
    assert summary_row(md, "memory")[3:7] == ["4", "4", "0", "0"]
    assert summary_row(md, "other")[3:7] == ["4", "3", "0", "1"]
