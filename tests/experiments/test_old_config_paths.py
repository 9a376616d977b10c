"""A shipped config named at its place before the configs moved to ``experiments/configs/``:
the error names the new path, from Python and from the command line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cogarch.errors import ConfigError
from cogarch.experiments.cli.command import main
from cogarch.experiments.running.old_config_paths import moved_config
from cogarch.experiments.running.run_config import load_run_config
from cogarch.experiments.suites.config import load_suite_config

REPO = Path(__file__).resolve().parents[2]


def test_an_old_run_config_path_names_the_new_one() -> None:
    old = REPO / "experiments" / "hangman_sct_fakes.yaml"
    with pytest.raises(ConfigError, match=re.escape("experiments/configs/hangman_sct_fakes.yaml")):
        load_run_config(old)


def test_an_old_suite_config_path_names_the_new_one() -> None:
    old = REPO / "experiments" / "suite_memory_fakes.yaml"
    with pytest.raises(ConfigError, match=re.escape("experiments/configs/suite_memory_fakes.yaml")):
        load_suite_config(old)


def test_the_command_line_names_the_new_path(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(REPO)
    assert main(["run", "experiments/hangman_sct_fakes.yaml", "--dry-run"]) == 2
    err = capsys.readouterr().err
    assert "use 'experiments/configs/hangman_sct_fakes.yaml'" in err


def test_an_agent_spec_moved_with_the_configs(tmp_path: Path) -> None:
    spec = tmp_path / "experiments" / "configs" / "agents" / "mine.yaml"
    spec.parent.mkdir(parents=True)
    spec.write_text("name: mine\n", encoding="utf-8")
    assert moved_config(tmp_path / "experiments" / "agents" / "mine.yaml") == spec


def test_other_missing_paths_get_the_ordinary_error(tmp_path: Path) -> None:
    (tmp_path / "experiments" / "configs").mkdir(parents=True)
    assert moved_config(tmp_path / "experiments" / "nothing.yaml") is None
    assert moved_config(tmp_path / "elsewhere.yaml") is None
    with pytest.raises(ConfigError, match="does not exist; check the path"):
        load_run_config(tmp_path / "experiments" / "nothing.yaml")
