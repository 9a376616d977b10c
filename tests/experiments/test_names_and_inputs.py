"""Names never leave the results directory; bad inputs stop the run before any trial."""

from __future__ import annotations

from pathlib import Path

import pytest

from cogarch.experiments.cli.command import main
from cogarch.experiments.results.names import MAX_NAME_BYTES, safe_name

GOOD = """\
name: names_test
task: {kind: hangman_sct, t_fork: 2, n_candidates: 2}
trials: 1
cache: false
providers:
  p: {kind: fake, fake: hangman.honest}
agents:
  - {name: a, agent: vanilla, provider: p}
"""
SPEC = """\
name: sp
specialists:
  responder: {kind: responder}
  updater: {kind: memory_updater}
memory:
  working_memory: {kind: working_memory}
edges: ["responder -> updater"]
entry: responder
"""

BAD_NAMES = ["..", ".", "a/b", "/abs", "a\\0b", "a\\uD800", "x" * 300, "", ".cache", "report"]
SPEC_EDITS = {
    "provider": ("{kind: responder}", "{kind: responder, provider: nope}"),
    "memory": ("{kind: memory_updater}", "{kind: memory_updater, memory: nosuch}"),
    "kind": ("{kind: responder}", "{kind: 'os:getcwd'}"),
    "memory kind": ("{kind: working_memory}", "{kind: 'os:getcwd'}"),
}


def run(tmp_path: Path, text: str, *extra: str) -> int:
    config = tmp_path / "run.yaml"
    config.write_text(text, encoding="utf-8")
    results = tmp_path / "out"
    return main(["run", str(config), "--results-dir", str(results), "--quiet", *extra])


def no_trial_ran(tmp_path: Path) -> bool:
    return not list(tmp_path.rglob("trial_*.json"))


@pytest.mark.parametrize("name", BAD_NAMES)
def test_bad_agent_names_are_refused_naming_the_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    assert run(tmp_path, GOOD.replace("name: a,", f'name: "{name}",')) == 2
    err = capsys.readouterr().err
    assert "agents.0.name:" in err and "Traceback" not in err
    assert no_trial_ran(tmp_path)


@pytest.mark.parametrize("name", ["../../escaped_run", "/tmp/abs_run", ""])
def test_bad_run_names_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    assert run(tmp_path, GOOD.replace("name: names_test", f'name: "{name}"')) == 2
    assert "  name:" in capsys.readouterr().err


def test_folders_stay_inside_and_apart() -> None:
    names = ["..", ".", "", "a/../../b", "report", "x" * 400, "x" * 399 + "y", ".lock"]
    folders = [safe_name(n) for n in names]
    assert len(set(folders)) == len(folders)
    for folder in folders:
        assert "/" not in folder and not folder.startswith(".") and folder != "report"
        assert len(folder.encode()) <= MAX_NAME_BYTES


@pytest.mark.parametrize("edit", SPEC_EDITS, ids=list(SPEC_EDITS))
def test_a_spec_naming_unknown_things_fails_before_any_trial(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], edit: str
) -> None:
    old, new = SPEC_EDITS[edit]
    spec = tmp_path / "spec.yaml"
    spec.write_text(SPEC.replace(old, new), encoding="utf-8")
    assert run(tmp_path, GOOD.replace("agent: vanilla", f"agent: {spec}")) == 2
    assert capsys.readouterr().err.startswith("error:")
    assert no_trial_ran(tmp_path)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("kind: hangman_sct, t_fork: 2, n_candidates: 2", "kind: 'os:getcwd'"),
        ("fake: hangman.honest", "fake: 'os:getcwd'"),
        ("trials: 1", "trials: true"),
        ("trials: 1", "trials: 1\ntrials: 2"),
    ],
)
def test_bad_values_fail_before_any_trial(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], old: str, new: str
) -> None:
    assert run(tmp_path, GOOD.replace(old, new)) == 2
    assert "Traceback" not in capsys.readouterr().err
    assert no_trial_ran(tmp_path)


def test_bad_command_line_paths(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    afile = tmp_path / "afile"
    afile.write_text("x", encoding="utf-8")
    config = tmp_path / "run.yaml"
    config.write_text(GOOD, encoding="utf-8")
    assert main(["run", str(config), "--results-dir", str(afile)]) == 2
    assert "is a file, not a folder" in capsys.readouterr().err
    assert main(["run", str(config), "--results-dir", ""]) == 2
    assert "--results-dir is empty" in capsys.readouterr().err
    assert main(["run", str(tmp_path)]) == 2
    assert "is a directory" in capsys.readouterr().err
    models = tmp_path / "models.yaml"
    models.write_text("providers: [1, 2]\n", encoding="utf-8")
    assert main(["models", "--config", str(models), "--no-check"]) == 2
    assert "must be a mapping" in capsys.readouterr().err
