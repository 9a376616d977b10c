"""The ``inspect_ai`` entry point: every registered cogarch task as an Inspect task.

Inspect imports this module when a task named ``cogarch/...`` is asked for, and finds here
``cogarch/<kind>`` for each task of :data:`cogarch.tasks.registry.TASKS` (``hangman_sct``,
``diagnosis_sct``, ...) and ``cogarch/task``, which plays a task of your own named by
``-T task=package.module:Class`` or ``-T task=path/to/file.py:Class``::

    inspect eval cogarch/hangman_sct --model openai/gpt-4.1-mini -T agent=workflow -T trials=50
    inspect eval cogarch/hangman_sct -T fake=hangman.honest -T trials=5 --model mockllm/model
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from inspect_ai import Task as InspectTask
from inspect_ai import task
from inspect_ai._util.package import get_installed_package_name

from cogarch.tasks.registry import TASKS

from .task import cogarch_task


def _task_of(kind: str | None) -> Callable[..., InspectTask]:
    def make(**params: Any) -> InspectTask:
        return cogarch_task(kind, params)

    make.__name__ = kind or "task"
    make.__qualname__ = make.__name__
    make.__doc__ = (
        f"cogarch's {kind} task: one sample per trial (-T trials, -T seed, -T agent, -T fake, "
        "and the task's and agent's parameters)"
        if kind
        else "A cogarch task of your own: -T task=package.module:Class or file.py:Class"
    )
    # Inspect prefixes the package's name when it sees the package as installed (it may not,
    # from a source folder on the path): the name is cogarch/<kind> either way
    installed = get_installed_package_name(make) == "cogarch"
    return task(name=make.__name__ if installed else f"cogarch/{make.__name__}")(make)


REGISTERED: dict[str, Callable[..., InspectTask]] = {kind: _task_of(kind) for kind in TASKS.names()}
"""The Inspect task of each registered cogarch task, by its kind."""
OWN_TASK = _task_of(None)
"""``cogarch/task``: a task of your own, named by ``-T task=...``."""
