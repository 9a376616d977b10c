"""A run over a results directory that holds what it should not: special files among the trial
files, an unusable response cache; a run that loses every trial; and one resume key however
the results directory is spelled."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from cogarch.experiments.cli.command import main
from cogarch.experiments.results.trial_files import read_trial, trial_path
from cogarch.seeds import trial_seed
from tests.deadline import deadline
from tests.experiments import slow_fakes

RUN = """\
name: inputs
task: {{kind: hangman_sct, t_fork: 2, n_candidates: 2}}
trials: 2
cache: {cache}
providers:
  p: {{kind: fake, fake: "{fake}"}}
agents:
  - {{name: a, agent: vanilla, provider: p}}
"""
LOCOMO = Path(__file__).parents[1] / "tasks" / "locomo" / "data" / "synthetic.json"


@pytest.fixture(autouse=True)
def never_hangs() -> Iterator[None]:
    with deadline(120):
        yield


def config(tmp_path: Path, fake: str = "hangman.honest", cache: bool = False) -> Path:
    path = tmp_path / "run.yaml"
    path.write_text(RUN.format(fake=fake, cache=str(cache).lower()), encoding="utf-8")
    return path


def run(config_path: Path, results: Path | str) -> int:
    return main(["run", str(config_path), "--results-dir", str(results), "--quiet"])


def test_a_run_that_loses_every_trial_exits_non_zero_saying_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = config(tmp_path, fake="tests.experiments.slow_fakes:broken_host")
    assert run(broken, tmp_path / "out") == 1
    err = capsys.readouterr().err
    assert "error: every trial this run played failed (2); the first: a #" in err
    assert "the scripted host is broken" in err and "Traceback" not in err


def test_a_run_that_loses_some_trials_says_so_and_exits_zero(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    slow_fakes.FAIL_SEEDS.add(trial_seed(1337, 0))  # the first trial of the default seed
    try:
        flaky = config(tmp_path, fake="tests.experiments.slow_fakes:flaky_honest")
        assert run(flaky, tmp_path / "out") == 0
    finally:
        slow_fakes.FAIL_SEEDS.clear()
    err = capsys.readouterr().err
    assert "warning: 1 of 2 trials failed (the first: a #0:" in err


def test_special_files_among_the_trial_files_are_kept_aside_and_rerun(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    honest, results = config(tmp_path), tmp_path / "out"
    assert run(honest, results) == 0
    first, second = trial_path(results, "a", 0), trial_path(results, "a", 1)
    first.unlink()
    os.mkfifo(first)
    second.unlink()
    second.symlink_to("/dev/zero")
    capsys.readouterr()
    assert run(honest, results) == 0
    out = capsys.readouterr().out
    assert out.count("corrupt:") == 2 and "FIFO" in out and "outside" in out
    assert read_trial(first).status == read_trial(second).status == "complete"
    assert first.with_name("trial_0000.corrupt").exists()
    assert second.with_name("trial_0001.corrupt").is_symlink()


@pytest.mark.parametrize("spoil", ["cache file", "entries as folders", "entries as fifos"])
def test_an_unusable_response_cache_is_set_aside_and_every_trial_plays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], spoil: str
) -> None:
    cached, results = config(tmp_path, cache=True), tmp_path / "out"
    assert run(cached, results) == 0
    for path in results.glob("a/trial_*.json"):
        path.unlink()
    cache = results / ".cache"
    entries = [p for p in cache.rglob("*.json")]
    assert entries
    if spoil == "cache file":
        for entry in entries:
            entry.unlink()
        for shard in list(cache.iterdir()):
            shard.rmdir()
        cache.rmdir()
        cache.write_text("in the way", encoding="utf-8")
    for entry in entries if spoil != "cache file" else []:
        entry.unlink()
        entry.mkdir() if spoil == "entries as folders" else os.mkfifo(entry)
    capsys.readouterr()
    assert run(cached, results) == 0
    out = capsys.readouterr().out
    assert "2 trials run, 0 already complete, 0 failed" in out
    assert all(read_trial(p).status == "complete" for p in results.glob("a/trial_*.json"))
    assert run(cached, results) == 0  # and every rerun after it


def test_the_resume_key_does_not_depend_on_how_the_results_directory_is_spelled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "locomo.yaml"
    path.write_text(
        f"name: spelled\ntask: {{kind: locomo, data: '{LOCOMO}', conversations: [syn-1]}}\n"
        "trials: 1\ncache: false\nproviders: {r: {kind: fake, fake: locomo.reader}}\n"
        "agents: [{name: t, agent: transcript, provider: r}]\n",
        encoding="utf-8",
    )
    assert run(path, "out") == 0
    keys = sorted(p.name for p in (tmp_path / "out" / ".trial_state").iterdir())
    for spelling in ("./out/", str(tmp_path / "out"), "out/../out"):
        trial_path(tmp_path / "out", "t", 0).unlink()
        assert run(path, spelling) == 0
        assert sorted(p.name for p in (tmp_path / "out" / ".trial_state").iterdir()) == keys
        record = read_trial(trial_path(tmp_path / "out", "t", 0))
        assert record.payload.resumed, spelling  # the saved state was found and used
    capsys.readouterr()


def test_a_lock_link_to_nowhere_is_set_aside_never_followed(tmp_path: Path) -> None:
    results, outside = tmp_path / "out", tmp_path / "outside"
    results.mkdir()
    outside.mkdir()
    (results / ".lock").symlink_to(outside / "planted")
    assert run(config(tmp_path), results) == 0
    assert not (outside / "planted").exists()
    assert (results / ".lock").is_file() and (results / ".lock.unusable").is_symlink()
