"""Suite folders written by hand: a ``suite.json`` and trial files of known values, so a
leaderboard case is stated as the items each agent scored and nothing else."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from cogarch.core.evaluation import Evaluation
from cogarch.core.leaderboard import LeaderboardMetric
from cogarch.core.payload import GenericPayload
from cogarch.core.records import TrialMetadata, TrialRecord
from cogarch.core.usage import TrialUsage

RATE = LeaderboardMetric(name="rate", value="ok", interval="wilson")
"""One 0/1 item per trial."""
ANSWERS = LeaderboardMetric(
    name="f1", value="score", items="answers", cluster="conversation", failure=0.0
)
"""A mean over a trial's answers, clustered by the trial's conversation (LoCoMo-like)."""
JUDGED = LeaderboardMetric(
    name="j", value="judge", items="answers", cluster="conversation", interval="wilson"
)
"""The judge's share of correct answers, clustered by conversation."""

Trial = Mapping[str, Any] | None
"""A trial: its evaluation fields (``ok``), or ``answers`` (each a dict of ``score`` and
``judge``) with its ``conversation``; ``{"failed": True}`` for a failed trial; None for no
file at all. Besides: ``tokens``, the prompt tokens it spent, and ``control``, the control
role its metadata records."""
_AROUND = ("failed", "tokens", "control")


def _record(task: str, agent: str, index: int, trial: Mapping[str, Any]) -> TrialRecord:
    failed = bool(trial.get("failed"))
    payload = {k: trial[k] for k in ("answers", "conversation") if k in trial}
    evaluation = {k: v for k, v in trial.items() if k not in (*payload, *_AROUND)}
    tokens = int(trial.get("tokens", 0))
    return TrialRecord(
        status="failed" if failed else "complete",
        run=task,
        agent=agent,
        task=task,
        trial=index,
        seed=index,
        evaluation=Evaluation(**evaluation),
        payload=GenericPayload(kind="hand", **payload),
        error={"type": "RuntimeError", "message": "scripted failure"} if failed else None,
        usage=TrialUsage(model_calls=1 if tokens else 0, prompt_tokens=tokens),
        metadata=TrialMetadata.model_validate({k: trial[k] for k in ("control",) if k in trial}),
    )


def write_board(
    folder: Path,
    tasks: Mapping[str, Sequence[LeaderboardMetric]],
    trials: Mapping[str, Mapping[str, Sequence[Trial]]],
) -> Path:
    """A suite folder with ``tasks`` (name: metrics) and ``trials[task][agent]``, a list with
    one entry per trial of the cell; returns ``folder``."""
    agents = list(dict.fromkeys(a for by_agent in trials.values() for a in by_agent))
    cells = []
    for task, by_agent in trials.items():
        for agent, entries in by_agent.items():
            cell = f"{task}/{agent}"
            cells.append({"task": task, "agent": agent, "folder": cell, "trials": len(entries)})
            for index, trial in enumerate(entries):
                if trial is None:
                    continue
                path = folder / cell / agent / f"trial_{index:04d}.json"
                path.parent.mkdir(parents=True, exist_ok=True)
                record = _record(task, agent, index, trial)
                path.write_text(record.model_dump_json(), encoding="utf-8")
    manifest = {
        "suite": "hand",
        "digest": "0",
        "tasks": [
            {
                "name": name,
                "kind": name,
                "trials": max(len(e) for e in trials[name].values()),
                "metrics": [m.model_dump(mode="json") for m in metrics],
            }
            for name, metrics in tasks.items()
        ],
        "agents": agents,
        "cells": cells,
    }
    (folder / "suite.json").write_text(json.dumps(manifest), encoding="utf-8")
    return folder
