"""The hub of a routed agent: it gathers the turn's broadcasts; the router then asks its
chooser model which specialist acts next.

It is a routing point only: it writes a note of what it has heard this turn and forms no
belief state, stores nothing across turns, and calls no model itself. (Its kind was called
``conscious`` before; that name still loads. The Episodex agent's node named ``conscious`` is
another kind, ``belief``.)"""

from __future__ import annotations

from typing import ClassVar

from ..specialist import BaseSpecialist, StepContext
from ..workspace import Workspace


class Hub(BaseSpecialist):
    """A routing point: notes the broadcasts heard this turn; the router's chooser then
    picks the next specialist."""

    kind: ClassVar[str] = "hub"
    reads = ("current_input", "broadcasts", "visits")
    writes = ("broadcasts.<name>",)

    async def step(self, ws: Workspace, ctx: StepContext) -> None:
        visits = ws.visits.get(self.name, 0)
        heard = [k for k, v in ws.broadcasts.items() if isinstance(v, str) and k != self.name]
        ws.broadcasts[self.name] = (
            f"visit {visits} this turn; broadcasts so far: {', '.join(heard) or 'none'}"
        )
