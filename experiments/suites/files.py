"""A suite's own file, ``suite.json``: its config, its tasks' declared metrics and its cells.

Written before any cell runs, it is what ``cogarch suite report DIR`` and the viewer read to
find the cells' run folders and how each task is ranked, so a leaderboard is rebuilt from the
folder alone. The metrics are recorded as the tasks declared them when the suite ran.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from cogarch.core.leaderboard import LeaderboardMetric
from cogarch.errors import ConfigError
from cogarch.files import FileRefusedError, read_json

from .config import Price, SuiteConfig, task_class

SUITE_FILE = "suite.json"


class SuiteTaskInfo(BaseModel):
    model_config = ConfigDict(extra="ignore")
    name: str
    kind: str
    trials: int
    metrics: list[LeaderboardMetric] = Field(default_factory=list)


class SuiteCell(BaseModel):
    model_config = ConfigDict(extra="ignore")
    task: str
    agent: str
    folder: str
    """The cell's run folder, relative to the suite's folder (POSIX separators)."""
    trials: int


class SuiteManifest(BaseModel):
    model_config = ConfigDict(extra="ignore")
    suite: str
    digest: str
    tasks: list[SuiteTaskInfo]
    agents: list[str]
    providers: dict[str, str | None] = Field(default_factory=dict)
    """The provider of each agent."""
    controls: dict[str, str] = Field(default_factory=dict)
    """The rows that are controls, by their role (kept out of the ranking)."""
    cells: list[SuiteCell]
    prices: dict[str, Price] = Field(default_factory=dict)
    currency: str = "USD"
    metrics: list[str] = Field(default_factory=list)
    """The metrics the suite attaches to every task, by the names its config gives."""
    config: dict[str, Any] = Field(default_factory=dict)


def suite_manifest(config: SuiteConfig) -> dict[str, Any]:
    """The content of ``suite.json`` for ``config``."""
    out = config.output_dir()
    tasks = [
        SuiteTaskInfo(
            name=t.label,
            kind=t.kind,
            trials=t.trials or config.trials,
            metrics=list(task_class(t.kind).leaderboard_metrics()),
        )
        for t in config.tasks
    ]
    cells = [
        SuiteCell(
            task=t.label,
            agent=a.label,
            folder=config.cell_dir(t.label, a.label).relative_to(out).as_posix(),
            trials=t.trials or config.trials,
        )
        for t, a in config.cells()
    ]
    manifest = SuiteManifest(
        suite=config.name,
        digest=config.digest(),
        tasks=tasks,
        agents=[a.label for a in config.agents],
        providers={a.label: a.provider for a in config.agents},
        controls={a.label: a.control for a in config.agents if a.control is not None},
        cells=cells,
        prices=config.prices,
        currency=config.currency,
        metrics=config.metrics,
        config=config.model_dump(mode="json"),
    )
    return manifest.model_dump(mode="json")


def is_suite(folder: str | os.PathLike[str]) -> bool:
    return (Path(folder) / SUITE_FILE).is_file()


def read_manifest(folder: str | os.PathLike[str]) -> SuiteManifest:
    """The suite recorded in ``folder``; a :class:`ConfigError` naming the problem."""
    path = Path(folder) / SUITE_FILE
    if not path.exists():
        raise ConfigError(
            f"'{folder}' is not a suite's folder (it has no {SUITE_FILE}); run "
            "'cogarch suite CONFIG' first, or name the folder it wrote"
        )
    try:
        data = read_json(path, within=folder)
        manifest = SuiteManifest.model_validate(data)
    except (FileRefusedError, ValidationError) as exc:
        first = str(exc).splitlines()[0][:200]
        raise ConfigError(
            f"'{path}' is not a readable suite file ({first}); run the suite's config again "
            "to write it anew"
        ) from None
    for cell in manifest.cells:
        parts = Path(cell.folder).parts
        if Path(cell.folder).is_absolute() or ".." in parts or not parts:
            raise ConfigError(
                f"'{path}' names the cell folder '{cell.folder}', which is not inside the "
                "suite's folder; run the suite's config again to write it anew"
            )
    return manifest
