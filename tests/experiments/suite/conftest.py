"""A small suite with known outcomes, run once for the leaderboard tests.

Hangman with an honest and a forgetful host (self-consistent and not), the revision
scenarios with an honest and a forgetful agent (every round passed and not), and the
number-guessing task of ``examples/custom_task.py``, which declares its own metrics.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from cogarch.experiments.suites.config import SuiteConfig, load_suite_config
from cogarch.experiments.suites.runner import run_suite

REPO = Path(__file__).resolve().parents[3]
SUITE = """\
name: known
seed: 11
trials: 3
concurrency: 3
parallel_cells: 3
cache: false
providers:
  honest: {kind: fake, fake: honest}
  forgetful: {kind: fake, fake: forgetful}
prices:
  honest: {prompt: 1.0, completion: 2.0}
tasks:
  - {kind: hangman_sct, t_fork: 3, n_candidates: 3}
  - {kind: revision, scenario: [trip, cart, form], trials: 4}
  - kind: %s:GuessTask
    name: guess
    max_turns: 7
    fakes: {honest: bisect, forgetful: wild}
agents:
  - {name: plain, agent: vanilla, provider: honest}
  - {name: noted, agent: workflow, provider: honest, params: {strategy: overwrite}}
  - {name: lost, agent: vanilla, provider: forgetful}
"""


def known_suite(folder: Path, **changes: object) -> SuiteConfig:
    path = folder / "known.yaml"
    path.write_text(SUITE % (REPO / "examples" / "custom_task.py"), encoding="utf-8")
    config = load_suite_config(path)
    data = {**config.model_dump(), "results_dir": folder / "out", **changes}
    return SuiteConfig.model_validate(data)


@pytest.fixture(scope="package")
def known(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The known suite's folder, run to completion with each cell's report."""
    config = known_suite(tmp_path_factory.mktemp("suite"))
    result = asyncio.run(run_suite(config, progress=False))
    assert all(c.error is None and c.failed == 0 for c in result.cells), result.summary()
    return result.results_dir
