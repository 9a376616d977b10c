"""Task code is untrusted at run time: whatever it raises or returns that is not a trial output
is a failed trial with a clear error, the run goes on and keeps every trial, and the command
never ends with exit 0 and trials missing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from cogarch.experiments.cli.command import main
from cogarch.experiments.reports.report import build_report
from cogarch.experiments.results.trial_files import iter_trials
from cogarch.experiments.running.run_config import RunConfig
from cogarch.experiments.running.runner import Runner, RunReport
from tests.experiments.misbehaving_runs import misbehaving_config


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COGARCH_CACHE_DIR", str(tmp_path / "cache"))


def config_data(results: Path, **fields: Any) -> dict[str, Any]:
    return misbehaving_config(results, "misbehaving", **fields)


async def run(results: Path, **params: Any) -> RunReport:
    config = RunConfig.model_validate(config_data(results, **params))
    return await Runner(config, progress=False).run()


def statuses(results: Path) -> dict[int, tuple[str, str | None]]:
    found = {}
    for _path, record in iter_trials(results):
        assert not isinstance(record, Exception), record
        found[record.trial] = (record.status, record.error.type if record.error else None)
    return found


@pytest.mark.parametrize(
    ("mode", "error"),
    [
        ("none", "TypeError"),
        ("dict", "TypeError"),
        ("exit", "SystemExit"),
        ("own_base", "Stop"),
        ("own_interrupt", "KeyboardInterrupt"),
    ],
)
async def test_what_a_trial_raises_or_returns_besides_an_output_is_a_failed_trial(
    tmp_path: Path, mode: str, error: str
) -> None:
    results = tmp_path / "run"
    report = await run(results, mode=mode, bad_trial=1)
    assert (report.ran, report.failed) == (3, 1)
    assert statuses(results) == {0: ("complete", None), 1: ("failed", error), 2: ("complete", None)}
    assert mode not in ("none", "dict") or "not a TrialOutput" in report.errors[0]


def write_config(tmp_path: Path, **params: Any) -> Path:
    path = tmp_path / "run.yaml"
    path.write_text(yaml.safe_dump(config_data(tmp_path / "run", **params)), encoding="utf-8")
    return path


def test_sys_exit_in_every_trial_is_no_exit_0(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["run", str(write_config(tmp_path, mode="exit")), "--quiet"]) == 1
    err = capsys.readouterr().err
    assert "every trial this run played failed" in err and "sys.exit" in err
    assert len(statuses(tmp_path / "run")) == 3


def test_sys_exit_when_the_task_file_is_imported_is_one_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = tmp_path / "exiting.py"
    code.write_text("import sys\nsys.exit()\n", encoding="utf-8")
    config = write_config(tmp_path, task=f"{code}:Anything")
    assert main(["run", str(config), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and "SystemExit" in err and len(err.splitlines()) == 1


async def test_sys_exit_in_a_report_hook_neither_ends_the_report_nor_exits_0(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results = tmp_path / "run"
    await run(results, task="tests.experiments.misbehaving_task:ExitingTables")
    assert main(["report", str(results)]) == 0
    page = (results / "report" / "report.md").read_text(encoding="utf-8")
    assert "could not be made: SystemExit" in page


async def test_joint_judging_that_exits_leaves_the_trials_as_played(tmp_path: Path) -> None:
    results = tmp_path / "run"
    report = await run(results, task="tests.experiments.misbehaving_task:FailingJudge")
    assert report.failed == 0 and len(report.rows) == 1 and report.rows[0].complete == 3
    assert any("joint judging" in w and "SystemExit" in w for w in report.warnings)


async def test_a_record_larger_than_its_reader_accepts_is_a_failed_trial_not_a_corrupt_file(
    tmp_path: Path,
) -> None:
    results = tmp_path / "run"
    big = 65 * 2**20  # past the 64 MB a trial file may hold
    report = await run(results, trials=1, payload_bytes=big)
    assert report.failed == 1 and "bytes a trial file may hold" in report.errors[0]
    assert statuses(results) == {0: ("failed", "TrialNotWritable")}
    again = await run(results, trials=1, payload_bytes=big)
    assert again.corrupt == [] and again.ran == 1  # played again, never called corrupt


async def test_a_record_nested_deeper_than_its_reader_reads_is_a_failed_trial(
    tmp_path: Path,
) -> None:
    results = tmp_path / "run"
    report = await run(results, trials=1, nesting=150)
    assert report.failed == 1 and "would not read back" in report.errors[0]
    again = await run(results, trials=1, nesting=150)
    assert again.corrupt == []


async def test_a_whole_number_beyond_floats_is_refused_and_the_run_ends(tmp_path: Path) -> None:
    results = tmp_path / "run"
    report = await run(results, score=10**400, bad_trial=0)
    assert report.failed == 1 and "beyond what a table can hold" in report.errors[0]
    assert statuses(results)[0] == ("failed", "TrialNotWritable")
    assert report.table()  # the end table is made


async def test_a_file_holding_such_a_number_is_not_read_as_a_trial(tmp_path: Path) -> None:
    results = tmp_path / "run"
    await run(results, trials=1)
    path = results / "a" / "trial_0000.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["evaluation"]["score"] = 10**400
    path.write_text(json.dumps(data), encoding="utf-8")
    [(_, found)] = iter_trials(results)
    assert isinstance(found, Exception) and "beyond what a table can hold" in str(found)


async def test_trials_scoring_near_the_float_limit_are_tabled(tmp_path: Path) -> None:
    results = tmp_path / "run"
    await run(results, score_text="1e308")
    build_report(results)
    page = (results / "report" / "report.md").read_text(encoding="utf-8")
    assert "| score | 1e+308 ± 0 |" in page


async def test_nan_in_an_evaluation_is_written_as_null_with_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results = tmp_path / "run"
    report = await run(results, trials=1, score_text="nan")
    assert report.failed == 0
    assert any("'evaluation.score' is nan" in w and "null" in w for w in report.warnings)
    assert "is nan" in capsys.readouterr().err
    saved = json.loads((results / "a" / "trial_0000.json").read_text(encoding="utf-8"))
    assert saved["evaluation"]["score"] is None


async def test_an_outcome_outside_the_classes_is_tabled_as_itself_with_a_warning(
    tmp_path: Path,
) -> None:
    results = tmp_path / "run"
    report = await run(results, outcome="draw")
    assert any("outcome 'draw' is none of the task's classes" in w for w in report.warnings)
    header, _, row = report.table().splitlines()[:3]
    assert "| draw" in header and row.split("|")[header.split("|").index(" draw ")].strip() == "3"


async def test_a_resumed_run_with_its_task_file_in_the_results_tables_every_trial(
    tmp_path: Path,
) -> None:
    results = tmp_path / "run"
    results.mkdir()
    code = results / "scored_task.py"  # the task file lies inside its results folder
    source = Path(__file__).with_name("misbehaving_task.py").read_text(encoding="utf-8")
    code.write_text(source, encoding="utf-8")
    first = await run(results, task=f"{code}:MisbehavingTask")
    resumed = await run(results, task=f"{code}:MisbehavingTask")
    assert (resumed.ran, resumed.skipped) == (0, 3)
    assert resumed.table() == first.table()
    assert "| 3" in resumed.tables[0].text_rows()[0][0] or resumed.tables[0].rows == [[3]]


async def test_an_evaluation_whose_own_serializer_exits_is_a_failed_trial(tmp_path: Path) -> None:
    results = tmp_path / "run"
    report = await run(results, mode="exit_dump", bad_trial=0)
    assert (report.ran, report.failed) == (3, 1)
    assert "could not be written" in report.errors[0] and "SystemExit" in report.errors[0]
    assert statuses(results)[0] == ("failed", "TrialNotWritable")
