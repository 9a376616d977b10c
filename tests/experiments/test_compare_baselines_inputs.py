"""The side-by-side SCT outcome table reads trial files through the guarded reader: a damaged
number, another shape, a FIFO or a link to ``/dev/zero`` leaves that file out of the table."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from cogarch.experiments.papers.compare_baselines import outcome_rows
from tests.deadline import deadline

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs FIFOs and /dev/zero")


def good(trial: int = 0) -> dict[str, Any]:
    usage = {"model_calls": 5, "by_caller": {"memory:mem0": {"calls": 4}}}
    return {"trial": trial, "evaluation": {"outcome": "leakage"}, "usage": usage}


HOSTILE: dict[str, Any] = {
    "a string trial index": {**good(), "trial": "1"},
    "a negative trial index": {**good(), "trial": -1},
    "a list file": [1],
    "usage as a list": {**good(1), "usage": [1]},
    "calls as text": {**good(1), "usage": {"model_calls": "x", "by_caller": {"memory:a": "y"}}},
    "infinite calls": '{"trial": 1, "usage": {"model_calls": 1e999}}',
    "deep JSON": "[" * 5000 + "]" * 5000,
    "a FIFO": os.mkfifo,
    "a link to /dev/zero": lambda path: path.symlink_to("/dev/zero"),
}


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_a_hostile_trial_file_is_left_out(tmp_path: Path, case: str) -> None:
    folder = tmp_path / "mem0"
    folder.mkdir()
    (folder / "trial_0000.json").write_text(json.dumps(good()))
    content, path = HOSTILE[case], folder / "trial_0001.json"
    if callable(content):
        content(path)
    else:
        path.write_text(content if isinstance(content, str) else json.dumps(content))
    with deadline(20):
        rows = outcome_rows(tmp_path, ["mem0"])
    assert rows[0] == {"trial": 0, "mem0": "leakage", "mem0 memory calls": 4}
    assert all(isinstance(row["trial"], int) for row in rows)
