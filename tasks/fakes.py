"""The scripted fakes by short name, for ``kind: fake`` providers (``fake: hangman.honest``).

Each task keeps its own table: the Hangman hosts (``hangman.hosts.HOSTS``) and the Diagnosis
patients (``diagnosis.patients.PATIENTS``), one per SCT outcome class, the LoCoMo reader and
the ALFWorld players (``alfworld.fakes.PLAYERS``: oracle, random, hallucinating, silent); here
they are named ``<task>.<kind>``. The runner and the CLI hand this table, with the agents' own
fakes (``cogarch.workspace.fakes``), to ``Providers``; the model layer itself knows no task.
"""

from __future__ import annotations

from collections.abc import Mapping

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
    return table


__all__ = ["TASK_FAKES", "task_fakes"]
