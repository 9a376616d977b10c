"""Trial files: one JSON per agent and trial, written atomically, checked when read back."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from cogarch.errors import CogarchError
from cogarch.io import atomic_write_text

SCHEMA_VERSION = 1


class TrialError(BaseModel):
    type: str
    message: str
    traceback: str = ""


class TrialResult(BaseModel):
    """One episode of one agent on one task with one seed."""

    model_config = ConfigDict(extra="forbid")

    schema_version: int = SCHEMA_VERSION
    status: Literal["complete", "failed"]
    run: str
    agent: str
    task: str
    trial: int = Field(ge=0)
    seed: int
    metadata: dict[str, Any] = Field(default_factory=dict)
    interaction_log: list[dict[str, Any]] = Field(default_factory=list)
    branches: list[dict[str, Any]] = Field(default_factory=list)
    sct: dict[str, Any] | None = None
    evaluation: dict[str, Any] = Field(default_factory=dict)
    usage: dict[str, Any] = Field(default_factory=dict)
    transitions: dict[str, int] = Field(default_factory=dict)
    extra: dict[str, Any] = Field(default_factory=dict)
    error: TrialError | None = None


class CorruptTrialError(CogarchError):
    """A trial file exists but cannot be trusted (truncated, invalid, or not a trial)."""


def safe_name(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in name) or "agent"


def trial_path(results_dir: str | os.PathLike[str], agent: str, trial: int) -> Path:
    return Path(results_dir) / safe_name(agent) / f"trial_{trial:04d}.json"


def write_trial(results_dir: str | os.PathLike[str], result: TrialResult) -> Path:
    path = trial_path(results_dir, result.agent, result.trial)
    return atomic_write_text(path, result.model_dump_json(indent=2) + "\n")


def read_trial(path: str | os.PathLike[str]) -> TrialResult:
    file = Path(path)
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise CorruptTrialError(f"trial file '{file}' is unreadable: {exc}") from None
    try:
        return TrialResult.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise CorruptTrialError(
            f"trial file '{file}' is not a valid trial ({where}: {first['msg']})"
        ) from None


def iter_trials(
    results_dir: str | os.PathLike[str],
) -> list[tuple[Path, TrialResult | CorruptTrialError]]:
    """Every trial file under ``results_dir``, read; corrupt ones come back as the error."""
    out: list[tuple[Path, TrialResult | CorruptTrialError]] = []
    for path in sorted(Path(results_dir).glob("*/trial_*.json")):
        try:
            out.append((path, read_trial(path)))
        except CorruptTrialError as exc:
            out.append((path, exc))
    return out
