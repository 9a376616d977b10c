"""Every cell of a suite checked before any plays: its task's settings, its agent's spec and
params and the providers it names, as a run checks them, without building the task (no data
file is read) or calling a model."""

from __future__ import annotations

from cogarch.construction import prepare
from cogarch.errors import ConfigError
from cogarch.models.providers import Providers
from cogarch.tasks.registry import TASKS

from ..results.task_types import task_source
from ..running.fakes import run_fakes
from ..running.run_config import RunConfig
from ..running.worker import resolve_agents, task_setup
from .config import SuiteConfig


def check_cell(config: RunConfig) -> None:
    """A ``ConfigError`` for what would stop the cell's run before its first trial."""
    kind = config.task.kind
    with task_setup(kind):
        task_cls = prepare(TASKS, task_source(kind) or kind, config.task.params(), where="task").cls
    fakes = run_fakes()
    for name, fn in task_cls.fakes.items():
        fakes.register(name, fn)
    providers = Providers(config.providers, fakes=fakes)
    resolve_agents(config, providers, config.helper_provider is not None)


def cell_problems(config: SuiteConfig) -> list[str]:
    """One line per cell that would be refused, naming the cell and the problem."""
    problems = []
    for task, agent in config.cells():
        try:
            check_cell(config.cell_config(task, agent))
        except ConfigError as exc:
            text = " ".join(line.strip() for line in str(exc).splitlines())
            problems.append(f"cell {agent.label} x {task.label}: {text[:500]}")
    return problems
