"""A suite stays inside its folder and keeps it its own: a cell folder replaced by a link is
set aside and never followed (by the run, the report or the viewer), and another suite's
config is refused on the folder unless the user asks to replace it."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from cogarch.experiments.cli.command import main
from cogarch.experiments.leaderboard.board import build_leaderboard

SUITE = """\
name: {name}
trials: 2
cache: false
providers:
  honest: {{kind: fake, fake: honest}}
tasks:
  - {{kind: hangman_sct, t_fork: 3, n_candidates: 3}}
agents:
  - {{name: plain, agent: vanilla, provider: honest}}
  - {{name: noted, agent: workflow, provider: honest, params: {{strategy: overwrite}}}}
"""


def write_suite(folder: Path, name: str = "mine", text: str = SUITE) -> Path:
    path = folder / f"{name}.yaml"
    path.write_text(text.format(name=name), encoding="utf-8")
    return path


def run(config: Path, out: Path, *more: str) -> int:
    return main(["suite", str(config), "--results-dir", str(out), "--quiet", "--no-reports", *more])


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("played")
    assert run(write_suite(folder), folder / "out") == 0
    return folder


def copy_of(played: Path, tmp_path: Path) -> tuple[Path, Path]:
    shutil.copytree(played, tmp_path / "s", symlinks=True)
    return tmp_path / "s" / "mine.yaml", tmp_path / "s" / "out"


def test_a_cell_folder_replaced_by_a_link_is_set_aside_and_nothing_written_there(
    played: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config, out = copy_of(played, tmp_path)
    elsewhere = tmp_path / "elsewhere"
    shutil.move(out / "hangman_sct" / "plain", elsewhere)
    before = {p: p.stat().st_mtime_ns for p in elsewhere.rglob("*")}
    (out / "hangman_sct" / "plain").symlink_to(elsewhere, target_is_directory=True)
    assert run(config, out) == 0
    err = capsys.readouterr().err
    assert "hangman_sct/plain" in err and "plain.unusable" in err and "never followed" in err
    assert {p: p.stat().st_mtime_ns for p in elsewhere.rglob("*")} == before
    cell = out / "hangman_sct" / "plain"
    assert cell.is_dir() and not cell.is_symlink()
    assert len(list(cell.glob("*/trial_*.json"))) == 2  # played again, inside the folder
    assert (out / "hangman_sct" / "plain.unusable").is_symlink()


def test_a_task_folder_replaced_by_a_link_is_set_aside_too(
    played: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config, out = copy_of(played, tmp_path)
    elsewhere = tmp_path / "elsewhere"
    shutil.move(out / "hangman_sct", elsewhere)
    before = {p: p.stat().st_mtime_ns for p in elsewhere.rglob("*")}
    (out / "hangman_sct").symlink_to(elsewhere, target_is_directory=True)
    assert run(config, out) == 0
    assert "task 'hangman_sct'" in capsys.readouterr().err
    assert not (out / "hangman_sct").is_symlink()
    assert {p: p.stat().st_mtime_ns for p in elsewhere.rglob("*")} == before
    assert len(list((out / "hangman_sct").glob("*/*/trial_*.json"))) == 4


def test_report_and_viewer_never_read_trials_through_a_linked_cell(
    played: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out = copy_of(played, tmp_path)
    elsewhere = tmp_path / "elsewhere"
    shutil.move(out / "hangman_sct" / "plain", elsewhere)
    os.symlink(elsewhere, out / "hangman_sct" / "plain")
    assert main(["suite", "report", str(out)]) == 0
    captured = capsys.readouterr()
    assert "is a link, which is never followed" in captured.err
    assert "left out 1" in captured.out
    board = build_leaderboard(out)
    plain = board.cell("plain", "hangman_sct")
    assert plain is not None and plain.status == "pending" and plain.n == 0
    from cogarch.experiments.viewer.suite_pages import SuitePages

    pages = SuitePages(out)
    assert all("plain" not in d.parts for d in pages.run_dirs())
    assert "never followed" in pages.page(trials="/?run=", reports="/report/", home="/")


def test_another_suite_is_refused_on_the_folder_naming_both(
    played: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out = copy_of(played, tmp_path)
    recorded = (out / "suite.json").read_bytes()
    other = write_suite(tmp_path, "theirs")
    assert run(other, out) == 2
    err = capsys.readouterr().err
    assert str(out) in err and "'mine'" in err and "'theirs'" in err and "--replace" in err
    assert (out / "suite.json").read_bytes() == recorded
    assert run(other, out, "--replace") == 0
    assert json.loads((out / "suite.json").read_text(encoding="utf-8"))["suite"] == "theirs"


def test_the_same_suite_edited_is_refused_but_speed_settings_are_not(
    played: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out = copy_of(played, tmp_path)
    faster = SUITE.replace("cache: false", "cache: false\nconcurrency: 4\nparallel_cells: 2")
    assert run(write_suite(tmp_path, text=faster), out) == 0
    more = SUITE.replace("trials: 2", "trials: 3")
    assert run(write_suite(tmp_path, text=more), out) == 2
    assert "the same name, another config" in capsys.readouterr().err


def test_a_folder_with_an_unreadable_suite_file_or_a_runs_results_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = write_suite(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    (out / "suite.json").write_text("{not json", encoding="utf-8")
    assert run(config, out) == 2
    assert "cannot be read" in capsys.readouterr().err
    (out / "suite.json").unlink()
    (out / "run.json").write_text("{}", encoding="utf-8")
    assert run(config, out) == 2
    assert "a run's results" in capsys.readouterr().err
    assert not (out / "hangman_sct").exists()


def test_a_folder_standing_where_a_leaderboard_file_goes_is_set_aside(
    played: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config, out = copy_of(played, tmp_path)
    (out / "leaderboard.md").unlink()
    (out / "leaderboard.md").mkdir()
    (out / "leaderboard.md" / "keep.txt").write_text("mine", encoding="utf-8")
    assert main(["suite", "report", str(out)]) == 0
    assert (out / "leaderboard.md").is_file()
    assert (out / "leaderboard.md.unusable" / "keep.txt").read_text(encoding="utf-8") == "mine"
    assert "leaderboard.md.unusable" in capsys.readouterr().err
    assert run(config, out) == 0


def test_the_dry_run_says_the_folder_is_another_suites(
    played: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out = copy_of(played, tmp_path)
    other = write_suite(tmp_path, "theirs")
    assert main(["suite", str(other), "--results-dir", str(out), "--dry-run"]) == 0
    text = capsys.readouterr().out
    assert "REFUSED as it stands" in text and "'mine'" in text and "--replace" in text
