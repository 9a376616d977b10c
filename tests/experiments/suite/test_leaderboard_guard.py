"""One damaged trial file never takes the leaderboard down: a value of the wrong type, an
impossible count or a missing field leaves that item out, named by file and field, in the
files, in ``suite report`` (which exits 0) and in the viewer's page (which renders)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from cogarch.experiments.cli.command import main
from cogarch.experiments.leaderboard.board import build_leaderboard
from cogarch.experiments.leaderboard.files import to_markdown
from cogarch.experiments.viewer.app import create_app
from cogarch.experiments.viewer.index import TrialIndex
from cogarch.experiments.viewer.suite_pages import SuitePages


def damage(cell: Path, change: Any) -> Path:
    path = sorted(cell.glob("*/trial_*.json"))[0]
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.fixture
def damaged(known: Path, tmp_path: Path) -> tuple[Path, Path, Path]:
    copy = tmp_path / "copy"
    shutil.copytree(known, copy)
    board = build_leaderboard(copy)
    revision = copy / board.cell("plain", "revision").folder  # type: ignore[union-attr]
    hangman = copy / board.cell("noted", "hangman_sct").folder  # type: ignore[union-attr]
    bad_metric = damage(revision, lambda d: d["evaluation"].update(consistent_task="many"))

    def negative(data: dict[str, Any]) -> None:
        data["usage"]["prompt_tokens"] = -500

    bad_count = damage(hangman, negative)
    return copy, bad_metric, bad_count


def test_a_metric_of_the_wrong_type_and_a_negative_count_are_left_out_by_name(
    known: Path, damaged: tuple[Path, Path, Path]
) -> None:
    copy, bad_metric, bad_count = damaged
    board = build_leaderboard(copy)
    clean = build_leaderboard(known)
    assert board.cell("plain", "revision").n == clean.cell("plain", "revision").n - 1  # type: ignore[union-attr]
    noted = board.cell("noted", "hangman_sct")
    assert noted is not None and noted.costs.prompt_tokens >= 0
    assert noted.n == clean.cell("noted", "hangman_sct").n  # type: ignore[union-attr]
    assert any(str(bad_metric) in line and "consistent_task" in line for line in board.left_out)
    assert any(str(bad_count) in line and "usage.prompt_tokens" in line for line in board.left_out)
    assert "## Left out" in to_markdown(board)


def test_suite_report_exits_zero_and_says_what_it_left_out(
    damaged: tuple[Path, Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    copy, bad_metric, _ = damaged
    assert main(["suite", "report", str(copy)]) == 0
    captured = capsys.readouterr()
    assert "left out 2" in captured.out
    assert str(bad_metric) in captured.err and "consistent_task" in captured.err
    data = json.loads((copy / "leaderboard.json").read_text(encoding="utf-8"))
    assert len(data["left_out"]) == 2
    assert "usage.prompt_tokens" in (copy / "leaderboard.md").read_text(encoding="utf-8")


def test_the_viewers_leaderboard_renders_and_lists_what_it_left_out(
    damaged: tuple[Path, Path, Path],
) -> None:
    copy, _, _ = damaged
    suite = SuitePages(copy)
    app = create_app(TrialIndex(suite.run_dirs(), min_interval_s=0), suite)
    page = TestClient(app, base_url="http://127.0.0.1").get("/leaderboard")
    assert page.status_code == 200
    assert 'id="left-out"' in page.text and "consistent_task" in page.text


def test_a_non_finite_duration_is_left_out_and_the_json_stays_strict(
    known: Path, tmp_path: Path
) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(known, copy)
    cell = copy / build_leaderboard(copy).cell("lost", "hangman_sct").folder  # type: ignore[union-attr]
    path = sorted(cell.glob("*/trial_*.json"))[0]
    text = path.read_text(encoding="utf-8")
    data = json.loads(text)
    data["metadata"]["duration_s"] = 1e400
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["suite", "report", str(copy)]) == 0
    raw = (copy / "leaderboard.json").read_text(encoding="utf-8")
    json.loads(raw, parse_constant=lambda name: pytest.fail(f"{name} in leaderboard.json"))
    assert "metadata.duration_s" in raw


def test_leaderboard_markdown_escapes_html_in_names_and_metric_lines(known: Path) -> None:
    board = build_leaderboard(known)
    board.suite = "<img src=x onerror=alert(1)>"
    board.tasks[0].description = "<script>alert(1)</script>"
    text = to_markdown(board)
    assert "<img" not in text and "<script>" not in text and "&lt;script&gt;" in text


def test_the_viewers_leaderboard_answers_a_damaged_suite_file_without_a_traceback(
    known: Path, tmp_path: Path
) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(known, copy)
    suite = SuitePages(copy)
    app = create_app(TrialIndex(suite.run_dirs(), min_interval_s=0), suite)
    (copy / "suite.json").write_text("{", encoding="utf-8")
    page = TestClient(app, base_url="http://127.0.0.1").get("/leaderboard")
    assert page.status_code == 503 and "suite.json" in page.text and "Traceback" not in page.text


def test_a_clean_suite_leaves_nothing_out(known: Path) -> None:
    assert build_leaderboard(known).left_out == []
    assert "## Left out" not in to_markdown(build_leaderboard(known))


def test_a_missing_metric_field_and_an_unreadable_file_are_named(
    known: Path, tmp_path: Path
) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(known, copy)
    board = build_leaderboard(copy)
    revision = copy / board.cell("noted", "revision").folder  # type: ignore[union-attr]
    missing = damage(revision, lambda d: d["evaluation"].pop("consistent_task"))
    guess = copy / board.cell("plain", "guess").folder  # type: ignore[union-attr]
    broken = sorted(guess.glob("*/trial_*.json"))[0]
    broken.write_text('{"status": "complete", "trial": ', encoding="utf-8")
    left = build_leaderboard(copy).left_out
    assert any(str(missing) in line and "is missing" in line for line in left)
    assert any(str(broken) in line and "cannot be read" in line for line in left)
