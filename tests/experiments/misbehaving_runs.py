"""Runs of the misbehaving task (``misbehaving_task.py``) by one vanilla agent answered by the
echo fake: the config the tests of untrusted task code start from."""

from __future__ import annotations

from pathlib import Path
from typing import Any

TASK = "tests.experiments.misbehaving_task:MisbehavingTask"


def misbehaving_config(
    results: Path, name: str, task: str = TASK, trials: int = 3, concurrency: int = 3, **params: Any
) -> dict[str, Any]:
    """The run's config data, writing to ``results``; ``params`` are the task's."""
    return {
        "name": name,
        "task": {"kind": task, **params},
        "trials": trials,
        "seed": 5,
        "concurrency": concurrency,
        "cache": False,
        "results_dir": str(results),
        "providers": {"echo": {"kind": "fake", "fake": "misbehaving.echo"}},
        "agents": [{"name": "a", "agent": "vanilla", "provider": "echo"}],
    }
