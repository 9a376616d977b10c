"""The commands say which code of the user's own they import: the dry run's plan lists it
(with each file's digest), ``run --help`` says so, and ``cogarch models --no-check`` lists a
provider kind of the user's own without importing it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from cogarch.experiments.cli.command import main
from cogarch.experiments.running.dry_run import dry_run
from cogarch.experiments.running.run_config import load_run_config

REPO = Path(__file__).resolve().parents[2]

MARKED = """
import pathlib
pathlib.Path({marker!r}).write_text("imported")
"""


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COGARCH_CACHE_DIR", str(tmp_path / "cache"))


def project(tmp_path: Path) -> Path:
    marker = tmp_path / "provider_imported"
    for name in ("custom_task.py", "custom_provider.py"):
        shutil.copy(REPO / "examples" / name, tmp_path / name)
    provider = tmp_path / "custom_provider.py"
    provider.write_text(
        provider.read_text("utf-8") + MARKED.format(marker=str(marker)), encoding="utf-8"
    )
    data = yaml.safe_load((REPO / "examples" / "custom_provider.yaml").read_text("utf-8"))
    path = tmp_path / "run.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


def test_the_plan_lists_the_users_code_it_imported(tmp_path: Path) -> None:
    text = dry_run(load_run_config(project(tmp_path))).text()
    assert "your code imported" in text
    for what in ("task ", "provider 'halving' kind ", "provider 'counting' kind "):
        line = next(line for line in text.splitlines() if line.strip().startswith(what))
        assert "sha256 " in line and str(tmp_path) in line


def test_a_plan_of_cogarchs_own_code_says_none() -> None:
    config = load_run_config(REPO / "experiments" / "configs" / "hangman_sct_fakes.yaml")
    assert "your code: none" in dry_run(config).text().splitlines()


def test_models_no_check_lists_without_importing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = project(tmp_path)
    assert main(["models", "--config", str(path), "--no-check"]) == 0
    out = capsys.readouterr().out
    assert "halving" in out and "not imported without --check" in out
    assert not (tmp_path / "provider_imported").exists()


def test_the_help_says_what_is_imported(capsys: pytest.CaptureFixture[str]) -> None:
    for command in (["run", "--help"], ["models", "--help"]):
        with pytest.raises(SystemExit):
            main(command)
        said = " ".join(capsys.readouterr().out.split())
        assert "import" in said and "your own" in said
