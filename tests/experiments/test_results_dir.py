"""One run per results directory, disk errors in one line, and untrusted trial files kept."""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cogarch.experiments.cli.command import main
from cogarch.experiments.results.directory import ResultsDirError, RunLock
from cogarch.experiments.results.trial_files import read_trial, trial_path
from cogarch.experiments.running.run_config import load_run_config
from cogarch.experiments.running.runner import Runner
from tests.experiments.slow_fakes import DELAY_ENV

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs flock and SIGKILL")

REPO = Path(__file__).resolve().parents[2]
CONFIG = """\
name: lock_test
task: {kind: hangman_sct, t_fork: 2, n_candidates: 2}
trials: %d
concurrency: 2
cache: true
providers:
  slow: {kind: fake, fake: "tests.experiments.slow_fakes:slow_honest"}
  fast: {kind: fake, fake: hangman.honest}
agents:
  - {name: a, agent: vanilla, provider: %s}
  - {name: b, agent: vanilla, provider: %s}
"""


def config_file(tmp_path: Path, trials: int = 2, provider: str = "fast") -> Path:
    path = tmp_path / "run.yaml"
    path.write_text(CONFIG % (trials, provider, provider), encoding="utf-8")
    return path


def start(config: Path, results: Path, delay: float = 0.5) -> subprocess.Popen[str]:
    env = dict(os.environ, **{DELAY_ENV: str(delay)})
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH")) if p)
    command = [sys.executable, "-m", "cogarch.experiments", "run", str(config)]
    return subprocess.Popen(
        [*command, "--results-dir", str(results), "--quiet"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def wait_for_lock(results: Path, process: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 60
    while not (results / ".lock").exists() or not (results / ".lock").read_text().strip():
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "the first run never took the lock"
        time.sleep(0.05)


def test_a_second_run_on_the_same_directory_stops_and_names_the_first(tmp_path: Path) -> None:
    config, results = config_file(tmp_path, trials=20, provider="slow"), tmp_path / "out"
    first = start(config, results)
    wait_for_lock(results, first)
    leftover = results / "a" / ".trial_0005.json.inflight.tmp"
    leftover.parent.mkdir(parents=True, exist_ok=True)
    leftover.write_text("{", encoding="utf-8")  # as if the first run were writing it now
    second = start(config, results)
    _out, err = second.communicate(timeout=120)
    assert second.returncode == 2 and "Traceback" not in err
    assert f"in use by another cogarch run (pid {first.pid})" in err
    assert leftover.exists()  # another run's temp file is never taken
    assert first.poll() is None, "the first run must still be running"
    first.kill()
    first.communicate(timeout=30)
    third = start(config, results, delay=0)
    _out, err = third.communicate(timeout=300)
    assert third.returncode == 0, err
    assert not leftover.exists()  # its writer is gone: the next holder cleans it
    assert len(list(results.glob("*/trial_*.json"))) == 40


def test_the_lock_dies_with_a_killed_run(tmp_path: Path) -> None:
    config, results = config_file(tmp_path, trials=6, provider="slow"), tmp_path / "out"
    first = start(config, results)
    wait_for_lock(results, first)
    first.send_signal(signal.SIGKILL)
    first.communicate(timeout=30)
    second = start(config, results, delay=0)
    _out, err = second.communicate(timeout=300)
    assert second.returncode == 0, err
    records = [read_trial(trial_path(results, a, i)) for a in "ab" for i in range(6)]
    assert all(r.status == "complete" for r in records)


def test_lock_in_process_is_exclusive_and_released(tmp_path: Path) -> None:
    with RunLock(tmp_path) as lock:
        assert lock.path.read_text().strip() == str(os.getpid())
        with pytest.raises(ResultsDirError, match="in use by another cogarch run"):
            RunLock(tmp_path).__enter__()
    with RunLock(tmp_path):
        pass


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EROFS])
def test_a_full_or_read_only_disk_stops_with_one_line_and_keeps_the_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], code: int
) -> None:
    config, results = config_file(tmp_path), tmp_path / "out"
    assert main(["run", str(config), "--results-dir", str(results), "--quiet"]) == 0
    kept = {p: p.read_bytes() for p in results.glob("*/trial_*.json")}
    (results / "a" / "trial_0001.json").unlink()
    capsys.readouterr()

    def failing(path: object, text: str) -> Path:
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr("cogarch.experiments.results.trial_files.atomic_write_text", failing)
    assert main(["run", str(config), "--results-dir", str(results), "--quiet"]) == 2
    err = capsys.readouterr().err
    errors = [line for line in err.splitlines() if not line.startswith("warning:")]
    assert errors[0].startswith("error: cannot write to results directory")
    assert len(errors) == 1 and "Traceback" not in err
    for path, data in kept.items():
        if path.exists():
            assert path.read_bytes() == data


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes to read-only folders")
def test_a_read_only_results_directory_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results = tmp_path / "out"
    results.mkdir()
    results.chmod(0o555)
    try:
        code = main(["run", str(config_file(tmp_path)), "--results-dir", str(results), "--quiet"])
    finally:
        results.chmod(0o755)
    assert code == 2 and "not writable" in capsys.readouterr().err


def test_hostile_trial_files_are_reported_kept_numbered_and_rerun(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config, results = config_file(tmp_path), tmp_path / "out"
    run = ["run", str(config), "--results-dir", str(results), "--quiet"]
    assert main(run) == 0
    good = json.loads((results / "a" / "trial_0000.json").read_text(encoding="utf-8"))
    hostile = {
        ("a", 0): "[" * 200_000,
        ("a", 1): '{"x": ' * 50_000,
        ("b", 0): json.dumps({**good, "metadata": {**good["metadata"], "config": "oops"}}),
    }
    for round_ in range(2):
        for (agent, i), text in hostile.items():
            trial_path(results, agent, i).write_text(text, encoding="utf-8")
        assert main(["report", str(results)]) == 0
        report_err = capsys.readouterr()
        assert "Traceback" not in report_err.err
        assert main(run) == 0
        out = capsys.readouterr().out
        assert out.count("corrupt:") == 3
        for agent, i in hostile:
            assert read_trial(trial_path(results, agent, i)).status == "complete"
            suffix = ".corrupt" + (f".{round_}" if round_ else "")
            kept = trial_path(results, agent, i).with_name(f"trial_{i:04d}{suffix}")
            assert kept.read_text(encoding="utf-8") == hostile[(agent, i)]


def test_the_runner_refuses_a_file_as_results_directory(tmp_path: Path) -> None:
    config = load_run_config(config_file(tmp_path))
    (tmp_path / "file").write_text("x", encoding="utf-8")
    runner = Runner(config.model_copy(update={"results_dir": tmp_path / "file"}), progress=False)
    import asyncio

    with pytest.raises(ResultsDirError, match="regular file stands where a folder must be"):
        asyncio.run(runner.run())
