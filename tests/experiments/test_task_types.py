"""Reading a trial file loads its task from where the run loaded it, only when this user ran
that code here and never from inside the results being read; a task that cannot be loaded
leaves its records as generic data."""

from __future__ import annotations

from pathlib import Path

import pytest

from cogarch.core.payload import GenericPayload
from cogarch.experiments.results.task_trust import trust, trust_file, trusted
from cogarch.experiments.results.task_types import task_class, task_source
from cogarch.experiments.results.trial_files import read_trial
from tests.experiments.noting_task import TASK, trial, write


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COGARCH_CACHE_DIR", str(tmp_path / "cache"))


def test_a_task_file_is_loaded_from_where_the_run_loaded_it(tmp_path: Path) -> None:
    marker = tmp_path / "imported"
    code = tmp_path / "tasks" / "noting.py"
    code.parent.mkdir()
    code.write_text(TASK.format(marker=str(marker)), encoding="utf-8")
    source = task_source(f"{code.parent}/../tasks/noting.py:Noting")
    assert source == f"{code.resolve()}:Noting"  # made absolute where the run loaded it
    path = write(tmp_path / "run" / "a" / "trial_0000.json", trial("noting.py:Noting", source))
    trust(source)  # what `cogarch run` does before it loads the task
    record = read_trial(path)
    assert type(record.payload).__name__ == "Note" and marker.exists()


def test_task_code_this_user_never_ran_is_not_loaded(tmp_path: Path) -> None:
    marker = tmp_path / "imported"
    code = tmp_path / "elsewhere" / "noting.py"  # beside a results folder, not inside it
    code.parent.mkdir()
    code.write_text(TASK.format(marker=str(marker)), encoding="utf-8")
    source = f"{code}:Noting"
    path = write(tmp_path / "run" / "a" / "trial_0000.json", trial("noting.py:Noting", source))
    record = read_trial(path)
    assert isinstance(record.payload, GenericPayload) and record.payload.data["text"] == "hello"
    assert not marker.exists() and not trusted(source)
    # an import path a file names is code too: not loaded until this user runs it
    assert task_class("json:JSONDecoder") is None and not trusted("json:JSONDecoder")
    assert trusted("hangman_sct")  # registered tasks are always read as themselves


def test_a_damaged_trust_list_trusts_nothing_and_mends_on_the_next_run(tmp_path: Path) -> None:
    trust_file().parent.mkdir(parents=True)
    trust_file().write_text("{not json", encoding="utf-8")
    assert not trusted("json:JSONDecoder")
    trust("json:JSONDecoder")
    assert trusted("json:JSONDecoder") and not trusted("json:JSONEncoder")


def test_a_task_file_inside_the_results_is_never_loaded(tmp_path: Path) -> None:
    marker = tmp_path / "imported"
    run = tmp_path / "run"
    code = run / "noting.py"  # a run folder that brings its own code
    run.mkdir()
    code.write_text(TASK.format(marker=str(marker)), encoding="utf-8")
    path = write(run / "a" / "trial_0000.json", trial("noting.py:Noting", f"{code}:Noting"))
    record = read_trial(path)
    assert isinstance(record.payload, GenericPayload) and record.payload.data["text"] == "hello"
    assert not marker.exists()
    assert task_class("noting.py:Noting", f"{code}:Noting", within=run) is None


def test_a_task_that_cannot_be_loaded_leaves_generic_data(tmp_path: Path) -> None:
    path = write(tmp_path / "a" / "trial_0000.json", trial("no.such.module:Task", ""))
    record = read_trial(path)
    assert isinstance(record.payload, GenericPayload) and record.task == "no.such.module:Task"
    assert task_class("hangman_sct") is not None and task_source("hangman_sct") is None
