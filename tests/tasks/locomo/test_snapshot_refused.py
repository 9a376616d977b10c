"""A LoCoMo snapshot the agent cannot load, whatever it raises (a memory library's own
database error included), is set aside with a warning and its sessions ingested again: the
trial never fails on it, on this run or the next."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from cogarch.tasks.locomo.trial_state import SNAPSHOT, TrialState
from tests.tasks.locomo.test_trial_state import FINGERPRINT, agent, played


@pytest.mark.parametrize(
    "error",
    [sqlite3.DatabaseError("file is not a database"), RuntimeError("store"), LookupError("id")],
)
async def test_a_snapshot_whose_loading_raises_is_set_aside_with_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], error: Exception
) -> None:
    await played(tmp_path)
    fresh = agent()
    built = fresh.save_state()
    real = fresh.load_state
    calls: list[Any] = []

    def load_state(state: Any) -> None:
        calls.append(state)
        if len(calls) == 1:
            raise error
        real(state)

    fresh.load_state = load_state  # type: ignore[method-assign]
    progress = await TrialState(tmp_path, FINGERPRINT).restore(fresh)
    assert progress.sessions_done == 0
    assert (tmp_path / f"{SNAPSHOT}.unusable").is_file() and not (tmp_path / SNAPSHOT).exists()
    assert fresh.save_state() == built  # put back as it was built
    warning = capsys.readouterr().err
    assert "warning:" in warning and SNAPSHOT in warning and type(error).__name__ in warning
    # the next run finds no snapshot to fail on
    assert (await TrialState(tmp_path, FINGERPRINT).restore(agent())).sessions_done == 0
