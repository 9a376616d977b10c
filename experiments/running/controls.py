"""Adding a task's control agents to a run or a suite, and one budget to every memory.

``controls: true`` (or a list of roles) adds, for each provider the config's agents read
with, one agent per control the task declares (``Task.controls``): named by its role
(``no_memory``), or by role and provider (``no_memory.honest``) when the agents read with
several. A control plays with the same seed and judge as the agents it frames, and is marked
(``AgentEntry.control``) so its trials record the role. In a suite a control is a row whose
agent each task fills in with its own control of that role; a task that declares no such
control leaves the row's cell out. ``budget:`` is copied onto every agent that is not a
control; it applies to the agents with a memory (see ``budgets``).

Both expansions are done once, when a config is loaded or run: the config they return has
``controls: false`` and no ``budget``, and its agents carry both.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from cogarch.core.controls import ControlAgent
from cogarch.core.task import Task
from cogarch.errors import ConfigError
from cogarch.tasks.registry import TASKS
from cogarch.workspace.spec import load_agent_spec

from ..results.task_types import task_source
from .budgets import Budget, apply_budget
from .run_config import AgentEntry, Controls, FrameworkAgent, RunConfig
from .worker import task_setup

CONTROL_ROW = "control"
"""The agent of a suite's control row, which each task fills in with its own control."""


def declared_controls(kind: str) -> Mapping[str, ControlAgent]:
    """The controls the task ``kind`` declares, by role."""
    with task_setup(kind):
        cls: type[Task] = TASKS.get(task_source(kind) or kind)
        return {str(role): control for role, control in cls.controls.items()}


def _provider(entry: AgentEntry) -> str | None:
    """The provider an agent reads with: its entry's, or its spec's own."""
    if entry.provider is not None or isinstance(entry.agent, FrameworkAgent):
        return entry.provider
    try:
        return load_agent_spec(entry.agent, entry.params).provider
    except ConfigError:
        return None  # the run's own check reports the agent


def _readers(agents: Sequence[AgentEntry]) -> list[str | None]:
    return list(dict.fromkeys(_provider(a) for a in agents if a.control is None))


def _wanted(controls: Controls, declared: Collection[str], where: str) -> list[str]:
    if controls is True:
        return list(declared)
    if controls is False:
        return []
    unknown = [r for r in controls if r not in declared]
    if unknown:
        raise ConfigError(
            f"{where} no control '{unknown[0]}'; the controls declared are "
            f"{', '.join(declared) or 'none'}: list only those under 'controls'"
        )
    return list(dict.fromkeys(controls))


def control_entries(
    roles: Sequence[str],
    agents: Sequence[AgentEntry],
    declared: Mapping[str, ControlAgent] | None,
) -> list[AgentEntry]:
    """One entry per role and reader provider of ``agents``; with ``declared`` None, a suite's
    row (its agent filled in by each task)."""
    readers = _readers(agents)
    taken = {a.label for a in agents}
    entries = []
    for role in roles:
        for provider in readers:
            name = role if len(readers) == 1 else f"{role}.{provider or 'default'}"
            if name in taken:
                raise ConfigError(
                    f"the control '{name}' would share its name with an agent of the config; "
                    "rename that agent"
                )
            control = None if declared is None else declared[role]
            entries.append(
                AgentEntry(
                    agent=CONTROL_ROW if control is None else control.agent,
                    name=name,
                    provider=provider,
                    params={} if control is None else dict(control.params),
                    control=role,  # type: ignore[arg-type]
                )
            )
    return entries


def _budgeted(agents: Sequence[AgentEntry], budget: Budget | None) -> list[AgentEntry]:
    if budget is None:
        return list(agents)
    return [
        a
        if a.control is not None or a.budget is not None
        else a.model_copy(update={"budget": budget})
        for a in agents
    ]


def expanded_run(config: RunConfig) -> RunConfig:
    """``config`` with its task's controls added and its budget on every agent; an agent
    marked as a control of a role its task does not declare is refused."""
    marked = [a for a in config.agents if a.control is not None]
    if marked:
        declared = declared_controls(config.task.kind)
        for entry in (a for a in marked if a.control not in declared):
            raise ConfigError(
                f"agent '{entry.label}' is marked as the control '{entry.control}', which task "
                f"'{config.task.kind}' does not declare (its controls: "
                f"{', '.join(declared) or 'none'}); remove 'control' from its entry"
            )
    if config.controls is False and config.budget is None:
        return config
    agents = _budgeted(config.agents, config.budget)
    declared = declared_controls(config.task.kind)
    roles = _wanted(config.controls, declared, f"task '{config.task.kind}' declares")
    if config.controls is True and not roles:
        raise ConfigError(
            f"controls: true, but task '{config.task.kind}' declares no controls; leave "
            "'controls' out"
        )
    agents += control_entries(roles, agents, declared)
    updated: dict[str, Any] = {**dict(config), "agents": agents, "controls": False, "budget": None}
    return RunConfig.model_validate(updated)


def checked_budget(agents: Sequence[AgentEntry]) -> None:
    """Refuse, before any trial, an agent with a memory that cannot take its budget."""
    for entry in agents:
        if entry.budget is None or isinstance(entry.agent, FrameworkAgent):
            if entry.budget is not None:
                raise ConfigError(
                    f"agent '{entry.label}' is another framework's agent, whose memory a "
                    "budget cannot reach; skip its cells or leave 'budget' out"
                )
            continue
        apply_budget(load_agent_spec(entry.agent, entry.params), entry.budget, entry.label)


def cell_agent(entry: AgentEntry, kind: str) -> AgentEntry:
    """A suite row's entry for the task ``kind``: a control row filled in with the task's own
    control of its role; any other entry as it is."""
    if entry.control is None or entry.agent != CONTROL_ROW:
        return entry
    declared = declared_controls(kind)
    if entry.control not in declared:
        raise ConfigError(f"task '{kind}' declares no control '{entry.control}'")
    control = declared[entry.control]
    return entry.model_copy(update={"agent": control.agent, "params": dict(control.params)})


def expanded_suite(config: Any) -> Any:
    """A suite config (``SuiteConfig``) with a row per control role and reader provider, its
    cells on tasks that declare no such control skipped, and its budget on every agent that
    is not a control (an agent whose memory cannot take it refused here)."""
    if config.controls is False and config.budget is None:
        return config
    agents = _budgeted(config.agents, config.budget)
    checked_budget(agents)
    declared = {task.label: declared_controls(task.kind) for task in config.tasks}
    offered = list(dict.fromkeys(role for found in declared.values() for role in found))
    if config.controls is True:
        roles = offered
        if not roles:
            raise ConfigError(
                "controls: true, but no task of the suite declares controls; leave 'controls' out"
            )
    else:
        roles = _wanted(config.controls, offered, "the suite's tasks declare")
    rows = control_entries(roles, agents, None)
    skip = [cell.model_dump() for cell in config.skip] + [
        {"agent": row.label, "task": label}
        for row in rows
        for label, found in declared.items()
        if row.control not in found
    ]
    updated = {
        **dict(config),
        "agents": agents + rows,
        "skip": skip,
        "controls": False,
        "budget": None,
    }
    return type(config).model_validate(updated)
