"""A run resumes from any working directory: a trial's identity holds what it ran (the content
of the task, provider and factory files it loaded, and resolved names), never a path relative
to where the command was started; trial files written before still resume."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml

from cogarch.experiments.cli.command import main
from cogarch.experiments.running.dry_run import dry_run
from cogarch.experiments.running.run_config import load_run_config

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COGARCH_CACHE_DIR", str(tmp_path / "cache"))


def project(tmp_path: Path, results: Path | None) -> Path:
    """A project folder with a config naming a task file and a provider file beside it."""
    folder = tmp_path / "project" / "configs"
    folder.mkdir(parents=True)
    for name in ("custom_task.py", "custom_provider.py"):
        shutil.copy(REPO / "examples" / name, folder / name)
    data = yaml.safe_load((REPO / "examples" / "custom_provider.yaml").read_text("utf-8"))
    data["trials"] = 2
    if results is not None:
        data["results_dir"] = str(results)
    config = folder / "run.yaml"
    config.write_text(yaml.safe_dump(data), encoding="utf-8")
    return config


def run(config: str, capsys: pytest.CaptureFixture[str], *extra: str) -> str:
    assert main(["run", config, "--quiet", *extra]) == 0
    return capsys.readouterr().out


def left_aside(results: Path) -> list[Path]:
    return sorted(results.glob("*/*.corrupt*"))


@pytest.mark.parametrize("where", ["config", "command line"])
def test_a_run_resumed_from_another_directory_plays_no_trial_again(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    where: str,
) -> None:
    results = tmp_path / "results"
    config = project(tmp_path, results if where == "config" else None)
    extra = ("--results-dir", str(results)) if where == "command line" else ()
    monkeypatch.chdir(config.parent.parent)
    first = run("configs/run.yaml", capsys, *extra)
    assert "4 trials run, 0 already complete" in first
    elsewhere = tmp_path / "elsewhere" / "deeper"
    elsewhere.mkdir(parents=True)
    monkeypatch.chdir(elsewhere)
    again = run(str(Path("../../project/configs/run.yaml")), capsys, *extra)
    assert "0 trials run, 4 already complete" in again
    monkeypatch.chdir(config.parent)
    assert "0 trials run, 4 already complete" in run("run.yaml", capsys, *extra)
    assert left_aside(results) == []
    # the plan names the same run from anywhere
    hashes = set()
    for cwd in (config.parent, elsewhere):
        monkeypatch.chdir(cwd)
        hashes.add(dry_run(load_run_config(config)).lines[0])
    assert len(hashes) == 1


def test_a_copied_project_resumes_and_edited_task_code_plays_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    results = tmp_path / "results"
    config = project(tmp_path, results)
    monkeypatch.chdir(tmp_path)
    run(str(config), capsys)
    copied = tmp_path / "moved"
    shutil.copytree(config.parent.parent, copied)
    assert "0 trials run, 4 already complete" in run(str(copied / "configs" / "run.yaml"), capsys)
    task = copied / "configs" / "custom_task.py"
    task.write_text(task.read_text("utf-8") + "\n# edited\n", encoding="utf-8")
    out = run(str(copied / "configs" / "run.yaml"), capsys)
    assert "4 trials run, 0 already complete" in out
    assert "other code" in out


def test_trial_files_written_before_resume_from_another_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Files written before code digests were recorded name the task and provider files by
    their path relative to the directory the run started in."""
    results = tmp_path / "results"
    config = project(tmp_path, results)
    monkeypatch.chdir(config.parent)
    run("run.yaml", capsys)
    for path in results.glob("*/trial_*.json"):
        data = json.loads(path.read_text("utf-8"))
        data["task"] = "custom_task.py:GuessTask"
        meta = data["metadata"]
        meta.pop("code_sha256", None)
        meta["config"]["task"]["kind"] = "custom_task.py:GuessTask"
        for entry in meta["config"]["providers"].values():
            entry["kind"] = "custom_provider.py:FunctionProvider"
        meta["provider_settings"]["kind"] = "custom_provider.py:FunctionProvider"
        path.write_text(json.dumps(data), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert "0 trials run, 4 already complete" in run(str(config), capsys)
    assert left_aside(results) == []


def test_an_agent_factory_named_by_file_resumes_from_another_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("agent_framework")
    folder = tmp_path / "project"
    folder.mkdir()
    shutil.copy(REPO / "examples" / "maf_memory.py", folder / "maf_memory.py")
    data = yaml.safe_load((REPO / "examples" / "maf_sct.yaml").read_text("utf-8"))
    data.update(trials=1, results_dir=str(tmp_path / "results"))
    data["task"].update(t_fork=2, n_candidates=2)
    (folder / "run.yaml").write_text(yaml.safe_dump(data), encoding="utf-8")
    monkeypatch.chdir(folder)
    assert "2 trials run, 0 already complete" in run("run.yaml", capsys)
    monkeypatch.chdir(tmp_path)
    assert "0 trials run, 2 already complete" in run("project/run.yaml", capsys)
    assert left_aside(tmp_path / "results") == []


def test_an_edited_memory_module_named_by_file_in_a_spec_plays_its_trials_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "project"
    folder.mkdir()
    for name in ("custom_memory.py", "custom_memory.yaml", "custom_memory_agent.yaml"):
        shutil.copy(REPO / "examples" / name, folder / name)
    config = str(folder / "custom_memory.yaml")
    results = str(tmp_path / "results")
    monkeypatch.chdir(tmp_path)
    args = ("--trials", "1", "--results-dir", results)
    out = run(config, capsys, *args)
    assert "2 trials run, 0 already complete" in out
    recorded = json.loads((tmp_path / "results/honest_notes/trial_0000.json").read_text())
    assert list(recorded["metadata"]["code_sha256"]) == ["project/custom_memory.py:NotesMemory"]
    monkeypatch.chdir(folder)  # the same files, named from elsewhere: nothing plays again
    assert "0 trials run, 2 already complete" in run("custom_memory.yaml", capsys, *args)
    with (folder / "custom_memory.py").open("a", encoding="utf-8") as file:
        file.write("\n# edited\n")
    out = run(config, capsys, *args)
    assert "2 trials run, 0 already complete" in out
