"""The suite config: tasks x agents on shared providers, each cell an ordinary run.

A suite names its tasks (each a run config's ``task:`` entry, with a ``name`` and optionally
its own ``trials``), its agents (run config entries) and its providers; every cell (task x
agent) not left out under ``skip`` becomes a
:class:`~cogarch.experiments.running.run_config.RunConfig`
of one agent (:meth:`SuiteConfig.cell_config`) whose results go to
``<results_dir>/<task>/<agent>/``, so ``cogarch report``, ``cogarch view`` and resume work on
a cell as on any run. Every cell uses the suite's seed, so trial i has the same seed (and the
same task item) for every agent of a task: the leaderboard pairs items on it.

A fake provider may name a behaviour instead of a fake (``fake: honest``): each task plays it
with its own fake of that name (``hangman.honest`` for Hangman); a task that has none is a
config error before any cell runs.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, StrictInt, field_validator, model_validator

from cogarch.config import located, validate_mapping
from cogarch.core.task import Task
from cogarch.errors import ConfigError
from cogarch.models.providers import BUILTIN_PROVIDERS, ProviderEntry
from cogarch.registry import is_file_path
from cogarch.tasks.registry import TASKS

from ..judge_audit.settings import JudgeAuditConfig, audit_setting
from ..results.names import name_problem, safe_name
from ..results.task_types import task_source
from ..running.budgets import Budget
from ..running.controls import cell_agent, expanded_suite
from ..running.execution import ExecutionConfig
from ..running.run_config import (
    AgentEntry,
    Controls,
    RunConfig,
    TaskEntry,
    config_mapping,
    located_agent,
)
from ..running.worker import task_setup
from ..tables.attached_metrics import METRICS_FIELD, checked_metrics, located_metrics, metric_names


def _checked(value: str) -> str:
    if (problem := name_problem(value)) is not None:
        raise ValueError(f"the name {problem}")
    return value


class SuiteTask(TaskEntry):
    """A task of the suite: a run config's task entry with its name and its own trials."""

    name: str | None = Field(default=None, description="Name in the leaderboard (default: kind).")
    trials: StrictInt | None = Field(
        default=None, ge=1, le=100_000, description="Trials per agent (default: the suite's)."
    )
    helper_provider: str | None = Field(
        default=None, description="Provider of this task's own calls (default: the suite's)."
    )
    fakes: dict[str, str] = Field(
        default_factory=dict,
        description="Behaviours this task plays with one of its fakes of another name, by its "
        "short or full name ({honest: oracle} or {honest: alfworld.oracle}); a behaviour not "
        "named here needs a fake of its own name.",
    )

    @field_validator("name")
    @classmethod
    def _name_ok(cls, value: str | None) -> str | None:
        return None if value is None else _checked(value)

    @property
    def label(self) -> str:
        return self.name or self.kind.rpartition(":")[2]

    def entry(self) -> TaskEntry:
        """The run config's task entry of this task (its kind and parameters)."""
        return TaskEntry(kind=self.kind, **self.params())


class SkippedCell(BaseModel):
    """A cell left out: the agent is not run on the task."""

    model_config = ConfigDict(extra="forbid")
    agent: str
    task: str


MAX_PRICE = 1_000_000.0
"""The highest price of a million tokens a suite takes (so money totals stay finite)."""


class Price(BaseModel):
    """What a provider's tokens cost, per million: finite, from 0 to :data:`MAX_PRICE`."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)
    prompt: float = Field(ge=0, le=MAX_PRICE, description="Price of a million prompt tokens.")
    completion: float = Field(
        ge=0, le=MAX_PRICE, description="Price of a million completion tokens."
    )


class SuiteConfig(BaseModel):
    """A suite: every task by every agent, each pair a cell run as its own run config, ranked
    on one leaderboard (``load_suite_config`` reads one from YAML)."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(description="The suite's name; results go to runs/<name>/ by default.")
    tasks: list[SuiteTask] = Field(min_length=1, description="The tasks (leaderboard columns).")
    agents: list[AgentEntry] = Field(min_length=1, description="The agents (leaderboard rows).")
    trials: StrictInt = Field(default=5, ge=1, le=100_000, description="Trials per cell.")
    seed: StrictInt = Field(default=1337, ge=0, description="Every cell's run seed.")
    concurrency: StrictInt = Field(
        default=2,
        ge=1,
        le=512,
        description="Trials at once per cell; with parallel_cells 1, in the whole suite (the "
        "next cell's trials start as the last ones of the cell before end).",
    )
    parallel_cells: StrictInt = Field(
        default=1, ge=1, le=64, description="Cells run at once (they share the providers)."
    )
    skip: list[SkippedCell] = Field(default_factory=list, description="Cells to leave out.")
    results_dir: Path | None = Field(default=None, description="Default: runs/<name>.")
    helper_provider: str | None = Field(
        default=None, description="Provider for the tasks' own calls (judges, proposals)."
    )
    cache: bool = Field(default=True, description="Cache seeded model calls in each cell.")
    providers: dict[str, ProviderEntry] = Field(
        default_factory=dict, description="Model sources by name, as in a run config."
    )
    prices: dict[str, Price] = Field(
        default_factory=dict,
        description="Token prices by provider name, to turn each cell's tokens into money.",
    )
    currency: str = Field(default="USD", description="The unit of the prices.")
    metrics: list[str] = Field(
        default_factory=list, exclude_if=lambda v: not v, description=METRICS_FIELD
    )
    controls: Controls = Field(
        default=False,
        exclude_if=lambda v: v is False,
        description="Add every task's control agents as rows, on the agents' providers: true "
        "for every control the tasks declare, or a list of roles; a task without a control "
        "of a row's role leaves that cell out.",
    )
    budget: Budget | None = Field(
        default=None,
        exclude_if=lambda v: v is None,
        description="One retrieval budget for every agent with a memory ({top_k: 10} or "
        "{context_tokens: 4000}), so a comparison is like for like; a memory that cannot "
        "take it is refused.",
    )
    audit_judge: JudgeAuditConfig | None = Field(
        default=None,
        exclude=True,
        description="After the cells, audit the judge of every task column with a judged "
        "metric, once per column on the questions its cells asked (true, or the settings a "
        "run config's audit_judge takes); left out of suite.json's config and its hash, since "
        "it changes no trial: each column's judge_audit/<task>/judge_audit.json records them.",
    )
    execution: ExecutionConfig = Field(
        default_factory=ExecutionConfig,
        exclude=True,
        description="Where trials run (local or ray), for every cell.",
    )

    @field_validator("name")
    @classmethod
    def _name_ok(cls, value: str) -> str:
        return _checked(value)

    @field_validator("audit_judge", mode="before")
    @classmethod
    def _audit_switch(cls, value: Any) -> Any:
        return audit_setting(value)

    @field_validator("metrics")
    @classmethod
    def _metrics_known(cls, value: list[str]) -> list[str]:
        return metric_names(value)

    @model_validator(mode="after")
    def _consistent(self) -> SuiteConfig:
        for what, labels in (
            ("task", [t.label for t in self.tasks]),
            ("agent", [a.label for a in self.agents]),
        ):
            folders: dict[str, str] = {}
            counts = Counter(labels)
            for label in labels:
                other = folders.setdefault(safe_name(label).casefold(), label)
                if other != label or counts[label] > 1:
                    raise ValueError(
                        f"{what} names must be unique and need folders of their own; "
                        f"'{label}' clashes with '{other}': give one a 'name'"
                    )
        known = sorted({*self.providers, *BUILTIN_PROVIDERS})
        for name in self.prices:
            if name not in known:
                raise ValueError(
                    f"prices name the provider '{name}', which the suite does not have; its "
                    f"providers are {', '.join(known)}"
                )
        tasks, agents = {t.label for t in self.tasks}, {a.label for a in self.agents}
        for cell in self.skip:
            if cell.task not in tasks or cell.agent not in agents:
                raise ValueError(
                    f"skip names the cell {cell.agent} x {cell.task}, which the suite does not "
                    f"have; its tasks are {', '.join(sorted(tasks))} and its agents "
                    f"{', '.join(sorted(agents))}"
                )
        if not self.cells():
            raise ValueError(
                "every cell is left out under 'skip', so the suite has nothing to run; "
                "remove some of its skip entries"
            )
        return self

    def output_dir(self) -> Path:
        return self.results_dir or Path("runs") / self.name

    def cells(self) -> list[tuple[SuiteTask, AgentEntry]]:
        """Every cell to run, task by task, agents in order (skipped cells left out)."""
        skipped = {(c.task, c.agent) for c in self.skip}
        return [
            (task, agent)
            for task in self.tasks
            for agent in self.agents
            if (task.label, agent.label) not in skipped
        ]

    def cell_dir(self, task: str, agent: str) -> Path:
        return self.output_dir() / safe_name(task) / safe_name(agent)

    def cell_config(self, task: SuiteTask, agent: AgentEntry) -> RunConfig:
        """The run of one cell: this agent alone on this task, in the cell's folder, with
        behaviour-named fakes turned into the task's own."""
        agent = cell_agent(agent, task.kind)
        helper = task.helper_provider or self.helper_provider
        used = {agent.provider, helper}
        providers = {}
        for name, entry in self.providers.items():
            try:
                providers[name] = _task_fake(entry.model_dump(), task)
            except ConfigError:  # a behaviour this task lacks: an error where the cell uses it
                if name in used:
                    raise
        data = {
            "name": f"{self.name}.{task.label}.{agent.label}",
            "task": task.entry().model_dump(),
            "agents": [agent.model_dump(exclude_unset=True)],
            "trials": task.trials or self.trials,
            "seed": self.seed,
            "concurrency": self.concurrency,
            "results_dir": self.cell_dir(task.label, agent.label),
            "helper_provider": helper,
            "cache": self.cache,
            "providers": providers,
            "metrics": self.metrics,
            "execution": self.execution.model_dump(),
        }
        where = f"the cell {agent.label} x {task.label}"
        return validate_mapping(RunConfig, data, source=where)

    def digest(self) -> str:
        """The hash of what the suite is: its config but where its results go, how fast it
        plays them (concurrency, cells at once, the call cache, the backend) and the metrics
        it reports (they change no trial)."""
        operational = {"results_dir", "concurrency", "parallel_cells", "cache", "metrics"}
        blob = json.dumps(self.model_dump(mode="json", exclude=operational), sort_keys=True)
        return hashlib.sha256(blob.encode()).hexdigest()


def task_class(kind: str) -> type[Task]:
    """The class of a suite's task kind (a registered name, an import path or a file)."""
    with task_setup(kind):
        return TASKS.get(task_source(kind) or kind)


def _task_fake(entry: dict[str, Any], task: SuiteTask) -> dict[str, Any]:
    """A provider entry whose fake names a behaviour (no dot, no colon) with that behaviour
    played by the task's own fake (``libs.`` before it keeps that prefix)."""
    fake = entry.get("fake")
    if entry.get("kind") != "fake" or not isinstance(fake, str):
        return entry
    prefix, behaviour = ("libs.", fake[5:]) if fake.startswith("libs.") else ("", fake)
    if "." in behaviour or ":" in behaviour:
        return entry
    own = sorted(task_class(task.kind).fakes)
    played = task.fakes.get(behaviour, behaviour)
    # the behaviour's fake by its own short name (honest) or by its full one (hangman.honest)
    found = [name for name in own if played in (name, name.rpartition(".")[2])]
    if not found:
        raise ConfigError(
            f"task '{task.label}' has no fake '{played}' for the behaviour '{behaviour}' a "
            f"provider names; its fakes are {', '.join(own) or 'none'}: map the behaviour to "
            f"one of them (fakes: {{{behaviour}: NAME}} in the task's entry), or leave its "
            "cells out under 'skip'"
        )
    return {**entry, "fake": prefix + found[0]}


def _own_kind(task: SuiteTask) -> str:
    """The name a task named by file or import path goes by: the ``kind`` its class declares
    (``brief_hangman``), not its class's name; the class's name when the kind cannot name a
    task of the suite."""
    kind = getattr(task_class(task.kind), "kind", None)
    return kind if isinstance(kind, str) and name_problem(kind) is None else task.label


def load_suite_config(path: str | os.PathLike[str]) -> SuiteConfig:
    """The suite config of a YAML file, read as run configs are (the same loader and limits).

    Task kinds, provider kinds, agents and metrics named by a file's path are looked for
    relative to the config file's folder, a task named by file or import path goes by its
    class's ``kind`` unless the entry names it, and every behaviour-named fake is checked
    against every task.

    Args:
        path: The YAML file.

    Returns:
        The validated suite config, every cell's run config checked.

    Raises:
        ConfigError: When a key is unknown or invalid, a task lacks a fake a provider names
            by behaviour, two tasks or agents would share a name, or a metric names no
            metric.
    """
    config = validate_mapping(SuiteConfig, config_mapping(path), source=str(path))
    tasks = []
    for index, task in enumerate(config.tasks):
        if is_file_path(task.kind):
            found = located(task.kind, path, f"tasks[{index}].kind")
            task = task.model_copy(update={"kind": found})
        if task.name is None and ":" in task.kind:
            task = task.model_copy(update={"name": _own_kind(task)})
        tasks.append(task)
    agents = [located_agent(agent, path) for agent in config.agents]
    metrics = located_metrics(config.metrics, path)
    checked_metrics(metrics, str(path))
    update = {"tasks": tasks, "agents": agents, "metrics": metrics}
    config = expanded_suite(config.model_copy(update=update))
    for task, agent in config.cells():
        config.cell_config(task, agent)  # every cell valid before any runs
    return config
