"""Every scripted fake a run may name: the tasks' (``hangman.honest``...) and the agents' own
brains (``episodex.brain``...), as one table for ``Providers``."""

from __future__ import annotations

from cogarch.models.providers import FakeTable
from cogarch.tasks.fakes import task_fakes
from cogarch.workspace.fakes import agent_fakes


def run_fakes() -> FakeTable:
    return agent_fakes(task_fakes())
