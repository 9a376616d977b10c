"""The run config: which task, which agents on which providers, how many trials."""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    StrictInt,
    Tag,
    field_validator,
    model_validator,
)

from cogarch.config import located, read_yaml, validate_mapping
from cogarch.core.controls import ControlRole
from cogarch.errors import ConfigError
from cogarch.models.providers import ProviderEntry
from cogarch.registry import is_file_path

from ..judge_audit.settings import JudgeAuditConfig, audit_setting
from ..results.names import name_problem, safe_name
from ..tables.attached_metrics import METRICS_FIELD, checked_metrics, located_metrics, metric_names
from .budgets import Budget
from .execution import ExecutionConfig
from .framework_hosts import FRAMEWORKS
from .identity import identity
from .old_config_paths import check_not_moved

Controls = bool | list[ControlRole]
"""``controls:``: true for every control a task declares, or the roles to add."""


def _checked_name(value: str | None) -> str | None:
    if value is not None and (problem := name_problem(value)) is not None:
        raise ValueError(f"the name {problem}")
    return value


class FrameworkAgent(BaseModel):
    """An agent of another framework, built for each trial by a factory named by import path
    (``{framework: agent-framework, factory: my_pkg.agents:build}``; see
    ``cogarch.bridges.agent_framework.hosting``)."""

    model_config = ConfigDict(extra="forbid")

    framework: str = Field(
        description="The agent's framework: agent-framework (Microsoft Agent Framework), or an "
        "import path to a host builder of your own ('package.module:Builder')."
    )
    factory: str = Field(
        description="Import path of the function that builds the agent: "
        "'package.module:function' or 'file.py:function'."
    )

    @field_validator("framework")
    @classmethod
    def _known(cls, value: str) -> str:
        if value not in FRAMEWORKS and ":" not in value:
            raise ValueError(
                f"unknown agent framework '{value}'; valid names: {', '.join(FRAMEWORKS)} (or "
                "an import path to a host builder, 'package.module:Builder')"
            )
        return value

    @field_validator("factory")
    @classmethod
    def _factory_path(cls, value: str) -> str:
        module, sep, name = value.strip().rpartition(":")
        if not sep or not module or not name.isidentifier():
            raise ValueError(
                f"the factory '{value}' is not an import path; write it as "
                "'package.module:function' or 'file.py:function'"
            )
        return value.strip()

    @property
    def label(self) -> str:
        """The factory function's name (an entry's default name)."""
        return self.factory.rpartition(":")[2]


def _agent_form(value: Any) -> str:
    """Which form an entry's ``agent`` takes: a mapping is another framework's agent."""
    return "framework" if isinstance(value, dict | FrameworkAgent) else "spec"


AgentRef = Annotated[
    Annotated[str, Tag("spec")] | Annotated[FrameworkAgent, Tag("framework")],
    Discriminator(_agent_form),
]


class AgentEntry(BaseModel):
    model_config = ConfigDict(extra="forbid")

    agent: AgentRef = Field(
        description="A ready-made agent name, a path to an agent spec YAML (relative to the "
        "config's folder), or an agent of another framework ({framework: agent-framework, "
        "factory: module:function})."
    )
    name: str | None = Field(default=None, description="Name in results (default: agent).")
    provider: str | None = Field(default=None, description="Provider of its specialists.")
    params: dict[str, Any] = Field(default_factory=dict, description="Agent spec parameters.")
    control: ControlRole | None = Field(
        default=None,
        exclude_if=lambda v: v is None,
        description="The control role this agent plays (no_memory, full_history, oracle, "
        "lower_bound, upper_bound): recorded in its trials and kept out of the ranking; set "
        "by 'controls', which adds the task's own control agents.",
    )
    budget: Budget | None = Field(
        default=None,
        exclude_if=lambda v: v is None,
        description="A retrieval budget fixed on every memory module of the agent "
        "({top_k: 10} or {context_tokens: 4000}); set by the run's or suite's 'budget'.",
    )

    @field_validator("name")
    @classmethod
    def _name_ok(cls, value: str | None) -> str | None:
        return _checked_name(value)

    @field_validator("agent")
    @classmethod
    def _agent_given(cls, value: str | FrameworkAgent) -> str | FrameworkAgent:
        if isinstance(value, FrameworkAgent):
            return value
        if not value.strip():
            raise ValueError("the agent is empty; give a ready-made agent name or a spec path")
        if "\x00" in value:
            raise ValueError("the agent holds a NUL character; retype it")
        return value

    @property
    def label(self) -> str:
        if isinstance(self.agent, FrameworkAgent):
            return self.name or self.agent.label
        return self.name or self.agent


class TaskEntry(BaseModel):
    model_config = ConfigDict(extra="allow")
    kind: str = Field(
        description="A registered task (see Task parameters), or your own: package.module:Class "
        "or file.py:Class (relative to the config's folder). The task's own keys sit beside it."
    )

    def params(self) -> dict[str, Any]:
        return dict(self.model_extra or {})


class RunConfig(BaseModel):
    """A run: the task, the agents and their providers, how many trials and where the results
    go (``load_run_config`` reads one from YAML)."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(description="The run's name; results go to runs/<name>/ by default.")
    task: TaskEntry = Field(description="The task every agent plays, and its parameters.")
    agents: list[AgentEntry] = Field(min_length=1, description="The agents to compare.")
    trials: StrictInt = Field(default=5, ge=1, le=100_000, description="Trials per agent.")
    seed: StrictInt = Field(
        default=1337, ge=0, description='Trial i is seeded sha256(f"{seed}:{i}")[:8] & (2**63-1).'
    )
    concurrency: StrictInt = Field(default=2, ge=1, le=512, description="Trials in flight at once.")
    results_dir: Path | None = Field(default=None, description="Default: runs/<name>.")
    helper_provider: str | None = Field(
        default=None,
        description="Provider for the task's own calls (default: the agent's; required by "
        "tasks that judge the agent, such as constraints).",
    )
    cache: bool = Field(default=True, description="Cache seeded model calls under results_dir.")
    baselines: list[str] | None = Field(
        default=None,
        description="Agent names the report tests the others against (default, also for an "
        "empty list: the agents built on a default baseline spec, see "
        "experiments.reports.report.DEFAULT_BASELINES).",
    )
    providers: dict[str, ProviderEntry] = Field(
        default_factory=dict,
        description="Model sources by the name agents give as provider ('local', the embedded "
        "model, is always defined); each validated by its kind's own config model.",
    )
    metrics: list[str] = Field(
        default_factory=list, exclude_if=lambda v: not v, description=METRICS_FIELD
    )
    audit_judge: JudgeAuditConfig | None = Field(
        default=None,
        exclude=True,
        description="Audit the judge of the task's judged metric after the trials (true, or "
        "its settings; see the guide's 'The judge audit'); left out of the recorded config "
        "and its hash, since it changes no trial: judge_audit.json records its settings.",
    )
    controls: Controls = Field(
        default=False,
        exclude_if=lambda v: v is False,
        description="Add the task's control agents, on the provider of the agents they frame: "
        "true for every control the task declares, or a list of roles (no_memory, "
        "full_history, oracle, lower_bound, upper_bound).",
    )
    budget: Budget | None = Field(
        default=None,
        exclude_if=lambda v: v is None,
        description="One retrieval budget for every agent with a memory ({top_k: 10} or "
        "{context_tokens: 4000}); an agent whose memory cannot take it is refused.",
    )
    execution: ExecutionConfig = Field(
        default_factory=ExecutionConfig,
        exclude=True,
        description="Where trials run; left out of the recorded config and its hash, since it "
        "changes no result.",
    )

    @field_validator("name")
    @classmethod
    def _name_ok(cls, value: str) -> str:
        return _checked_name(value) or value

    @field_validator("audit_judge", mode="before")
    @classmethod
    def _audit_switch(cls, value: Any) -> Any:
        return audit_setting(value)

    @field_validator("metrics")
    @classmethod
    def _metrics_known(cls, value: list[str]) -> list[str]:
        return metric_names(value)

    @field_validator("results_dir", mode="before")
    @classmethod
    def _results_dir_given(cls, value: Any) -> Any:
        if isinstance(value, str) and not value.strip():
            raise ValueError("the results directory is empty; name a folder or leave it out")
        if isinstance(value, str) and "\x00" in value:
            raise ValueError("the results directory holds a NUL character; retype it")
        return value

    @model_validator(mode="after")
    def _unique_names(self) -> RunConfig:
        labels = [a.label for a in self.agents]
        dupes = sorted(x for x, n in Counter(labels).items() if n > 1)
        if dupes:
            raise ValueError(f"agent names must be unique; repeated: {', '.join(dupes)}")
        unknown = [b for b in self.baselines or [] if b not in labels]
        if unknown:
            raise ValueError(
                f"baselines name agents this run does not have: {', '.join(unknown)}; "
                f"its agents are {', '.join(labels)}"
            )
        folders: dict[str, str] = {}
        for label in labels:  # case-blind: two names must not share a folder on any disk
            other = folders.setdefault(safe_name(label).casefold(), label)
            if other != label:
                raise ValueError(
                    f"agents '{other}' and '{label}' would share the results folder "
                    f"'{safe_name(label)}'; rename one"
                )
        return self

    def output_dir(self) -> Path:
        return self.results_dir or Path("runs") / self.name

    def digest(self, code: Mapping[str, str] | None = None) -> str:
        """The hash of what the run plays: its whole config but where its results go, with
        each Python file it names by content (``identity.identity``), so a results directory
        however spelled, or moved, and a command started in any directory keep the same hash
        (and resume key). ``code``: the files' digests, when known (else they are read)."""
        blob = json.dumps(identity(self, code), sort_keys=True)
        return hashlib.sha256(blob.encode()).hexdigest()


def load_run_config(path: str | os.PathLike[str]) -> RunConfig:
    """The run config of a YAML file.

    A task named by a Python file's path (``kind: my_task.py:MyTask``), an agent spec file
    (``agent: my_agent.yaml``), an agent factory named by a Python file's path (``factory:
    agents.py:build``), a provider kind or fake so named (``kind: my_provider.py:MyProvider``,
    ``fake: fakes.py:host``) are looked for relative to the config file's folder, and recorded
    relative to the current directory (where the run's results go too); the metrics it
    attaches (``metrics: [metrics.py:wrong_guesses]``) are found so too, recorded by absolute
    path, and imported to check them. A trial's identity
    holds a Python file's content, not its path (see ``identity``), so the run resumes from any
    directory.

    Args:
        path: The YAML file.

    Returns:
        The validated run config.

    Raises:
        ConfigError: When the file is missing or malformed, a key is unknown or invalid, a
            file it names is not there, or a metric names no metric (each message names the
            key).
    """
    config = validate_mapping(RunConfig, config_mapping(path), source=str(path))
    kind = config.task.kind
    if is_file_path(kind):
        task = config.task.model_copy(update={"kind": located(kind, path, "task.kind")})
        config = config.model_copy(update={"task": task})
    metrics = located_metrics(config.metrics, path)
    checked_metrics(metrics, str(path))
    agents = [located_agent(a, path) for a in config.agents]
    return config.model_copy(update={"agents": agents, "metrics": metrics})


def located_agent(entry: AgentEntry, config: str | os.PathLike[str]) -> AgentEntry:
    """``entry`` with the file it names (an agent spec, a factory's Python file) found
    relative to the config file's folder; an agent named by its spec's path keeps that name."""
    agent = entry.agent
    if isinstance(agent, FrameworkAgent):
        if not is_file_path(agent.factory):
            return entry
        factory = located(agent.factory, config, f"agent '{entry.label}'s factory")
        return entry.model_copy(update={"agent": agent.model_copy(update={"factory": factory})})
    if not Path(agent).suffix:  # a ready-made agent's name
        return entry
    found = located(agent, config, f"agent '{entry.label}'")
    if found == agent:
        return entry
    return entry.model_copy(update={"agent": found, "name": entry.label})


def config_mapping(path: str | os.PathLike[str]) -> dict[Any, Any]:
    """A config file's top-level mapping, its provider kinds named by a file's path found
    relative to the file's folder."""
    check_not_moved(path)
    data = read_yaml(path)
    if not isinstance(data, dict):
        raise ConfigError(f"'{path}' must hold a mapping of keys at the top level")
    providers = data.get("providers")
    if isinstance(providers, dict):
        data = {**data, "providers": located_kinds(providers, path)}
    return data


def located_kinds(providers: dict[Any, Any], config: str | os.PathLike[str]) -> dict[Any, Any]:
    """The ``providers:`` section with each kind, fake and caller's fake named by a file's path
    found relative to the config file's folder."""
    found = {}
    for name, entry in providers.items():
        if isinstance(entry, dict):
            for key in ("kind", "fake"):
                value = entry.get(key)
                if isinstance(value, str) and is_file_path(value):
                    entry = {**entry, key: located(value, config, f"providers.{name}.{key}")}
            callers = entry.get("callers")
            if isinstance(callers, dict):
                entry = {
                    **entry,
                    "callers": {
                        pattern: located(fake, config, f"providers.{name}.callers.{pattern}")
                        if isinstance(fake, str) and is_file_path(fake)
                        else fake
                        for pattern, fake in callers.items()
                    },
                }
        found[name] = entry
    return found
