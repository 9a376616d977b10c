"""The Ray driver in a subprocess: killed with SIGKILL it leaves only whole trial files; on
Ctrl-C (SIGINT) it stops its cluster's tasks and its local Ray instance and says how to
resume; a rerun finishes without losing, duplicating or rewriting a trial.

The killed and the resuming runs join the session's Ray instance (``--address``); the
interrupted one starts a local instance of its own.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cogarch.experiments.results.trial_files import read_trial, trial_path
from cogarch.seeds import trial_seed
from tests.experiments.backends.conftest import RayCluster
from tests.experiments.killed_runs import command, trial_files

pytestmark = [pytest.mark.ray, pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL")]

TRIALS = 5
AGENTS = ("host_a", "host_b")
CONFIG = f"""\
name: ray_driver_test
task: {{kind: hangman_sct, t_fork: 3, n_candidates: 3}}
trials: {TRIALS}
seed: 5
concurrency: 2
providers:
  slow: {{kind: fake, fake: "tests.experiments.slow_fakes:slow_honest"}}
agents:
  - {{name: host_a, agent: vanilla, provider: slow}}
  - {{name: host_b, agent: vanilla, provider: slow}}
"""


def descendants(pid: int) -> set[int]:
    """The process ids below ``pid`` (Linux ``/proc``), so none is left behind."""
    found: set[int] = set()
    todo = [pid]
    while todo:
        for task in Path(f"/proc/{todo.pop()}/task").glob("*/children"):
            try:
                children = {int(c) for c in task.read_text().split()}
            except OSError:
                continue
            todo.extend(children - found)
            found |= children
    return found


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except OSError:
        return False


def _as_from_a_terminal() -> None:
    # An ignored signal stays ignored across exec, so a child of a test process in which some
    # library has ignored SIGINT would never see Ctrl-C; a command typed at a terminal starts
    # with the default.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def run_until(
    cmd: list[str], env: dict[str, str], results: Path, files: int, sig: int
) -> tuple[subprocess.Popen[bytes], set[int]]:
    """Start ``cmd``, send ``sig`` once ``files`` trial files exist; return it and its
    descendants as they were just before the signal."""
    process = subprocess.Popen(
        cmd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=_as_from_a_terminal,
    )
    deadline = time.monotonic() + 240
    while len(list(results.glob("*/trial_*.json"))) < files:
        if process.poll() is not None:
            out, err = process.communicate()
            pytest.fail(f"the run ended before the signal:\n{out!r}\n{err[-2000:]!r}")
        if time.monotonic() > deadline:
            process.kill()
            pytest.fail(f"fewer than {files} trial files within 240 s")
        time.sleep(0.01)
    below = descendants(process.pid)
    process.send_signal(sig)
    return process, below


def test_a_killed_or_interrupted_ray_driver_resumes_cleanly(
    ray_cluster: RayCluster, tmp_path: Path
) -> None:
    config = tmp_path / "run.yaml"
    config.write_text(CONFIG, encoding="utf-8")
    results = tmp_path / "results"
    base = command(config, results)
    joined = [*base, "--address", ray_cluster.address]
    env = {**os.environ, **ray_cluster.env}
    leftovers: set[int] = set()
    try:
        killed, below = run_until(joined, env, results, 2, signal.SIGKILL)
        killed.communicate(timeout=60)
        assert killed.returncode == -signal.SIGKILL
        leftovers |= below
        first = trial_files(results)
        for path in first:
            assert read_trial(path).status == "complete"  # whatever was written is whole

        interrupted, below = run_until(
            [*base, "--backend", "ray"], env, results, len(first) + 1, signal.SIGINT
        )
        _, err = interrupted.communicate(timeout=120)
        leftovers |= below
        assert interrupted.returncode == 130, err.decode()[-2000:]
        assert b"interrupted; rerun the same command to resume" in err
        deadline = time.monotonic() + 60
        while any(alive(p) for p in below) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not [p for p in below if alive(p)], "the local Ray instance outlived Ctrl-C"
        second = trial_files(results)
        assert len(second) > len(first)

        resumed = subprocess.run(joined, env=env, capture_output=True, text=True, timeout=300)
    finally:
        for pid in leftovers:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
    assert resumed.returncode == 0, resumed.stderr[-2000:]
    assert f"{len(second)} already complete" in resumed.stdout
    assert "0 failed" in resumed.stdout
    after = trial_files(results)
    assert set(after) == {trial_path(results, a, i) for a in AGENTS for i in range(TRIALS)}
    for path, before in second.items():
        assert after[path] == before, f"{path} was rewritten on resume"
    for path in after:
        record = read_trial(path)
        assert record.status == "complete" and record.seed == trial_seed(5, record.trial)
        assert path == trial_path(results, record.agent, record.trial)
