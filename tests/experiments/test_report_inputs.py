"""``cogarch report`` on odd folders: special files among the trials, a ``run.json`` of another
shape, a file where the report folder goes, and baselines given as one name."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from cogarch.experiments.cli.command import main
from cogarch.experiments.reports.report import build_report, resolve_baselines
from cogarch.experiments.tables.tidy import tidy_run
from tests.deadline import deadline
from tests.experiments import make_trial, write_run


@pytest.fixture
def run_dir(tmp_path: Path) -> Iterator[Path]:
    """A small run: two agents, two trials each, and a ``run.json``; reads that block fail."""
    root = tmp_path / "run"
    trials = [make_trial(a, i, base_agent=a) for a in ("vanilla", "workflow") for i in range(2)]
    write_run(root, trials)
    config = {"name": "small", "trials": 2, "agents": [{"agent": "vanilla"}, {"agent": "workflow"}]}
    (root / "run.json").write_text(json.dumps({"config": config}), encoding="utf-8")
    with deadline(60):
        yield root


def test_special_files_among_the_trials_are_corrupt_rows_not_a_hang(run_dir: Path) -> None:
    os.mkfifo(run_dir / "vanilla" / "trial_0002.json")
    (run_dir / "vanilla" / "trial_0003.json").symlink_to("/dev/zero")
    (run_dir / "workflow" / "trial_0002.json").mkdir()
    (run_dir / "run.json").unlink()
    os.mkfifo(run_dir / "run.json")
    table = tidy_run(run_dir)
    corrupt = {(r.agent, r.trial): r.error_message for r in table.rows if r.status == "corrupt"}
    assert set(corrupt) == {("vanilla", 2), ("vanilla", 3), ("workflow", 2)}
    assert "FIFO" in (corrupt[("vanilla", 2)] or "")
    assert "outside" in (corrupt[("vanilla", 3)] or "")
    assert "is a folder" in (corrupt[("workflow", 2)] or "")
    paths = build_report(run_dir)
    assert "FIFO (named pipe)" in paths[0].read_text(encoding="utf-8")  # run.json's note


@pytest.mark.parametrize(
    "meta",
    [
        [1, 2],
        {"config": "oops"},
        {"config": {"agents": "vanilla", "trials": "many"}},
        {"config": {"agents": [5, None], "task": [1]}},
        {"config": {"baselines": {"a": 1}, "providers": []}},
    ],
)
def test_a_run_json_of_another_shape_is_noted_not_a_traceback(run_dir: Path, meta: object) -> None:
    (run_dir / "run.json").write_text(json.dumps(meta), encoding="utf-8")
    md = build_report(run_dir)[0].read_text(encoding="utf-8")
    assert "is not of the shape cogarch writes" in md
    assert "| vanilla |" in md


def test_baselines_given_as_one_name_are_one_name(run_dir: Path) -> None:
    rows = tidy_run(run_dir).rows
    meta = {"config": {"baselines": "vanilla"}}
    assert resolve_baselines(rows, meta, None) == ["vanilla"]
    assert resolve_baselines(rows, {}, "workflow") == ["workflow"]
    (run_dir / "run.json").write_text(json.dumps(meta), encoding="utf-8")
    md = build_report(run_dir)[0].read_text(encoding="utf-8")
    assert "baselines (named by the run config): vanilla" in md


def test_a_file_where_the_report_folder_goes_is_one_error(
    run_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (run_dir / "report").write_text("mine", encoding="utf-8")
    assert main(["report", str(run_dir)]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert "is a file, not a folder" in err
    assert (run_dir / "report").read_text(encoding="utf-8") == "mine"
