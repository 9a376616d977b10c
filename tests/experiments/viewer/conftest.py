"""A fake run to view (the shipped Hangman fake config, two trials per agent), a trial whose
texts are hostile HTML, and the headless chromium the browser tests drive."""

from __future__ import annotations

import asyncio
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cogarch.core.records import TrialRecord
from cogarch.experiments.results.trial_files import read_trial, trial_path, write_trial
from cogarch.experiments.running.run_config import RunConfig, load_run_config
from cogarch.experiments.running.runner import Runner

REPO = Path(__file__).resolve().parents[3]
HOSTILE = '<script>window.PWNED = 1</script><img src=x onerror="window.PWNED = 2">'
CHROMIUM = Path("/usr/bin/chromium")


@pytest.fixture(scope="session")
def fake_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A complete results directory: the fake config's agents x 2 trials."""
    results = tmp_path_factory.mktemp("viewer") / "run"
    config = load_run_config(REPO / "experiments" / "configs" / "hangman_sct_fakes.yaml")
    config = RunConfig.model_validate({**config.model_dump(), "results_dir": results, "trials": 2})
    asyncio.run(Runner(config, progress=False).run())
    return results


def trial_count(results: Path) -> int:
    """How many trial files ``results`` holds (the fake config decides how many agents)."""
    return len(list(results.glob("*/trial_*.json")))


def hostile_copy(record: TrialRecord) -> TrialRecord:
    """``record`` with hostile HTML in a reply, a private state and a branch reply."""
    turns = [t.model_copy() for t in record.turns]
    turns[1] = turns[1].model_copy(
        update={"reply": HOSTILE + " " + "x" * 5000, "private_state": HOSTILE}
    )
    branches = [b.model_copy(update={"reply": HOSTILE}) for b in record.branches]
    return record.model_copy(
        update={"agent": "hostile_agent", "turns": turns, "branches": branches}
    )


@pytest.fixture
def run_dir(fake_run: Path, tmp_path: Path) -> Path:
    """A private copy of the fake run, plus one hostile trial (agent ``hostile_agent``)."""
    copy = tmp_path / "run"
    shutil.copytree(fake_run, copy)
    source = read_trial(trial_path(copy, "honest_workflow", 0))
    write_trial(copy, hostile_copy(source))
    return copy


def launched_chromium(*args: str) -> Iterator[Any]:
    """Debian's chromium under Playwright, launched with ``args`` besides ``--no-sandbox``;
    the test is skipped where it or Playwright is missing, except in CI (where it fails)."""
    in_ci = os.environ.get("CI") == "true"
    if not CHROMIUM.exists():
        if in_ci:
            pytest.fail("CI must run the browser tests, but /usr/bin/chromium is missing")
        pytest.skip("browser tests need Debian's chromium: apt-get install chromium")
    try:
        from playwright import sync_api
    except ImportError:
        if in_ci:
            raise
        pytest.skip("browser tests need playwright: pip install -e '.[dev,view]'")
    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox", *args])
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """Debian's chromium under Playwright; skipped where it is missing, except in CI.

    Module-scoped: Playwright's sync API keeps an event loop running in this thread while it
    is open, which would stop later asyncio tests from starting theirs."""
    yield from launched_chromium()
