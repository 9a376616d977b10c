"""The run page's data: counts by agent and outcome, filters, paging, and a growing run."""

from __future__ import annotations

from pathlib import Path

import pytest

from cogarch.errors import ConfigError
from cogarch.experiments.results.trial_files import read_trial, trial_path, write_trial
from cogarch.experiments.viewer.index import Query, TrialIndex

from .conftest import trial_count


def test_counts_agents_by_outcome(fake_run: Path) -> None:
    counts = TrialIndex([fake_run]).counts()
    assert counts.labels[:5] == [
        "self_consistent",
        "over_confirmation",
        "state_substitution",
        "all_denial",
        "leakage",
    ]
    assert counts.cells[("leaky_vanilla", "leakage")] == 2
    assert counts.cells[("denier_vanilla", "all_denial")] == 2
    assert ("honest_vanilla", "leakage") not in counts.cells


def test_filters_by_agent_outcome_status_and_text(run_dir: Path) -> None:
    index = TrialIndex([run_dir])
    assert {r.agent for r in index.select(Query(outcome="leakage")).rows} == {"leaky_vanilla"}
    assert [r.trial for r in index.select(Query(agent="denier_vanilla")).rows] == [0, 1]
    assert index.select(Query(status="failed")).total == 0
    hits = index.select(Query(q="WINDOW.PWNED")).rows
    assert [r.agent for r in hits] == ["hostile_agent"]


def test_pages(run_dir: Path) -> None:
    index = TrialIndex([run_dir])
    first = index.select(Query(per_page=4))
    last = index.select(Query(per_page=4, page=99))
    total = trial_count(run_dir)
    pages = -(-total // 4)
    assert (first.total, first.pages, len(first.rows)) == (total, pages, 4)
    assert (last.page, len(last.rows)) == (pages, total - 4 * (pages - 1))
    seen = [
        r.key for p in range(1, pages + 1) for r in index.select(Query(per_page=4, page=p)).rows
    ]
    assert len(set(seen)) == total


def test_refresh_sees_new_changed_and_corrupt_files(run_dir: Path) -> None:
    index = TrialIndex([run_dir], min_interval_s=0)
    version = index.version
    assert not index.refresh()
    record = read_trial(trial_path(run_dir, "honest_vanilla", 0))
    failed = record.model_copy(update={"trial": 7, "status": "failed"})
    write_trial(run_dir, failed)
    (run_dir / "honest_vanilla" / "trial_0008.json").write_text("{ truncated")
    assert index.refresh()
    assert index.version > version
    rows = {r.key: r for r in index.rows()}
    assert rows["0/honest_vanilla/7"].status == "failed"
    assert rows["0/honest_vanilla/8"].status == "corrupt"
    assert "unreadable" in (rows["0/honest_vanilla/8"].error or "")
    trial_path(run_dir, "honest_vanilla", 7).unlink()
    assert index.refresh()
    assert "0/honest_vanilla/7" not in {r.key for r in index.rows()}


def test_missing_directory_is_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="does not exist"):
        TrialIndex([tmp_path / "nope"])
