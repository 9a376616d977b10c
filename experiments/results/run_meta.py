"""A run's ``run.json`` read back: the recorded config, checked for the shape the runner writes.

The runner writes ``run.json`` (the run config, its hash, package versions and the seed rule).
Reports read only the parts they use, each checked here; a file that is missing, unreadable or
of another shape reads as no metadata, with the reason, so a report still goes on from the
trial files alone.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from cogarch.files import FileRefusedError, read_json


class RecordedAgent(BaseModel):
    model_config = ConfigDict(extra="allow")
    agent: str | None = None
    name: str | None = None
    provider: str | None = None


class RecordedConfig(BaseModel):
    """The parts of a recorded run config that reports read."""

    model_config = ConfigDict(extra="allow")
    name: str | None = None
    task: dict[str, Any] = {}
    agents: list[RecordedAgent] = []
    trials: int | None = None
    seed: int | None = None
    baselines: list[str] | None = None
    providers: dict[str, dict[str, Any]] = {}
    metrics: list[str] = []
    """The metrics the run attaches (``RunConfig.metrics``)."""

    @field_validator("baselines", mode="before")
    @classmethod
    def _one_name(cls, value: Any) -> Any:
        return [value] if isinstance(value, str) else value


class RunMeta(BaseModel):
    model_config = ConfigDict(extra="allow")
    config: RecordedConfig | None = None
    config_hash: str | None = None


def read_run_meta(run_dir: str | os.PathLike[str]) -> tuple[dict[str, Any], str | None]:
    """``run.json`` of ``run_dir`` as plain data (``{}`` when it cannot be used) and why it
    could not be used (None when it could, or when there is none)."""
    path = Path(run_dir) / "run.json"
    if not os.path.lexists(path):
        return {}, None
    try:
        data = read_json(path, within=run_dir)
    except FileRefusedError as exc:
        return {}, f"{exc}; the report goes without the run's recorded config"
    try:
        meta = RunMeta.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "the top level"
        return {}, (
            f"'{path}' is not of the shape cogarch writes ({where}: {first['msg']}); the "
            "report goes without the run's recorded config"
        )
    return meta.model_dump(mode="json"), None
