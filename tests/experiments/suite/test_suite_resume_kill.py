"""A suite killed with SIGKILL part-way resumes: no trial is lost, run twice or rewritten.

``python -m cogarch.experiments suite`` runs in a subprocess against a slow fake host, two
tasks x two agents, two cells at once; it is killed once a few trial files exist, then run
again to completion (``killed_runs``).
"""

from __future__ import annotations

import json
from pathlib import Path

from cogarch.experiments.results.trial_files import read_trial
from cogarch.seeds import trial_seed
from tests.experiments import killed_runs as killed

pytestmark = killed.NEEDS_SIGKILL

TRIALS = 4
CONFIG = f"""\
name: kill_suite
seed: 5
trials: {TRIALS}
concurrency: 2
parallel_cells: 2
cache: true
providers:
  slow: {{kind: fake, fake: "tests.experiments.slow_fakes:slow_honest"}}
tasks:
  - {{kind: hangman_sct, name: short, t_fork: 3, n_candidates: 3}}
  - {{kind: hangman_sct, name: long, t_fork: 4, n_candidates: 3}}
agents:
  - {{name: host_a, agent: vanilla, provider: slow}}
  - {{name: host_b, agent: vanilla, provider: slow}}
"""
CELLS = [(t, a) for t in ("short", "long") for a in ("host_a", "host_b")]


def test_a_killed_suite_resumes_without_losing_or_repeating_a_trial(tmp_path: Path) -> None:
    config = tmp_path / "suite.yaml"
    config.write_text(CONFIG, encoding="utf-8")
    results = tmp_path / "results"
    suite = killed.command(config, results, "suite", "--no-reports")
    killed.kill_part_way(suite, tmp_path, results, "*/*/*/trial_*.json")

    cells = {cell: results / cell[0] / cell[1] for cell in CELLS}
    finished = {p: v for folder in cells.values() for p, v in killed.trial_files(folder).items()}
    assert killed.KILLED_AFTER <= len(finished) < TRIALS * len(CELLS), (
        "the kill came too late to test anything"
    )

    resumed = killed.run_again(suite, tmp_path)
    played = TRIALS * len(CELLS) - len(finished)
    assert f"{played} trials run, {len(finished)} already complete, 0 failed" in resumed.stdout

    after = {p: v for folder in cells.values() for p, v in killed.trial_files(folder).items()}
    assert len(after) == TRIALS * len(CELLS)  # nothing lost
    for path, before in finished.items():
        assert after[path] == before, f"{path} was rewritten on resume"
    seen = set()
    for (task, agent), folder in cells.items():
        for path in folder.glob("*/trial_*.json"):
            record = read_trial(path)
            assert (record.agent, record.status) == (agent, "complete")
            assert record.seed == trial_seed(5, record.trial)
            seen.add((task, agent, record.trial))
    assert len(seen) == TRIALS * len(CELLS)  # no trial recorded twice
    board = json.loads((results / "leaderboard.json").read_text(encoding="utf-8"))
    assert {c["status"] for c in board["cells"]} == {"complete"}
    assert all(c["n"] == TRIALS for c in board["cells"])
