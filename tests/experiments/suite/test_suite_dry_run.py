"""The suite's dry run: the grid, the trials already done and the cost of the rest."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from cogarch.experiments.suites.dry_run import suite_dry_run

from .conftest import known_suite


def test_the_plan_counts_done_trials_and_prices_the_rest_from_earlier_cells(
    known: Path, tmp_path: Path
) -> None:
    config = known_suite(tmp_path)
    fresh = suite_dry_run(config, [known.parent])
    assert "grid: 3 tasks x 3 agents = 9 cells" in fresh
    files = sorted((known / "hangman_sct" / "plain").glob("*/trial_*.json"))
    calls = [json.loads(p.read_text(encoding="utf-8"))["usage"]["model_calls"] for p in files]
    expected = sum(calls) / len(calls) * 3
    assert f"hangman_sct x plain: 0/3 done (pending); expected {expected:,.0f} model calls" in fresh

    shutil.copytree(known / "hangman_sct", config.output_dir() / "hangman_sct")
    (config.output_dir() / "hangman_sct" / "noted" / "noted" / "trial_0002.json").unlink()
    again = suite_dry_run(config, [known.parent])
    assert "hangman_sct x plain: 3/3 done (complete)" in again
    assert "hangman_sct x noted: 2/3 done (partial); expected" in again
    assert "nothing was played and no model was called" in again
