"""The scripted fakes by short name, for ``kind: fake`` providers (``fake: hangman.honest``).

Each task keeps its own table: the Hangman hosts (``hangman.hosts.HOSTS``) and the Diagnosis
patients (``diagnosis.patients.PATIENTS``), one per SCT outcome class, the LoCoMo reader and
the ALFWorld players (``alfworld.fakes.PLAYERS``: oracle, random, hallucinating, silent); here
they are named ``<task>.<kind>``. Each is also registered as ``libs.<task>.<kind>``: the same
fake, except that the calls of the real memory libraries (``mem0_lib``, ``memoryos_lib``,
``amem_lib``) get answers in the shape those libraries parse
(``cogarch.memory.retrieval.libs.fakes``). The runner and the CLI hand this table, with the
agents' own fakes (``cogarch.workspace.fakes``), to ``Providers``; the model layer itself knows
no task.
"""

from __future__ import annotations

from collections.abc import Mapping

from cogarch.memory.retrieval.libs.fakes import with_library_memory
from cogarch.models.fakes import PairsFn
from cogarch.models.providers import FakeTable, no_fakes

from .alfworld.fakes import PLAYERS
from .diagnosis.patients import PATIENTS
from .hangman.hosts import HOSTS
from .locomo.reader import READERS

TASK_FAKES: Mapping[str, Mapping[str, PairsFn]] = {
    "hangman": HOSTS,
    "diagnosis": PATIENTS,
    "locomo": READERS,
    "alfworld": PLAYERS,
}


def task_fakes() -> FakeTable:
    """Every task's fakes as ``<task>.<kind>``."""
    table = no_fakes()
    for task, fakes in TASK_FAKES.items():
        for kind, fn in fakes.items():
            table.register(f"{task}.{kind}", fn)
            table.register(f"libs.{task}.{kind}", with_library_memory(fn))
    return table


__all__ = ["TASK_FAKES", "task_fakes"]
