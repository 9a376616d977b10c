"""A task file the trial-file reading tests write: importing it leaves a marker file, and its
trials carry a ``note`` payload."""

from __future__ import annotations

import json
from pathlib import Path

TASK = """
import pathlib
from typing import Literal
from pydantic import BaseModel
from cogarch.core.payload import TaskPayload
from cogarch.core.task import Task

pathlib.Path({marker!r}).write_text("imported")


class Note(TaskPayload):
    kind: Literal["note"] = "note"
    text: str


class Noting(Task):
    kind = "noting"
    Params = BaseModel
    Payload = Note

    async def run_trial(self, ctx):
        raise NotImplementedError
"""


def trial(task: str, source: str | None = None) -> dict[str, object]:
    """A trial file of ``task``, loaded by the run from ``source`` (no metadata: None)."""
    return {
        "schema_version": 2,
        "status": "complete",
        "run": "r",
        "agent": "a",
        "task": task,
        "trial": 0,
        "seed": 1,
        "metadata": {"task_source": source} if source is not None else {},
        "payload": {"kind": "note", "version": 1, "text": "hello"},
    }


def write(path: Path, data: dict[str, object]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def task_file(path: Path, marker: Path) -> Path:
    """The task's code at ``path``; importing it writes ``marker``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(TASK.format(marker=str(marker)), encoding="utf-8")
    return path
