"""Consent is for code: a reader loads a task only when its file is, byte for byte, what this
user ran, never from the results folder being read (whatever ``sys.path`` holds), and runs
starting at once all keep their entries in the trust list."""

from __future__ import annotations

import importlib
import json
import sys
import threading
from pathlib import Path

import pytest

from cogarch.core.payload import GenericPayload
from cogarch.experiments.results.task_trust import trust, trust_file, trusted
from cogarch.experiments.results.trial_files import read_trial
from tests.experiments.noting_task import TASK, task_file, trial, write


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COGARCH_CACHE_DIR", str(tmp_path / "cache"))


def is_generic(record_path: Path) -> bool:
    record = read_trial(record_path)
    return isinstance(record.payload, GenericPayload) and record.payload.data["text"] == "hello"


def test_a_trusted_task_file_edited_since_is_not_loaded(tmp_path: Path) -> None:
    code = task_file(tmp_path / "mine" / "noting.py", tmp_path / "first")
    source = f"{code}:Noting"
    trust(source)
    path = write(tmp_path / "run" / "a" / "trial_0000.json", trial("noting.py:Noting", source))
    assert trusted(source)
    code.write_text(TASK.format(marker=str(tmp_path / "edited")), encoding="utf-8")
    assert not trusted(source) and is_generic(path)
    assert not (tmp_path / "edited").exists() and not (tmp_path / "first").exists()
    trust(source)  # the user runs the edited task: now it is code they ran
    assert not is_generic(path) and (tmp_path / "edited").exists()


def test_a_trusted_task_file_replaced_by_a_link_is_not_loaded(tmp_path: Path) -> None:
    code = task_file(tmp_path / "mine" / "noting.py", tmp_path / "mine_ran")
    source = f"{code}:Noting"
    trust(source)
    other = task_file(tmp_path / "other" / "noting.py", tmp_path / "other_ran")
    code.unlink()
    code.symlink_to(other)
    path = write(tmp_path / "run" / "a" / "trial_0000.json", trial("noting.py:Noting", source))
    assert not trusted(source) and is_generic(path)
    assert not (tmp_path / "other_ran").exists()


def test_another_class_of_a_trusted_file_is_not_trusted(tmp_path: Path) -> None:
    code = task_file(tmp_path / "mine" / "noting.py", tmp_path / "ran")
    trust(f"{code}:Noting")
    assert trusted(f"{code}:Noting") and not trusted(f"{code}:Note")


def test_an_import_path_is_never_loaded_from_the_results_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    name = "consent_noting_task"
    mine = task_file(tmp_path / "project" / f"{name}.py", tmp_path / "mine_ran")
    monkeypatch.syspath_prepend(str(mine.parent))
    importlib.import_module(name)  # what the run loaded: the user's own module
    source = f"{name}:Noting"
    entry = trust(source)
    assert entry is not None and entry.file == str(mine.resolve())
    del sys.modules[name]
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p != str(mine.parent)])
    # a received results folder brings a module of the same name; the report runs inside it
    # (``python -m`` puts the working directory first on sys.path)
    run = tmp_path / "received"
    task_file(run / f"{name}.py", tmp_path / "planted_ran")
    path = write(run / "a" / "trial_0000.json", trial(source))
    monkeypatch.chdir(run)
    monkeypatch.setattr(sys, "path", [str(run), "", *sys.path])
    assert is_generic(path)
    assert not (tmp_path / "planted_ran").exists() and name not in sys.modules
    # where the user's own module is found (outside the folder), it is loaded
    monkeypatch.setattr(sys, "path", [str(mine.parent), *sys.path])
    (tmp_path / "mine_ran").unlink()
    assert not is_generic(path) and (tmp_path / "mine_ran").exists()
    assert not (tmp_path / "planted_ran").exists()
    assert sys.modules[name].__file__ == str(mine)


def test_an_import_path_whose_module_changed_is_not_loaded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    name = "consent_changed_task"
    mine = task_file(tmp_path / "project" / f"{name}.py", tmp_path / "ran")
    monkeypatch.syspath_prepend(str(mine.parent))
    importlib.import_module(name)
    trust(f"{name}:Noting")
    del sys.modules[name]
    mine.write_text(TASK.format(marker=str(tmp_path / "changed")), encoding="utf-8")
    path = write(tmp_path / "run" / "a" / "trial_0000.json", trial(f"{name}:Noting"))
    assert is_generic(path) and not (tmp_path / "changed").exists()


def test_runs_starting_at_once_keep_every_entry(tmp_path: Path) -> None:
    files = [task_file(tmp_path / f"t{i}" / "noting.py", tmp_path / f"m{i}") for i in range(12)]
    start = threading.Barrier(len(files))

    def run(code: Path) -> None:
        start.wait()
        trust(f"{code}:Noting")

    threads = [threading.Thread(target=run, args=(f,)) for f in files]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    listed = json.loads(trust_file().read_text(encoding="utf-8"))["tasks"]
    assert sorted(e["file"] for e in listed) == sorted(str(f.resolve()) for f in files)
    assert all(trusted(f"{f}:Noting") for f in files)


def test_an_older_list_of_names_trusts_no_code(tmp_path: Path) -> None:
    code = task_file(tmp_path / "mine" / "noting.py", tmp_path / "ran")
    trust_file().parent.mkdir(parents=True)
    trust_file().write_text(json.dumps({"tasks": [f"{code}:Noting"]}), encoding="utf-8")
    assert not trusted(f"{code}:Noting")
    trust(f"{code}:Noting")
    assert trusted(f"{code}:Noting")
