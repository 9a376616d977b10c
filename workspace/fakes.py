"""Scripted brains that play an agent family's own specialists without a model.

An agent that needs a brain of its own to run without a model ships one here, by family: the
Episodex agent's are ``episodex.brain`` and ``episodex.steady``. The runner and the CLI hand
this table to ``Providers`` together with the tasks' fakes.
"""

from __future__ import annotations

from collections.abc import Mapping

from cogarch.models.fakes import PairsFn
from cogarch.models.providers import FakeTable, no_fakes

from .specialists.episodex.brain import BRAINS

AGENT_FAKES: Mapping[str, Mapping[str, PairsFn]] = {"episodex": BRAINS}
"""Fakes that play an agent's own specialists, by agent family."""


def agent_fakes(table: FakeTable | None = None) -> FakeTable:
    """The agents' fakes as ``<family>.<kind>``, added to ``table`` when given."""
    table = table if table is not None else no_fakes()
    for family, fakes in AGENT_FAKES.items():
        for kind, fn in fakes.items():
            table.register(f"{family}.{kind}", fn)
    return table
