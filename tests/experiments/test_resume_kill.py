"""A run killed with SIGKILL part-way resumes without losing, duplicating or rewriting a trial.

``python -m cogarch.experiments run`` runs in a subprocess against a slow fake host
(``tests.experiments.slow_fakes:slow_honest``), is killed once a few trial files exist, and is
then run again to completion.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cogarch.experiments.results import read_trial, trial_path
from cogarch.seeds import trial_seed
from tests.experiments.slow_fakes import DELAY_ENV

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL")

REPO = Path(__file__).resolve().parents[2]
TRIALS = 8
AGENTS = ("host_a", "host_b")
CONFIG = """\
name: kill_test
task: {kind: hangman_sct, t_fork: 3, n_candidates: 3}
trials: %d
seed: 5
concurrency: 2
cache: true
providers:
  slow: {kind: fake, fake: "tests.experiments.slow_fakes:slow_honest"}
agents:
  - {name: host_a, agent: vanilla, provider: slow}
  - {name: host_b, agent: vanilla, provider: slow}
"""


def command(config: Path, results: Path) -> list[str]:
    run = [sys.executable, "-m", "cogarch.experiments", "run", str(config)]
    return [*run, "--results-dir", str(results), "--quiet"]


def environment() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH")) if p)
    env[DELAY_ENV] = "0.05"
    return env


def trial_files(results: Path) -> dict[Path, tuple[bytes, int]]:
    return {
        p: (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(results.glob("*/trial_*.json"))
    }


def test_a_killed_run_resumes_without_losing_or_duplicating_trials(tmp_path: Path) -> None:
    config = tmp_path / "run.yaml"
    config.write_text(CONFIG % TRIALS, encoding="utf-8")
    results = tmp_path / "results"

    process = subprocess.Popen(
        command(config, results),
        cwd=tmp_path,
        env=environment(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 120
        while len(list(results.glob("*/trial_*.json"))) < 3:
            if process.poll() is not None:
                out, err = process.communicate()
                pytest.fail(f"the run ended before it could be killed:\n{out!r}\n{err!r}")
            if time.monotonic() > deadline:
                pytest.fail("no trial files appeared within 120 s")
            time.sleep(0.01)
        process.send_signal(signal.SIGKILL)
        process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == -signal.SIGKILL

    finished = trial_files(results)
    assert 3 <= len(finished) < TRIALS * len(AGENTS), "the kill came too late to test anything"
    for path in finished:
        assert read_trial(path).status == "complete"  # whatever was written is whole

    resumed = subprocess.run(
        command(config, results),
        cwd=tmp_path,
        env=environment(),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert resumed.returncode == 0, resumed.stderr
    assert f"{len(finished)} already complete" in resumed.stdout
    assert "0 failed" in resumed.stdout
    assert "corrupt" not in resumed.stdout

    after = trial_files(results)
    expected = {trial_path(results, a, i) for a in AGENTS for i in range(TRIALS)}
    assert set(after) == expected  # nothing lost, nothing extra
    for path, before in finished.items():
        assert after[path] == before, f"{path} was rewritten on resume"
    identities = set()
    for path in after:
        data = json.loads(path.read_text(encoding="utf-8"))
        result = read_trial(path)
        assert data["status"] == result.status == "complete"
        assert path == trial_path(results, result.agent, result.trial)
        assert result.seed == trial_seed(5, result.trial)
        identities.add((result.agent, result.trial))
    assert len(identities) == TRIALS * len(AGENTS)  # no trial recorded twice
    stray = sorted(
        p.relative_to(results)
        for p in results.rglob("*")
        if p.is_file()
        and p not in after
        and p.name not in ("run.json", ".lock")
        and ".cache" not in p.parts
    )
    # A temporary file of a write that the kill interrupted may remain; nothing else may.
    assert all(p.name.endswith(".tmp") for p in stray), stray
