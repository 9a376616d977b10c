"""A suite on the Ray backend writes the leaderboard the in-process backend writes."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from cogarch.experiments.suites.config import SuiteConfig
from cogarch.experiments.suites.runner import run_suite
from tests.experiments.backends.conftest import RayCluster

pytestmark = pytest.mark.ray

SUITE: dict[str, Any] = {
    "name": "ray_suite",
    "seed": 21,
    "trials": 3,
    "concurrency": 2,
    "parallel_cells": 2,
    "cache": False,
    "providers": {
        "honest": {"kind": "fake", "fake": "honest"},
        "forgetful": {"kind": "fake", "fake": "forgetful"},
    },
    "tasks": [
        {"kind": "hangman_sct", "t_fork": 3, "n_candidates": 3},
        {"kind": "revision", "scenario": ["trip", "cart"], "trials": 2},
    ],
    "agents": [
        {"name": "plain", "agent": "vanilla", "provider": "honest"},
        {"name": "noted", "agent": "workflow", "provider": "honest"},
        {"name": "lost", "agent": "vanilla", "provider": "forgetful"},
    ],
}


def comparable(folder: Path) -> dict[str, Any]:
    """The leaderboard without wall times, which differ between any two runs."""
    board = json.loads((folder / "leaderboard.json").read_text(encoding="utf-8"))
    for item in [*board["cells"], *board["rows"]]:
        item["costs"].pop("seconds")
    return board


def test_the_ray_backend_gives_the_leaderboard_of_the_local_one(
    ray_cluster: RayCluster, tmp_path: Path
) -> None:
    boards = []
    for backend in ("local", "ray"):
        data = {**SUITE, "results_dir": tmp_path / backend, "execution": {"backend": backend}}
        result = asyncio.run(run_suite(SuiteConfig.model_validate(data), progress=False))
        assert all(c.error is None and c.failed == 0 for c in result.cells), result.summary()
        boards.append(comparable(result.results_dir))
    local, ray = boards
    assert ray == local
    assert {c["status"] for c in local["cells"]} == {"complete"}
    values = {(c["agent"], c["task"]): c["value"] for c in local["cells"]}
    assert values["plain", "hangman_sct"] == 1.0 and values["lost", "revision"] == 0.0
