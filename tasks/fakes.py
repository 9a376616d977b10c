"""The built-in tasks' scripted fakes, for ``kind: fake`` providers (``fake: hangman.honest``).

Each task declares its fakes on its class (``Task.fakes``), as a task written outside the
framework does: the Hangman hosts and Diagnosis patients (one per SCT outcome class), the
LoCoMo reader and the ALFWorld players (oracle, random, hallucinating, silent), each named
``<task>.<kind>``. This gathers every registered built-in task's into one table; the runner
and the CLI hand it, with the agents' own fakes (``cogarch.workspace.fakes``), to
``Providers``. Each is also registered as ``libs.<task>.<kind>``: the same fake, except
that the calls of the real memory libraries (``mem0_lib``, ``memoryos_lib``, ``amem_lib``)
get answers in the shape those libraries parse (``cogarch.memory.retrieval.libs.fakes``).
The model layer itself knows no task.
"""

from __future__ import annotations

from collections.abc import Mapping

from cogarch.memory.retrieval.libs.fakes import with_library_memory
from cogarch.models.fakes import PairsFn
from cogarch.models.providers import FakeTable, no_fakes

from .registry import TASKS


def task_fakes() -> FakeTable:
    """Every built-in task's fakes, by the name its class declares (``hangman.honest``...)."""
    table = no_fakes()
    for kind in TASKS.names():
        fakes: Mapping[str, PairsFn] = TASKS.get(kind).fakes
        for name, fn in fakes.items():
            table.register(name, fn)
            table.register(f"libs.{name}", with_library_memory(fn))
    return table
