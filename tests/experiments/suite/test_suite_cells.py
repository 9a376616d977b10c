"""Every cell is checked before any plays; a suite that could not run a cell ends in error
naming it; a suite with no cell to run is refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from cogarch.errors import ConfigError
from cogarch.experiments.cli.command import main
from cogarch.experiments.suites.config import load_suite_config

HEAD = """\
name: cells
trials: 1
cache: false
providers:
  honest: {kind: fake, fake: honest}
"""


def write(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "cells.yaml"
    path.write_text(HEAD + body, encoding="utf-8")
    return path


def run(config: Path, out: Path) -> int:
    return main(["suite", str(config), "--results-dir", str(out), "--quiet", "--no-reports"])


def test_a_typo_in_one_agents_params_stops_the_suite_before_any_cell_plays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = write(
        tmp_path,
        """\
tasks: [{kind: hangman_sct, t_fork: 3, n_candidates: 3}]
agents:
  - {name: plain, agent: vanilla, provider: honest}
  - {name: noted, agent: workflow, provider: honest, params: {strategy: overwrite, stratgy: x}}
""",
    )
    out = tmp_path / "out"
    assert run(config, out) == 2
    err = capsys.readouterr().err
    assert "cell noted x hangman_sct" in err and "stratgy" in err and "none was played" in err
    assert not list(out.rglob("trial_*.json"))


def test_a_suite_whose_cell_could_not_run_exits_non_zero_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = write(
        tmp_path,
        f"""\
tasks:
  - {{kind: hangman_sct, t_fork: 3, n_candidates: 3}}
  - {{kind: longmemeval, name: lme, data: {tmp_path / "missing.json"}, judge: false,
      fakes: {{honest: reader}}}}
agents:
  - {{name: plain, agent: vanilla, provider: honest}}
""",
    )
    assert run(config, tmp_path / "out") == 1
    out = capsys.readouterr().out
    assert "1 of 2 cells could not run: plain x lme" in out
    assert list((tmp_path / "out" / "hangman_sct").rglob("trial_*.json"))


def test_a_suite_with_every_cell_skipped_is_refused(tmp_path: Path) -> None:
    config = write(
        tmp_path,
        """\
tasks: [{kind: hangman_sct}]
agents: [{name: plain, agent: vanilla, provider: honest}]
skip: [{agent: plain, task: hangman_sct}]
""",
    )
    with pytest.raises(ConfigError, match="nothing to run"):
        load_suite_config(config)
