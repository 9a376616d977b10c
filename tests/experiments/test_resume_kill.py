"""A run killed with SIGKILL part-way resumes without losing, duplicating or rewriting a trial.

``python -m cogarch.experiments run`` runs in a subprocess against a slow fake host, is killed
once a few trial files exist, and is then run again to completion (``killed_runs``).
"""

from __future__ import annotations

import json
from pathlib import Path

from cogarch.experiments.results.trial_files import read_trial, trial_path
from cogarch.seeds import trial_seed
from tests.experiments import killed_runs as killed

pytestmark = killed.NEEDS_SIGKILL

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


def test_a_killed_run_resumes_without_losing_or_duplicating_trials(tmp_path: Path) -> None:
    config = tmp_path / "run.yaml"
    config.write_text(CONFIG % TRIALS, encoding="utf-8")
    results = tmp_path / "results"
    killed.kill_part_way(killed.command(config, results), tmp_path, results, "*/trial_*.json")

    finished = killed.trial_files(results)
    assert killed.KILLED_AFTER <= len(finished) < TRIALS * len(AGENTS), (
        "the kill came too late to test anything"
    )
    for path in finished:
        assert read_trial(path).status == "complete"  # whatever was written is whole

    resumed = killed.run_again(killed.command(config, results), tmp_path)
    assert f"{len(finished)} already complete" in resumed.stdout
    assert "0 failed" in resumed.stdout
    assert "corrupt" not in resumed.stdout

    after = killed.trial_files(results)
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
